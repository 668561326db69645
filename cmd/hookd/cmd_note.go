package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/notes"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/spf13/pflag"
)

func cmdNote(fs *pflag.FlagSet) runFunc {
	author := authorFlag(fs)
	return func(ctx context.Context, e *env, args []string) error {
		if len(args) < 2 {
			return usagef("want a REF and the note's text")
		}
		s, _, en, err := e.lookup(ctx, args[0], *author)
		if err != nil {
			return err
		}
		defer s.Close()
		n, err := notes.Add(ctx, s, e.rules().Redactor, en.ID, strings.Join(args[1:], " "))
		if errors.Is(err, notes.ErrEmpty) {
			return usageError{err.Error()}
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "noted on #%d: %s\n", en.ID, sanitize.Line(n.Text))
		return nil
	}
}

// notesJSON is notes as hookd show --json and hookd export carry them:
// id, text, created_at (RFC 3339).
func notesJSON(ns []history.Note) []map[string]any {
	out := []map[string]any{}
	for _, n := range ns {
		out = append(out, map[string]any{"id": n.ID, "text": n.Text,
			"created_at": time.UnixMicro(n.CreatedAt).UTC().Format(time.RFC3339Nano)})
	}
	return out
}
