package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

// agentCount counts the agents running for home h.
func agentCount(h *shelltest.Home) int {
	n := 0
	ents, _ := os.ReadDir("/proc")
	for _, ent := range ents {
		cmdline, err := os.ReadFile(filepath.Join("/proc", ent.Name(), "cmdline"))
		if err != nil || !strings.HasSuffix(string(cmdline), "\x00daemon\x00") {
			continue
		}
		environ, _ := os.ReadFile(filepath.Join("/proc", ent.Name(), "environ"))
		if strings.Contains("\x00"+string(environ), "\x00HOME="+h.Dir+"\x00") {
			n++
		}
	}
	return n
}

// TestOneAgentWhenManyStart starts 20 agents at once, as 20 new shells do.
func TestOneAgentWhenManyStart(t *testing.T) {
	h := newHome(t)
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hookdRun(h, nil, "daemon", "--detach")
		}()
	}
	wg.Wait()
	// Losers exit as soon as they see the lock taken; wait for that.
	shelltest.Poll(10*time.Second, func() bool { return agentCount(h) == 1 })
	if n := agentCount(h); n != 1 {
		t.Fatalf("%d agents running; want exactly 1", n)
	}
	// The winner answers once it has opened the database and listens.
	var st struct {
		Agent *struct{ PID int } `json:"agent"`
	}
	var err error
	shelltest.Eventually(t, 10*time.Second, func() bool {
		err = json.Unmarshal([]byte(hookd(t, h, "status", "--json")), &st)
		return err == nil && st.Agent != nil
	}, func() string { return fmt.Sprintf("status: %v %+v", err, st) })
}

// TestOutdatedAgentIsReplaced runs an agent of another version, as after an
// upgrade: `hookd daemon --detach` (what a new shell runs when no agent
// answers, and what `hookd status` advises) replaces it.
func TestOutdatedAgentIsReplaced(t *testing.T) {
	h := newHome(t)
	old := filepath.Join(t.TempDir(), "hookd-old")
	build := exec.Command("go", "build", "-tags", "sqlite_fts5", "-ldflags", "-X main.version=0.0.1-old", "-o", old, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(old, "daemon", "--detach")
	cmd.Env = h.Env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("old daemon: %v %s", err, out)
	}
	version := func() string {
		var st struct {
			Agent *struct{ Version string } `json:"agent"`
		}
		json.Unmarshal([]byte(hookd(t, h, "status", "--json")), &st)
		if st.Agent == nil {
			return ""
		}
		return st.Agent.Version
	}
	shelltest.Poll(10*time.Second, func() bool { return version() == "0.0.1-old" })
	if v := version(); v != "0.0.1-old" {
		t.Fatalf("old agent not running (version %q)", v)
	}
	if out := hookd(t, h, "status"); !strings.Contains(out, "the agent runs version 0.0.1-old") {
		t.Errorf("status does not say the agent is outdated:\n%s", out)
	}
	hookd(t, h, "daemon", "--detach")
	shelltest.Poll(10*time.Second, func() bool { return version() == version0() })
	if v := version(); v != version0() {
		t.Fatalf("agent version %q after restart; want %q", v, version0())
	}
	if n := agentCount(h); n != 1 {
		t.Errorf("%d agents running; want 1", n)
	}
}

// version0 is the version of the binary under test.
func version0() string { return version }
