package main

import (
	"context"
	"fmt"
	"github.com/hookd/hookd/internal/ui/units"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookd/hookd/internal/recording/histfile"
	"github.com/hookd/hookd/internal/recording/ingest"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/spf13/pflag"
)

func cmdImport(fs *pflag.FlagSet) runFunc {
	file := fs.String("file", "", "the history file `F` (default: ~/.bash_history, or ~/.zsh_history, $ZDOTDIR's if set,\nor fish's fish_history in $XDG_DATA_HOME/fish)")
	return func(ctx context.Context, e *env, args []string) error {
		if len(args) > 1 {
			return usagef("one shell at most")
		}
		s, err := e.openFlushed(ctx)
		if err != nil {
			return err
		}
		defer s.Close()
		// The shell named, else this session's (typed in zsh, zsh's
		// history, whatever the login shell), else the login shell.
		shell := filepath.Base(os.Getenv("SHELL"))
		if len(args) == 1 {
			shell = args[0]
		} else if e.session != "" {
			if ses, err := s.Session(ctx, e.session); err == nil && slices.Contains(histfile.Shells, ses.Shell) {
				shell = ses.Shell
			}
		}
		if !slices.Contains(histfile.Shells, shell) {
			return usagef("unsupported shell %q (supported: %s)", shell, strings.Join(histfile.Shells, ", "))
		}
		switch {
		case *file != "":
		case shell == "fish":
			*file = histfile.FishFile(e.home, os.Getenv("XDG_DATA_HOME"))
		default:
			*file = histfile.DefaultFile(shell, e.home, os.Getenv("ZDOTDIR"))
		}
		f, err := os.Open(*file)
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		res, err := histfile.Parse(ctx, shell, f)
		if err != nil {
			return fmt.Errorf("import %s: %w", *file, err)
		}
		added, ignored, err := ingest.Import(ctx, s, e.rules(), shell, res.Entries, fi.ModTime())
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "imported %s from %s (%d already there or left out by your ignore rules: %d)\n",
			units.Count(added, "command"), *file, len(res.Entries)-added, ignored)
		if res.Skipped > 0 {
			fmt.Fprintf(e.stderr, "hookd: skipped %d unreadable %s:\n", res.Skipped, map[bool]string{true: "entry", false: "entries"}[res.Skipped == 1])
			for _, p := range res.Problems {
				fmt.Fprintf(e.stderr, "  %s\n", sanitize.Line(p))
			}
		}
		return nil
	}
}
