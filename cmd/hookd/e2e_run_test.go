package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

// TestRun: hookd run streams the command's stdout and stderr, exits with
// its status, and records it with its outputs (together and apart).
func TestRun(t *testing.T) {
	h := newHome(t)
	out, errOut, err := hookdRun(h, nil, "run", "--", "sh", "-c", "echo out1; echo err1 >&2; echo out2; exit 3")
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Fatalf("hookd run exit = %v; want 3", err)
	}
	if out != "out1\nout2\n" || !strings.HasPrefix(errOut, "err1\n") {
		t.Errorf("streams: stdout %q, stderr %q", out, errOut)
	}
	es := entries(t, h)
	if len(es) != 1 || es[0].Command != `sh -c 'echo out1; echo err1 >&2; echo out2; exit 3'` || es[0].ExitCode != 3 || es[0].Shell != "run" {
		t.Fatalf("recorded %+v", es)
	}
	id := strconv.FormatInt(es[0].ID, 10)
	all := hookd(t, h, "out", id)
	for _, line := range []string{"out1\n", "err1\n", "out2\n"} {
		if !strings.Contains(all, line) {
			t.Errorf("interleaved output %q lacks %q", all, line)
		}
	}
	if got := hookd(t, h, "out", id, "--stream", "stdout"); got != "out1\nout2\n" {
		t.Errorf("stdout = %q", got)
	}
	if got := hookd(t, h, "out", id, "--stream", "stderr"); got != "err1\n" {
		t.Errorf("stderr = %q", got)
	}

	// -c goes through $SHELL -c; a failure is analysed on stderr.
	_, errOut, err = hookdRun(h, []string{"SHELL=/bin/sh"}, "run", "-c", "ech hi && true")
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 127 {
		t.Errorf("run -c exit = %v; want 127", err)
	}
	if !strings.Contains(errOut, "echo hi && true") {
		t.Errorf("no fix for a mistyped command on stderr: %q", errOut)
	}
	// A command that cannot start: 127, recorded.
	if _, _, err := hookdRun(h, nil, "run", "no-such-command-xyz"); err == nil || err.(*exec.ExitError).ExitCode() != 127 {
		t.Errorf("missing command exit = %v; want 127", err)
	}
	if es := entries(t, h); len(es) != 3 || es[2].Command != "no-such-command-xyz" || es[2].ExitCode != 127 {
		t.Errorf("after a command that cannot start: %+v", es)
	}
}

// TestRunSignal: a signal sent to hookd run reaches the command, and hookd
// exits 128+signal like a shell would report it.
func TestRunSignal(t *testing.T) {
	h := newHome(t)
	cmd := exec.Command(hookdBin, "run", "--", "sh", "-c", "echo started; exec sleep 30")
	cmd.Env = h.Env
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	stdout.Read(buf)
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 143 {
			t.Errorf("exit = %v; want 143", err)
		}
	case <-time.After(shelltest.Scale(30 * time.Second)):
		cmd.Process.Kill()
		t.Fatal("hookd run did not end after SIGTERM")
	}
	es := entries(t, h)
	if len(es) != 1 || es[0].ExitCode != 143 {
		t.Errorf("recorded %+v; want exit 143", es)
	}
	_ = os.Getpid
}
