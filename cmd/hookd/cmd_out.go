package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/ingest"
	"github.com/hookd/hookd/outbox"
)

func cmdOut(ctx context.Context, e *env, args []string) error {
	args, refs := splitRefs(args)
	fs := flags(e, "out")
	stream := fs.String("stream", "", "print only the command's stdout or stderr (kept apart for commands run with hookd run)")
	if err := parse(fs, args); err != nil {
		return err
	}
	ref, err := oneRef(append(refs, fs.Args()...))
	if err != nil {
		return err
	}
	switch *stream {
	case "", outbox.Stdout, outbox.Stderr:
	default:
		return usagef("--stream must be stdout or stderr, not %q", *stream)
	}
	s, err := e.openFlushed(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	en, err := resolveRef(ctx, e, s, ref)
	if err != nil {
		return err
	}
	o, err := e.outputOf(ctx, s, en, *stream, 0)
	if err != nil {
		return err
	}
	if why := noOutputReason(o); why != "" {
		return exitCode{1, fmt.Sprintf("#%d %s: %s", en.ID, quoteShort(en.Command), why)}
	}
	_, err = e.stdout.Write(o.Text)
	return err
}

// noOutputReason says why a stored output has no text to print, or "".
func noOutputReason(o history.Output) string {
	switch {
	case o.Flags&history.OutputPruned != 0:
		return "its output was pruned (output.keep_days and output.keep_size in the config set how long outputs are kept)"
	case o.Flags&history.OutputFullScreen != 0:
		return "it ran a full-screen program (alternate screen): its screens are not kept"
	}
	return ""
}

// outputOf returns the stored output of en in stream ("" for the output as
// the terminal showed it). An output the agent has not stored yet is read
// from the outbox (rendered and redacted as the agent would); wait is how
// long to wait for it to appear there, for the failure path, which runs
// while the proxy is still writing it. When there is none, the error is an
// exitCode 1 that says why.
func (e *env) outputOf(ctx context.Context, s *history.Store, en history.Entry, stream string, wait time.Duration) (history.Output, error) {
	deadline := time.Now().Add(wait)
	path := outbox.Path(e.outboxDir, en.Session, en.Seq, stream)
	for {
		o, err := s.Output(ctx, en.Session, en.Seq, stream)
		if err == nil {
			return o, nil
		}
		if !errors.Is(err, history.ErrNotFound) {
			return o, err
		}
		if it, err := outbox.Read(path); err == nil {
			o, _ := ingest.StoredOutput(it, e.rules(e.config()))
			return o, nil
		}
		if time.Now().After(deadline) {
			break
		}
		select {
		case <-ctx.Done():
			return history.Output{}, ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
	return history.Output{}, exitCode{1, fmt.Sprintf("#%d %s: %s", en.ID, quoteShort(en.Command), e.whyNoOutput(ctx, s, en, stream))}
}

// whyNoOutput explains a command that has no stored output.
func (e *env) whyNoOutput(ctx context.Context, s *history.Store, en history.Entry, stream string) string {
	if stream != "" {
		if _, err := s.Output(ctx, en.Session, en.Seq, ""); err == nil {
			return "no separate " + stream + " was kept (only commands run with `hookd run` have one)"
		}
	}
	if en.Source == "import" {
		return "it was imported from a history file, which holds no output"
	}
	sess, _ := s.Session(ctx, en.Session)
	switch sess.Capture {
	case "pty":
		return "no output was captured for it (it ran in a nested shell, was interrupted by the shell's end, or the proxy could not store it)"
	case "off":
		why := "output capture was off in its shell"
		if b, err := os.ReadFile(e.captureProblemFile()); err == nil && len(b) > 0 {
			why += " (hookd status says why)"
		} else {
			why += " (see `hookd status`; `hookd run CMD` captures one command)"
		}
		return why
	}
	return "no output is stored for it (it was recorded by a hookd without output capture)"
}

// quoteShort returns a command for a one-line message: control characters
// shown escaped, and cut at 60 characters.
func quoteShort(cmd string) string {
	cmd = sanitizeLine(cmd)
	if r := []rune(cmd); len(r) > 60 {
		cmd = string(r[:59]) + "…"
	}
	return "(" + cmd + ")"
}
