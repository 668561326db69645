package history

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
)

// Learned is a fix learned from the user's own history: an edit of a
// program's arguments (its fields are package learn's Edit), the last pair
// of commands it was seen in, and how often.
type Learned struct {
	ID      int64
	Program string
	Kind    string // "replace", "add" or "remove"
	From    string // the words replaced or removed, as typed
	To      string // the words put in
	After   string // for "add": the word they follow ("": the program)
	AtEnd   bool   // for "add": they were added at the end
	// Failed and Fixed are the last pair it was seen in.
	Failed, Fixed string
	// Count is how many times the user ran the fix after the failure;
	// Worked, how many of those times it was already known (so offered)
	// when the failure happened.
	Count, Worked       int
	FirstSeen, LastSeen int64 // when the fixed command started, µs
}

// LearnedPair is a failed command and the command that fixed it, with the
// edit between them (Edit's Program, Kind, From, To, After and AtEnd).
type LearnedPair struct {
	Edit                        Learned
	FailedID, FixedID           int64
	FailedCommand, FixedCommand string
	FailedStarted, FixedStarted int64 // µs since the epoch
}

// learnMarkKey is the meta key of the last command id learning has looked
// at.
const learnMarkKey = "learned_upto"

const learnedColumns = `id, program, kind, from_words, to_words, after_word, at_end, failed, fixed,
	count, worked, first_seen, last_seen`

func scanLearned(sc interface{ Scan(...any) error }) (Learned, error) {
	var l Learned
	err := sc.Scan(&l.ID, &l.Program, &l.Kind, &l.From, &l.To, &l.After, &l.AtEnd, &l.Failed, &l.Fixed,
		&l.Count, &l.Worked, &l.FirstSeen, &l.LastSeen)
	return l, err
}

// LearnMark returns the id of the last command that learning has looked
// at (set false when it never has), and the largest command id there is.
func (s *Store) LearnMark(ctx context.Context) (mark int64, set bool, last int64, err error) {
	var v sql.NullString
	err = s.db.QueryRowContext(ctx, `SELECT (SELECT value FROM meta WHERE key = ?), COALESCE((SELECT MAX(id) FROM commands), 0)`,
		learnMarkKey).Scan(&v, &last)
	if err != nil {
		return 0, false, 0, fmt.Errorf("learn mark: %w", classify(err))
	}
	if v.Valid {
		mark, _ = strconv.ParseInt(v.String, 10, 64)
	}
	return mark, v.Valid, last, nil
}

// learnColumns are the few columns learning reads of a command.
const learnColumns = `id, session, seq, command, exit_code, started_at, source`

func scanLearnEntry(rows *sql.Rows) (Entry, error) {
	var e Entry
	err := rows.Scan(&e.ID, &e.Session, &e.Seq, &e.Command, &e.ExitCode, &e.StartedAt, &e.Source)
	return e, err
}

func (s *Store) learnEntries(ctx context.Context, q string, args ...any) ([]Entry, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("read commands: %w", classify(err))
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		e, err := scanLearnEntry(rows)
		if err != nil {
			return nil, fmt.Errorf("read commands: %w", classify(err))
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// CommandsAfter returns up to limit commands whose id is above id, in id
// order, with only their id, session, seq, command, exit status, start and
// source (a range of the primary key: no scan).
func (s *Store) CommandsAfter(ctx context.Context, id int64, limit int) ([]Entry, error) {
	return s.learnEntries(ctx, "SELECT "+learnColumns+" FROM commands WHERE id > ? ORDER BY id LIMIT ?", id, limit)
}

// SessionBefore returns the n commands of session before sequence number
// seq, oldest first, with the columns CommandsAfter gives.
func (s *Store) SessionBefore(ctx context.Context, session string, seq int64, n int) ([]Entry, error) {
	es, err := s.learnEntries(ctx, "SELECT "+learnColumns+" FROM commands WHERE session = ? AND seq < ? ORDER BY seq DESC LIMIT ?", session, seq, n)
	for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
		es[i], es[j] = es[j], es[i]
	}
	return es, err
}

// AddLearned stores what learning found, in one transaction: the pairs
// (each adds its edit, or counts it once more, and notes the pair's
// commands as its source; a pair already noted changes nothing), the
// failed commands whose pairs turned out not to be fixes (vetoed: those
// pairs are taken back), and upto, the last command id looked at. It
// returns how many pairs were new.
func (s *Store) AddLearned(ctx context.Context, pairs []LearnedPair, vetoed []int64, upto int64) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("learn: %w", classify(err))
	}
	defer tx.Rollback()
	if err := dropSources(ctx, tx, vetoed, true); err != nil {
		return 0, fmt.Errorf("learn: %w", classify(err))
	}
	n := 0
	for _, p := range pairs {
		e := p.Edit
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO learned
			(program, kind, from_words, to_words, after_word, at_end, first_seen, last_seen)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, e.Program, e.Kind, e.From, e.To, e.After, e.AtEnd, p.FixedStarted, p.FixedStarted); err != nil {
			return 0, fmt.Errorf("learn: %w", classify(err))
		}
		var id, first int64
		var count int
		if err := tx.QueryRowContext(ctx, `SELECT id, first_seen, count FROM learned WHERE program = ? AND kind = ?
			AND from_words = ? AND to_words = ? AND after_word = ? AND at_end = ?`,
			e.Program, e.Kind, e.From, e.To, e.After, e.AtEnd).Scan(&id, &first, &count); err != nil {
			return 0, fmt.Errorf("learn: %w", classify(err))
		}
		res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO learned_sources (failed, fixed, learned) VALUES (?, ?, ?)`,
			p.FailedID, p.FixedID, id)
		if err != nil {
			return 0, fmt.Errorf("learn: %w", classify(err))
		}
		if k, _ := res.RowsAffected(); k == 0 {
			continue
		}
		n++
		// Known before this failure: it was offered, and it worked.
		worked := 0
		if count > 0 && first < p.FailedStarted {
			worked = 1
		}
		if _, err := tx.ExecContext(ctx, `UPDATE learned SET count = count + 1, worked = worked + ?1,
			first_seen = MIN(first_seen, ?2), last_seen = MAX(last_seen, ?2),
			failed = CASE WHEN ?2 >= last_seen THEN ?3 ELSE failed END,
			fixed = CASE WHEN ?2 >= last_seen THEN ?4 ELSE fixed END WHERE id = ?5`,
			worked, p.FixedStarted, p.FailedCommand, p.FixedCommand, id); err != nil {
			return 0, fmt.Errorf("learn: %w", classify(err))
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key)
		DO UPDATE SET value = CAST(MAX(CAST(value AS INTEGER), ?2) AS TEXT)`, learnMarkKey, strconv.FormatInt(upto, 10)); err != nil {
		return 0, fmt.Errorf("learn: %w", classify(err))
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("learn: %w", classify(err))
	}
	return n, nil
}

// dropSources takes back what was learned from the commands with the given
// ids (only as the failed command of a pair, with failedOnly): their pairs
// go, and so does an edit left with none; the others keep a count and an
// example of the pairs left.
func dropSources(ctx context.Context, tx *sql.Tx, ids []int64, failedOnly bool) error {
	if len(ids) == 0 {
		return nil
	}
	q := `SELECT DISTINCT learned FROM learned_sources WHERE failed = ?1 OR fixed = ?1`
	del := `DELETE FROM learned_sources WHERE failed = ?1 OR fixed = ?1`
	if failedOnly {
		q = `SELECT DISTINCT learned FROM learned_sources WHERE failed = ?1`
		del = `DELETE FROM learned_sources WHERE failed = ?1`
	}
	touched := map[int64]bool{}
	for _, id := range ids {
		rows, err := tx.QueryContext(ctx, q, id)
		if err != nil {
			return err
		}
		for rows.Next() {
			var l int64
			if err := rows.Scan(&l); err != nil {
				rows.Close()
				return err
			}
			touched[l] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, del, id); err != nil {
			return err
		}
	}
	for l := range touched {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM learned_sources WHERE learned = ?`, l).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			if _, err := tx.ExecContext(ctx, `DELETE FROM learned WHERE id = ?`, l); err != nil {
				return err
			}
			continue
		}
		// The example becomes the latest pair left (the one shown may
		// be of a command just forgotten).
		var failed, fixed string
		err := tx.QueryRowContext(ctx, `SELECT a.command, b.command FROM learned_sources ls
			JOIN commands a ON a.id = ls.failed JOIN commands b ON b.id = ls.fixed
			WHERE ls.learned = ? ORDER BY ls.fixed DESC LIMIT 1`, l).Scan(&failed, &fixed)
		if err != nil && err != sql.ErrNoRows {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE learned SET count = ?, worked = MIN(worked, ?), failed = ?, fixed = ? WHERE id = ?`,
			n, n, failed, fixed, l); err != nil {
			return err
		}
	}
	return nil
}

// LearnedFor returns the fixes learned for program, the most often seen
// first (at most limit; one lookup on the table's unique index).
func (s *Store) LearnedFor(ctx context.Context, program string, limit int) ([]Learned, error) {
	return s.learned(ctx, "SELECT "+learnedColumns+" FROM learned WHERE program = ? ORDER BY count DESC, last_seen DESC LIMIT ?", program, limit)
}

// AllLearned returns every fix learned, by program, then the most often
// seen first.
func (s *Store) AllLearned(ctx context.Context) ([]Learned, error) {
	return s.learned(ctx, "SELECT "+learnedColumns+" FROM learned ORDER BY program, count DESC, last_seen DESC")
}

func (s *Store) learned(ctx context.Context, q string, args ...any) ([]Learned, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("learned fixes: %w", classify(err))
	}
	defer rows.Close()
	var out []Learned
	for rows.Next() {
		l, err := scanLearned(rows)
		if err != nil {
			return nil, fmt.Errorf("learned fixes: %w", classify(err))
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// DeleteLearned deletes the learned fixes with the given ids and returns
// how many there were.
func (s *Store) DeleteLearned(ctx context.Context, ids []int64) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("delete learned: %w", classify(err))
	}
	defer tx.Rollback()
	n := 0
	for _, id := range ids {
		res, err := tx.ExecContext(ctx, `DELETE FROM learned WHERE id = ?`, id)
		if err != nil {
			return 0, fmt.Errorf("delete learned %d: %w", id, classify(err))
		}
		k, _ := res.RowsAffected()
		n += int(k)
		if _, err := tx.ExecContext(ctx, `DELETE FROM learned_sources WHERE learned = ?`, id); err != nil {
			return 0, fmt.Errorf("delete learned %d: %w", id, classify(err))
		}
	}
	return n, classify(tx.Commit())
}

// ClearLearned deletes every learned fix and returns how many there were.
func (s *Store) ClearLearned(ctx context.Context) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("clear learned: %w", classify(err))
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `DELETE FROM learned`)
	if err != nil {
		return 0, fmt.Errorf("clear learned: %w", classify(err))
	}
	n, _ := res.RowsAffected()
	if _, err := tx.ExecContext(ctx, `DELETE FROM learned_sources`); err != nil {
		return 0, fmt.Errorf("clear learned: %w", classify(err))
	}
	return int(n), classify(tx.Commit())
}

// DeleteLearnedFrom takes back what was learned from the commands with the
// given ids, as Forget does: a learned fix left with no pair of commands
// goes; one with pairs left keeps their count.
func (s *Store) DeleteLearnedFrom(ctx context.Context, commandIDs []int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("unlearn: %w", classify(err))
	}
	defer tx.Rollback()
	if err := dropSources(ctx, tx, commandIDs, false); err != nil {
		return fmt.Errorf("unlearn: %w", classify(err))
	}
	return classify(tx.Commit())
}
