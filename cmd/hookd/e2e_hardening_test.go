package main

import (
	"bytes"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestImportStopsOnSignal: a history file that never ends (/dev/urandom)
// is read until the user stops it, and Ctrl-C or SIGTERM stops it within a
// second.
func TestImportStopsOnSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			h := newHome(t)
			cmd := exec.Command(hookdBin, "import", "bash", "--file", "/dev/urandom")
			cmd.Env, cmd.Dir = h.Env, h.Dir
			var errOut bytes.Buffer
			cmd.Stderr = &errOut
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			time.Sleep(300 * time.Millisecond) // reading by now
			sent := time.Now()
			cmd.Process.Signal(sig)
			select {
			case err := <-done:
				if took := time.Since(sent); took > time.Second {
					t.Errorf("hookd import stopped %v after %v; want within a second", took, sig)
				}
				if err == nil {
					t.Errorf("hookd import after %v exited 0; want a failure", sig)
				}
				if !strings.Contains(errOut.String(), "canceled") {
					t.Errorf("stderr = %q; want it to say the import was canceled", errOut.String())
				}
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("hookd import did not stop within 10s of %v", sig)
			}
		})
	}
}
