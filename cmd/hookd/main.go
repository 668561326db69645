// Command hookd records every command typed in bash and zsh, with its status,
// timing and directory, in a local SQLite history.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

func main() {
	// A command runs for milliseconds: collecting garbage less often
	// makes it faster (hookd ctx on a 1 MiB output: 17.9 → 14.5 ms). The
	// long-running ones (the agent, the proxy) keep Go's default, and so
	// does a GOGC of the user's.
	if len(os.Args) > 1 && os.Args[1] != "daemon" && os.Args[1] != "shell" && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
