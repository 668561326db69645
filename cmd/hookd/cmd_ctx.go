package main

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/ai/ask"
	"github.com/hookd/hookd/internal/config"
	"github.com/hookd/hookd/internal/fix/before"
	"github.com/spf13/pflag"
)

func cmdCtx(fs *pflag.FlagSet) runFunc {
	budget := fs.Int("budget", 0, "at most about `N` tokens (long outputs are cut to their head, tail and error lines; default: ask.budget in the config, "+strconv.Itoa(config.DefaultBudget)+")")
	author := authorFlag(fs)
	return func(ctx context.Context, e *env, args []string) error {
		refs := args
		if *budget <= 0 {
			*budget = max(e.config().Ask.Budget, 256)
		}
		if len(refs) == 0 {
			refs = []string{"-1"}
		}
		s, err := e.openFlushed(ctx)
		if err != nil {
			return err
		}
		defer s.Close()
		src := e.askSources(s)
		src.Reader.Author = *author
		var es []history.Entry
		for _, ref := range refs {
			en, err := entry(ctx, src.Reader, ref)
			if err != nil {
				return err
			}
			es = append(es, en)
		}
		text, notes, debug := ask.ContextBlock(ctx, src, es, *budget)
		if e.debug {
			for _, n := range debug {
				fmt.Fprintf(e.stderr, "hookd: %s\n", n)
			}
		}
		_, err = fmt.Fprint(e.stdout, text)
		for _, n := range notes {
			fmt.Fprintf(e.stderr, "hookd: %s\n", n)
		}
		return err
	}
}

// askSources are where questions and context blocks read from.
func (e *env) askSources(s *history.Store) ask.Sources {
	return ask.Sources{Reader: e.reader(s), Redactor: e.rules().Redactor, Terminal: e.terminal,
		WorkedBefore: func(ctx context.Context, en history.Entry) string { return e.workedBefore(ctx, s, en) }}
}

// workedBefore says, for the failure en, when the same command last worked
// and what changed since, for a model ("" when it never did).
func (e *env) workedBefore(ctx context.Context, s *history.Store, en history.Entry) string {
	c, err := before.Find(ctx, s, en, before.Options{Home: e.home, Now: time.Now(), Shell: en.Shell})
	if err != nil || c == nil {
		return ""
	}
	return c.Summary()
}
