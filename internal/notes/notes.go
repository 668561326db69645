// Package notes attaches the user's notes to commands (hookd note, and
// hookd serve's page): a note is redacted before it is stored, as every
// text the history keeps, and goes with its command when it is forgotten.
package notes

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/redact"
)

// MaxBytes bounds a note's text.
const MaxBytes = 4096

// ErrEmpty is a note with no text.
var ErrEmpty = errors.New("the note is empty")

// Add attaches text to the command with id cmd, redacted with red (nil:
// the built-in rules), its ends trimmed and cut to MaxBytes.
func Add(ctx context.Context, st *history.Store, red *redact.Redactor, cmd int64, text string) (history.Note, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return history.Note{}, ErrEmpty
	}
	if red == nil {
		red, _ = redact.New(nil)
	}
	text, _ = red.String(text)
	if len(text) > MaxBytes {
		cut := MaxBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	return st.AddNote(ctx, cmd, text, time.Now().UnixMicro())
}

// List returns the notes on the command with id cmd, oldest first.
func List(ctx context.Context, st *history.Store, cmd int64) ([]history.Note, error) {
	m, err := st.Notes(ctx, []int64{cmd})
	return m[cmd], err
}
