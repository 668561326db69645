package history

import (
	"cmp"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// HostSep separates a session's id from the installation that recorded
// it, in the sessions that came through sync from another installation
// ("<session>@<installation>", the installation's id being 16 lowercase
// hexadecimal digits: package hostid). Sessions recorded here do not end
// so, and their ids are the same as before sync existed; every session is
// unique across all installations however its id was made (an import's
// "import-bash" on two machines stays two sessions).
const HostSep = "@"

// remoteGlob matches, in SQL (GLOB), the ids of sessions from elsewhere.
var remoteGlob = "*" + HostSep + strings.Repeat("[0-9a-f]", 16)

// SessionHost returns the installation that recorded session when it came
// from another one, and "" for a session recorded here.
func SessionHost(session string) string {
	i := strings.LastIndex(session, HostSep)
	if i < 0 || len(session)-i-len(HostSep) != 16 {
		return ""
	}
	id := session[i+len(HostSep):]
	for _, c := range id {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return ""
		}
	}
	return id
}

// The kinds of sync_queue rows.
const (
	syncCommand   = 1
	syncOutput    = 2
	syncTombstone = 3
	syncNote      = 4
)

// Meta keys of sync.
const (
	syncOnKey = "sync_on" // the triggers feed the queue
	syncDBKey = "sync_db" // a random id of this database, in each segment it uploads
)

// EnableSync turns sync on: from now on every command, output and
// forgotten command recorded here is queued for upload, and so is
// everything recorded here before (but nothing that came from another
// installation). Turning it on again changes nothing. It returns the
// database's sync id.
func (s *Store) EnableSync(ctx context.Context) (string, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return "", fmt.Errorf("enable sync: %w", classify(err))
	}
	defer tx.Rollback()
	var one int
	switch err := tx.QueryRowContext(ctx, "SELECT 1 FROM meta WHERE key = ?", syncOnKey).Scan(&one); err {
	case nil:
	case sql.ErrNoRows:
		notHere := "session NOT GLOB '" + remoteGlob + "'"
		for _, q := range []string{
			`INSERT INTO sync_queue (kind, session, seq) SELECT 1, session, seq FROM commands WHERE ` + notHere + ` ORDER BY id`,
			`INSERT INTO sync_queue (kind, session, seq, stream) SELECT 2, session, seq, stream FROM outputs
				WHERE text IS NOT NULL AND ` + notHere + ` ORDER BY created_at`,
			`INSERT INTO sync_queue (kind, session, seq) SELECT 3, session, seq FROM sync_tombstones ORDER BY at`,
			`INSERT INTO sync_queue (kind, session, seq, stream) SELECT 4, session, seq, CAST(id AS TEXT) FROM notes ORDER BY id`,
			`INSERT INTO meta (key, value) VALUES ('` + syncOnKey + `', '1')`,
		} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return "", fmt.Errorf("enable sync: %w", classify(err))
			}
		}
	default:
		return "", fmt.Errorf("enable sync: %w", classify(err))
	}
	var id string
	switch err := tx.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", syncDBKey).Scan(&id); err {
	case nil:
	case sql.ErrNoRows:
		var b [8]byte
		rand.Read(b[:])
		id = hex.EncodeToString(b[:])
		if _, err := tx.ExecContext(ctx, "INSERT INTO meta (key, value) VALUES (?, ?)", syncDBKey, id); err != nil {
			return "", fmt.Errorf("enable sync: %w", classify(err))
		}
	default:
		return "", fmt.Errorf("enable sync: %w", classify(err))
	}
	return id, classify(tx.Commit())
}

// Key names one command across every installation: its session and
// sequence number.
type Key struct {
	Session string
	Seq     int64
}

// SyncBatch is what travels in one segment: sessions, commands (with the
// contexts noted for them), outputs and tombstones. Upto is the last queue
// row it covers (on the way up).
type SyncBatch struct {
	Upto     int64
	Sessions []Session
	Commands []Entry
	// Contexts are the contexts noted for commands (context.go), by the
	// command's session and sequence number as Commands name them; a
	// command without one has none here. A context's Env is the
	// environment its shell noted for it (nil: none).
	Contexts   map[Key]Context
	Outputs    []Output
	Tombstones []Key
	// Notes are the notes written here (hookd note), each on the command
	// its Command names by session and sequence number (as Commands name
	// them); Command and ID are not used.
	Notes []SyncNote
}

// SyncNote is a note on its way through sync.
type SyncNote struct {
	Key
	Text      string
	CreatedAt int64 // µs
}

// Items counts the batch's rows (sessions aside).
func (b *SyncBatch) Items() int {
	return len(b.Commands) + len(b.Outputs) + len(b.Tombstones) + len(b.Notes)
}

// SyncPending reads the upload queue after the row after, up to limit rows
// or about maxBytes of commands and outputs (0: no bound), whichever
// comes first:
// the commands recorded here (as they are now: a command forgotten since
// is left out, its tombstone follows) with their contexts, their outputs
// that keep pass, the tombstones, and the sessions they belong to. The batch's Upto is the
// last row read, even when what it named is gone.
func (s *Store) SyncPending(ctx context.Context, after int64, limit int, maxBytes int64, keep func(o Output) bool) (SyncBatch, error) {
	b := SyncBatch{Upto: after}
	rows, err := s.db.QueryContext(ctx, `SELECT q.id, q.kind, q.session, q.seq, q.stream,
			c.command, c.exit_code, c.pipestatus, c.cwd, c.started_at, c.duration_us, c.source,
			o.text, o.bytes, o.flags, o.created_at,
			x.key, COALESCE(r.path, ''), x.branch, x.head, x.dirty,
			(SELECT e.vars FROM session_envs se JOIN envs e ON e.id = se.env
				WHERE c.id IS NOT NULL AND se.session = q.session AND se.from_seq <= q.seq ORDER BY se.from_seq DESC LIMIT 1),
			n.text, n.created_at
		FROM sync_queue q
		LEFT JOIN commands c ON q.kind = 1 AND c.session = q.session AND c.seq = q.seq
		LEFT JOIN outputs o ON q.kind = 2 AND o.session = q.session AND o.seq = q.seq AND o.stream = q.stream
		LEFT JOIN contexts x ON x.id = c.id
		LEFT JOIN repos r ON r.id = x.repo
		LEFT JOIN notes n ON q.kind = 4 AND n.id = CAST(q.stream AS INTEGER)
		WHERE q.id > ? ORDER BY q.id LIMIT ?`, after, limit)
	if err != nil {
		return b, fmt.Errorf("sync queue: %w", classify(err))
	}
	defer rows.Close()
	sessions := map[string]bool{}
	var size int64
	for rows.Next() {
		if maxBytes > 0 && size >= maxBytes {
			break
		}
		var (
			id, seq               int64
			kind                  int
			session, stream       string
			cmd, ps, cwd, src     sql.NullString
			exit                  sql.NullInt64
			start, dur            sql.NullInt64
			text                  []byte
			obytes, flags, ocreat sql.NullInt64
			xkey, xdirty          sql.NullInt64
			xrepo                 string
			xbranch, xhead, vars  sql.NullString
			ntext                 sql.NullString
			nat                   sql.NullInt64
		)
		if err := rows.Scan(&id, &kind, &session, &seq, &stream, &cmd, &exit, &ps, &cwd, &start, &dur, &src,
			&text, &obytes, &flags, &ocreat, &xkey, &xrepo, &xbranch, &xhead, &xdirty, &vars, &ntext, &nat); err != nil {
			return b, fmt.Errorf("sync queue: %w", classify(err))
		}
		b.Upto = id
		here := SessionHost(session) == ""
		switch kind {
		case syncCommand:
			if !cmd.Valid || !here {
				continue
			}
			size += int64(len(cmd.String) + len(cwd.String) + 32)
			b.Commands = append(b.Commands, Entry{Session: session, Seq: seq, Command: cmd.String, ExitCode: int(exit.Int64),
				Pipestatus: splitInts(ps.String), Cwd: cwd.String, StartedAt: start.Int64, DurationUS: dur.Int64, Source: src.String})
			sessions[session] = true
			if xkey.Valid {
				c := Context{Key: xkey.Int64, Repo: xrepo, Branch: xbranch.String, Head: xhead.String, Dirty: int(xdirty.Int64)}
				if vars.Valid {
					if err := json.Unmarshal([]byte(vars.String), &c.Env); err == nil && c.Env == nil {
						c.Env = map[string]string{}
					}
				}
				if b.Contexts == nil {
					b.Contexts = map[Key]Context{}
				}
				b.Contexts[Key{session, seq}] = c
				size += int64(len(xrepo) + len(xbranch.String) + len(vars.String))
			}
		case syncOutput:
			if !obytes.Valid || text == nil || !here {
				continue
			}
			o := Output{Session: session, Seq: seq, Stream: stream, Text: text, Bytes: obytes.Int64,
				Flags: OutputFlags(flags.Int64), CreatedAt: ocreat.Int64}
			if keep != nil && !keep(o) {
				continue
			}
			size += int64(len(o.Text))
			b.Outputs = append(b.Outputs, o)
		case syncTombstone:
			b.Tombstones = append(b.Tombstones, Key{session, seq})
		case syncNote:
			// Written here, on a command of any host's.
			if !ntext.Valid {
				continue
			}
			size += int64(len(ntext.String) + 32)
			b.Notes = append(b.Notes, SyncNote{Key: Key{session, seq}, Text: ntext.String, CreatedAt: nat.Int64})
		}
	}
	if err := rows.Err(); err != nil {
		return b, fmt.Errorf("sync queue: %w", classify(err))
	}
	rows.Close()
	for id := range sessions {
		se, err := s.Session(ctx, id)
		if err != nil {
			se = Session{ID: id}
		}
		b.Sessions = append(b.Sessions, se)
	}
	return b, nil
}

// SyncQueued counts the rows waiting in the upload queue after the row
// after.
func (s *Store) SyncQueued(ctx context.Context, after int64) (int64, error) {
	var n int64
	err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM sync_queue WHERE id > ?", after).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("sync queue: %w", classify(err))
	}
	return n, nil
}

// SyncHost is an installation whose segments were merged here.
type SyncHost struct {
	ID    string
	Label string
	// Merged is the number of its last segment merged here.
	Merged int64
	// Commands counts the commands its segments added here.
	Commands  int64
	UpdatedAt int64
}

// SyncHosts returns the installations known here.
func (s *Store) SyncHosts(ctx context.Context) ([]SyncHost, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, label, merged, commands, updated_at FROM sync_hosts ORDER BY label, id")
	if err != nil {
		return nil, fmt.Errorf("sync hosts: %w", classify(err))
	}
	defer rows.Close()
	var out []SyncHost
	for rows.Next() {
		var h SyncHost
		if err := rows.Scan(&h.ID, &h.Label, &h.Merged, &h.Commands, &h.UpdatedAt); err != nil {
			return nil, fmt.Errorf("sync hosts: %w", classify(err))
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// SyncMeta returns the sync values kept in the database (keys starting
// with "sync"), by key.
func (s *Store) SyncMeta(ctx context.Context) (map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT key, value FROM meta WHERE key LIKE 'sync%'")
	if err != nil {
		return nil, fmt.Errorf("sync state: %w", classify(err))
	}
	defer rows.Close()
	m := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("sync state: %w", classify(err))
		}
		m[k] = v
	}
	return m, rows.Err()
}

// SetSyncMeta sets sync values (keys must start with "sync"); an empty
// value removes its key.
func (s *Store) SetSyncMeta(ctx context.Context, kv map[string]string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sync state: %w", classify(err))
	}
	defer tx.Rollback()
	if err := setSyncMeta(ctx, tx, kv); err != nil {
		return err
	}
	return classify(tx.Commit())
}

func setSyncMeta(ctx context.Context, tx *sql.Tx, kv map[string]string) error {
	for k, v := range kv {
		if !strings.HasPrefix(k, "sync") {
			return fmt.Errorf("sync state: %q is not a sync key", k)
		}
		var err error
		if v == "" {
			_, err = tx.ExecContext(ctx, "DELETE FROM meta WHERE key = ?", k)
		} else {
			_, err = tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)
				ON CONFLICT (key) DO UPDATE SET value = excluded.value`, k, v)
		}
		if err != nil {
			return fmt.Errorf("sync state: %w", classify(err))
		}
	}
	return nil
}

// Uploaded records that a segment holding the queue up to row upto was
// stored: the rows are taken off the queue, with the meta values given
// (the segment's number, the time) in the same transaction.
func (s *Store) Uploaded(ctx context.Context, upto int64, kv map[string]string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sync uploaded: %w", classify(err))
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM sync_queue WHERE id <= ?", upto); err != nil {
		return fmt.Errorf("sync uploaded: %w", classify(err))
	}
	if err := setSyncMeta(ctx, tx, kv); err != nil {
		return err
	}
	return classify(tx.Commit())
}

// MergeStats says what merging a segment changed.
type MergeStats struct {
	Commands, Outputs, Forgotten, Notes int
}

// Merge adds what a segment of installation host (labelled label) holds,
// numbered up to end, and records in the same transaction that host's
// segments are merged up to end (never going back). Commands are keyed by
// session and sequence number, so merging the same segment twice adds
// nothing; a command with a tombstone is never added again; a tombstone
// deletes its command like `hookd forget`. local maps a session id as it
// travels to the one used here (the sessions of this installation travel
// with its id appended, and come back without it). Nothing merged is
// queued for upload again.
func (s *Store) Merge(ctx context.Context, host, label string, end int64, b *SyncBatch, local func(string) string) (st MergeStats, err error) {
	if err := s.merge(ctx, host, label, end, b, local, &st); err != nil {
		return st, err
	}
	if st.Forgotten > 0 {
		if _, err := s.db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
			return st, fmt.Errorf("merge: checkpoint: %w", classify(err))
		}
	}
	return st, nil
}

func (s *Store) merge(ctx context.Context, host, label string, end int64, b *SyncBatch, local func(string) string, st *MergeStats) (err error) {
	if len(b.Tombstones) > 0 {
		if _, err := s.db.ExecContext(ctx, "PRAGMA secure_delete = ON"); err != nil {
			return fmt.Errorf("merge: %w", classify(err))
		}
	}
	t, err := s.Begin(ctx)
	if err != nil {
		return err
	}
	defer t.Rollback()
	tx := t.tx
	var before int64
	if err := tx.QueryRowContext(ctx, "SELECT COALESCE(MAX(id), 0) FROM sync_queue").Scan(&before); err != nil {
		return fmt.Errorf("merge: %w", classify(err))
	}
	// What comes from elsewhere is not ours to upload: the triggers are
	// kept quiet for this transaction (no other connection sees sync_on
	// missing: it is back before the commit).
	res, err := tx.ExecContext(ctx, "DELETE FROM meta WHERE key = ?", syncOnKey)
	if err != nil {
		return fmt.Errorf("merge: %w", classify(err))
	}
	quieted, _ := res.RowsAffected()
	restore := func() error {
		if quieted == 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO meta (key, value) VALUES (?, '1')", syncOnKey); err != nil {
			return fmt.Errorf("merge: %w", classify(err))
		}
		return nil
	}
	for _, se := range b.Sessions {
		se.ID = local(se.ID)
		if err := t.AddSession(ctx, se); err != nil {
			return err
		}
	}
	// The tombstones of the batch's sessions, read once.
	dead := map[Key]bool{}
	deadOf := map[string]bool{}
	for _, e := range b.Commands {
		sess := local(e.Session)
		if deadOf[sess] {
			continue
		}
		deadOf[sess] = true
		rows, err := tx.QueryContext(ctx, "SELECT seq FROM sync_tombstones WHERE session = ?", sess)
		if err != nil {
			return fmt.Errorf("merge: %w", classify(err))
		}
		for rows.Next() {
			var seq int64
			if err := rows.Scan(&seq); err != nil {
				rows.Close()
				return fmt.Errorf("merge: %w", classify(err))
			}
			dead[Key{sess, seq}] = true
		}
		rows.Close()
	}
	for _, k := range b.Tombstones { // and the batch's own
		dead[Key{local(k.Session), k.Seq}] = true
	}
	// The environments of the commands added, noted once they are all in,
	// in each session's order (a batch may bring a session's commands out
	// of it): an environment holds from its command on.
	type envAt struct {
		session string
		seq     int64
		env     map[string]string
	}
	var envs []envAt
	for _, e := range b.Commands {
		wire := e.Session
		e.Session = local(e.Session)
		if dead[Key{e.Session, e.Seq}] {
			continue
		}
		e.OutputBytes = 0
		added, err := t.AddCommand(ctx, e)
		if err != nil {
			return err
		}
		if !added {
			continue
		}
		st.Commands++
		if err := t.oftsCommandCame(ctx, e.Session, e.Seq); err != nil {
			return fmt.Errorf("merge: output index: %w", classify(err))
		}
		c, ok := b.Contexts[Key{wire, e.Seq}]
		if !ok {
			continue
		}
		if err := t.AddContext(ctx, e.Session, e.Seq, e.ExitCode == 0, e.StartedAt, c); err != nil {
			return err
		}
		if c.Env != nil {
			envs = append(envs, envAt{e.Session, e.Seq, c.Env})
		}
	}
	slices.SortFunc(envs, func(a, b envAt) int {
		return cmp.Or(strings.Compare(a.session, b.session), cmp.Compare(a.seq, b.seq))
	})
	for i, e := range envs {
		// Where it is not the one the session's previous command ran in.
		if i > 0 && envs[i-1].session == e.session && maps.Equal(envs[i-1].env, e.env) {
			continue
		}
		if err := t.AddEnv(ctx, e.session, e.seq, e.env); err != nil {
			return err
		}
	}
	for _, o := range b.Outputs {
		// (Kept even when its command has not come yet: an output may be
		// stored, and so uploaded, before its command.)
		o.Session = local(o.Session)
		if dead[Key{o.Session, o.Seq}] {
			continue
		}
		if d, err := t.tombstoned(ctx, o.Session, o.Seq); err != nil {
			return err
		} else if d {
			continue
		}
		var have int
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM outputs WHERE session = ? AND seq = ? AND stream = ?",
			o.Session, o.Seq, o.Stream).Scan(&have); err != nil {
			return fmt.Errorf("merge: %w", classify(err))
		}
		if have > 0 {
			continue // kept as it is here (it may have been pruned here on purpose)
		}
		if err := t.AddOutput(ctx, o); err != nil {
			return err
		}
		st.Outputs++
	}
	for _, n := range b.Notes {
		// Kept once (a segment read again, a fold of segments), and not
		// on a command forgotten.
		n.Session = local(n.Session)
		if dead[Key{n.Session, n.Seq}] {
			continue
		}
		if d, err := t.tombstoned(ctx, n.Session, n.Seq); err != nil {
			return err
		} else if d {
			continue
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO notes (session, seq, text, created_at) SELECT ?, ?, ?, ?
			WHERE NOT EXISTS (SELECT 1 FROM notes WHERE session = ? AND seq = ? AND created_at = ? AND text = ?)`,
			n.Session, n.Seq, n.Text, n.CreatedAt, n.Session, n.Seq, n.CreatedAt, n.Text)
		if err != nil {
			return fmt.Errorf("merge: %w", classify(err))
		}
		if k, _ := res.RowsAffected(); k > 0 {
			st.Notes++
		}
	}
	var ids []int64
	for _, k := range b.Tombstones {
		k.Session = local(k.Session)
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO sync_tombstones (session, seq, at)
			VALUES (?, ?, CAST((julianday('now') - 2440587.5) * 86400000000 AS INTEGER))`, k.Session, k.Seq); err != nil {
			return fmt.Errorf("merge: %w", classify(err))
		}
		var id int64
		err := tx.QueryRowContext(ctx, "SELECT id FROM commands WHERE session = ? AND seq = ?", k.Session, k.Seq).Scan(&id)
		if err == sql.ErrNoRows {
			continue
		}
		if err != nil {
			return fmt.Errorf("merge: %w", classify(err))
		}
		ids = append(ids, id)
	}
	if len(ids) > 0 {
		if st.Forgotten, err = s.forgetRows(ctx, tx, ids); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO sync_hosts (id, label, merged, commands, updated_at)
		VALUES (?, ?, ?, ?, CAST((julianday('now') - 2440587.5) * 86400000000 AS INTEGER))
		ON CONFLICT (id) DO UPDATE SET label = CASE WHEN excluded.label <> '' THEN excluded.label ELSE label END,
			merged = MAX(merged, excluded.merged), commands = commands + excluded.commands, updated_at = excluded.updated_at`,
		host, label, end, st.Commands); err != nil {
		return fmt.Errorf("merge: %w", classify(err))
	}
	// What the triggers queued for what came from elsewhere is not ours
	// to upload.
	if _, err := tx.ExecContext(ctx, "DELETE FROM sync_queue WHERE id > ?", before); err != nil {
		return fmt.Errorf("merge: %w", classify(err))
	}
	if err := restore(); err != nil {
		return err
	}
	return t.Commit()
}

// NoteHost records an installation's label and how far its segments are
// merged (never going back), without merging anything: this installation's
// own row, and a host whose segments were all found merged already.
func (s *Store) NoteHost(ctx context.Context, host, label string, merged int64) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO sync_hosts (id, label, merged, updated_at)
		VALUES (?, ?, ?, CAST((julianday('now') - 2440587.5) * 86400000000 AS INTEGER))
		ON CONFLICT (id) DO UPDATE SET label = CASE WHEN excluded.label <> '' THEN excluded.label ELSE label END,
			merged = MAX(merged, excluded.merged)`, host, label, merged)
	if err != nil {
		return fmt.Errorf("sync host: %w", classify(err))
	}
	return nil
}

// Tombstoned reports which of keys were forgotten (here or anywhere).
func (s *Store) Tombstoned(ctx context.Context, keys []Key) (map[Key]bool, error) {
	out := map[Key]bool{}
	st, err := s.db.PrepareContext(ctx, "SELECT 1 FROM sync_tombstones WHERE session = ? AND seq = ?")
	if err != nil {
		return nil, fmt.Errorf("tombstones: %w", classify(err))
	}
	defer st.Close()
	for _, k := range keys {
		var one int
		switch err := st.QueryRowContext(ctx, k.Session, k.Seq).Scan(&one); err {
		case nil:
			out[k] = true
		case sql.ErrNoRows:
		default:
			return nil, fmt.Errorf("tombstones: %w", classify(err))
		}
	}
	return out, nil
}

func (t *Tx) tombstoned(ctx context.Context, session string, seq int64) (bool, error) {
	var one int
	err := t.tx.QueryRowContext(ctx, "SELECT 1 FROM sync_tombstones WHERE session = ? AND seq = ?", session, seq).Scan(&one)
	if err == sql.ErrNoRows {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("merge: %w", classify(err))
	}
	return true, nil
}

// CommandTexts returns the text of each of keys' commands that is in the
// history (one lookup each on the (session, seq) key).
func (s *Store) CommandTexts(ctx context.Context, keys []Key) (map[Key]string, error) {
	out := make(map[Key]string, len(keys))
	st, err := s.db.PrepareContext(ctx, "SELECT command FROM commands WHERE session = ? AND seq = ?")
	if err != nil {
		return nil, fmt.Errorf("commands: %w", classify(err))
	}
	defer st.Close()
	for _, k := range keys {
		var text string
		switch err := st.QueryRowContext(ctx, k.Session, k.Seq).Scan(&text); err {
		case nil:
			out[k] = text
		case sql.ErrNoRows:
		default:
			return nil, fmt.Errorf("commands: %w", classify(err))
		}
	}
	return out, nil
}
