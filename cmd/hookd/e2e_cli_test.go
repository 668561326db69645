package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

func TestShowAndRefs(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell)})
		s.Run("echo first")
		s.Run("false")
		// hookd's own invocation is never counted: -1 is the command before.
		s.Run("hookd show --json > show1.json; hookd show -2 --json > show2.json")
		var one, two map[string]any
		for name, v := range map[string]*map[string]any{"show1.json": &one, "show2.json": &two} {
			b, err := os.ReadFile(h.Path(name))
			if err != nil || json.Unmarshal(b, v) != nil {
				t.Fatalf("%s: %v %q", name, err, b)
			}
		}
		if one["command"] != "false" || one["exit_code"] != float64(1) || two["command"] != "echo first" {
			t.Errorf("show -1 = %v; show -2 = %v", one["command"], two["command"])
		}
		if _, ok := one["output"]; !ok {
			t.Errorf("show --json has no output field: %v", one)
		}
	})
}

func TestFileSizeLimit(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell)})
		s.Run("echo before")
		s.Run("ulimit -f 1")
		for i := 0; i < 30; i++ {
			s.Run("echo a longer command line to fill the spool past its limit " + strings.Repeat("x", 20))
		}
		s.Run("echo still alive")
		s.WaitForPlain(regexp.MustCompile(`\nstill alive\n`), 5*time.Second)
		// (Its output goes to the terminal: a file would hit the limit too.)
		s.Run("hookd status 2>&1 | grep -o 'file size limit (ulimit -f: [^)]*)'")
		s.WaitForPlain(regexp.MustCompile(`\nfile size limit \(ulimit -f: [0-9.]+ (B|KiB)\)`), 5*time.Second)
	})
}

func TestCorruptDatabase(t *testing.T) {
	h := newHome(t)
	db := h.Path(".local", "share", "hookd", "history.db")
	os.MkdirAll(h.Path(".local", "share", "hookd"), 0o700)
	if err := os.WriteFile(db, []byte(strings.Repeat("this is not a database ", 500)), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := hookdRun(h, nil, "history")
	if err != nil || out != "" || !strings.Contains(errOut, "corrupt") || !strings.Contains(errOut, "moved to") {
		t.Fatalf("history on a corrupt db: %v, stdout %q, stderr %q", err, out, errOut)
	}
	matches, _ := (func() ([]string, error) { return filepathGlob(db + ".corrupt-*") })()
	if len(matches) != 1 {
		t.Errorf("corrupt file not kept aside: %v", matches)
	}
}

func TestImport(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		file := h.Path("histfile")
		// The formats the shells write (histfile's tests check them against
		// the real shells): bash with timestamps, zsh extended history.
		content := "#1700000000\necho one\n#1700000001\necho \"two words\"\n#1700000002\necho 日本\n"
		if shell == "zsh" {
			content = ": 1700000000:0;echo one\n: 1700000001:2;echo \"two words\"\n: 1700000002:0;echo 日本\n"
		}
		if err := os.WriteFile(file, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		// Junk at the end is reported, not fatal.
		f, _ := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
		f.Write([]byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08binary\n"))
		f.Close()
		out, errOut, err := hookdRun(h, nil, "import", shell, "--file", file)
		if err != nil || !strings.Contains(out, "imported 3 ") || !strings.Contains(errOut, "skipped 1") {
			t.Fatalf("import: %v %q %q", err, out, errOut)
		}
		out = hookd(t, h, "import", shell, "--file", file)
		if !strings.Contains(out, "imported 0 ") {
			t.Errorf("second import: %q; want nothing added", out)
		}
		got := commandsOf(entries(t, h))
		if !equal(got, []string{"echo one", `echo "two words"`, "echo 日本"}) {
			t.Errorf("imported %q", got)
		}
	})
}

func TestForget(t *testing.T) {
	shelltest.Need(t, "bash")
	h := newHome(t)
	s := shelltest.Start(t, h, "bash", shelltest.Options{RC: initLine("bash")})
	s.Run("echo keep me")
	s.Run("echo drop-this-one")
	s.Run("echo drop-this-too")
	out := hookd(t, h, "forget", "--match", "drop-this")
	if !strings.Contains(out, "forgot 2") {
		t.Errorf("forget --match: %q", out)
	}
	es := entries(t, h)
	if got := commandsOf(es); !equal(got, []string{"echo keep me"}) {
		t.Fatalf("after forget: %q", got)
	}
	for _, p := range []string{"history.db", "history.db-wal"} {
		b, _ := os.ReadFile(h.Path(".local", "share", "hookd", p))
		if strings.Contains(string(b), "drop-this") {
			t.Errorf("%s still holds a forgotten command", p)
		}
	}
	if _, _, err := hookdRun(h, nil, "forget", "999"); err == nil {
		t.Errorf("forget of a missing id succeeded")
	}
}

func filepathGlob(p string) ([]string, error) { return filepath.Glob(p) }

// TestCLIMistakes: a mistyped command gets "did you mean", an unknown
// option is called an option, neither prints the whole usage, and forget
// with nothing asks for something to forget (issue 32).
func TestCLIMistakes(t *testing.T) {
	h := newHome(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"histroy"}, `hookd: unknown command "histroy": did you mean history?`},
		{[]string{"serach", "foo"}, `did you mean search?`},
		{[]string{"--nosuch"}, `hookd: unknown option "--nosuch"`},
		{[]string{"forget"}, `hookd forget: give the ids to forget, or --match REGEX`},
	} {
		_, errOut, err := hookdRun(h, nil, tc.args...)
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
			t.Errorf("hookd %q: %v; want exit 2", tc.args, err)
		}
		if !strings.Contains(errOut, tc.want) {
			t.Errorf("hookd %q said:\n%s\nwant %q", tc.args, errOut, tc.want)
		}
		if n := strings.Count(errOut, "\n"); n > 3 {
			t.Errorf("hookd %q: %d lines on stderr; want a short word, not the whole usage:\n%s", tc.args, n, errOut)
		}
	}
}
