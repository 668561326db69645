package history

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Query selects entries. The zero Query selects everything, newest first.
type Query struct {
	Limit   int    // at most this many entries (0: no limit)
	Failed  bool   // only commands with a non-zero exit status
	Session string // only this session
	Cwd     string // only commands started in this directory
	// CwdUnder keeps the commands started in this directory or below it.
	CwdUnder string
	Since    int64  // only commands started at or after this time (µs)
	Text     string // every word must occur in the command, ignoring ASCII case
	// Authors, when not nil, keeps only the commands of these authors
	// ("" for the user's own shells, "claude-code" for that agent's).
	Authors []string
	// Host selects the commands of one host: its label (the hostname the
	// shell reported) or, for commands synced from another installation,
	// that installation's id.
	Host string
	// ThisHost selects the commands recorded by this installation (not
	// synced from another).
	ThisHost bool
	// Oldest lists the oldest first (Walk); the default is the newest
	// first.
	Oldest bool
}

// ErrNotFound reports a reference to a command that is not in the history.
var ErrNotFound = errors.New("no such command in the history")

// The output's size is 0 where nothing of it was kept: none captured, its
// text pruned, or a full-screen program's or a withheld one (whose text is
// only a note).
var entryColumns = `c.id, c.session, c.seq, c.command, c.exit_code, c.pipestatus, c.cwd, c.started_at,
	c.duration_us, CASE WHEN o.flags & ` + strconv.Itoa(int(OutputFullScreen|OutputWithheld)) + ` <> 0 THEN 0 ELSE COALESCE(length(o.text), 0) END,
	c.source, COALESCE(s.shell, ''), COALESCE(s.host, ''), COALESCE(s.user, ''), COALESCE(s.tty, ''), COALESCE(s.author, '')`

// entryFrom joins each command to its session and to its output as the
// terminal showed it (stream ”), whose stored size is the entry's
// OutputBytes.
const entryFrom = ` FROM commands c LEFT JOIN sessions s ON s.id = c.session
	LEFT JOIN outputs o ON o.session = c.session AND o.seq = c.seq AND o.stream = ''`

func scanEntry(sc interface{ Scan(...any) error }) (Entry, error) {
	var e Entry
	var ps string
	err := sc.Scan(&e.ID, &e.Session, &e.Seq, &e.Command, &e.ExitCode, &ps, &e.Cwd, &e.StartedAt,
		&e.DurationUS, &e.OutputBytes, &e.Source, &e.Shell, &e.Host, &e.User, &e.TTY, &e.Author)
	e.Pipestatus = splitInts(ps)
	e.HostID = SessionHost(e.Session)
	return e, err
}

// List returns the entries q selects, newest first (oldest first with
// q.Oldest).
func (s *Store) List(ctx context.Context, q Query) ([]Entry, error) {
	var out []Entry
	err := s.Walk(ctx, q, func(e Entry) error {
		out = append(out, e)
		return nil
	})
	return out, err
}

// Latest returns the newest n runs (newest first) with only their command,
// directory, status and start filled in: the past that the failure path's
// rules compare with, read from the commands alone (List's joins with the
// sessions and the outputs cost 3 ms for 500 rows at 1M, this 0.3 ms).
func (s *Store) Latest(ctx context.Context, n int) ([]Entry, error) {
	if s == nil || n <= 0 {
		return nil, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT command, cwd, exit_code, started_at FROM commands
		ORDER BY started_at DESC, id DESC LIMIT ?`, n)
	if err != nil {
		return nil, fmt.Errorf("latest history: %w", classify(err))
	}
	defer rows.Close()
	out := make([]Entry, 0, n)
	for rows.Next() {
		var e Entry
		if err := rows.Scan(&e.Command, &e.Cwd, &e.ExitCode, &e.StartedAt); err != nil {
			return nil, fmt.Errorf("latest history: %w", classify(err))
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("latest history: %w", classify(err))
	}
	return out, nil
}

// manyRows is the number of entries from which a listing reads the sizes
// of the outputs and the sessions in one pass each rather than looking
// them up row by row (walkMany).
const manyRows = 1000

// Walk calls fn with each entry q selects, newest first (oldest first with
// q.Oldest), as they are read: a listing of the whole history holds one
// entry at a time. An error from fn stops the walk and is returned.
func (s *Store) Walk(ctx context.Context, q Query, fn func(Entry) error) error {
	w, ok := s.queryWhere(ctx, q)
	if !ok {
		return nil
	}
	if q.Limit == 0 || q.Limit > manyRows {
		return s.walkMany(ctx, q, w, fn)
	}
	query := "SELECT " + entryColumns + entryFrom
	if len(w.clauses) > 0 {
		query += " WHERE " + strings.Join(w.clauses, " AND ")
	}
	query += walkOrder(q)
	return s.each(ctx, "list history", query, w.args, fn)
}

func walkOrder(q Query) string {
	order := " ORDER BY c.started_at DESC, c.id DESC"
	if q.Oldest {
		order = " ORDER BY c.started_at, c.id"
	}
	if q.Limit > 0 {
		order += fmt.Sprintf(" LIMIT %d", q.Limit)
	}
	return order
}

// outputSize is the size of an output as the terminal showed it, read in
// walkMany's pass over the outputs table. The text of a full-screen
// program's output is only a note (capture.FullScreenNote, 39 bytes), so
// flags, stored after the text, is read only for a text that short; the
// length of a longer one is in its row's header, and no overflow page is
// read.
var outputSize = `CASE WHEN length(text) <= ` + strconv.Itoa(fullScreenNoteMax) +
	` AND flags & ` + strconv.Itoa(int(OutputFullScreen)) + ` <> 0 THEN 0 ELSE COALESCE(length(text), 0) END`

// fullScreenNoteMax bounds the length of the text of a full-screen
// program's output (capture.FullScreenNote, 39 bytes).
const fullScreenNoteMax = 256

// walkMany is Walk for a listing of many entries (the whole history):
// three passes in one read transaction, each over one table in its own
// order. The sessions (a few thousand) and the sizes of the outputs as
// the terminal showed them are read into memory first; the commands
// then stream in the listing's order and are joined to them here.
//
// Joining in SQL cost more than the rest of the listing: a search of the
// outputs' b-tree per row reads whole rows of it (the text is stored in
// them, WITHOUT ROWID), overflow pages included, straight from the file
// (SQLite's direct overflow read, past the page cache): 5.8 reads a row
// with 1 KB outputs, hundreds with large ones (issue 32); a materialized
// pass over the outputs joined through an automatic index cost 3 s of CPU
// on 1,000,000 commands (the index is built by sorting every key), and the
// search of the session per row another 1.5 s (docs/benchmarks.md §30).
func (s *Store) walkMany(ctx context.Context, q Query, w where, fn func(Entry) error) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("list history: %w", classify(err))
	}
	defer conn.Close()
	// One snapshot for the three passes (the store's transactions are
	// immediate, which would hold writers off: this one only reads).
	if _, err := conn.ExecContext(ctx, "BEGIN DEFERRED"); err != nil {
		return fmt.Errorf("list history: %w", classify(err))
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
	sessions, err := walkSessions(ctx, conn)
	if err != nil {
		return fmt.Errorf("list history: %w", classify(err))
	}
	if err := walkSizes(ctx, conn, sessions); err != nil {
		return fmt.Errorf("list history: %w", classify(err))
	}
	query := "SELECT c.id, c.session, c.seq, c.command, c.exit_code, c.pipestatus, c.cwd, c.started_at, c.duration_us, c.source FROM commands c"
	if len(w.clauses) > 0 {
		// A filter may read the session (its author, its host).
		query += " LEFT JOIN sessions s ON s.id = c.session WHERE " + strings.Join(w.clauses, " AND ")
	}
	var (
		e    Entry
		last *walkSession
	)
	err = rawRows(ctx, conn, query+walkOrder(q), w.args, func(v []driver.Value) error {
		e.ID, e.Seq, e.ExitCode = valueInt(v[0]), valueInt(v[2]), int(valueInt(v[4]))
		e.StartedAt, e.DurationUS = valueInt(v[7]), valueInt(v[8])
		e.Command, e.Cwd, e.Source = valueString(v[3]), valueString(v[6]), valueString(v[9])
		e.Pipestatus = splitInts(valueString(v[5]))
		// Rows of one session follow each other: the session is
		// looked up once for them.
		if session := valueString(v[1]); last == nil || last.id != session {
			if last = sessions[session]; last == nil {
				last = &walkSession{id: session, hostID: SessionHost(session)}
			}
		}
		e.Session, e.Shell, e.Host, e.User, e.TTY, e.Author, e.HostID = last.id, last.shell, last.host, last.user, last.tty, last.author, last.hostID
		e.OutputBytes = last.size(e.Seq)
		return fn(e)
	})
	var fnErr walkError
	if errors.As(err, &fnErr) {
		return fnErr.err
	}
	if err != nil {
		return fmt.Errorf("list history: %w", classify(err))
	}
	return nil
}

// walkError carries an error of Walk's fn out of rawRows unchanged.
type walkError struct{ err error }

func (w walkError) Error() string { return w.err.Error() }

// rawRows runs query on conn through the driver itself and calls fn with
// each row's values (int64, float64, string, []byte or nil; the slice is
// reused from row to row): database/sql's conversion of each value into
// the caller's variables, through reflection and under its locks, was a
// fifth of a listing's time. An error of fn is returned as a walkError.
func rawRows(ctx context.Context, conn *sql.Conn, query string, args []any, fn func([]driver.Value) error) error {
	return conn.Raw(func(dc any) error {
		q, ok := dc.(driver.QueryerContext)
		if !ok {
			return errors.New("the driver cannot query")
		}
		named := make([]driver.NamedValue, len(args))
		for i, a := range args {
			v, err := driver.DefaultParameterConverter.ConvertValue(a)
			if err != nil {
				return err
			}
			named[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
		}
		// The driver watches a context that can end from a goroutine it
		// starts for each row: ctx is looked at every 1024 rows here.
		rows, err := q.QueryContext(context.WithoutCancel(ctx), query, named)
		if err != nil {
			return err
		}
		defer rows.Close()
		dest := make([]driver.Value, len(rows.Columns()))
		for n := 0; ; n++ {
			if n%1024 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			if err := rows.Next(dest); err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
			if err := fn(dest); err != nil {
				return walkError{err}
			}
		}
	})
}

func valueInt(v driver.Value) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	}
	return 0
}

func valueString(v driver.Value) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case int64:
		return strconv.FormatInt(x, 10)
	}
	return ""
}

// walkSession is a session's columns an Entry shows, and the sizes of its
// outputs (walkMany).
type walkSession struct {
	id, shell, host, user, tty, author, hostID string
	// bySeq is the size of the output of each sequence number from 0,
	// as a session numbers its commands; sparse holds those far beyond.
	bySeq  []int64
	sparse map[int64]int64
}

func (ws *walkSession) size(seq int64) int64 {
	if seq >= 0 && seq < int64(len(ws.bySeq)) {
		return ws.bySeq[seq]
	}
	return ws.sparse[seq]
}

func walkSessions(ctx context.Context, conn *sql.Conn) (map[string]*walkSession, error) {
	rows, err := conn.QueryContext(ctx, "SELECT id, shell, host, user, tty, author FROM sessions")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]*walkSession{}
	for rows.Next() {
		ws := &walkSession{}
		if err := rows.Scan(&ws.id, &ws.shell, &ws.host, &ws.user, &ws.tty, &ws.author); err != nil {
			return nil, err
		}
		ws.hostID = SessionHost(ws.id)
		out[ws.id] = ws
	}
	return out, rows.Err()
}

// walkSizes reads the size of every output as the terminal showed it
// (stream ”) into its session's walkSession (made for an output whose
// session has no row), in one pass over the outputs in their order.
func walkSizes(ctx context.Context, conn *sql.Conn, sessions map[string]*walkSession) error {
	var ws *walkSession
	err := rawRows(ctx, conn, "SELECT session, seq, "+outputSize+" FROM outputs WHERE stream = ''", nil, func(v []driver.Value) error {
		seq, size := valueInt(v[1]), valueInt(v[2])
		if session := valueString(v[0]); ws == nil || ws.id != session {
			if ws = sessions[session]; ws == nil {
				ws = &walkSession{id: session, hostID: SessionHost(session)}
				sessions[ws.id] = ws
			}
		}
		if size == 0 {
			return nil
		}
		// A session numbers its commands from 1: a slice indexed by
		// the number, unless one is far beyond those seen.
		if seq >= 0 && seq < int64(len(ws.bySeq))+4096 {
			if n := int(seq) + 1; n > len(ws.bySeq) {
				ws.bySeq = slices.Grow(ws.bySeq, n-len(ws.bySeq))[:n]
			}
			ws.bySeq[seq] = size
			return nil
		}
		if ws.sparse == nil {
			ws.sparse = map[int64]int64{}
		}
		ws.sparse[seq] = size
		return nil
	})
	return err
}

// queryWhere is the WHERE clauses of q's selection (commands c joined to
// their sessions s); false when it selects nothing.
func (s *Store) queryWhere(ctx context.Context, q Query) (where, bool) {
	var w where
	if !w.common(filter{q.Failed, q.Session, q.Cwd, q.CwdUnder, q.Since, q.Authors, q.ThisHost}) {
		return w, false
	}
	if q.Host != "" {
		if SessionHost("x"+HostSep+q.Host) != "" {
			w.add(`(s.host = ? OR c.session GLOB ?)`, q.Host, "*"+HostSep+q.Host)
		} else {
			w.add("s.host = ?", q.Host)
		}
	}
	words := strings.Fields(q.Text)
	for _, word := range words {
		w.add(`c.command LIKE ? ESCAPE '\'`, "%"+likeEscape(word)+"%")
	}
	// Rare words: the full-text index finds the few rows at once; common
	// ones are found sooner by reading the newest rows first (the LIKE
	// terms above keep the meaning exact either way).
	if fq := ftsQuery(words); s.fts && fq != "" && s.ftsFew(ctx, fq) {
		w.add("c.id IN (SELECT rowid FROM commands_fts WHERE commands_fts MATCH ?)", fq)
	}
	return w, true
}

// entries runs query, which selects entryColumns, and returns its
// entries; what names the query in its errors.
func (s *Store) entries(ctx context.Context, what, query string, args ...any) ([]Entry, error) {
	var out []Entry
	err := s.each(ctx, what, query, args, func(e Entry) error {
		out = append(out, e)
		return nil
	})
	return out, err
}

// each runs query, which selects entryColumns, and calls fn with each
// entry as it is read.
func (s *Store) each(ctx context.Context, what, query string, args []any, fn func(Entry) error) error {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("%s: %w", what, classify(err))
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return fmt.Errorf("%s: %w", what, classify(err))
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: %w", what, classify(err))
	}
	return nil
}

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// Get returns the entry with the given id.
func (s *Store) Get(ctx context.Context, id int64) (Entry, error) {
	e, err := scanEntry(s.db.QueryRowContext(ctx, "SELECT "+entryColumns+entryFrom+" WHERE c.id = ?", id))
	if err == sql.ErrNoRows {
		return Entry{}, fmt.Errorf("command %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Entry{}, fmt.Errorf("get command %d: %w", id, classify(err))
	}
	return e, nil
}

// Recent returns the n-th most recent command of session (n = 1: the last).
func (s *Store) Recent(ctx context.Context, session string, n int) (Entry, error) {
	if n < 1 {
		return Entry{}, fmt.Errorf("command -%d: %w", n, ErrNotFound)
	}
	e, err := scanEntry(s.db.QueryRowContext(ctx, "SELECT "+entryColumns+entryFrom+
		" WHERE c.session = ? ORDER BY c.seq DESC LIMIT 1 OFFSET ?", session, n-1))
	if err == sql.ErrNoRows {
		return Entry{}, fmt.Errorf("command -%d of this session: %w", n, ErrNotFound)
	}
	if err != nil {
		return Entry{}, fmt.Errorf("get command -%d: %w", n, classify(err))
	}
	return e, nil
}

// LatestSession returns the session of the most recent command of author:
// for "" the user's most recent interactive shell (a shell's hooks
// recorded it: not `hookd run`, not an import), for an agent's name that
// agent's most recent session. A history without one gives an error
// wrapping ErrNotFound.
func (s *Store) LatestSession(ctx context.Context, author string) (string, error) {
	source := "hook"
	if author != "" {
		source = "agent"
	}
	var id string
	err := s.db.QueryRowContext(ctx, `SELECT c.session FROM commands c JOIN sessions s ON s.id = c.session
		WHERE c.source = ? AND s.author = ? ORDER BY c.started_at DESC, c.id DESC LIMIT 1`, source, author).Scan(&id)
	if err == sql.ErrNoRows {
		who := "no interactive shell"
		if author != "" {
			who = "no session of " + author
		}
		return "", fmt.Errorf("%s has recorded a command: %w", who, ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("latest session: %w", classify(err))
	}
	return id, nil
}

// Forget deletes the given entries for good, and returns how many there were.
func (s *Store) Forget(ctx context.Context, ids []int64) (int, error) {
	return s.forget(ctx, func(tx *sql.Tx) ([]int64, error) { return ids, nil })
}

// ForgetMatch deletes for good every entry whose command re matches.
func (s *Store) ForgetMatch(ctx context.Context, re *regexp.Regexp) (int, error) {
	return s.forget(ctx, func(tx *sql.Tx) ([]int64, error) {
		rows, err := tx.QueryContext(ctx, "SELECT id, command FROM commands")
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var ids []int64
		for rows.Next() {
			var id int64
			var cmd string
			if err := rows.Scan(&id, &cmd); err != nil {
				return nil, err
			}
			if re.MatchString(cmd) {
				ids = append(ids, id)
			}
		}
		return ids, rows.Err()
	})
}

// ForgetCommand deletes for good every entry whose command line is exactly
// command (what the search's delete key does).
func (s *Store) ForgetCommand(ctx context.Context, command string) (int, error) {
	return s.forget(ctx, func(tx *sql.Tx) ([]int64, error) {
		rows, err := tx.QueryContext(ctx, "SELECT id FROM commands WHERE command = ?", command)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var ids []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return nil, err
			}
			ids = append(ids, id)
		}
		return ids, rows.Err()
	})
}

func (s *Store) forget(ctx context.Context, pick func(*sql.Tx) ([]int64, error)) (int, error) {
	// secure_delete overwrites the freed content; the checkpoint then
	// empties the WAL, which still holds the old pages.
	if _, err := s.db.ExecContext(ctx, "PRAGMA secure_delete = ON"); err != nil {
		return 0, fmt.Errorf("forget: %w", classify(err))
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("forget: %w", classify(err))
	}
	defer tx.Rollback()
	ids, err := pick(tx)
	if err != nil {
		return 0, fmt.Errorf("forget: %w", classify(err))
	}
	n, err := s.forgetRows(ctx, tx, ids)
	if err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("forget: %w", classify(err))
	}
	if _, err := s.db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		return n, fmt.Errorf("forget: checkpoint: %w", classify(err))
	}
	if n > 0 {
		if err := s.dropBackups(); err != nil {
			return n, fmt.Errorf("forget: remove the pre-migration backup: %w", err)
		}
	}
	return n, nil
}

// forgetRows deletes the commands with the given ids inside tx, with their
// outputs, their rows in the full-text index, their contexts, their
// intents (and a prompt whose turn is left empty) and what was learned
// from them, and returns how many there were; a session left with no
// command loses its environments, and an environment or a work tree no
// command refers to any more goes too. (The schema's trigger records a
// tombstone for each, for sync.)
func (s *Store) forgetRows(ctx context.Context, tx *sql.Tx, ids []int64) (int, error) {
	n := 0
	sessions := map[string]bool{}
	var repos []any
	for _, id := range ids {
		var sess string
		var seq int64
		var repo sql.NullInt64
		switch err := tx.QueryRowContext(ctx, `SELECT c.session, c.seq, x.repo FROM commands c LEFT JOIN contexts x ON x.id = c.id
			WHERE c.id = ?`, id).Scan(&sess, &seq, &repo); err {
		case nil:
			sessions[sess] = true
			if repo.Int64 > 0 {
				repos = append(repos, repo.Int64)
			}
			if err := forgetWhy(ctx, tx, sess, seq); err != nil {
				return 0, fmt.Errorf("forget %d: %w", id, classify(err))
			}
		case sql.ErrNoRows:
		default:
			return 0, fmt.Errorf("forget %d: %w", id, classify(err))
		}
		if err := s.ftsDelete(ctx, tx, id); err != nil {
			return 0, fmt.Errorf("forget %d: %w", id, classify(err))
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM outputs WHERE (session, seq) IN
			(SELECT session, seq FROM commands WHERE id = ?)`, id); err != nil {
			return 0, fmt.Errorf("forget %d: %w", id, classify(err))
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM contexts WHERE id = ?`, id); err != nil {
			return 0, fmt.Errorf("forget %d: %w", id, classify(err))
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM notes WHERE (session, seq) IN
			(SELECT session, seq FROM commands WHERE id = ?)`, id); err != nil {
			return 0, fmt.Errorf("forget %d: %w", id, classify(err))
		}
		res, err := tx.ExecContext(ctx, "DELETE FROM commands WHERE id = ?", id)
		if err != nil {
			return 0, fmt.Errorf("forget %d: %w", id, classify(err))
		}
		k, _ := res.RowsAffected()
		n += int(k)
	}
	if err := forgetContexts(ctx, tx, sessions, repos); err != nil {
		return 0, fmt.Errorf("forget: %w", classify(err))
	}
	// What was learned from them goes with them; and learning, which
	// marks the last id it looked at, must see the ids SQLite may give
	// again to new commands.
	// Caches of the history (package search's) know it changed.
	if n > 0 {
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES ('forget_gen', '1')
			ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)`); err != nil {
			return 0, fmt.Errorf("forget: %w", classify(err))
		}
	}
	if err := dropSources(ctx, tx, ids, false); err != nil {
		return 0, fmt.Errorf("forget: %w", classify(err))
	}
	if _, err := tx.ExecContext(ctx, `UPDATE meta SET value = CAST(MIN(CAST(value AS INTEGER),
		COALESCE((SELECT MAX(id) FROM commands), 0)) AS TEXT) WHERE key = ?`, learnMarkKey); err != nil {
		return 0, fmt.Errorf("forget: %w", classify(err))
	}
	return n, nil
}

// Stats describes the database.
type Stats struct {
	Commands  int64
	Sessions  int64
	Failed    int64
	Bad       int64 // spool records skipped as malformed, all time
	SizeBytes int64 // database file plus WAL
	LastError string
}

// Stats returns counts and sizes.
func (s *Store) Stats(ctx context.Context) (Stats, error) {
	var st Stats
	err := s.db.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM commands), (SELECT COUNT(*) FROM sessions),
		(SELECT COUNT(*) FROM commands WHERE exit_code <> 0),
		(SELECT COALESCE(SUM(bad), 0) FROM spools) + COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'bad_forgotten'), 0),
		COALESCE((SELECT value FROM meta WHERE key = 'last_error'), '')`).
		Scan(&st.Commands, &st.Sessions, &st.Failed, &st.Bad, &st.LastError)
	if err != nil {
		return st, fmt.Errorf("stats: %w", classify(err))
	}
	st.SizeBytes = fileSize(s.path) + fileSize(s.path+"-wal")
	return st, nil
}

// SpoolState is how far a spool has been read.
type SpoolState struct {
	Inode  uint64
	Offset int64
}

// SpoolOffsets returns every spool's state, by name.
func (s *Store) SpoolOffsets(ctx context.Context) (map[string]SpoolState, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT name, inode, offset FROM spools")
	if err != nil {
		return nil, fmt.Errorf("spool offsets: %w", classify(err))
	}
	defer rows.Close()
	m := map[string]SpoolState{}
	for rows.Next() {
		var name string
		var ino, off int64
		if err := rows.Scan(&name, &ino, &off); err != nil {
			return nil, fmt.Errorf("spool offsets: %w", classify(err))
		}
		m[name] = SpoolState{Inode: uint64(ino), Offset: off}
	}
	return m, rows.Err()
}

// Session returns what is known of a session.
func (s *Store) Session(ctx context.Context, id string) (Session, error) {
	se := Session{ID: id}
	err := s.db.QueryRowContext(ctx, `SELECT shell, version, pid, host, user, uid, tty, started_at, capture, author
		FROM sessions WHERE id = ?`, id).Scan(&se.Shell, &se.Version, &se.PID, &se.Host, &se.User, &se.UID, &se.TTY, &se.StartedAt, &se.Capture, &se.Author)
	if err == sql.ErrNoRows {
		return se, fmt.Errorf("session %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return se, fmt.Errorf("session %s: %w", id, classify(err))
	}
	return se, nil
}

// BySeq returns the command with sequence number seq in session.
func (s *Store) BySeq(ctx context.Context, session string, seq int64) (Entry, error) {
	e, err := scanEntry(s.db.QueryRowContext(ctx, "SELECT "+entryColumns+entryFrom+" WHERE c.session = ? AND c.seq = ?", session, seq))
	if err == sql.ErrNoRows {
		return Entry{}, fmt.Errorf("command #%d of this session: %w", seq, ErrNotFound)
	}
	if err != nil {
		return Entry{}, fmt.Errorf("get command #%d: %w", seq, classify(err))
	}
	return e, nil
}

// forgetContexts deletes, after commands were forgotten, the environments
// of the sessions among sessions that have no command left, the
// environments no session refers to any more, and the work trees among
// repos no context refers to any more (one pass over the contexts).
func forgetContexts(ctx context.Context, tx *sql.Tx, sessions map[string]bool, repos []any) error {
	for sess := range sessions {
		rows, err := tx.QueryContext(ctx, `DELETE FROM session_envs
			WHERE session = ? AND NOT EXISTS (SELECT 1 FROM commands WHERE session = ?) RETURNING env`, sess, sess)
		if err != nil {
			return err
		}
		var envs []int64
		for rows.Next() {
			var e int64
			if err := rows.Scan(&e); err != nil {
				rows.Close()
				return err
			}
			envs = append(envs, e)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, e := range envs {
			if _, err := tx.ExecContext(ctx, `DELETE FROM envs WHERE id = ? AND NOT EXISTS (SELECT 1 FROM session_envs WHERE env = ?)`, e, e); err != nil {
				return err
			}
		}
	}
	if len(repos) > 0 {
		in := "?" + strings.Repeat(", ?", len(repos)-1)
		args := append(append([]any{}, repos...), repos...)
		if _, err := tx.ExecContext(ctx, `DELETE FROM repos WHERE id IN (`+in+`)
			AND id NOT IN (SELECT repo FROM contexts WHERE repo IN (`+in+`))`, args...); err != nil {
			return err
		}
	}
	return nil
}

// where is a query's WHERE clauses and their arguments, in order.
type where struct {
	clauses []string
	args    []any
}

func (w *where) add(clause string, args ...any) {
	w.clauses = append(w.clauses, clause)
	w.args = append(w.args, args...)
}

// filter is what List and SearchOutputs select commands by alike.
type filter struct {
	failed   bool
	session  string
	cwd      string
	cwdUnder string   // the directory or below it
	since    int64    // µs
	authors  []string // nil: any; empty: none
	thisHost bool
}

// common adds f's clauses; false when f selects nothing (no author).
func (w *where) common(f filter) bool {
	if f.failed {
		w.add("c.exit_code <> 0")
	}
	if f.session != "" {
		w.add("c.session = ?", f.session)
	}
	if f.cwd != "" {
		w.add("c.cwd = ?", f.cwd)
	}
	if f.cwdUnder != "" {
		dir := strings.TrimSuffix(f.cwdUnder, "/")
		w.add("(c.cwd = ? OR c.cwd LIKE ? ESCAPE '\\')", dir, likeEscape(dir)+"/%")
	}
	if f.since != 0 {
		w.add("c.started_at >= ?", f.since)
	}
	if f.authors != nil {
		if len(f.authors) == 0 {
			return false
		}
		args := make([]any, len(f.authors))
		for i, a := range f.authors {
			args[i] = a
		}
		w.add("COALESCE(s.author, '') IN (?"+strings.Repeat(", ?", len(f.authors)-1)+")", args...)
	}
	if f.thisHost {
		w.add("c.session NOT GLOB '" + remoteGlob + "'")
	}
	return true
}

// LinesWith returns the command lines of session before sequence number
// before that hold word (its bytes, case kept), newest first, at most
// limit: what "it worked before" reads of a session for a variable's
// assignment (package before).
func (s *Store) LinesWith(ctx context.Context, session string, before int64, word string, limit int) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT command FROM commands WHERE session = ? AND seq < ? AND instr(command, ?) > 0
		ORDER BY seq DESC LIMIT ?`, session, before, word, limit)
	if err != nil {
		return nil, fmt.Errorf("session lines: %w", classify(err))
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return nil, fmt.Errorf("session lines: %w", classify(err))
		}
		out = append(out, line)
	}
	return out, rows.Err()
}
