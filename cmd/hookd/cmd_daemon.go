package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/hookd/hookd/internal/cloudsync"
	"os"
	"time"

	"github.com/hookd/hookd/internal/paths"
	"github.com/hookd/hookd/internal/recording/daemon"
	"github.com/spf13/pflag"
)

func cmdDaemon(fs *pflag.FlagSet) runFunc {
	detach := fs.Bool("detach", false, "start the daemon in the background (restarting one of another version) and return")
	return func(ctx context.Context, e *env, args []string) error {
		if len(args) != 0 {
			return usagef("no arguments expected")
		}
		if err := paths.Private(e.paths.Runtime); err != nil {
			return err
		}
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		if *detach {
			return daemon.Start(ctx, daemon.SocketPath(e.paths.Runtime), exe, version)
		}
		log, closer, err := e.logger()
		if err != nil {
			return err
		}
		defer closer.Close()
		cfg := e.config()
		err = daemon.Run(ctx, daemon.Options{
			Version: version, SpoolDir: e.paths.Spool, OutboxDir: e.paths.Outbox, PIDFile: e.paths.PIDFile, RuntimeDir: e.paths.Runtime,
			DBPath: e.paths.DB, Interval: time.Second, Rules: e.rules(), Log: log, Exe: exe,
			MaxAge: cfg.Output.KeepDays.Duration(), MaxOutputBytes: int64(cfg.Output.KeepSize),
			Sync: &cloudsync.Loop{Log: log, New: func() (*cloudsync.Syncer, error) {
				// The configuration as it is now: sync set up after the
				// daemon started is picked up without a restart.
				ne, err := newEnv(e.stdin, e.stdout, e.stderr)
				if err != nil || ne.syncSettings() == nil {
					return nil, err
				}
				return ne.syncer()
			}},
		})
		if errors.Is(err, daemon.ErrRunning) {
			fmt.Fprintln(e.stderr, "hookd: a daemon is already running (hookd status shows it)")
			return nil
		}
		if err != nil {
			log.Error("daemon failed", "error", err)
		}
		return err
	}
}
