package history

import (
	"context"
	"database/sql"
)

// Recognising the rows of hookd's tables among the records Salvage
// decodes, by their shape (see schema.go), and writing them.

const (
	tableNone = iota
	tableCommands
	tableSessions
	tableOutputs
	tableSpools
	tableAsks
	tableIntents
	tablePrompts
)

// shapes gives, per table, the kinds of its columns in a record: 'n' NULL
// (the rowid alias), 'i' integer, 't' text, 'b' blob, text or NULL. meta,
// sqlite_master, the indexes and the full-text index's tables have other
// shapes.
var shapes = []struct {
	table int
	index bool // the rows are index entries (WITHOUT ROWID)
	kinds string
}{
	// id, session, seq, command, exit_code, pipestatus, cwd, started_at,
	// duration_us, output_bytes, source; schema 10: agent (a row written
	// before it has none; the triggers set it again as the row goes in)
	{tableCommands, false, "ntitittiiiti"},
	{tableCommands, false, "ntitittiiit"},
	{tableSessions, false, "tttittititt"}, // schema 5: author
	{tableSessions, false, "tttittitit"},
	{tableSessions, false, "tttittiti"}, // schema 1, before capture was added
	{tableOutputs, true, "titbiii"},
	{tableSpools, false, "tiiii"},
	// id, session, parent, question, context, answer, reasoning, provider,
	// model, input_tokens, output_tokens, first_token_us, duration_us,
	// status, error, started_at
	{tableAsks, false, "ntittttttiiiitti"},
	// Schema 8, WITHOUT ROWID: session, seq, text; session, seq, at, text.
	// No index of hookd's has these shapes (their entries end in a rowid).
	{tableIntents, true, "tit"},
	{tablePrompts, true, "tiit"},
}

// tableOf returns the table c is a plausible row of, or tableNone.
func tableOf(c *cell) int {
next:
	for _, sh := range shapes {
		if sh.index != c.index || len(sh.kinds) != len(c.vals) {
			continue
		}
		for i, k := range []byte(sh.kinds) {
			ok := false
			v := c.vals[i].kind
			switch k {
			case 'n':
				ok = v == kindNull
			case 'i':
				ok = v == kindInt
			case 't':
				ok = v == kindText
			case 'b':
				ok = v == kindBlob || v == kindText || v == kindNull
			}
			if !ok {
				continue next
			}
		}
		if plausible(sh.table, c) {
			return sh.table
		}
	}
	return tableNone
}

// plausible checks the values of a row beyond their kinds, so that stray
// bytes that happen to decode into the right shape are left out.
func plausible(table int, c *cell) bool {
	v := c.vals
	switch table {
	case tableCommands:
		return c.rowid > 0 && len(v[1].b) > 0 && isWord(v[10].b, 16) && isPipestatus(v[5].b) &&
			v[8].i >= 0 && v[9].i >= 0
	case tableSessions:
		return len(v[0].b) > 0
	case tableOutputs:
		return len(v[0].b) > 0 && (len(v[2].b) == 0 || isWord(v[2].b, 16)) && v[4].i >= 0 && v[5].i >= 0
	case tableSpools:
		return len(v[0].b) > 0 && v[2].i >= 0 && v[3].i >= 0
	case tableAsks:
		return c.rowid > 0 && isWord(v[13].b, 16) && v[15].i > 0 && v[2].i >= 0
	case tableIntents:
		return len(v[0].b) > 0 && v[1].i >= 0
	case tablePrompts:
		return len(v[0].b) > 0 && v[1].i >= 0 && v[2].i > 0
	}
	return false
}

// isWord reports whether b is 1 to max lower-case ASCII letters.
func isWord(b []byte, max int) bool {
	if len(b) == 0 || len(b) > max {
		return false
	}
	for _, c := range b {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// isPipestatus reports whether b is a list of integers as joinInts writes it.
func isPipestatus(b []byte) bool {
	for _, c := range b {
		if (c < '0' || c > '9') && c != ' ' && c != '-' {
			return false
		}
	}
	return true
}

// salvageWriter inserts the rows Salvage recognises, in one transaction
// that it begins at the first row (a file with none costs no write).
type salvageWriter struct {
	ctx                 context.Context
	db                  *sql.DB
	tx                  *sql.Tx
	cmd, later          *sql.Stmt
	sess, out, spl, idx *sql.Stmt
	ask, askNew         *sql.Stmt
	intent, prompt      *sql.Stmt
	fts                 bool  // the store has the full-text index
	upto                int64 // rows with ids above are indexed at the end; others one by one
	below               bool  // a command went in with an id of at most upto
	st                  *SalvageStats
	err                 error
}

// begin starts the transaction and prepares the statements.
func (w *salvageWriter) begin() error {
	ctx := w.ctx
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	w.tx = tx
	// What the index already covers: with it, up to fts_upto; without
	// it, a build with it will take every id above the larger of fts_upto
	// and the largest id, and needs telling about the others.
	var upto string
	var maxID int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE((SELECT value FROM meta WHERE key = 'fts_upto'), '0'),
		(SELECT COALESCE(max(id), 0) FROM commands)`).Scan(&upto, &maxID); err != nil {
		return err
	}
	w.upto = parseInt(upto)
	if !w.fts {
		w.upto = max(w.upto, maxID)
	}
	prep := func(q string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var st *sql.Stmt
		st, err = tx.PrepareContext(ctx, q)
		return st
	}
	// A salvaged command keeps its id unless the store already uses it
	// (it is ignored here, then deferred: see deferCommand).
	w.cmd = prep(`INSERT OR IGNORE INTO commands
		(id, session, seq, command, exit_code, pipestatus, cwd, started_at, duration_us, output_bytes, source)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	w.sess = prep(`INSERT OR IGNORE INTO sessions (id, shell, version, pid, host, user, uid, tty, started_at, capture, author)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	w.out = prep(`INSERT OR IGNORE INTO outputs (session, seq, stream, text, bytes, flags, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`)
	w.spl = prep(`INSERT OR IGNORE INTO spools (name, inode, offset, bad, updated_at) VALUES (?, ?, ?, ?, ?)`)
	// A question keeps its id (its conversation's parent links use it)
	// unless the store uses it; then it gets a new one, unless the store
	// has it already.
	const askCols = `session, parent, question, context, answer, reasoning, provider, model,
		input_tokens, output_tokens, first_token_us, duration_us, status, error, started_at`
	w.ask = prep(`INSERT OR IGNORE INTO asks (id, ` + askCols + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	w.askNew = prep(`INSERT INTO asks (` + askCols + `) SELECT ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16
		WHERE NOT EXISTS (SELECT 1 FROM asks WHERE started_at = ?16 AND question = ?4 AND session = ?2)`)
	// Why an agent ran a command, and what it was asked: one already held
	// is kept.
	w.intent = prep(`INSERT OR IGNORE INTO intents (session, seq, text) VALUES (?, ?, ?)`)
	w.prompt = prep(`INSERT OR IGNORE INTO prompts (session, seq, at, text) VALUES (?, ?, ?, ?)`)
	if w.fts {
		w.idx = prep(`INSERT INTO commands_fts(rowid, command) VALUES (?, ?)`)
	}
	return err
}

// deferCommand keeps a command whose id the store uses in a temporary
// table, unless the store has it; it gets a new id once every other
// command has its own (so that it takes none of theirs).
func (w *salvageWriter) deferCommand(args []any) error {
	if w.later == nil {
		if _, err := w.tx.ExecContext(w.ctx, `CREATE TEMP TABLE salvage_later (session TEXT, seq INTEGER,
			command TEXT, exit_code INTEGER, pipestatus TEXT, cwd TEXT, started_at INTEGER, duration_us INTEGER,
			output_bytes INTEGER, source TEXT)`); err != nil {
			return err
		}
		var err error
		w.later, err = w.tx.PrepareContext(w.ctx, `INSERT INTO temp.salvage_later
			SELECT ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11
			WHERE NOT EXISTS (SELECT 1 FROM commands WHERE session = ?2 AND seq = ?3)`)
		if err != nil {
			return err
		}
	}
	_, err := w.later.ExecContext(w.ctx, args...)
	return err
}

// close ends the transaction if commit did not.
func (w *salvageWriter) close() {
	for _, st := range []*sql.Stmt{w.cmd, w.later, w.sess, w.out, w.spl, w.idx, w.ask, w.askNew, w.intent, w.prompt} {
		if st != nil {
			st.Close()
		}
	}
	if w.tx != nil {
		w.tx.Rollback()
	}
}

func parseInt(s string) int64 {
	var n int64
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

// add inserts the row c holds, if it is one of hookd's.
func (w *salvageWriter) add(c *cell) {
	table := tableOf(c)
	if w.err != nil || table == tableNone {
		return
	}
	if w.tx == nil {
		if w.err = w.begin(); w.err != nil {
			return
		}
	}
	v := c.vals
	str := func(i int) string { return string(v[i].b) }
	var res sql.Result
	var err error
	var count *int
	switch table {
	case tableCommands:
		args := []any{c.rowid, str(1), v[2].i, str(3), v[4].i, str(5), str(6), v[7].i, v[8].i, v[9].i, str(10)}
		res, err = w.cmd.ExecContext(w.ctx, args...)
		if err == nil {
			if n, _ := res.RowsAffected(); n == 0 {
				err = w.deferCommand(args)
			}
		}
		count = &w.st.Commands
	case tableSessions:
		capture, author := "", ""
		if len(v) >= 10 {
			capture = str(9)
		}
		if len(v) == 11 {
			author = str(10)
		}
		res, err = w.sess.ExecContext(w.ctx, str(0), str(1), str(2), v[3].i, str(4), str(5), v[6].i, str(7),
			v[8].i, capture, author)
		count = &w.st.Sessions
	case tableOutputs:
		var text any
		switch v[3].kind {
		case kindBlob:
			text = append([]byte{}, v[3].b...) // not nil: nil would store NULL
		case kindText:
			text = str(3)
		}
		res, err = w.out.ExecContext(w.ctx, str(0), v[1].i, str(2), text, v[4].i, v[5].i, v[6].i)
		count = &w.st.Outputs
	case tableSpools:
		res, err = w.spl.ExecContext(w.ctx, str(0), v[1].i, v[2].i, v[3].i, v[4].i)
		count = &w.st.Spools
	case tableAsks:
		args := []any{c.rowid, str(1), v[2].i, str(3), str(4), str(5), str(6), str(7), str(8), v[9].i, v[10].i,
			v[11].i, v[12].i, str(13), str(14), v[15].i}
		res, err = w.ask.ExecContext(w.ctx, args...)
		if err == nil {
			if n, _ := res.RowsAffected(); n == 0 {
				res, err = w.askNew.ExecContext(w.ctx, args...)
			}
		}
		count = &w.st.Asks
	case tableIntents:
		res, err = w.intent.ExecContext(w.ctx, str(0), v[1].i, str(2))
		count = &w.st.Intents
	case tablePrompts:
		res, err = w.prompt.ExecContext(w.ctx, str(0), v[1].i, v[2].i, str(3))
		count = &w.st.Prompts
	}
	if err != nil {
		w.err = err
		return
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return
	}
	*count++
	if count != &w.st.Commands {
		return
	}
	id, err := res.LastInsertId()
	if err != nil {
		w.err = err
		return
	}
	if id <= w.upto {
		w.below = true
		if w.fts {
			_, w.err = w.idx.ExecContext(w.ctx, id, str(3))
		}
	}
}

// commit moves the deferred commands in, brings the full-text index up to
// date as Tx.Commit does (or, in a build without it, notes that it must be
// rebuilt when a command went in below the ids the index covers), and
// commits.
func (w *salvageWriter) commit() error {
	if w.err != nil {
		return w.err
	}
	if w.tx == nil {
		return nil
	}
	if w.later != nil {
		var maxID int64
		if err := w.tx.QueryRowContext(w.ctx, `SELECT COALESCE(max(id), 0) FROM commands`).Scan(&maxID); err != nil {
			return err
		}
		res, err := w.tx.ExecContext(w.ctx, `INSERT OR IGNORE INTO commands
			(session, seq, command, exit_code, pipestatus, cwd, started_at, duration_us, output_bytes, source)
			SELECT * FROM temp.salvage_later ORDER BY rowid`)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n > 0 {
			w.st.Commands += int(n)
			w.below = w.below || maxID+1 <= w.upto
		}
		w.later.Close()
		w.later = nil
		if _, err := w.tx.ExecContext(w.ctx, `DROP TABLE temp.salvage_later`); err != nil {
			return err
		}
	}
	if w.st.Commands > 0 && w.fts {
		if _, err := ftsCatchUp(w.ctx, w.tx); err != nil {
			return err
		}
		if err := ftsMark(w.ctx, w.tx); err != nil {
			return err
		}
	}
	if w.st.Commands > 0 && !w.fts && w.below {
		if _, err := w.tx.ExecContext(w.ctx, `INSERT INTO meta (key, value)
			SELECT 'fts_stale', '1' WHERE EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'commands_fts')
			ON CONFLICT (key) DO NOTHING`); err != nil {
			return err
		}
	}
	// Salvaged outputs: the output index is rebuilt (by this build now,
	// or by the next one with FTS5).
	if w.st.Outputs > 0 {
		var err error
		if w.fts {
			err = oftsRebuild(w.ctx, w.tx)
		} else {
			err = oftsStale(w.ctx, w.tx)
		}
		if err != nil {
			return err
		}
	}
	err := w.tx.Commit()
	w.tx = nil
	return err
}
