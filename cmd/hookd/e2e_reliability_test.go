package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"

	"github.com/hookd/hookd/internal/required"
)

// daemonPID reads the running daemon's pid, waiting for it to appear.
func daemonPID(t *testing.T, h *shelltest.Home) int {
	t.Helper()
	var pid int
	shelltest.Eventually(t, 10*time.Second, func() bool {
		b, err := os.ReadFile(h.Path(".local", "state", "hookd", "agent.pid"))
		if err != nil {
			return false
		}
		pid, err = strconv.Atoi(strings.Fields(string(b) + " x")[0])
		return err == nil && shelltest.Alive(pid)
	}, func() string { return "no daemon running" })
	return pid
}

// TestManyShellsDaemonKilled types 1,000 commands in each of 8 shells while
// the daemon is killed twice (and restarted in between): after recovery every
// command is in the history exactly once.
func TestManyShellsDaemonKilled(t *testing.T) {
	required.Long(t)
	const shells, per = 8, 1000
	h := newHome(t)
	var ss []*shelltest.Shell
	for i := 0; i < shells; i++ {
		sh := shelltest.Shells[i%len(shelltest.Shells)]
		ss = append(ss, shelltest.Start(t, h, sh, shelltest.Options{RC: initLine(sh)}))
	}
	var wg sync.WaitGroup
	progress := make(chan int, shells*per)
	for i, s := range ss {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < per; j += 50 {
				var b strings.Builder
				for k := j; k < j+50; k++ {
					fmt.Fprintf(&b, ": shell%d cmd%d\r", i, k)
				}
				s.Type(b.String())
				s.Sync()
				progress <- 50
			}
		}()
	}
	done := 0
	kills := 0
	for done < shells*per {
		done += <-progress
		if kills == 0 && done >= shells*per/4 || kills == 1 && done >= shells*per*3/5 {
			pid := daemonPID(t, h)
			syscall.Kill(pid, syscall.SIGKILL)
			kills++
			if kills == 1 {
				// Start a new one at once: it ingests while shells write.
				hookd(t, h, "daemon", "--detach")
			}
		}
	}
	wg.Wait()
	es := entries(t, h)
	seen := map[string]int{}
	for _, e := range es {
		seen[e.Command]++
	}
	missing, dups := 0, 0
	for i := 0; i < shells; i++ {
		for k := 0; k < per; k++ {
			switch n := seen[fmt.Sprintf(": shell%d cmd%d", i, k)]; {
			case n == 0:
				missing++
			case n > 1:
				dups++
			}
		}
	}
	if len(es) != shells*per || missing != 0 || dups != 0 {
		t.Fatalf("%d rows, %d missing, %d duplicated; want exactly %d", len(es), missing, dups, shells*per)
	}
}
