// Package recall reads recorded commands back for the commands that show,
// print, analyse or hand them to an LLM: a REF resolved to a history
// entry, an entry's output, whether the agent has stored it yet or it is
// still on its way through the outbox, and, when there is none, why.
package recall

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/ingest"
	"github.com/hookd/hookd/internal/recording/outbox"
	"github.com/hookd/hookd/internal/recording/ptyshell"
	"github.com/hookd/hookd/internal/sanitize"
)

// Reader reads commands and outputs from a history.
type Reader struct {
	Store *history.Store
	// Session is the shell session the caller runs in (HOOKD_SESSION),
	// which -N references count in; "" outside a shell with hookd.
	Session string
	// Outbox is the outbox directory, where an output waits until the
	// agent stores it.
	Outbox string
	// Rules render and redact an output read from the outbox, as the
	// agent would store it.
	Rules *ingest.Rules
	// CaptureProblem is the file where `hookd shell` notes why capture
	// could not start (it makes the explanation of a missing output more
	// precise); "" for none.
	CaptureProblem string
	// Author, when not "", makes -N references count in that coding
	// agent's most recent session instead of Session: agents' commands
	// are in sessions of their own, never counted otherwise.
	Author string
}

// RefError is a REF that is not one: neither a history id nor -N.
type RefError struct{ Ref string }

func (e *RefError) Error() string { return fmt.Sprintf("bad REF %q: want an id or -N", e.Ref) }

// ErrNoSession is the error of a -N reference outside a shell with hookd
// loaded.
var ErrNoSession = errors.New("HOOKD_SESSION is not set")

// Ref is a parsed REF: a history id, or the N-th most recent command of
// the session.
type Ref struct {
	ID   int64 // > 0 for an id
	Back int   // N of -N, > 0 otherwise
}

// ParseRef reads a REF: a history id, or -N (the N-th most recent command
// of the session). "" is -1, the last command.
func ParseRef(s string) (Ref, error) {
	if s == "" {
		return Ref{Back: 1}, nil
	}
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 || rest[0] == '+' {
			return Ref{}, &RefError{s}
		}
		return Ref{Back: n}, nil
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id < 1 || s[0] == '+' {
		return Ref{}, &RefError{s}
	}
	return Ref{ID: id}, nil
}

func (r Ref) String() string {
	if r.ID > 0 {
		return strconv.FormatInt(r.ID, 10)
	}
	return "-" + strconv.Itoa(r.Back)
}

// SplitRefs takes the -N references out of command-line arguments, so
// that a flag parser does not read them as options; the rest keeps its
// order, and everything after "--" stays in it.
func SplitRefs(args []string) (rest, refs []string) {
	for i, a := range args {
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "0123456789") == "" {
			refs = append(refs, a)
			continue
		}
		rest = append(rest, a)
	}
	return rest, refs
}

// Entry returns the command ref names (see ParseRef). A missing one is an
// error wrapping history.ErrNotFound; a -N outside a session wraps
// ErrNoSession.
func (rd *Reader) Entry(ctx context.Context, ref string) (history.Entry, error) {
	r, err := ParseRef(ref)
	if err != nil {
		return history.Entry{}, err
	}
	if r.ID > 0 {
		return rd.Store.Get(ctx, r.ID)
	}
	if rd.Author != "" {
		sess, err := rd.Store.LatestSession(ctx, rd.Author)
		if err != nil {
			return history.Entry{}, err
		}
		return rd.Store.Recent(ctx, sess, r.Back)
	}
	if rd.Session == "" {
		return history.Entry{}, fmt.Errorf("REF %s needs a shell with hookd loaded (%w); give an id instead (hookd history lists them)", r, ErrNoSession)
	}
	return rd.Store.Recent(ctx, rd.Session, r.Back)
}

// Last reports whether en is the last command of the reader's session:
// the one whose output may still be on the terminal's screen (further
// back, the screen is not to be trusted), to read back when none was
// captured.
func (rd *Reader) Last(ctx context.Context, en history.Entry) bool {
	if rd.Session == "" || en.Session != rd.Session {
		return false
	}
	last, err := rd.Store.Recent(ctx, rd.Session, 1)
	return err == nil && last.ID == en.ID
}

// Recent returns up to n of the session's most recent commands, oldest
// first.
func (rd *Reader) Recent(ctx context.Context, n int) ([]history.Entry, error) {
	if rd.Session == "" {
		return nil, ErrNoSession
	}
	es, err := rd.Store.List(ctx, history.Query{Session: rd.Session, Limit: n})
	if err != nil {
		return nil, err
	}
	for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
		es[i], es[j] = es[j], es[i]
	}
	return es, nil
}

// Text returns the output of the command ref names, as the terminal
// showed it (see Entry and Output).
func (rd *Reader) Text(ctx context.Context, ref string) (string, error) {
	en, err := rd.Entry(ctx, ref)
	if err != nil {
		return "", err
	}
	o, err := rd.Output(ctx, en, "", 0)
	if err != nil {
		return "", err
	}
	return string(o.Text), nil
}

// NoOutput is the error of Output when a command has no output to give:
// Reason says why, for the user.
type NoOutput struct {
	Entry  history.Entry
	Reason string
	// Withheld: the output held a secret hookd printed; it must not be
	// read back from the terminal either.
	Withheld bool
}

func (e *NoOutput) Error() string {
	return fmt.Sprintf("#%d %s: %s", e.Entry.ID, Short(e.Entry.Command), e.Reason)
}

// Output returns the output of en in stream ("" for the output as the
// terminal showed it; "stdout" or "stderr" where they were kept apart). An
// output the agent has not stored yet is read from the outbox, rendered and
// redacted as the agent would store it; wait is how long to wait for it to
// appear there (the failure path runs while the proxy is still writing it).
//
// When there is no text to give, the error is a *NoOutput that says why;
// an output that was stored but pruned, or that was a full-screen
// program's, is returned too, with its flags, beside that error.
func (rd *Reader) Output(ctx context.Context, en history.Entry, stream string, wait time.Duration) (history.Output, error) {
	deadline := time.Now().Add(wait)
	path := outbox.Path(rd.Outbox, en.Session, en.Seq, stream)
	for {
		o, err := rd.Store.Output(ctx, en.Session, en.Seq, stream)
		if err == nil {
			return o, rd.flagged(en, o)
		}
		if !errors.Is(err, history.ErrNotFound) {
			return o, err
		}
		if it, err := outbox.Read(path); err == nil {
			o, _ := ingest.StoredOutput(it, rd.Rules)
			return o, rd.flagged(en, o)
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
	if stream == "" {
		// A question asked (`?? …`, hookd ask) with capture off: its
		// answer is its output.
		if a, err := rd.Store.AskDuring(ctx, en.Session, en.StartedAt, en.StartedAt+en.DurationUS); err == nil && a.Answer != "" {
			return history.Output{Session: en.Session, Seq: en.Seq, Text: []byte(a.Answer), Bytes: int64(len(a.Answer)), CreatedAt: a.StartedAt}, nil
		}
	}
	return history.Output{}, &NoOutput{Entry: en, Reason: rd.whyNone(ctx, en, stream)}
}

// Colours returns the colours of o's text (en's output in stream "", as
// Output gave it): capture.Colours, whose Apply adds SGR sequences and no
// other control sequence; nil when it showed none or they were not kept
// (an output stored before hookd kept colours, or on a host whose hookd
// did not). Only the pages that draw colours safely (hookd serve, export's
// HTML page) and a terminal hookd re-renders them on use them: every other
// reader gets the plain text.
func (rd *Reader) Colours(ctx context.Context, en history.Entry, o history.Output) capture.Colours {
	if len(o.Text) == 0 {
		return nil
	}
	if c, err := rd.Store.Output(ctx, en.Session, en.Seq, capture.ColourStream); err == nil {
		return capture.Colours(c.Text)
	}
	if it, err := outbox.Read(outbox.Path(rd.Outbox, en.Session, en.Seq, "")); err == nil {
		if p, c, _ := ingest.StoredOutputColours(it, rd.Rules); c != nil && string(p.Text) == string(o.Text) {
			return capture.Colours(c.Text)
		}
	}
	return nil
}

// flagged is the *NoOutput of a stored output without text, or nil.
func (rd *Reader) flagged(en history.Entry, o history.Output) error {
	switch {
	case o.Flags&history.OutputPruned != 0:
		return &NoOutput{Entry: en, Reason: "its output was pruned (output.keep_days and output.keep_size in the config set how long outputs are kept)"}
	case o.Flags&history.OutputFullScreen != 0:
		return &NoOutput{Entry: en, Reason: "it ran a full-screen program (alternate screen): its screens are not kept"}
	case o.Flags&history.OutputWithheld != 0:
		return &NoOutput{Entry: en, Reason: "hookd printed a secret in it (a sync recovery phrase): its output is not kept", Withheld: true}
	}
	return nil
}

// whyNone explains a command that has no stored output.
func (rd *Reader) whyNone(ctx context.Context, en history.Entry, stream string) string {
	if stream != "" {
		if _, err := rd.Store.Output(ctx, en.Session, en.Seq, ""); err == nil {
			return "no separate " + stream + " was kept (only commands run with `hookd run` have one)"
		}
	}
	if en.Source == "import" {
		return "it was imported from a history file, which holds no output"
	}
	sess, _ := rd.Store.Session(ctx, en.Session)
	if en.HostID != "" && (sess.Capture == "pty" || sess.Capture == "run") {
		return "it ran on another host (" + sanitize.Line(sess.Host) + "); its output, if any, stayed there (sync.outputs and sync.output_limit say which outputs travel)"
	}
	switch sess.Capture {
	case "pty", "run":
		return "no output was captured for it (it ran in a nested shell, was interrupted by the shell's end, or the proxy could not store it)"
	case "agent":
		return "its agent gave no output with it (hookd record without --output-file)"
	case "off":
		why := "output capture was off in its shell"
		if ptyshell.Problem(rd.CaptureProblem) != "" {
			why += " (hookd status says why)"
		} else {
			why += " (see `hookd status`; `hookd run CMD` captures one command)"
		}
		return why
	}
	return "no output is stored for it (it was recorded by a hookd without output capture)"
}

// Short returns a command for a one-line message: made safe for the
// terminal, cut at 60 characters, in parentheses.
func Short(cmd string) string {
	cmd = sanitize.Line(cmd)
	if r := []rune(cmd); len(r) > 60 {
		cmd = string(r[:59]) + "…"
	}
	return "(" + cmd + ")"
}
