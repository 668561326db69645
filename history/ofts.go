package history

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The output index: an FTS5 table over the text of the outputs as the
// terminal showed them (stream ""), one row per command, whose rowid is the
// command's id. Unlike the command index (fts.go) it is contentless (the
// text lives in outputs alone) and tokenized by words (unicode61), not
// trigrams: a gigabyte of output would otherwise need several more for its
// index. A query word therefore matches at the start of a word of the
// output, as a search engine's does. Builds without FTS5 leave the note
// ofts_stale when they change outputs; a build with FTS5 then empties the
// index when it opens the database.
//
// Outputs already stored when the index is made (or emptied) are indexed
// by FillOutputIndex, a batch at a time, which the daemon calls after its
// ingestion passes: indexing a gigabyte takes about half a minute, which no
// command should wait for when it opens the database. Until then (meta
// ofts_fill: the last command id the fill has reached; ofts_fill_to: where
// it stops) outputs are searched by reading them, and new outputs are
// indexed as they are stored.

// oftsCreate creates the output index in tx, to be filled.
func oftsCreate(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `CREATE VIRTUAL TABLE outputs_fts USING fts5(text,
		content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`); err != nil {
		return fmt.Errorf("create output index: %w", err)
	}
	// Forgotten text is removed from the index at once, not at a merge.
	if _, err := tx.ExecContext(ctx, `INSERT INTO outputs_fts(outputs_fts, rank) VALUES ('secure-delete', 1)`); err != nil {
		return fmt.Errorf("create output index: %w", err)
	}
	return oftsPending(ctx, tx)
}

// oftsPending notes that the outputs stored are to be indexed
// (FillOutputIndex), when there are any.
func oftsPending(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM meta WHERE key IN ('ofts_stale', 'ofts_fill', 'ofts_fill_to')`); err != nil {
		return err
	}
	// (Both rows or neither: the WHERE applies to the whole union.)
	_, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value)
		SELECT k, v FROM (SELECT 'ofts_fill' AS k, '0' AS v
			UNION ALL SELECT 'ofts_fill_to', CAST((SELECT COALESCE(max(id), 0) FROM commands) AS TEXT))
		WHERE EXISTS (SELECT 1 FROM outputs WHERE stream = '' AND text IS NOT NULL AND length(text) > 0)`)
	return err
}

// oftsRebuild empties the output index, to be filled again.
func oftsRebuild(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO outputs_fts(outputs_fts) VALUES ('delete-all')`); err != nil {
		return fmt.Errorf("rebuild output index: %w", err)
	}
	return oftsPending(ctx, tx)
}

// oftsInit makes the output index current in tx: it creates it, or empties
// it after a build without FTS5 changed outputs.
func oftsInit(ctx context.Context, tx *sql.Tx) error {
	var exists, stale int
	if err := tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM sqlite_master WHERE name = 'outputs_fts'),
		(SELECT count(*) FROM meta WHERE key = 'ofts_stale')`).Scan(&exists, &stale); err != nil {
		return err
	}
	switch {
	case exists == 0:
		return oftsCreate(ctx, tx)
	case stale > 0:
		return oftsRebuild(ctx, tx)
	}
	return nil
}

// oftsFilled reports whether the output index holds every output (no fill
// pending).
func (s *Store) oftsFilled(ctx context.Context) bool {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM meta WHERE key = 'ofts_fill'`).Scan(&n)
	return err == nil && n == 0
}

// FillOutputIndex indexes the next batch of the outputs that were stored
// before the output index was made or emptied (at most batch commands'),
// and reports whether none is left. Without FTS5 it does nothing.
func (s *Store) FillOutputIndex(ctx context.Context, batch int) (done bool, err error) {
	if !s.fts || s.ofts {
		return true, nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("fill output index: %w", classify(err))
	}
	defer tx.Rollback()
	var from, to int64
	// A fill with no end (a database that an older build left so) ends.
	err = tx.QueryRowContext(ctx, `SELECT COALESCE(CAST((SELECT value FROM meta WHERE key = 'ofts_fill') AS INTEGER), 0),
		COALESCE(CAST((SELECT value FROM meta WHERE key = 'ofts_fill_to') AS INTEGER), 0)`).Scan(&from, &to)
	if err != nil {
		return false, fmt.Errorf("fill output index: %w", classify(err))
	}
	if from < to {
		hi := min(to, from+int64(batch))
		// An output stored meanwhile was indexed then: once.
		if _, err := tx.ExecContext(ctx, `DELETE FROM outputs_fts WHERE rowid > ? AND rowid <= ?`, from, hi); err != nil {
			return false, fmt.Errorf("fill output index: %w", classify(err))
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO outputs_fts(rowid, text)
			SELECT c.id, o.text FROM commands c JOIN outputs o ON o.session = c.session AND o.seq = c.seq AND o.stream = ''
			WHERE c.id > ? AND c.id <= ? AND o.text IS NOT NULL AND length(o.text) > 0`, from, hi); err != nil {
			return false, fmt.Errorf("fill output index: %w", classify(err))
		}
		from = hi
		if _, err := tx.ExecContext(ctx, `UPDATE meta SET value = ? WHERE key = 'ofts_fill'`, strconv.FormatInt(from, 10)); err != nil {
			return false, fmt.Errorf("fill output index: %w", classify(err))
		}
	}
	if from >= to {
		if _, err := tx.ExecContext(ctx, `DELETE FROM meta WHERE key IN ('ofts_fill', 'ofts_fill_to')`); err != nil {
			return false, fmt.Errorf("fill output index: %w", classify(err))
		}
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("fill output index: %w", classify(err))
	}
	if from >= to {
		s.ofts = true
	}
	return from >= to, nil
}

// oftsStale notes, in a build without FTS5, that outputs changed where an
// index exists: a build with FTS5 rebuilds it.
func oftsStale(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value)
		SELECT 'ofts_stale', '1' WHERE EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'outputs_fts')
		ON CONFLICT (key) DO NOTHING`)
	return err
}

// oftsPut indexes the terminal output of the command session:seq anew (text
// nil or empty: takes it out of the index).
func oftsPut(ctx context.Context, tx *sql.Tx, session string, seq int64, text []byte) error {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM commands WHERE session = ? AND seq = ?`, session, seq).Scan(&id)
	if err == sql.ErrNoRows {
		return nil // not recorded (yet): the output is dropped, or indexed by a rebuild
	}
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM outputs_fts WHERE rowid = ?`, id); err != nil {
		return err
	}
	if len(text) == 0 {
		return nil
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO outputs_fts(rowid, text) VALUES (?, ?)`, id, text)
	return err
}

// oftsCommandCame indexes the output stored before its command came (sync
// merges an installation's outputs as they come, their commands maybe in a
// later segment): the output was left out of the index then (oftsPut).
func (t *Tx) oftsCommandCame(ctx context.Context, session string, seq int64) error {
	if !t.fts {
		var n int
		if err := t.tx.QueryRowContext(ctx, `SELECT count(*) FROM outputs WHERE session = ? AND seq = ? AND stream = ''
			AND text IS NOT NULL AND length(text) > 0`, session, seq).Scan(&n); err != nil || n == 0 {
			return err
		}
		return oftsStale(ctx, t.tx)
	}
	_, err := t.tx.ExecContext(ctx, `INSERT INTO outputs_fts(rowid, text)
		SELECT c.id, o.text FROM commands c JOIN outputs o ON o.session = c.session AND o.seq = c.seq AND o.stream = ''
		WHERE c.session = ? AND c.seq = ? AND o.text IS NOT NULL AND length(o.text) > 0`, session, seq)
	return err
}

// OutputQuery returns the FTS5 query that finds outputs holding every word
// of words: each word a phrase of its tokens (foo_bar.go is "foo bar go"),
// the last token a prefix when it has three characters or more (a shorter
// prefix would merge the lists of too many words). Words with no letter or
// digit are left out (the caller checks them in the text). "" when no word
// has one.
func OutputQuery(words []string) string { return outputQuery(words, true) }

func outputQuery(words []string, prefix bool) string {
	var terms []string
	for _, w := range words {
		toks := strings.FieldsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if len(toks) == 0 {
			continue
		}
		t := `"` + strings.Join(toks, " ") + `"`
		if prefix && utf8.RuneCountInString(toks[len(toks)-1]) >= 3 {
			t += "*"
		}
		terms = append(terms, t)
	}
	return strings.Join(terms, " AND ")
}
