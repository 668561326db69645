package history

import (
	"context"
	"database/sql"
	"fmt"
)

// Statuses of an Ask.
const (
	AskOK        = "ok"
	AskError     = "error"
	AskCancelled = "cancelled"
)

// Ask is one question to an LLM and its answer.
type Ask struct {
	ID      int64
	Session string // the shell session it was asked from ("" outside one)
	// Parent is the question this one continues (hookd ask -c), 0 for a
	// new conversation.
	Parent   int64
	Question string
	// Context is what was sent with the question (the context blocks,
	// piped input), redacted.
	Context   string
	Answer    string
	Reasoning string
	Provider  string
	Model     string
	// InputTokens and OutputTokens are the provider's count (0: not
	// reported).
	InputTokens, OutputTokens int
	FirstTokenUS, DurationUS  int64
	Status                    string // AskOK, AskError or AskCancelled
	Error                     string
	StartedAt                 int64 // microseconds since the epoch
}

const askColumns = `id, session, parent, question, context, answer, reasoning, provider, model,
	input_tokens, output_tokens, first_token_us, duration_us, status, error, started_at`

func scanAsk(sc interface{ Scan(...any) error }) (Ask, error) {
	var a Ask
	err := sc.Scan(&a.ID, &a.Session, &a.Parent, &a.Question, &a.Context, &a.Answer, &a.Reasoning, &a.Provider, &a.Model,
		&a.InputTokens, &a.OutputTokens, &a.FirstTokenUS, &a.DurationUS, &a.Status, &a.Error, &a.StartedAt)
	return a, err
}

// AddAsk stores a question and its answer and returns its id.
func (s *Store) AddAsk(ctx context.Context, a Ask) (int64, error) {
	if a.Status == "" {
		a.Status = AskOK
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO asks (session, parent, question, context, answer, reasoning, provider, model,
		input_tokens, output_tokens, first_token_us, duration_us, status, error, started_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.Session, a.Parent, a.Question, a.Context, a.Answer, a.Reasoning, a.Provider, a.Model,
		a.InputTokens, a.OutputTokens, a.FirstTokenUS, a.DurationUS, a.Status, a.Error, a.StartedAt)
	if err != nil {
		return 0, fmt.Errorf("add question: %w", classify(err))
	}
	return res.LastInsertId()
}

// GetAsk returns the question with the given id.
func (s *Store) GetAsk(ctx context.Context, id int64) (Ask, error) {
	a, err := scanAsk(s.db.QueryRowContext(ctx, "SELECT "+askColumns+" FROM asks WHERE id = ?", id))
	if err == sql.ErrNoRows {
		return a, fmt.Errorf("question %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return a, fmt.Errorf("get question %d: %w", id, classify(err))
	}
	return a, nil
}

// Asks returns the most recent questions, newest first: all of them, or
// those of one session; limit 0 is no limit.
func (s *Store) Asks(ctx context.Context, session string, limit int) ([]Ask, error) {
	q := "SELECT " + askColumns + " FROM asks"
	var args []any
	if session != "" {
		q += " WHERE session = ?"
		args = append(args, session)
	}
	q += " ORDER BY id DESC"
	if limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", limit)
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list questions: %w", classify(err))
	}
	defer rows.Close()
	var out []Ask
	for rows.Next() {
		a, err := scanAsk(rows)
		if err != nil {
			return nil, fmt.Errorf("list questions: %w", classify(err))
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// Thread returns the conversation that ends with question id: its first
// question first (at most limit turns, the last ones).
func (s *Store) Thread(ctx context.Context, id int64, limit int) ([]Ask, error) {
	var turns []Ask
	seen := map[int64]bool{}
	for id != 0 && len(turns) < limit && !seen[id] {
		seen[id] = true
		a, err := s.GetAsk(ctx, id)
		if err != nil {
			return nil, err
		}
		turns = append(turns, a)
		id = a.Parent
	}
	for i, j := 0, len(turns)-1; i < j; i, j = i+1, j-1 {
		turns[i], turns[j] = turns[j], turns[i]
	}
	return turns, nil
}

// AskDuring returns the question asked from session between from and to
// (microseconds since the epoch): the answer of a `??` line, which is the
// output of its history entry when no output was captured.
func (s *Store) AskDuring(ctx context.Context, session string, from, to int64) (Ask, error) {
	a, err := scanAsk(s.db.QueryRowContext(ctx, "SELECT "+askColumns+
		" FROM asks WHERE session = ? AND started_at >= ? AND started_at <= ? ORDER BY id DESC LIMIT 1", session, from, to))
	if err == sql.ErrNoRows {
		return a, fmt.Errorf("question in %s: %w", session, ErrNotFound)
	}
	if err != nil {
		return a, fmt.Errorf("get question: %w", classify(err))
	}
	return a, nil
}
