package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookd/hookd/internal/ai/project"
	"github.com/hookd/hookd/internal/ai/trust"
	"github.com/hookd/hookd/internal/config"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/spf13/pflag"
)

func cmdAllow(fs *pflag.FlagSet) runFunc {
	list := fs.Bool("list", false, "list the files allowed or denied, with their state now")
	return func(ctx context.Context, e *env, args []string) error {
		store := trust.Store{Dir: e.paths.Trust}
		if *list {
			if len(args) != 0 {
				return usagef("--list takes no FILE")
			}
			return listTrust(e, store)
		}
		file, err := trustTarget(e, args, "allow")
		if err != nil {
			return err
		}
		if filepath.Base(file) != config.ProjectFile {
			if err := store.Allow(file); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "allowed %s\n", sanitize.Line(file))
			return nil
		}
		p, warns, err := project.Allow(file, store)
		if err != nil {
			return err
		}
		for _, w := range warns {
			fmt.Fprintf(e.stderr, "hookd: %s\n", sanitize.Line(w.String()))
		}
		cmds := p.Commands()
		noun := "context commands"
		if len(cmds) == 1 {
			noun = "context command"
		}
		fmt.Fprintf(e.stdout, "allowed %s (%d %s will run)\n", sanitize.Line(file), len(cmds), noun)
		for _, c := range cmds {
			where := ""
			if c.Profile != "" {
				where = "  [profile " + c.Profile + "]"
			}
			label := c.Name
			if label == "" {
				label = "(unnamed)"
			}
			fmt.Fprintf(e.stdout, "  %s: %s%s\n", sanitize.Line(label), sanitize.Line(c.Command), sanitize.Line(where))
		}
		return nil
	}
}

func cmdDeny(fs *pflag.FlagSet) runFunc {
	return func(ctx context.Context, e *env, args []string) error {
		file, err := trustTarget(e, args, "deny")
		if err != nil {
			return err
		}
		store := trust.Store{Dir: e.paths.Trust}
		if err := store.Deny(file); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "denied %s: its commands will not run (hookd allow trusts it again)\n", sanitize.Line(file))
		return nil
	}
}

// trustTarget returns the file hookd allow or deny is about: FILE, or the
// .hookd.yml found from the working directory up.
func trustTarget(e *env, args []string, verb string) (string, error) {
	if len(args) > 1 {
		return "", usagef("one FILE at most")
	}
	cwd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	p, err := project.Target(cwd, e.home, strings.Join(args, ""), verb)
	if err != nil {
		return "", fmt.Errorf("%s", sanitize.Line(err.Error()))
	}
	return p, nil
}

func listTrust(e *env, store trust.Store) error {
	es, err := store.List()
	if err != nil {
		return err
	}
	if len(es) == 0 {
		fmt.Fprintln(e.stdout, "no file allowed or denied yet")
		return nil
	}
	for _, en := range es {
		note := ""
		switch {
		case en.Missing:
			note = "  (the file is gone)"
		case en.State == trust.Changed:
			note = "  (changed since it was allowed: hookd allow it again to trust what it says now)"
		}
		fmt.Fprintf(e.stdout, "%-8s %s%s\n", en.State, sanitize.Line(en.Path), note)
	}
	return nil
}
