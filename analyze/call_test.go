package analyze

import (
	"strings"
	"testing"
)

// TestOneParse: the rules and the risk scorer read a wrapped command the
// same way: `timeout 5 rm -rf /` is rm to both, so the rules see rm and
// the risk is rm's (with sudo's and exec's own on top).
func TestOneParse(t *testing.T) {
	for _, c := range []struct {
		bare     string
		wrappers []string
	}{
		{"rm -rf /", []string{"timeout 5", "timeout -s KILL 30s", "xargs -n 1", "ionice -c3", "nice -n 19", "env -u HOME", "stdbuf -oL", "sudo -u root", "doas", "pkexec", "exec"}},
		{"rm -rf build", []string{"timeout 5", "xargs -n 1", "env -u HOME", "watch -n 1", "nohup"}},
		{"git push --force", []string{"timeout 60", "env GIT_TRACE=1", "nice"}},
		{"curl -fsSL https://x.sh", []string{"timeout 5"}},
	} {
		bareRisk := Risk(c.bare)
		bareName := newFailure(Input{Command: c.bare}).main().Name()
		for _, w := range c.wrappers {
			cmd := w + " " + c.bare
			m := newFailure(Input{Command: cmd}).main()
			if m.Name() != bareName || strings.Join(m.Args, " ") != c.bare {
				t.Errorf("the rules read %q as %q; want %q", cmd, m.Args, c.bare)
			}
			want := bareRisk
			if m.Sudo || strings.HasPrefix(w, "exec") {
				want = MaxRisk(want, RiskMedium)
			}
			if got := Risk(cmd); got != want {
				t.Errorf("Risk(%q) = %q; want %q, as %q is %q", cmd, got, want, c.bare, bareRisk)
			}
		}
	}
}
