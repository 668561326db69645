package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/outbox"
	"github.com/hookd/hookd/internal/recording/recall"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/ui/style"
	"github.com/muesli/termenv"
	"github.com/spf13/pflag"
)

// cmdOut is `hookd out REF`: the output of the command REF names, as it
// was stored.
func cmdOut(fs *pflag.FlagSet) runFunc {
	stream := fs.String("stream", "", "print only the command's stdout or stderr (kept apart for commands run with hookd run)")
	author := authorFlag(fs)
	colour := fs.Bool("color", false, "keep the output's colours (SGR sequences, nothing else) through a pipe too")
	return func(ctx context.Context, e *env, args []string) error {
		ref, err := oneRef(args)
		if err != nil {
			return err
		}
		switch *stream {
		case "", outbox.Stdout, outbox.Stderr:
		default:
			return usagef("--stream must be stdout or stderr, not %q", *stream)
		}
		s, rd, en, err := e.lookup(ctx, ref, *author)
		if err != nil {
			return err
		}
		defer s.Close()
		o, err := rd.Output(ctx, en, *stream, 0)
		if err != nil {
			return noOutput(err)
		}
		// Exactly as stored, for a pipe or a file; on a terminal, what
		// could change how the text reads (bidi controls, zero-width
		// characters) is shown escaped, and the colours are drawn again
		// (only SGR sequences hookd wrote itself: capture.Colours), unless
		// NO_COLOR. --color keeps them through a pipe.
		text := o.Text
		var cs capture.Colours
		if *stream == "" && (*colour || e.out.Profile != termenv.Ascii) {
			cs = rd.Colours(ctx, en, o)
		}
		if e.stdoutTTY {
			text = []byte(cs.ApplyFunc(string(text), sanitize.Text))
			// An agent's command: what it was for, above the output, on
			// the terminal only (a pipe gets the output as it was).
			if w := e.why(ctx, s, en); w.Intent != "" {
				fmt.Fprintln(e.stderr, e.palette.Render(style.Dim, "# "+sanitize.Line(w.Intent)))
			}
		} else if cs != nil {
			text = []byte(cs.Apply(string(text)))
		}
		if _, err = e.stdout.Write(text); err != nil {
			return err
		}
		// Its page, on stderr: stdout keeps the output alone.
		if u := permalink(e, en.ID); u != "" {
			fmt.Fprintln(e.stderr, e.palette.Render(style.Dim, "# page: "+u))
		}
		return nil
	}
}

// lookup opens the history (the spool ingested first) and finds the
// command REF names among those of author ("": the user's); the caller
// closes the store.
func (e *env) lookup(ctx context.Context, ref, author string) (*history.Store, *recall.Reader, history.Entry, error) {
	s, err := e.openFlushed(ctx)
	if err != nil {
		return nil, nil, history.Entry{}, err
	}
	rd := e.reader(s)
	rd.Author = author
	en, err := entry(ctx, rd, ref)
	if err != nil {
		s.Close()
		return nil, nil, en, err
	}
	return s, rd, en, nil
}

// entry resolves a REF, a malformed one being a usage error.
func entry(ctx context.Context, rd *recall.Reader, ref string) (history.Entry, error) {
	en, err := rd.Entry(ctx, ref)
	var re *recall.RefError
	if errors.As(err, &re) {
		return en, usageError{re.Error()}
	}
	return en, err
}

// noOutput turns recall's "no output, and why" into exit status 1 with
// that message.
func noOutput(err error) error {
	var no *recall.NoOutput
	if errors.As(err, &no) {
		return exitCode{1, no.Error()}
	}
	return err
}
