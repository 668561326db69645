package histfile

import (
	"bytes"
	"fmt"
	"github.com/hookd/hookd/internal/required"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// needShell returns the path of the named shell, or skips the test if it is
// not installed (fails instead if REQUIRE_SHELLS=1).
func needShell(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		required.Skip(t, fmt.Sprintf("%s is not installed: %v", name, err), "REQUIRE_SHELLS")
	}
	return path
}

// runShell runs a shell with a clean environment and stdin.
func runShell(t *testing.T, stdin string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "LANG=C.UTF-8", "TZ=UTC"}
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %q: %v\n%s", name, args, err, out.Bytes())
	}
}

// writeCommands writes cmds NUL-separated to a temporary file.
func writeCommands(t *testing.T, cmds []string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cmds")
	if err := os.WriteFile(path, []byte(strings.Join(cmds, "\x00")+"\x00"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkRoundTrip checks that res holds exactly cmds, with times between
// from and now if timed.
func checkRoundTrip(t *testing.T, name string, file []byte, res Result, err error, cmds []string, from time.Time, timed bool) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if res.Skipped != 0 {
		t.Errorf("%s: skipped %d: %q", name, res.Skipped, res.Problems)
	}
	var got []string
	for _, x := range res.Entries {
		got = append(got, x.Command)
		if timed && (x.Time.Before(from.Add(-2*time.Second)) || x.Time.After(time.Now().Add(2*time.Second))) {
			t.Errorf("%s: entry %q has time %v; want about %v", name, x.Command, x.Time, from)
		}
		if !timed && !x.Time.IsZero() {
			t.Errorf("%s: entry %q has time %v; want none", name, x.Command, x.Time)
		}
		if x.Duration != 0 {
			t.Errorf("%s: entry %q has duration %v; want 0", name, x.Command, x.Duration)
		}
	}
	if len(got) != len(cmds) {
		t.Errorf("%s: got %d entries, want %d\nfile: %q", name, len(got), len(cmds), file)
	}
	for i := range min(len(got), len(cmds)) {
		if got[i] != cmds[i] {
			t.Errorf("%s: entry %d = %q; want %q", name, i, got[i], cmds[i])
		}
	}
}

// shellCommands are commands that both shells must give back exactly.
var shellCommands = []string{
	"ls -l",
	"echo 'ü' 日本語 中文 😀 €",
	"  leading spaces",
	"trailing spaces  ",
	"tab\there",
	"printf '%s\\n' \"a b\" | sort -u > /dev/null",
	"echo caf\xe9 latin-1",
	"echo \x1b[1mraw escape\x1b[0m",
	"echo \\",
	"echo \\  ",
	"echo a\\b\\\\c",
}

// multiLineCommands are commands with newlines.
var multiLineCommands = []string{
	"for i in 1 2 3; do\n  echo \"$i ü\"\ndone",
	"echo a\\\nb",
	"cat <<EOF\nline 1\n\nline 3\nEOF",
	"echo 'x\\'\necho \\",
}

func TestZshRoundTrip(t *testing.T) {
	zsh := needShell(t, "zsh")
	cmds := append(append([]string{}, shellCommands...), multiLineCommands...)
	cmds = append(cmds, ": a null command", ":colon", "\\\\: two backslashes")
	for c := 0x80; c <= 0xff; c++ { // every byte zsh may metafy, alone
		cmds = append(cmds, "echo "+string([]byte{byte(c)})+" x")
	}
	cmds = append(cmds, "echo x\x01\x1f\x7f y z")
	cmdFile := writeCommands(t, cmds)
	for _, extended := range []bool{false, true} {
		name := "plain"
		if extended {
			name = "extended"
		}
		t.Run(name, func(t *testing.T) {
			hist := filepath.Join(t.TempDir(), "zsh_history")
			from := time.Now().Truncate(time.Second)
			// savehistfile needs an interactive shell.
			runShell(t, "", zsh, "-f", "-i", "-c", `
				HISTSIZE=10000 SAVEHIST=10000
				[[ $1 = extended ]] && setopt EXTENDED_HISTORY
				while IFS= read -r -d '' c; do print -rs -- "$c"; done < $2
				fc -W $3`, "zsh", name, cmdFile, hist)
			file, err := os.ReadFile(hist)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(file, []byte{meta}) {
				t.Errorf("zsh wrote no metafied bytes: %q", file)
			}
			res, err := ParseZsh(bytes.NewReader(file))
			checkRoundTrip(t, "ParseZsh", file, res, err, cmds, from, extended)
		})
	}
}

func TestBashRoundTrip(t *testing.T) {
	bash := needShell(t, "bash")
	for _, timed := range []bool{false, true} {
		name := "plain"
		cmds := append([]string{}, shellCommands...)
		if timed {
			// Only with timestamps can bash read back multi-line commands.
			name = "timestamps"
			cmds = append(cmds, multiLineCommands...)
		}
		t.Run(name, func(t *testing.T) {
			hist := filepath.Join(t.TempDir(), "bash_history")
			from := time.Now().Truncate(time.Second)
			runShell(t, "", bash, "--norc", "--noprofile", "-c",
				// One line: bash would record further lines of the script.
				`HISTFILE=$3; [[ $1 = timestamps ]] && HISTTIMEFORMAT=%s; set -o history; `+
					`while IFS= read -r -d '' c; do history -s -- "$c"; done < "$2"; history -w; unset HISTFILE`, "bash", name, writeCommands(t, cmds), hist)
			file, err := os.ReadFile(hist)
			if err != nil {
				t.Fatal(err)
			}
			res, err := ParseBash(bytes.NewReader(file))
			checkRoundTrip(t, "ParseBash", file, res, err, cmds, from, timed)
		})
	}
}

// TestBashLithist lets bash record multi-line commands it parses itself.
func TestBashLithist(t *testing.T) {
	bash := needShell(t, "bash")
	hist := filepath.Join(t.TempDir(), "bash_history")
	cmds := []string{
		"for i in 1 2; do\n  echo \"$i 日本\"\ndone >/dev/null",
		"echo \"multi\n\nline string\" >/dev/null",
		"if true\nthen\n  :\nfi",
		"history -w; unset HISTFILE",
	}
	script := "HISTFILE=" + hist + "; HISTTIMEFORMAT=%s; set -o history; shopt -s lithist cmdhist\n" +
		strings.Join(cmds, "\n") + "\n"
	from := time.Now().Truncate(time.Second)
	runShell(t, script, bash, "--norc", "--noprofile", "-s")
	file, err := os.ReadFile(hist)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ParseBash(bytes.NewReader(file))
	checkRoundTrip(t, "ParseBash", file, res, err, cmds, from, true)
}

// TestZshReadsLikeZsh checks that ParseZsh reads a hand-written file the
// way zsh itself does (fc -R).
func TestZshReadsLikeZsh(t *testing.T) {
	zsh := needShell(t, "zsh")
	file := "ls -l\n" +
		": 1700000000:5;make test\n" +
		": 1700000001:0;for i in 1 2; do\\\n  echo $i\\\ndone\n" +
		"\\: colon\n" +
		"\\\\:\n" +
		"echo \\ \n" +
		"x\\   \n" +
		"echo a\\\\\nb\n" +
		": 1700000002:0;echo \xe6\x83\xb7\xa5\xe6\x83\xbc\xac\n" +
		"echo \x90 raw\n" +
		"echo \x83\xa3 meta\n" +
		"trailing  \n" +
		"sentinel\n" // $history leaves out the newest entry
	dir := t.TempDir()
	hist, out := filepath.Join(dir, "hist"), filepath.Join(dir, "out")
	if err := os.WriteFile(hist, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	runShell(t, "", zsh, "-f", "-i", "-c", `
		zmodload zsh/parameter
		HISTSIZE=1000
		fc -R $1
		for k in ${(onk)history}; do print -rn -- "$history[$k]"; print -n '\0'; done > $2`,
		"zsh", hist, out)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
	res, err := ParseZsh(strings.NewReader(file))
	if err != nil || res.Skipped != 0 {
		t.Fatalf("ParseZsh: %v, %q", err, res.Problems)
	}
	var got []string
	for _, x := range res.Entries[:len(res.Entries)-1] {
		got = append(got, x.Command)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseZsh(%q) = %q; zsh reads %q", file, got, want)
	}
}
