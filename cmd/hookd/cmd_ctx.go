package main

import (
	"context"
	"fmt"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/ai/ask"
	"github.com/hookd/hookd/internal/ai/promptblock"
	"github.com/hookd/hookd/internal/fix/before"
	"github.com/hookd/hookd/internal/recording/recall"
)

func cmdCtx(ctx context.Context, e *env, args []string) error {
	args, refs := recall.SplitRefs(args)
	fs := flags(e, "ctx")
	budget := fs.Int("budget", 0, "at most about `N` tokens (long outputs are cut to their head, tail and error lines; default: ask.budget in the config, 8000)")
	if err := parse(fs, args); err != nil {
		return err
	}
	refs = append(refs, fs.Args()...)
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
	var cmds []promptblock.Command
	for _, ref := range refs {
		en, err := entry(ctx, src.Reader, ref)
		if err != nil {
			return err
		}
		c, note := ask.Block(ctx, src, en, ref == "-1")
		if note != "" && e.debug {
			fmt.Fprintf(e.stderr, "hookd: %s\n", note)
		}
		cmds = append(cmds, c)
	}
	boundary := promptblock.NewBoundary(func() []string {
		var out []string
		for _, c := range cmds {
			out = append(out, c.Output)
		}
		return out
	}()...)
	b := promptblock.Render(cmds, *budget, boundary)
	text, _ := src.Redactor.String(b.Text)
	_, err = fmt.Fprint(e.stdout, text)
	for _, n := range b.Notes {
		fmt.Fprintf(e.stderr, "hookd: %s\n", n)
	}
	return err
}

// askSources are where questions and context blocks read from.
func (e *env) askSources(s *history.Store) ask.Sources {
	return ask.Sources{Reader: e.reader(s), Redactor: e.rules().Redactor, Terminal: e.terminal,
		WorkedBefore: func(ctx context.Context, en history.Entry) string {
			c, err := before.Find(ctx, s, en, before.Options{Home: e.home, Now: time.Now()})
			if err != nil || c == nil {
				return ""
			}
			return c.Summary()
		}}
}
