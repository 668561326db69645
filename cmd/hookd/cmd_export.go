package main

import (
	"context"
	"errors"
	"strings"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/export"
	"github.com/hookd/hookd/internal/recording/recall"
	"github.com/spf13/pflag"
)

func cmdExport(fs *pflag.FlagSet) runFunc {
	format := fs.String("format", "md", "write `FORMAT`: md (Markdown, a fenced block), html (a self-contained page with the output's colours), json (JSON Lines, the fields of hookd show --json) or text")
	session := fs.Bool("session", false, "export every command of REF's shell session, oldest first")
	author := authorFlag(fs)
	return func(ctx context.Context, e *env, refs []string) error {
		known := false
		for _, f := range export.Formats {
			known = known || f == *format
		}
		if !known {
			return usagef("unknown format %q (want %s)", *format, strings.Join(export.Formats, ", "))
		}
		if len(refs) == 0 {
			refs = []string{""}
		}
		if *session && len(refs) > 1 {
			return usagef("--session takes one REF")
		}
		s, err := e.openFlushed(ctx)
		if err != nil {
			return err
		}
		defer s.Close()
		rd := e.reader(s)
		rd.Author = *author
		var ens []history.Entry
		for _, ref := range refs {
			en, err := entry(ctx, rd, ref)
			if err != nil {
				return err
			}
			ens = append(ens, en)
		}
		if *session {
			if ens, err = s.List(ctx, history.Query{Session: ens[0].Session, Oldest: true}); err != nil {
				return err
			}
		}
		ids := make([]int64, len(ens))
		for i, en := range ens {
			ids[i] = en.ID
		}
		ns, err := s.Notes(ctx, ids)
		if err != nil {
			return err
		}
		cmds := make([]export.Command, 0, len(ens))
		for _, en := range ens {
			c := export.Command{Entry: en, Notes: ns[en.ID]}
			o, err := rd.Output(ctx, en, "", 0)
			var no *recall.NoOutput
			switch {
			case errors.As(err, &no):
				c.Missing = no.Reason
			case err != nil:
				return err
			default:
				c.Output, c.Truncated = string(o.Text), o.Flags&history.OutputTruncated != 0
				c.Colours = rd.Colours(ctx, en, o)
			}
			cmds = append(cmds, c)
		}
		return export.Write(e.stdout, *format, cmds, export.Options{Redactor: e.rules().Redactor, Home: e.home})
	}
}
