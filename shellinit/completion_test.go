package shellinit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookd/hookd/internal/shelltest"
)

// TestPackagedCompletions: the completion files the packages install are
// what Packaged makes from the scripts' _hookd_complete (go test
// ./shellinit -update writes them), and each shell parses its own.
func TestPackagedCompletions(t *testing.T) {
	for sh, file := range map[string]string{"bash": "hookd.bash", "zsh": "_hookd"} {
		t.Run(sh, func(t *testing.T) {
			got, err := Packaged(sh)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("..", "scripts", "completions", file)
			if *update {
				os.WriteFile(path, []byte(got), 0o644)
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("%s is not made from scripts' _hookd_complete (go test ./shellinit -update):\n%s", path, got)
			}
			if strings.Contains(got, "_hookd_bin") || strings.Contains(got, "_hookd_prefix") {
				t.Errorf("%s names what hookd init sets:\n%s", path, got)
			}
			shelltest.Need(t, sh)
			if out, err := exec.Command(sh, "-n", path).CombinedOutput(); err != nil {
				t.Errorf("%s -n %s: %v\n%s", sh, path, err, out)
			}
		})
	}
}
