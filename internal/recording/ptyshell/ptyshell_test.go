package ptyshell

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/internal/recording/outbox"
	"github.com/hookd/hookd/internal/recording/proxy"

	"github.com/hookd/hookd/internal/required"
)

// A shell under the proxy changes process-wide state (signals, the
// terminal), so the tests run Shell.Run in a helper: the test binary run
// again with helperEnv set. helperEnv=shell runs Shell.Run with the
// helperConfig in configEnv; helperEnv=marks is the command it runs,
// printing one command's output between the marks, as the hooks do.
const (
	helperEnv = "HOOKD_CAPTURER_TEST_HELPER"
	configEnv = "HOOKD_CAPTURER_TEST_CONFIG"
)

type helperConfig struct {
	Argv            []string
	Outbox, Problem string
}

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "shell":
		var c helperConfig
		json.Unmarshal([]byte(os.Getenv(configEnv)), &c)
		env := append(proxy.WithoutEnv(os.Environ(), helperEnv), helperEnv+"=marks")
		status, err := Shell{Argv: c.Argv, Environ: env, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
			Limit: 1 << 20, Outbox: c.Outbox, Problem: c.Problem}.Run(context.Background())
		fmt.Fprintf(os.Stderr, "status=%d err=%v\n", status, err)
		os.Exit(status)
	case "marks":
		nonce, id := os.Getenv(capture.NonceEnv), capture.ID{Session: "s1", Seq: 4}
		fmt.Printf("%shello from %s\n%s", capture.BeginMark(nonce, id), os.Getenv(PTYEnv)[:5], capture.EndMark(nonce, id, 3))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runHelper runs Shell.Run in a helper with c and stdin; it returns the
// helper's stdout, stderr and exit status.
func runHelper(t *testing.T, c helperConfig, stdin string) (string, string, int) {
	t.Helper()
	cfg, _ := json.Marshal(c)
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), helperEnv+"=shell", configEnv+"="+string(cfg))
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// TestShellCaptures: the command runs on the proxy's terminal (named in
// HOOKD_PTY), what it prints reaches the user without the marks, and its
// output goes to the outbox under its session and sequence number.
func TestShellCaptures(t *testing.T) {
	dir := t.TempDir()
	c := helperConfig{Argv: []string{os.Args[0]}, Outbox: filepath.Join(dir, "outputs"), Problem: filepath.Join(dir, "capture-problem")}
	out, errOut, code := runHelper(t, c, "")
	if code != 0 || !strings.Contains(out, "hello from /dev/") || strings.Contains(out, "\x1b]") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want the output without its marks", code, out, errOut)
	}
	l, err := outbox.Scan(c.Outbox)
	if err != nil || len(l.Items) != 1 {
		t.Fatalf("outbox: %+v, %v; want one item", l, err)
	}
	it, err := outbox.Read(l.Items[0])
	if err != nil || it.Session != "s1" || it.Seq != 4 || it.Status != 3 || !strings.Contains(string(it.Raw), "hello from /dev/") {
		t.Errorf("outbox item %+v, %v; want s1 #4, status 3, the output", it, err)
	}
	if p := Problem(c.Problem); p != "" {
		t.Errorf("a problem was noted: %q", p)
	}
}

// TestShellWithoutProxy: when the proxy cannot start the shell, the user
// still gets one (here /bin/sh, the last resort, since the shell asked for
// does not exist either), with capture off below it, and the reason is
// noted for hookd status.
func TestShellWithoutProxy(t *testing.T) {
	dir := t.TempDir()
	c := helperConfig{Argv: []string{"/nonexistent/shell"}, Outbox: filepath.Join(dir, "outputs"), Problem: filepath.Join(dir, "state", "capture-problem")}
	out, errOut, code := runHelper(t, c, "echo capture=$HOOKD_CAPTURE pty=${HOOKD_PTY-unset}\nexit 7\n")
	if code != 7 || !strings.Contains(out, "capture=off pty=unset") {
		t.Errorf("exit %d, stdout %q; want /bin/sh's exit 7, with capture off", code, out)
	}
	if !strings.Contains(errOut, "hookd shell: ") || !strings.Contains(errOut, "starting /bin/sh") {
		t.Errorf("stderr %q; want what failed, and that /bin/sh starts", errOut)
	}
	if p := Problem(c.Problem); !strings.Contains(p, "/nonexistent/shell") {
		t.Errorf("problem noted: %q; want the shell that could not start", p)
	}
}

// TestProblem: the note is one private line, with its time; a later
// success forgets it.
func TestProblem(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state", "capture-problem")
	if p := Problem(file); p != "" {
		t.Errorf("Problem before any = %q", p)
	}
	NoteProblem(file, "cannot open a pseudo-terminal:\nno such device")
	p := Problem(file)
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\S+ cannot open a pseudo-terminal: no such device$`).MatchString(p) {
		t.Errorf("Problem = %q; want the time and the reason on one line", p)
	}
	fi, err := os.Stat(file)
	di, derr := os.Stat(filepath.Dir(file))
	if err != nil || derr != nil || fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("file %v %v in %v %v; want 0600 in 0700", fi.Mode(), err, di.Mode(), derr)
	}
	if err := Check([]string{"/bin/sh"}, file); err != nil {
		required.Skip(t, fmt.Sprintf("the proxy cannot start here: %v", err), "REQUIRE_SHELLS")
	}
	if p := Problem(file); p != "" {
		t.Errorf("after a check that passed, Problem = %q; want none", p)
	}
	if err := Check([]string{"/nonexistent/shell"}, file); err == nil || !strings.Contains(Problem(file), "/nonexistent/shell") {
		t.Errorf("Check of a missing shell: %v, noted %q", err, Problem(file))
	}
}
