// Command hookd records every command typed in bash, zsh and fish, with its status,
// timing and directory, in a local SQLite history.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"sync/atomic"
	"syscall"
	"time"
)

// processExits is set when run is this process's one command, which exits
// right after it (not a test calling run): a short command may then leave
// to the exit what only costs time (closing the history, which checkpoints
// its journal when no other process has it open).
var processExits bool

func main() {
	// A command runs for milliseconds: collecting garbage less often
	// makes it faster (hookd ctx on a 1 MiB output: 17.9 → 14.5 ms). The
	// long-running ones (the daemon, the proxy, a streamed answer, whose
	// heap would grow to five times what it holds) keep Go's default, and
	// so does a GOGC of the user's.
	if len(os.Args) > 1 && !longRunning[os.Args[1]] && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	ctx, cancel := context.WithCancel(context.Background())
	wrapping.Store(len(os.Args) > 1 && wrappers[os.Args[1]])
	watchSignals(cancel)
	processExits = true
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	cancel()
	os.Exit(code)
}

// longRunning are the commands that keep Go's garbage collection.
var longRunning = map[string]bool{"daemon": true, "shell": true, "ask": true, "chain": true, "serve": true}

// wrappers are the commands that run a child in the foreground and end
// with it: the terminal's signals reach the child too, and they forward
// SIGTERM to it (a Ctrl-C that an interactive child catches must not end
// hookd under it).
var wrappers = map[string]bool{"shell": true, "run": true, "chain": true}

// wrapping is set while this process runs a child in the foreground and
// ends with it (wrappers, or a command that became one: becomeWrapper).
var wrapping atomic.Bool

// becomeWrapper makes a command that started short-lived a long-running
// wrapper (fish's early line's hookd, when it becomes the proxy): the
// terminal's signals are then a wrapper's, and garbage collection Go's
// default, as for the long-running commands.
func becomeWrapper() {
	wrapping.Store(true)
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(100)
	}
}

// graceTerm is how long a SIGTERM leaves hookd to end on its own.
const graceTerm = time.Second

// watchSignals cancels the command on the first Ctrl-C or SIGTERM, so that
// it stops cleanly. Nothing may keep hookd alive after that: a second
// Ctrl-C or SIGTERM ends it at once, and after a SIGTERM it ends within
// graceTerm whatever it is blocked on. A wrapper (wrapping) is left to
// end itself with its child (the proxy restores the terminal first).
func watchSignals(cancel context.CancelFunc) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		first := (<-sigs).(syscall.Signal)
		cancel()
		if wrapping.Load() {
			return
		}
		var term <-chan time.Time
		if first == syscall.SIGTERM {
			term = time.After(graceTerm)
		}
		select {
		case s := <-sigs:
			os.Exit(128 + int(s.(syscall.Signal)))
		case <-term:
			os.Exit(128 + int(syscall.SIGTERM))
		}
	}()
}
