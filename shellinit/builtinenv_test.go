package shellinit

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hookd/hookd/scripts"
)

// TestBuiltinEnvInScripts ties every copy of the built-in watched names in
// the scripts (the _hookd_envn list and the prompt path's comparison
// strings) to BuiltinEnv, so a name added to one place is added to all.
func TestBuiltinEnvInScripts(t *testing.T) {
	want := strings.Join(BuiltinEnv, " ")
	list := regexp.MustCompile(`_hookd_envn(?:=\(| )(PATH(?: [A-Z_]+)*)`)
	cmp := regexp.MustCompile(`\$\{#PATH\}((?::\$\{[A-Z_]+-\})+)`)
	fishCmp := regexp.MustCompile(`"\$PATH"((?:\\x1f"\$[A-Z_]+")+)`)
	for name, src := range map[string]string{"bash": scripts.Bash, "zsh": scripts.Zsh, "fish": scripts.Fish} {
		ms := list.FindAllStringSubmatch(src, -1)
		if len(ms) == 0 {
			t.Errorf("%s: no _hookd_envn list found", name)
		}
		for _, m := range ms {
			if m[1] != want {
				t.Errorf("%s: _hookd_envn is %q, BuiltinEnv is %q", name, m[1], want)
			}
		}
		var cs [][]string
		if name == "fish" {
			cs = fishCmp.FindAllStringSubmatch(src, -1)
		} else {
			cs = cmp.FindAllStringSubmatch(src, -1)
		}
		if len(cs) == 0 {
			t.Errorf("%s: no prompt-path comparison of the watched names found", name)
		}
		for _, m := range cs {
			got := "PATH " + strings.Join(regexp.MustCompile(`[A-Z_]+`).FindAllString(m[1], -1), " ")
			if got != want {
				t.Errorf("%s: prompt path compares %q, BuiltinEnv is %q", name, got, want)
			}
		}
	}
}
