package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

// hookdBin is the hookd binary built once for the end-to-end tests.
var hookdBin string

func TestMain(m *testing.M) {
	// Started as a container's init that never reaps (TestZombieDaemon).
	if os.Getenv(noReapEnv) != "" {
		os.Exit(noReapInit(os.Args[1:]))
	}
	shelltest.UnignoreSignals()
	dir, err := os.MkdirTemp("", "hookd-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	hookdBin = filepath.Join(dir, "hookd")
	build := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", hookdBin, ".")
	if installed := os.Getenv("HOOKD_TEST_INSTALLED"); installed != "" {
		// The tests run against an installed hookd (a package's, in
		// .ci/release.sh), linked into place of the one they would build.
		build = exec.Command("ln", "-s", installed, hookdBin)
	}
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build hookd:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// newHome makes an isolated home with hookd on PATH.
func newHome(t testing.TB) *shelltest.Home {
	return shelltest.NewHome(t, filepath.Dir(hookdBin))
}

// initLine is the rc line that loads hookd.
func initLine(shell string) string {
	if shell == "fish" {
		return "hookd init fish | source\n"
	}
	return fmt.Sprintf("eval \"$(hookd init %s)\"\n", shell)
}

// hookd runs the CLI in home and returns stdout; it fails the test on error.
func hookd(t *testing.T, h *shelltest.Home, args ...string) string {
	t.Helper()
	out, errOut, err := hookdRun(h, nil, args...)
	if err != nil {
		t.Fatalf("hookd %s: %v\nstderr: %s", strings.Join(args, " "), err, errOut)
	}
	return out
}

func hookdRun(h *shelltest.Home, env []string, args ...string) (string, string, error) {
	cmd := exec.Command(hookdBin, args...)
	cmd.Env = append(append([]string{}, h.Env...), env...)
	cmd.Dir = h.Dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	return out.String(), errOut.String(), err
}

type rec struct {
	ID          int64   `json:"id"`
	Session     string  `json:"session"`
	Seq         int64   `json:"seq"`
	Command     string  `json:"command"`
	CommandB64  string  `json:"command_base64"`
	ExitCode    int     `json:"exit_code"`
	Pipestatus  []int   `json:"pipestatus"`
	Cwd         string  `json:"cwd"`
	StartedAt   string  `json:"started_at"`
	DurationMS  float64 `json:"duration_ms"`
	Shell       string  `json:"shell"`
	OutputBytes int64   `json:"output_bytes"`
}

// entries returns the whole history, oldest first.
func entries(t *testing.T, h *shelltest.Home) []rec {
	t.Helper()
	out := hookd(t, h, "history", "--json")
	var es []rec
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e rec
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("bad JSON line %q: %v", sc.Text(), err)
		}
		es = append([]rec{e}, es...)
	}
	return es
}

func commandsOf(es []rec) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Command)
	}
	return out
}

func forEachShell(t *testing.T, f func(t *testing.T, shell string)) {
	forShells(t, shelltest.Shells, f)
}

// forAllShells is forEachShell with fish too, for what fish has as well.
func forAllShells(t *testing.T, f func(t *testing.T, shell string)) {
	forShells(t, shelltest.AllShells, f)
}

func forShells(t *testing.T, shells []string, f func(t *testing.T, shell string)) {
	for _, sh := range shells {
		t.Run(sh, func(t *testing.T) {
			t.Parallel()
			shelltest.Need(t, sh)
			f(t, sh)
		})
	}
}

func TestRecordsCommands(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		sub := h.Path("sub dir")
		os.MkdirAll(sub, 0o755)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell)})
		lines := []string{
			"echo hello",
			"false",
			"true | false | true",
			`echo "double quoted" 'single quoted' $'tab\there'`,
			"echo 日本語 ✓",
			"cd 'sub dir'",
			"pwd",
			"sleep 1.1",
		}
		for _, l := range lines {
			s.Run(l)
		}
		s.Type("\r") // an empty line: nothing recorded
		s.Sync()
		s.Run("cd ..")
		es := entries(t, h)
		want := append(append([]string{}, lines...), "cd ..")
		if got := commandsOf(es); !equal(got, want) {
			t.Fatalf("recorded %q; want %q", got, want)
		}
		byCmd := map[string]rec{}
		for _, e := range es {
			byCmd[e.Command] = e
		}
		if e := byCmd["false"]; e.ExitCode != 1 {
			t.Errorf("false: exit %d; want 1", e.ExitCode)
		}
		if e := byCmd["true | false | true"]; !equal(intsToStrings(e.Pipestatus), []string{"0", "1", "0"}) || e.ExitCode != 0 {
			t.Errorf("pipeline: exit %d pipestatus %v; want 0 [0 1 0]", e.ExitCode, e.Pipestatus)
		}
		if e := byCmd["cd 'sub dir'"]; e.Cwd != h.Dir {
			t.Errorf("cd: cwd %q; want the directory it started in, %q", e.Cwd, h.Dir)
		}
		if e := byCmd["pwd"]; e.Cwd != sub {
			t.Errorf("pwd: cwd %q; want %q", e.Cwd, sub)
		}
		if e := byCmd["sleep 1.1"]; e.DurationMS < 1100 || e.DurationMS > 10000 {
			t.Errorf("sleep 1.1: duration %.1f ms", e.DurationMS)
		}
		if e := byCmd["echo hello"]; e.DurationMS > 1000 || e.Shell != shell || e.Session == "" {
			t.Errorf("echo hello: %+v", e)
		}
		// Sequence numbers grow within a session (in bash, a line kept out
		// of the history, like the harness's own, still takes a number).
		for i := 1; i < len(es); i++ {
			if es[i].Seq <= es[i-1].Seq || es[i].Session != es[0].Session {
				t.Errorf("entry %d: session %s seq %d after %s seq %d", i, es[i].Session, es[i].Seq, es[i-1].Session, es[i-1].Seq)
			}
		}
	})
}

func TestPrivacy(t *testing.T) {
	forAllShells(t, func(t *testing.T, shell string) {
		h := newHome(t)
		os.MkdirAll(h.Path(".config", "hookd"), 0o700)
		os.MkdirAll(h.Path("private"), 0o700)
		cfg := "history:\n  ignore: ['^echo ignored']\n  ignore_dirs: ['~/private']\n"
		os.WriteFile(h.Path(".config", "hookd", "config.yaml"), []byte(cfg), 0o600)
		// A umask that lets others read new files: hookd's are 0600 all the same.
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: "umask 022\n" + initLine(shell)})
		token := "ghp_" + strings.Repeat("a1B2", 9)
		s.Run(" echo leading space is private")
		s.Run("echo ignored by pattern")
		s.Run("cd private")
		s.Run("echo in a private dir")
		s.Run("cd ..")
		s.Run("export GITHUB_TOKEN=" + token)
		s.Run("curl -H 'Authorization: Bearer abc.def.ghi' https://user:hunter2@example.com/")
		got := commandsOf(entries(t, h))
		// "cd .." started in the private directory.
		want := []string{"cd private", "export GITHUB_TOKEN=[REDACTED]",
			"curl -H 'Authorization: Bearer [REDACTED]' https://user:[REDACTED]@example.com/"}
		if !equal(got, want) {
			t.Fatalf("recorded %q; want %q", got, want)
		}
		for _, p := range []string{h.Path(".local", "share", "hookd", "history.db"), h.Path(".local", "share", "hookd", "history.db-wal")} {
			b, _ := os.ReadFile(p)
			if bytes.Contains(b, []byte(token)) || bytes.Contains(b, []byte("hunter2")) || bytes.Contains(b, []byte("leading space is private")) {
				t.Errorf("%s holds a secret", p)
			}
		}
		checkModes(t, h.Path(".local"))
	})
}

// checkModes fails for any file hookd made that others could read.
func checkModes(t *testing.T, root string) {
	t.Helper()
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil || !strings.Contains(p, "hookd") {
			return nil
		}
		perm := fi.Mode().Perm()
		if fi.IsDir() && perm != 0o700 || !fi.IsDir() && fi.Mode().IsRegular() && perm != 0o600 {
			t.Errorf("%s has mode %v", p, perm)
		}
		return nil
	})
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func intsToStrings(v []int) []string {
	var s []string
	for _, x := range v {
		s = append(s, fmt.Sprint(x))
	}
	return s
}

var _ = regexp.MustCompile
var _ = time.Second
