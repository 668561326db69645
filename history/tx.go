package history

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
)

// Tx is a write transaction. The Store has one connection: while a Tx is
// open, call no other Store method (it would wait for the Tx forever).
//
// Tx is a write transaction. Rows added through it and the spool offsets it
// sets become visible together at Commit, or not at all: that is what makes
// ingestion exactly-once.
type Tx struct {
	tx                     *sql.Tx
	addCmd, addSess, getOf *sql.Stmt
	fts                    bool // the store has the full-text index
	added                  bool // rows were added: the index must follow
	ofStale                bool // (without FTS5) the output index was noted stale
	// stmts are statements prepared on first use (Tx.stmt), by query.
	stmts map[string]*sql.Stmt
	// repos are the work trees stored in this transaction (AddContext).
	repos map[string]bool
}

// stmt returns the statement for query, prepared once per transaction.
func (t *Tx) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := t.stmts[query]; ok {
		return st, nil
	}
	st, err := t.tx.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if t.stmts == nil {
		t.stmts = map[string]*sql.Stmt{}
	}
	t.stmts[query] = st
	return st, nil
}

// Begin starts a write transaction, waiting for other writers up to the busy
// timeout given to Open.
func (s *Store) Begin(ctx context.Context) (*Tx, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("begin: %w", classify(err))
	}
	t := &Tx{tx: tx}
	prep := func(q string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var st *sql.Stmt
		st, err = tx.PrepareContext(ctx, q)
		return st
	}
	t.addCmd = prep(`INSERT OR IGNORE INTO commands
		(session, seq, command, exit_code, pipestatus, cwd, started_at, duration_us, output_bytes, source)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	t.addSess = prep(`INSERT INTO sessions (id, shell, version, pid, host, user, uid, tty, started_at, capture, author)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET tty = CASE WHEN excluded.tty <> '' THEN excluded.tty ELSE tty END,
			capture = CASE WHEN excluded.capture <> '' THEN excluded.capture ELSE capture END`)
	t.getOf = prep(`SELECT inode, offset FROM spools WHERE name = ?`)
	t.fts = s.fts
	if err != nil {
		tx.Rollback()
		return nil, fmt.Errorf("begin: %w", classify(err))
	}
	return t, nil
}

// Commit makes the transaction's changes durable.
func (t *Tx) Commit() error {
	if t.fts && t.added {
		// One INSERT … SELECT indexes every row added, at less cost than a
		// statement per row.
		ctx := context.Background()
		if _, err := ftsCatchUp(ctx, t.tx); err != nil {
			return fmt.Errorf("commit: %w", classify(err))
		}
		if err := ftsMark(ctx, t.tx); err != nil {
			return fmt.Errorf("commit: %w", classify(err))
		}
	}
	if err := t.tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", classify(err))
	}
	return nil
}

// Rollback abandons the transaction. It is safe after Commit.
func (t *Tx) Rollback() { t.tx.Rollback() }

// AddSession records a session, keeping an existing record (but filling in
// its tty when it was unknown).
func (t *Tx) AddSession(ctx context.Context, s Session) error {
	_, err := t.addSess.ExecContext(ctx, s.ID, s.Shell, s.Version, s.PID, s.Host, s.User, s.UID, s.TTY, s.StartedAt, s.Capture, s.Author)
	if err != nil {
		return fmt.Errorf("add session %s: %w", s.ID, classify(err))
	}
	return nil
}

// AddCommand records a command. A command already recorded (same session and
// sequence number) is left as it is, and added reports false.
func (t *Tx) AddCommand(ctx context.Context, e Entry) (added bool, err error) {
	src := e.Source
	if src == "" {
		src = "hook"
	}
	res, err := t.addCmd.ExecContext(ctx, e.Session, e.Seq, e.Command, e.ExitCode, joinInts(e.Pipestatus),
		e.Cwd, e.StartedAt, e.DurationUS, e.OutputBytes, src)
	if err != nil {
		return false, fmt.Errorf("add command: %w", classify(err))
	}
	n, err := res.RowsAffected()
	if n > 0 {
		t.added = true
	}
	return n > 0, err
}

// SpoolOffset returns how far the spool called name has been read, and the
// inode of the file that offset belongs to (0, 0 when it was never read).
func (t *Tx) SpoolOffset(ctx context.Context, name string) (inode uint64, offset int64, err error) {
	var ino int64
	err = t.getOf.QueryRowContext(ctx, name).Scan(&ino, &offset)
	if err == sql.ErrNoRows {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, fmt.Errorf("spool offset %s: %w", name, classify(err))
	}
	return uint64(ino), offset, nil
}

// SetSpoolOffset records how far the spool called name has been read, and
// adds bad to its count of skipped records.
func (t *Tx) SetSpoolOffset(ctx context.Context, name string, inode uint64, offset int64, bad int, now int64) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO spools (name, inode, offset, bad, updated_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET inode = excluded.inode, offset = excluded.offset,
		bad = bad + excluded.bad, updated_at = excluded.updated_at`, name, int64(inode), offset, bad, now)
	if err != nil {
		return fmt.Errorf("set spool offset %s: %w", name, classify(err))
	}
	return nil
}

// DeleteSpool forgets the offset of a spool whose file is gone.
func (t *Tx) DeleteSpool(ctx context.Context, name string) error {
	// Its count of skipped records lives on in the total.
	if _, err := t.tx.ExecContext(ctx, `INSERT INTO meta (key, value)
		SELECT 'bad_forgotten', CAST(COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'bad_forgotten'), 0) + bad AS TEXT)
		FROM spools WHERE name = ?
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, name); err != nil {
		return fmt.Errorf("delete spool %s: %w", name, classify(err))
	}
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM spools WHERE name = ?`, name); err != nil {
		return fmt.Errorf("delete spool %s: %w", name, classify(err))
	}
	return nil
}

// SetMeta stores a named value, such as the last error seen.
func (t *Tx) SetMeta(ctx context.Context, key, value string) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	if err != nil {
		return fmt.Errorf("set %s: %w", key, classify(err))
	}
	return nil
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}

func splitInts(s string) []int {
	var v []int
	for _, w := range strings.Fields(s) {
		if x, err := strconv.Atoi(w); err == nil {
			v = append(v, x)
		}
	}
	return v
}
