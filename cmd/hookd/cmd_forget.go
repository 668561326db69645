package main

import (
	"context"
	"fmt"
	"github.com/hookd/hookd/internal/ui/units"
	"regexp"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/hookd/hookd/internal/search"
)

func cmdForget(fs *pflag.FlagSet) runFunc {
	match := fs.String("match", "", "forget every command matching the regular expression `REGEX`")
	return func(ctx context.Context, e *env, args []string) error {
		switch {
		case *match == "" && len(args) == 0:
			return usagef("give the ids to forget, or --match REGEX")
		case *match != "" && len(args) > 0:
			return usagef("give ids or --match REGEX, not both")
		}
		var ids []int64
		for _, a := range args {
			id, err := strconv.ParseInt(a, 10, 64)
			if err != nil || id < 1 {
				return usagef("bad id %q", a)
			}
			ids = append(ids, id)
		}
		var re *regexp.Regexp
		if *match != "" {
			var err error
			if re, err = regexp.Compile(*match); err != nil {
				return usagef("--match: %v", err)
			}
		}
		s, err := e.openFlushed(ctx)
		if err != nil {
			return err
		}
		defer s.Close()
		var n int
		if re != nil {
			n, err = s.ForgetMatch(ctx, re)
		} else {
			n, err = s.Forget(ctx, ids)
		}
		if err != nil {
			return err
		}
		// The search's copy of the history is made again from what is left.
		if err := search.RemoveCache(e.paths.SearchCache); err != nil {
			fmt.Fprintf(e.stderr, "hookd: %v\n", err)
		}
		fmt.Fprintf(e.stdout, "forgot %s\n", units.Count(int(n), "command"))
		if re == nil && n < len(ids) {
			return exitCode{1, fmt.Sprintf("%d of the ids were not in the history", len(ids)-n)}
		}
		return nil
	}
}
