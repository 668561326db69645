package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Why is why a coding agent ran a command: the intent it stated for it and
// the user's prompt that started its turn ("" for each when not known).
type Why struct {
	Intent string
	// Prompt is the text of the turn's prompt, PromptSeq its number in the
	// session (0: none) and PromptAt when it was given (µs).
	Prompt    string
	PromptSeq int64
	PromptAt  int64
}

// AddIntent records what the agent said command seq of session was for;
// a second one for the same command replaces the first.
func (t *Tx) AddIntent(ctx context.Context, session string, seq int64, text string) error {
	st, err := t.stmt(ctx, `INSERT INTO intents (session, seq, text) VALUES (?, ?, ?)
		ON CONFLICT (session, seq) DO UPDATE SET text = excluded.text`)
	if err == nil {
		_, err = st.ExecContext(ctx, session, seq, text)
	}
	if err != nil {
		return fmt.Errorf("add intent: %w", classify(err))
	}
	return nil
}

// AddPrompt records a prompt the user gave the agent of session, numbered
// seq in the session's sequence, at time at (µs). One already recorded is
// kept.
func (t *Tx) AddPrompt(ctx context.Context, session string, seq, at int64, text string) error {
	st, err := t.stmt(ctx, `INSERT OR IGNORE INTO prompts (session, seq, at, text) VALUES (?, ?, ?, ?)`)
	if err == nil {
		_, err = st.ExecContext(ctx, session, seq, at, text)
	}
	if err != nil {
		return fmt.Errorf("add prompt: %w", classify(err))
	}
	return nil
}

// Why returns why the agent ran command seq of session: its intent and the
// prompt of its turn, the last prompt of the session numbered before it.
func (s *Store) Why(ctx context.Context, session string, seq int64) (Why, error) {
	var w Why
	err := s.db.QueryRowContext(ctx, `SELECT text FROM intents WHERE session = ? AND seq = ?`, session, seq).Scan(&w.Intent)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return Why{}, fmt.Errorf("intent: %w", classify(err))
	}
	err = s.db.QueryRowContext(ctx, `SELECT seq, at, text FROM prompts WHERE session = ? AND seq < ?
		ORDER BY seq DESC LIMIT 1`, session, seq).Scan(&w.PromptSeq, &w.PromptAt, &w.Prompt)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return Why{}, fmt.Errorf("prompt: %w", classify(err))
	}
	return w, nil
}

// forgetWhy deletes the intent of command id; and, once no command of a
// turn is left, the turn's prompt (which may name what the command held).
func forgetWhy(ctx context.Context, tx *sql.Tx, session string, seq int64) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM intents WHERE session = ? AND seq = ?`, session, seq); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM prompts WHERE session = ?1 AND seq = (SELECT MAX(seq) FROM prompts WHERE session = ?1 AND seq < ?2)
		AND NOT EXISTS (SELECT 1 FROM commands c WHERE c.session = ?1 AND c.seq > prompts.seq AND c.seq <> ?2
			AND c.seq < COALESCE((SELECT MIN(p.seq) FROM prompts p WHERE p.session = ?1 AND p.seq > prompts.seq), 9223372036854775807))`,
		session, seq)
	return err
}
