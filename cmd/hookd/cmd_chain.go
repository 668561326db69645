package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/ai/chain"
	"github.com/hookd/hookd/internal/recording/runrecord"
	"github.com/spf13/pflag"
)

// cmdChain runs a chain file: checked as a whole first (every problem
// reported, nothing run), then its steps in order, each run step recorded
// like `hookd run -c`. It exits with the status of the step that stopped
// it.
func cmdChain(fs *pflag.FlagSet) runFunc {
	dry := fs.Bool("dry-run", false, "check the file and print what each step would run, with its inputs and outputs; run nothing")
	return func(ctx context.Context, e *env, args []string) error {
		if len(args) != 1 {
			return usagef("name one chain file")
		}
		file := args[0]
		data, err := os.ReadFile(file)
		if err != nil {
			return exitCode{1, fmt.Sprintf("chain: %v", err)}
		}
		dir, _ := os.Getwd()
		c, err := chain.Load(file, data, dir)
		var ps chain.Problems
		if errors.As(err, &ps) {
			for _, p := range ps {
				fmt.Fprintln(e.stderr, p)
			}
			n := "problem"
			if len(ps) > 1 {
				n = "problems"
			}
			return exitCode{2, fmt.Sprintf("chain: %d %s in %s; nothing was run", len(ps), n, file)}
		}
		if err != nil {
			return err
		}
		if *dry {
			fmt.Fprintf(e.stdout, "%s: %d steps (dry run: nothing is run)\n", file, len(c.Steps))
			for _, p := range chain.Plan(c) {
				fmt.Fprintf(e.stdout, "%s: %s: %s\n", p.Step.Name(), p.Step.Action, p.Command)
				for _, in := range p.Inputs {
					fmt.Fprintf(e.stdout, "    input  %s\n", in)
				}
				for _, o := range p.Outputs {
					fmt.Fprintf(e.stdout, "    output %s\n", o)
				}
				if p.Step.ContinueOnError {
					fmt.Fprintln(e.stdout, "    continue_on_error")
				}
			}
			return nil
		}
		self, _ := os.Executable()
		w := runWriter()
		sigs := make(chan os.Signal, 4)
		signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
		defer signal.Stop(sigs)
		var store *history.Store
		defer func() {
			if store != nil {
				store.Close()
			}
		}()
		opt := chain.Options{Dir: dir, Stdin: e.stdin, Stdout: e.stdout, Stderr: e.stderr, Hookd: self,
			Limit: int(e.config().Output.Limit), Env: e.commandEnv(), Signals: sigs, TerminalInterrupts: isTerminal(os.Stdin),
			Record: func(c runrecord.Command) { e.save(w, c, "chain") },
			History: func(ctx context.Context, ref string) (string, error) {
				if store == nil {
					s, err := e.openFlushed(ctx)
					if err != nil {
						return "", err
					}
					store = s
				}
				return e.reader(store).Text(ctx, ref)
			},
		}
		err = chain.Run(ctx, c, opt)
		e.flushDaemon()
		var se *chain.StepError
		if errors.As(err, &se) {
			return exitCode{se.Status, "chain: " + se.Error()}
		}
		return err
	}
}
