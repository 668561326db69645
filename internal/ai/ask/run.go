package ask

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/ai/llm"
)

// Renderer shows an answer as it streams (package render's Writer).
type Renderer interface {
	Text(delta string) error
	Reasoning(delta string) error
	Close() error
}

// MaxTurns bounds how many earlier turns a continued conversation sends.
const MaxTurns = 20

// MaxAnswer bounds an answer (and the model's reasoning): past it the
// stream is ended, what came kept, with ErrAnswerTooLong. No useful
// answer is near it; a model or a server in a loop would be.
const MaxAnswer = 8 << 20

// ErrAnswerTooLong ends a stream that passed MaxAnswer.
var ErrAnswerTooLong = fmt.Errorf("the answer passed %d MiB and was cut there (a model repeating itself?); what came is kept", MaxAnswer>>20)

// Request is the request for a prompt, after the earlier turns of its
// conversation (oldest first): each turn's question and context as they
// were sent, and its answer.
func Request(turns []history.Ask, p Prompt) llm.Request {
	req := llm.Request{System: p.System}
	for _, t := range turns {
		if t.Answer == "" {
			continue // an error or a cancel before any answer: nothing to follow
		}
		user := t.Question
		if t.Context != "" {
			user += "\n\n" + t.Context
		}
		req.Messages = append(req.Messages, llm.Message{Role: "user", Content: user}, llm.Message{Role: "assistant", Content: t.Answer})
	}
	req.Messages = append(req.Messages, llm.Message{Role: "user", Content: p.User()})
	return req
}

// Stream asks prov and shows the answer with r as it arrives. The returned
// Ask holds the answer (what arrived, when cancelled or cut), the usage,
// the time to the first token and in all, and the status; err is the
// provider's error, if any.
func Stream(ctx context.Context, prov llm.Provider, req llm.Request, r Renderer, now func() time.Time) (history.Ask, error) {
	return StreamTools(ctx, prov, req, r, now, nil, nil)
}

// StreamTools is Stream with the read-only tools of tb offered to the
// model (where the provider has tool calls); onCall is told of each call.
func StreamTools(ctx context.Context, prov llm.Provider, req llm.Request, r Renderer, now func() time.Time, tb *Toolbox, onCall func(string)) (history.Ask, error) {
	start := now()
	a := history.Ask{Provider: prov.Name(), Model: prov.Model(), StartedAt: start.UnixMicro(), Status: history.AskOK}
	var first time.Time
	// The text is kept in builders: appending to a string copies it
	// whole each time, quadratic in the answer.
	var answer, reasoning strings.Builder
	res, err := Converse(ctx, prov, req, tb, onCall, func(ev llm.Event) error {
		if first.IsZero() {
			first = now()
		}
		switch ev.Kind {
		case llm.Reasoning:
			text, over := capped(ev.Text, reasoning.Len())
			reasoning.WriteString(text)
			if err := r.Reasoning(text); err != nil || over {
				return cmp.Or(err, ErrAnswerTooLong)
			}
			return nil
		case llm.ToolCallEvent:
			return nil // answered by Converse, shown by onCall
		default:
			text, over := capped(ev.Text, answer.Len())
			answer.WriteString(text)
			if err := r.Text(text); err != nil || over {
				return cmp.Or(err, ErrAnswerTooLong)
			}
			return nil
		}
	})
	a.Answer, a.Reasoning = answer.String(), reasoning.String()
	cerr := r.Close()
	end := now()
	a.DurationUS = end.Sub(start).Microseconds()
	if !first.IsZero() {
		a.FirstTokenUS = first.Sub(start).Microseconds()
	}
	if res.Text != "" && len(res.Text) >= len(a.Answer) && len(res.Text) <= MaxAnswer {
		a.Answer = res.Text
	}
	if res.Model != "" {
		a.Model = res.Model
	}
	a.InputTokens, a.OutputTokens = res.Usage.InputTokens, res.Usage.OutputTokens
	switch {
	case errors.Is(err, ErrAnswerTooLong):
		a.Status, a.Error, err = history.AskError, ErrAnswerTooLong.Error(), ErrAnswerTooLong
	case err != nil && (llm.KindOf(err) == llm.Canceled || errors.Is(err, context.Canceled)):
		a.Status, a.Error = history.AskCancelled, "cancelled"
	case err != nil:
		a.Status, a.Error = history.AskError, err.Error()
	case cerr != nil:
		err = cerr
	}
	return a, err
}

// capped is the part of text that fits after have bytes within
// MaxAnswer, and whether text went past it.
func capped(text string, have int) (string, bool) {
	room := MaxAnswer - have
	if len(text) <= room {
		return text, false
	}
	room = max(room, 0)
	for room > 0 && !utf8.RuneStart(text[room]) {
		room--
	}
	return text[:room], true
}
