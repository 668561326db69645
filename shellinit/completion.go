package shellinit

import (
	"fmt"
	"strings"

	"github.com/hookd/hookd/scripts"
)

// packagedHead is the start of each packaged completion file.
var packagedHead = map[string]string{
	"bash": `# bash completion for hookd, installed by the packages
# (/usr/share/bash-completion/completions/hookd). hookd itself says what
# fits: ` + "`hookd __complete -- WORD…`" + ` prints one candidate a line (a tab and
# a description after it), or :files for file names. The shell code of
# ` + "`hookd init bash`" + ` completes the same way and leaves this one in place.
# Generated from _hookd_complete in scripts/bash.sh (shellinit.Packaged;
# go test ./shellinit -update): edit that one.
`,
	"zsh": `#compdef hookd
# zsh completion for hookd, installed by the packages
# (/usr/share/zsh/vendor-completions/_hookd). hookd itself says what fits:
# ` + "`hookd __complete -- WORD…`" + ` prints one candidate a line (a tab and a
# description after it), or :files for file names. The shell code of
# ` + "`hookd init zsh`" + ` completes the same way and leaves this one in place.
# Generated from _hookd_complete in scripts/zsh.sh (shellinit.Packaged;
# go test ./shellinit -update): edit that one.
`,
}

// Packaged returns the completion file the packages install for shell
// (scripts/completions: hookd.bash, _hookd), made from the script's own
// _hookd_complete so that the two cannot drift: without the ask prefix's
// line (the packaged file completes hookd alone), asking the hookd that
// was completed rather than the binary hookd init names.
func Packaged(shell string) (string, error) {
	src, ok := map[string]string{"bash": scripts.Bash, "zsh": scripts.Zsh}[shell]
	if !ok {
		return "", fmt.Errorf("no packaged completion for %q", shell)
	}
	const open = "\n_hookd_complete() {\n"
	start := strings.Index(src, open)
	if start < 0 {
		return "", fmt.Errorf("script for %s: no _hookd_complete function", shell)
	}
	end := strings.Index(src[start:], "\n}\n")
	if end < 0 {
		return "", fmt.Errorf("script for %s: _hookd_complete does not end", shell)
	}
	body := src[start+len(open) : start+end+1]
	bin, self := `"$_hookd_bin"`, `"${COMP_WORDS[0]}"`
	if shell == "zsh" {
		bin, self = `$_hookd_bin`, `${words[1]}`
	}
	var b strings.Builder
	b.WriteString(packagedHead[shell])
	if shell == "bash" {
		b.WriteString("_hookd_packaged_complete() {\n")
	}
	found := 0
	for _, line := range strings.SplitAfter(body, "\n") {
		if line == "" || strings.Contains(line, "_hookd_prefix") {
			continue
		}
		if strings.Contains(line, bin) {
			line = strings.Replace(line, bin, self, 1)
			found++
		}
		if shell == "zsh" {
			line = strings.TrimPrefix(line, "  ") // the file is the function's body
		}
		b.WriteString(line)
	}
	if found != 1 {
		return "", fmt.Errorf("script for %s: _hookd_complete names %s %d times, not once", shell, bin, found)
	}
	if shell == "bash" {
		b.WriteString("}\nbuiltin complete -F _hookd_packaged_complete hookd\n")
	}
	return b.String(), nil
}
