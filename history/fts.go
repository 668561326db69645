package history

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
)

// The full-text index: an FTS5 table with the trigram tokenizer over the
// command text, so that a substring query need not read every row. It exists
// only in builds whose SQLite has FTS5 (go build -tags sqlite_fts5); other
// builds search by scanning, and leave notes (meta keys fts_upto, fts_stale)
// from which a build with FTS5 brings the index up to date. No trigger refers
// to it, so a build without FTS5 can still write the database.

// ftsRare is the most matches for which a query goes through the index; more
// common words are found sooner by reading the newest rows first.
const ftsRare = 2000

// initFTS creates the index if this SQLite can, and brings it up to date.
func (s *Store) initFTS(ctx context.Context) error {
	// Most opens find both indexes up to date: one read says so, without
	// the write lock (one statement, not four: an open is on the failure
	// path's clock).
	var on, max, stale, oExists, oStale, oFill int64
	var upto string
	err := s.db.QueryRowContext(ctx, `SELECT sqlite_compileoption_used('ENABLE_FTS5'),
		COALESCE((SELECT value FROM meta WHERE key = 'fts_upto'), ''),
		(SELECT COALESCE(max(id), 0) FROM commands), (SELECT count(*) FROM meta WHERE key = 'fts_stale'),
		(SELECT count(*) FROM sqlite_master WHERE name = 'outputs_fts'), (SELECT count(*) FROM meta WHERE key = 'ofts_stale'),
		(SELECT count(*) FROM meta WHERE key = 'ofts_fill')`).Scan(&on, &upto, &max, &stale, &oExists, &oStale, &oFill)
	if err != nil || on == 0 {
		return nil
	}
	if upto == strconv.FormatInt(max, 10) && stale == 0 && oExists == 1 && oStale == 0 {
		s.fts = true
		s.ofts = oFill == 0
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var exists int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE name = 'commands_fts'").Scan(&exists); err != nil {
		return err
	}
	if exists == 0 {
		if _, err := tx.ExecContext(ctx, `CREATE VIRTUAL TABLE commands_fts USING fts5(command,
			content='commands', content_rowid='id', tokenize='trigram')`); err != nil {
			return fmt.Errorf("create full-text index: %w", err)
		}
		// Forgotten text is removed from the index at once, not at a merge.
		if _, err := tx.ExecContext(ctx, `INSERT INTO commands_fts(commands_fts, rank) VALUES ('secure-delete', 1)`); err != nil {
			return fmt.Errorf("create full-text index: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES ('fts_upto', '0')
			ON CONFLICT (key) DO UPDATE SET value = '0'`); err != nil {
			return err
		}
	}
	tx.QueryRowContext(ctx, "SELECT count(*) FROM meta WHERE key = 'fts_stale'").Scan(&stale)
	if stale > 0 {
		// A build without FTS5 deleted rows: rebuild from what is left.
		if _, err := tx.ExecContext(ctx, `INSERT INTO commands_fts(commands_fts) VALUES ('rebuild')`); err != nil {
			return fmt.Errorf("rebuild full-text index: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM meta WHERE key = 'fts_stale'`); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE meta SET value = CAST((SELECT COALESCE(max(id), 0) FROM commands) AS TEXT)
			WHERE key = 'fts_upto'`); err != nil {
			return err
		}
	}
	if _, err := ftsCatchUp(ctx, tx); err != nil {
		return err
	}
	if err := ftsMark(ctx, tx); err != nil {
		return err
	}
	if err := oftsInit(ctx, tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.fts = true
	s.ofts = s.oftsFilled(ctx)
	return nil
}

// ftsCatchUp indexes the rows added since the index was last brought up to
// date: by this transaction, by a build without FTS5, or before the index
// existed. It runs when a write transaction of a build with FTS5 that added
// rows commits, and reports whether it indexed anything.
func ftsCatchUp(ctx context.Context, tx *sql.Tx) (bool, error) {
	var upto string
	if err := tx.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'fts_upto'").Scan(&upto); err != nil {
		return false, fmt.Errorf("full-text index: %w", err)
	}
	n, _ := strconv.ParseInt(upto, 10, 64)
	res, err := tx.ExecContext(ctx, `INSERT INTO commands_fts(rowid, command) SELECT id, command FROM commands WHERE id > ?`, n)
	if err != nil {
		return false, fmt.Errorf("full-text index: %w", err)
	}
	k, _ := res.RowsAffected()
	return k > 0, nil
}

// ftsMark records that the index holds every row there is.
func ftsMark(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `UPDATE meta SET value = CAST((SELECT COALESCE(max(id), 0) FROM commands) AS TEXT)
		WHERE key = 'fts_upto'`)
	return err
}

// ftsDelete takes a row out of the index before it is deleted, or notes
// that the index must be rebuilt when this build has none.
func (s *Store) ftsDelete(ctx context.Context, tx *sql.Tx, id int64) error {
	if !s.fts {
		_, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value)
			SELECT 'fts_stale', '1' WHERE EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'commands_fts')
			ON CONFLICT (key) DO NOTHING`)
		if err == nil {
			err = oftsStale(ctx, tx)
		}
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO commands_fts(commands_fts, rowid, command)
		SELECT 'delete', id, command FROM commands WHERE id = ?`, id)
	if err == nil {
		_, err = tx.ExecContext(ctx, `DELETE FROM outputs_fts WHERE rowid = ?`, id)
	}
	return err
}

// ftsQuery returns the FTS5 query for the words of a text query that the
// trigram index can serve (three bytes or more), or "".
func ftsQuery(words []string) string {
	var terms []string
	for _, w := range words {
		if len(w) >= 3 {
			terms = append(terms, `"`+strings.ReplaceAll(w, `"`, `""`)+`"`)
		}
	}
	return strings.Join(terms, " AND ")
}

// ftsFew reports whether the index finds at most ftsRare rows for q.
func (s *Store) ftsFew(ctx context.Context, q string) bool {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT rowid FROM commands_fts WHERE commands_fts MATCH ? LIMIT ?)`,
		q, ftsRare+1).Scan(&n)
	return err == nil && n <= ftsRare
}
