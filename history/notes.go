package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// Note is a note the user attached to a command (hookd note).
type Note struct {
	ID int64
	// Command is the id of the command it is on.
	Command   int64
	Text      string
	CreatedAt int64 // µs
}

// AddNote attaches text to the command with id cmd, as it is: the caller
// redacts it first. The note goes when its command is forgotten.
func (s *Store) AddNote(ctx context.Context, cmd int64, text string, at int64) (Note, error) {
	n := Note{Command: cmd, Text: text, CreatedAt: at}
	err := s.db.QueryRowContext(ctx, `INSERT INTO notes (session, seq, text, created_at)
		SELECT session, seq, ?, ? FROM commands WHERE id = ? RETURNING id`, text, at, cmd).Scan(&n.ID)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return n, fmt.Errorf("note on %d: %w", cmd, ErrNotFound)
		}
		return n, fmt.Errorf("add note: %w", classify(err))
	}
	return n, nil
}

// Notes returns the notes on the commands with the given ids, oldest
// first, by command id.
func (s *Store) Notes(ctx context.Context, ids []int64) (map[int64][]Note, error) {
	m := map[int64][]Note{}
	for lo := 0; lo < len(ids); lo += 500 {
		part := ids[lo:min(lo+500, len(ids))]
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		rows, err := s.db.QueryContext(ctx, `SELECT n.id, c.id, n.text, n.created_at FROM commands c
			JOIN notes n ON n.session = c.session AND n.seq = c.seq
			WHERE c.id IN (?`+strings.Repeat(", ?", len(part)-1)+`) ORDER BY n.created_at, n.id`, args...)
		if err != nil {
			return nil, fmt.Errorf("notes: %w", classify(err))
		}
		for rows.Next() {
			var n Note
			if err := rows.Scan(&n.ID, &n.Command, &n.Text, &n.CreatedAt); err != nil {
				rows.Close()
				return nil, fmt.Errorf("notes: %w", classify(err))
			}
			m[n.Command] = append(m[n.Command], n)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("notes: %w", classify(err))
		}
	}
	return m, nil
}

// NotesMatching returns the ids of the commands with a note holding every
// word (ASCII case ignored), newest note first, at most limit (0: all).
func (s *Store) NotesMatching(ctx context.Context, words []string, limit int) ([]int64, error) {
	if len(words) == 0 {
		return nil, nil
	}
	q, args := notesMatching(words, limit)
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("search notes: %w", classify(err))
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("search notes: %w", classify(err))
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// notesMatching is NotesMatching's query.
func notesMatching(words []string, limit int) (string, []any) {
	var w where
	for _, word := range words {
		w.add(`n.text LIKE ? ESCAPE '\'`, "%"+likeEscape(word)+"%")
	}
	// From the notes to their commands, never the other way: told
	// nothing of the tables' sizes, SQLite would walk every command (in
	// id order, for the GROUP BY) to look its notes up.
	q := `SELECT c.id FROM notes n CROSS JOIN commands c ON c.session = n.session AND c.seq = n.seq
		WHERE ` + strings.Join(w.clauses, " AND ") + ` GROUP BY c.id ORDER BY MAX(n.created_at) DESC`
	if limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", limit)
	}
	return q, w.args
}
