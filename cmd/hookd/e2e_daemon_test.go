package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

// TestOneDaemonWhenManyStart starts 20 agents at once, as 20 new shells do.
func TestOneDaemonWhenManyStart(t *testing.T) {
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

// TestOutdatedDaemonIsReplaced runs a daemon of another version, as after an
// upgrade: `hookd daemon --detach` (what a new shell runs when no daemon
// answers, and what `hookd status` advises) replaces it.
func TestOutdatedDaemonIsReplaced(t *testing.T) {
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
		t.Fatalf("old daemon not running (version %q)", v)
	}
	if out := hookd(t, h, "status"); !strings.Contains(out, "the daemon runs version 0.0.1-old") {
		t.Errorf("status does not say the daemon is outdated:\n%s", out)
	}
	hookd(t, h, "daemon", "--detach")
	shelltest.Poll(10*time.Second, func() bool { return version() == version0() })
	if v := version(); v != version0() {
		t.Fatalf("daemon version %q after restart; want %q", v, version0())
	}
	if n := agentCount(h); n != 1 {
		t.Errorf("%d agents running; want 1", n)
	}
}

// version0 is the version of the binary under test.
func version0() string { return version }

// TestUpgradeKeepsSpooledCommands upgrades hookd in place under running
// shells: a daemon of the old binary ingests what bash and zsh record;
// halfway, the binary on PATH is replaced by the new one (renamed over
// it, as a package manager does) and `hookd daemon --detach` (what a new
// shell runs) replaces the old daemon, while the shells go on recording.
// The new daemon alone is left, and every command is in the history once:
// none lost in the handover, none ingested twice.
func TestUpgradeKeepsSpooledCommands(t *testing.T) {
	shelltest.Need(t, "bash")
	shelltest.Need(t, "zsh")
	bin := t.TempDir()
	exe := filepath.Join(bin, "hookd")
	build := exec.Command("go", "build", "-tags", "sqlite_fts5", "-ldflags", "-X main.version=0.0.1-old", "-o", exe, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the old hookd: %v\n%s", err, out)
	}
	h := shelltest.NewHome(t, bin)
	run := func(args ...string) (string, error) {
		cmd := exec.Command(exe, args...)
		cmd.Env, cmd.Dir = h.Env, h.Dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	type status struct {
		Agent *struct {
			PID     int
			Version string
		} `json:"agent"`
		Database struct{ Commands int } `json:"database"`
		Spool    struct {
			BacklogBytes int64 `json:"backlog_bytes"`
		} `json:"spool"`
	}
	get := func() (st status) {
		out, _ := run("status", "--json")
		json.Unmarshal([]byte(out), &st)
		return st
	}
	if out, err := run("daemon", "--detach"); err != nil {
		t.Fatalf("old daemon: %v %s", err, out)
	}
	shelltest.Eventually(t, 10*time.Second, func() bool {
		st := get()
		return st.Agent != nil && st.Agent.Version == "0.0.1-old"
	}, func() string { return fmt.Sprintf("status %+v", get()) })

	shells := []*shelltest.Shell{
		shelltest.Start(t, h, "bash", shelltest.Options{RC: initLine("bash")}),
		shelltest.Start(t, h, "zsh", shelltest.Options{RC: initLine("zsh")}),
	}
	const n = 30
	swapped := make(chan error, 1)
	var want []string
	for i := range n {
		if i == n/2 {
			// The swap runs while the shells go on recording.
			go func() {
				b, err := os.ReadFile(hookdBin)
				if err == nil {
					err = os.WriteFile(exe+".new", b, 0o755)
				}
				if err == nil {
					err = os.Rename(exe+".new", exe)
				}
				if err == nil {
					var out string
					if out, err = run("daemon", "--detach"); err != nil {
						err = fmt.Errorf("%v: %s", err, out)
					}
				}
				swapped <- err
			}()
		}
		for j, s := range shells {
			line := fmt.Sprintf("echo upgrade-%d-%d", j, i)
			s.Run(line)
			want = append(want, line)
		}
	}
	if err := <-swapped; err != nil {
		t.Fatalf("swap the binary: %v", err)
	}
	// The new daemon ingests the rest itself (status does not flush).
	shelltest.Eventually(t, 20*time.Second, func() bool {
		st := get()
		return st.Agent != nil && st.Agent.Version == version0() && st.Spool.BacklogBytes == 0 && st.Database.Commands >= len(want)
	}, func() string { return fmt.Sprintf("status %+v", get()) })
	if c := agentCount(h); c != 1 {
		t.Errorf("%d agents running; want the new one alone", c)
	}
	seen := map[string]int{}
	for _, e := range entries(t, h) {
		seen[e.Command]++
	}
	for _, l := range want {
		if seen[l] != 1 {
			t.Errorf("%q recorded %d times; want once", l, seen[l])
		}
	}
	// The shells opened before the upgrade keep working with the new binary.
	for _, s := range shells {
		s.Run("hookd status >/dev/null && echo status-ok-$?")
		s.WaitFor(regexp.MustCompile(`status-ok-0`), 10*time.Second)
	}
}
