package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/hookd/hookd/internal/fix/suggest"
	"github.com/hookd/hookd/internal/recording/ingest"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/ui/style"
	"github.com/spf13/pflag"
)

func cmdLearned(fs *pflag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print JSON Lines, one learned fix per line")
	del := fs.Bool("delete", false, "delete the learned fixes with these ids")
	clear := fs.Bool("clear", false, "delete every learned fix")
	return func(ctx context.Context, e *env, args []string) error {
		switch {
		case *del && *clear || (*del || *clear) && *asJSON:
			return usagef("give one of --json, --delete ID…, --clear")
		case *del && len(args) == 0:
			return usagef("--delete needs the ids of learned fixes (hookd learned lists them)")
		case !*del && len(args) > 0:
			return usagef("ids go with --delete")
		}
		var ids []int64
		for _, a := range args {
			id, err := strconv.ParseInt(a, 10, 64)
			if err != nil || id < 1 {
				return usagef("bad id %q", a)
			}
			ids = append(ids, id)
		}
		s, err := e.openFlushed(ctx)
		if err != nil {
			return err
		}
		defer s.Close()
		switch {
		case *clear:
			n, err := s.ClearLearned(ctx)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "deleted %d learned fixes\n", n)
			return nil
		case *del:
			n, err := s.DeleteLearned(ctx, ids)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "deleted %d learned fixes\n", n)
			if n < len(ids) {
				return exitCode{1, fmt.Sprintf("%d of the ids were not learned fixes", len(ids)-n)}
			}
			return nil
		}
		// What the daemon has not learned yet from what was just stored.
		if _, err := ingest.Learn(ctx, s, e.rules()); err != nil && e.debug {
			fmt.Fprintf(e.stderr, "hookd: learn: %v\n", err)
		}
		ls, err := s.AllLearned(ctx)
		if err != nil {
			return err
		}
		if *asJSON {
			enc := json.NewEncoder(e.stdout)
			enc.SetEscapeHTML(false)
			for _, l := range ls {
				if err := enc.Encode(suggest.LearnedJSON(l)); err != nil {
					return err
				}
			}
			return nil
		}
		if len(ls) == 0 {
			fmt.Fprintln(e.stdout, "nothing learned yet: when a command fails and you fix it by changing an argument, hookd learns the fix")
			return nil
		}
		for _, l := range ls {
			times := fmt.Sprintf("seen %d×", l.Count)
			if l.Worked > 0 {
				times += fmt.Sprintf(", worked %d× when offered", l.Worked)
			}
			fmt.Fprintf(e.stdout, "%5d  %s: %s   (%s)\n", l.ID, e.palette.Render(style.Label, sanitize.Line(l.Program)),
				sanitize.Line(suggest.Edit(l).Describe()), times)
			fmt.Fprintf(e.stdout, "       %s\n", e.palette.Render(style.Dim, sanitize.Line(l.Failed)+"  →  "+sanitize.Line(l.Fixed)))
		}
		return nil
	}
}
