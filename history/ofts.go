package history

import (
	"context"
	"database/sql"
	"fmt"
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
// ofts_stale when they change outputs; a build with FTS5 then rebuilds the
// index when it opens the database.

// oftsCreate creates the output index in tx and fills it from the outputs
// stored.
func oftsCreate(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `CREATE VIRTUAL TABLE outputs_fts USING fts5(text,
		content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`); err != nil {
		return fmt.Errorf("create output index: %w", err)
	}
	// Forgotten text is removed from the index at once, not at a merge.
	if _, err := tx.ExecContext(ctx, `INSERT INTO outputs_fts(outputs_fts, rank) VALUES ('secure-delete', 1)`); err != nil {
		return fmt.Errorf("create output index: %w", err)
	}
	return oftsFill(ctx, tx)
}

// oftsFill indexes every stored output.
func oftsFill(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO outputs_fts(rowid, text)
		SELECT c.id, o.text FROM outputs o JOIN commands c ON c.session = o.session AND c.seq = o.seq
		WHERE o.stream = '' AND o.text IS NOT NULL AND length(o.text) > 0`); err != nil {
		return fmt.Errorf("fill output index: %w", err)
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM meta WHERE key = 'ofts_stale'`)
	return err
}

// oftsRebuild empties the output index and fills it again.
func oftsRebuild(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO outputs_fts(outputs_fts) VALUES ('delete-all')`); err != nil {
		return fmt.Errorf("rebuild output index: %w", err)
	}
	return oftsFill(ctx, tx)
}

// oftsInit makes the output index current in tx: it creates it, or rebuilds
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

// oftsCurrent reports, without the write lock, whether the output index
// exists and needs no rebuild.
func (s *Store) oftsCurrent(ctx context.Context) bool {
	var exists, stale int
	err := s.db.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM sqlite_master WHERE name = 'outputs_fts'),
		(SELECT count(*) FROM meta WHERE key = 'ofts_stale')`).Scan(&exists, &stale)
	return err == nil && exists == 1 && stale == 0
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
