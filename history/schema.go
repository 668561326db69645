package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// migrations[i] moves the schema from version i to i+1. Never edit one that
// has shipped: add a new one.
var migrations = []string{
	`CREATE TABLE sessions (
		id TEXT PRIMARY KEY,
		shell TEXT NOT NULL DEFAULT '',
		version TEXT NOT NULL DEFAULT '',
		pid INTEGER NOT NULL DEFAULT 0,
		host TEXT NOT NULL DEFAULT '',
		user TEXT NOT NULL DEFAULT '',
		uid INTEGER NOT NULL DEFAULT 0,
		tty TEXT NOT NULL DEFAULT '',
		started_at INTEGER NOT NULL DEFAULT 0
	);
	CREATE TABLE commands (
		id INTEGER PRIMARY KEY,
		session TEXT NOT NULL,
		seq INTEGER NOT NULL,
		command TEXT NOT NULL,
		exit_code INTEGER NOT NULL,
		pipestatus TEXT NOT NULL DEFAULT '',
		cwd TEXT NOT NULL DEFAULT '',
		started_at INTEGER NOT NULL,
		duration_us INTEGER NOT NULL DEFAULT 0,
		output_bytes INTEGER NOT NULL DEFAULT 0,
		source TEXT NOT NULL DEFAULT 'hook',
		UNIQUE (session, seq)
	);
	CREATE INDEX commands_started ON commands (started_at);
	CREATE INDEX commands_failed ON commands (started_at) WHERE exit_code <> 0;
	CREATE INDEX commands_cwd ON commands (cwd, started_at);
	CREATE TABLE spools (
		name TEXT PRIMARY KEY,
		inode INTEGER NOT NULL,
		offset INTEGER NOT NULL,
		bad INTEGER NOT NULL DEFAULT 0,
		updated_at INTEGER NOT NULL
	);
	CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,

	// 2: captured outputs. Keyed by the command's session and sequence
	// number, not its row id, so that an output may be stored before or
	// after its command; text is NULL once pruned.
	`ALTER TABLE sessions ADD COLUMN capture TEXT NOT NULL DEFAULT '';
	CREATE TABLE outputs (
		session TEXT NOT NULL,
		seq INTEGER NOT NULL,
		stream TEXT NOT NULL DEFAULT '',
		text BLOB,
		bytes INTEGER NOT NULL DEFAULT 0,
		flags INTEGER NOT NULL DEFAULT 0,
		created_at INTEGER NOT NULL,
		PRIMARY KEY (session, seq, stream)
	) WITHOUT ROWID;
	CREATE INDEX outputs_created ON outputs (created_at);`,

	// 3: questions asked of an LLM (hookd ask) and their answers. parent
	// is the question a continued conversation follows (0: none);
	// context is what was sent besides the question, redacted.
	`CREATE TABLE asks (
		id INTEGER PRIMARY KEY,
		session TEXT NOT NULL DEFAULT '',
		parent INTEGER NOT NULL DEFAULT 0,
		question TEXT NOT NULL,
		context TEXT NOT NULL DEFAULT '',
		answer TEXT NOT NULL DEFAULT '',
		reasoning TEXT NOT NULL DEFAULT '',
		provider TEXT NOT NULL DEFAULT '',
		model TEXT NOT NULL DEFAULT '',
		input_tokens INTEGER NOT NULL DEFAULT 0,
		output_tokens INTEGER NOT NULL DEFAULT 0,
		first_token_us INTEGER NOT NULL DEFAULT 0,
		duration_us INTEGER NOT NULL DEFAULT 0,
		status TEXT NOT NULL DEFAULT 'ok',
		error TEXT NOT NULL DEFAULT '',
		started_at INTEGER NOT NULL
	);
	CREATE INDEX asks_session ON asks (session, id);
	CREATE INDEX asks_started ON asks (started_at);`,

	// 4: fixes learned from the user's own history (package learn): an
	// edit of a program's arguments, an example pair, how often it was
	// seen and how often it worked when it was already known; and the
	// pairs of commands it was learned from (failed, fixed), so that
	// forgetting a command takes back what was learned from it. The
	// unique key leads with the program: the failure path's lookup.
	`CREATE TABLE learned (
		id INTEGER PRIMARY KEY,
		program TEXT NOT NULL,
		kind TEXT NOT NULL,
		from_words TEXT NOT NULL DEFAULT '',
		to_words TEXT NOT NULL DEFAULT '',
		after_word TEXT NOT NULL DEFAULT '',
		at_end INTEGER NOT NULL DEFAULT 0,
		failed TEXT NOT NULL DEFAULT '',
		fixed TEXT NOT NULL DEFAULT '',
		count INTEGER NOT NULL DEFAULT 0,
		worked INTEGER NOT NULL DEFAULT 0,
		first_seen INTEGER NOT NULL,
		last_seen INTEGER NOT NULL,
		UNIQUE (program, kind, from_words, to_words, after_word, at_end)
	);
	CREATE TABLE learned_sources (
		failed INTEGER NOT NULL,
		fixed INTEGER NOT NULL,
		learned INTEGER NOT NULL,
		PRIMARY KEY (failed, fixed)
	) WITHOUT ROWID;
	CREATE INDEX learned_sources_fixed ON learned_sources (fixed);
	CREATE INDEX learned_sources_learned ON learned_sources (learned);`,

	// 5: who ran a session's commands: "" for the user's own shells, the
	// name of a coding agent ("claude-code", or any name `hookd record
	// --author` gives) for an agent's. Agents' commands are left out of
	// -N references, of learning and of the user's recent commands by
	// default.
	`ALTER TABLE sessions ADD COLUMN author TEXT NOT NULL DEFAULT '';`,
	// 6: sync (package sync). sync_hosts: the installations whose
	// segments this one has merged, with how far (merged: the last
	// segment number, contiguous). sync_queue: what this installation
	// has still to upload (kind 1 a command, 2 an output, 3 a
	// tombstone), filled by triggers only once sync is on (meta
	// sync_on), so that every writer (ingest, import, salvage) feeds
	// it. sync_tombstones: the commands forgotten here or anywhere, so
	// that a copy fetched later from another host is not added again.
	`CREATE TABLE sync_hosts (
		id TEXT PRIMARY KEY,
		label TEXT NOT NULL DEFAULT '',
		merged INTEGER NOT NULL DEFAULT 0,
		commands INTEGER NOT NULL DEFAULT 0,
		updated_at INTEGER NOT NULL DEFAULT 0
	);
	CREATE TABLE sync_queue (
		id INTEGER PRIMARY KEY AUTOINCREMENT,
		kind INTEGER NOT NULL,
		session TEXT NOT NULL,
		seq INTEGER NOT NULL,
		stream TEXT NOT NULL DEFAULT ''
	);
	CREATE TABLE sync_tombstones (
		session TEXT NOT NULL,
		seq INTEGER NOT NULL,
		at INTEGER NOT NULL,
		PRIMARY KEY (session, seq)
	) WITHOUT ROWID;
	CREATE TRIGGER sync_command_added AFTER INSERT ON commands
		WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'sync_on')
		BEGIN INSERT INTO sync_queue (kind, session, seq) VALUES (1, NEW.session, NEW.seq); END;
	CREATE TRIGGER sync_output_added AFTER INSERT ON outputs
		WHEN NEW.text IS NOT NULL AND EXISTS (SELECT 1 FROM meta WHERE key = 'sync_on')
		BEGIN INSERT INTO sync_queue (kind, session, seq, stream) VALUES (2, NEW.session, NEW.seq, NEW.stream); END;
	CREATE TRIGGER sync_command_forgotten AFTER DELETE ON commands
		BEGIN
			INSERT OR IGNORE INTO sync_tombstones (session, seq, at)
				VALUES (OLD.session, OLD.seq, CAST((julianday('now') - 2440587.5) * 86400000000 AS INTEGER));
			INSERT INTO sync_queue (kind, session, seq)
				SELECT 3, OLD.session, OLD.seq WHERE EXISTS (SELECT 1 FROM meta WHERE key = 'sync_on');
		END;`,
	// 7: the context a command ran in, for "it worked before" (context.go):
	// the environments the shells noted (envs, each set of values once;
	// session_envs says from which command of a session on one applied),
	// the git work trees (repos, each path once), and per command (its
	// id) its key (program and subcommand, hashed), whether it succeeded,
	// when it started, and the work tree, branch or detached commit, and
	// changes (-1: unknown) the daemon read at ingest. The partial index
	// finds the last successes of a key, newest first; the index on
	// session_envs.env finds the environments a forget leaves unused.
	// Contexts travel with their commands through sync (sync.go).
	`CREATE TABLE envs (
		id INTEGER PRIMARY KEY,
		hash TEXT NOT NULL UNIQUE,
		vars TEXT NOT NULL
	);
	CREATE TABLE session_envs (
		session TEXT NOT NULL,
		from_seq INTEGER NOT NULL,
		env INTEGER NOT NULL,
		PRIMARY KEY (session, from_seq)
	) WITHOUT ROWID;
	CREATE INDEX session_envs_env ON session_envs (env);
	CREATE TABLE repos (
		id INTEGER PRIMARY KEY,
		path TEXT NOT NULL UNIQUE
	);
	CREATE TABLE contexts (
		id INTEGER PRIMARY KEY,
		key INTEGER NOT NULL,
		ok INTEGER NOT NULL,
		started_at INTEGER NOT NULL,
		repo INTEGER NOT NULL DEFAULT 0,
		branch TEXT NOT NULL DEFAULT '',
		head TEXT NOT NULL DEFAULT '',
		dirty INTEGER NOT NULL DEFAULT -1
	);
	CREATE INDEX contexts_ok_key ON contexts (key, started_at) WHERE ok = 1;`,
	// Why a coding agent ran its commands (why.go): intents, what the
	// agent said a command was for, keyed like outputs by the command's
	// session and sequence number; prompts, what the user asked the
	// agent, numbered in the session's sequence: the commands after one,
	// up to the next, are its turn. Both redacted, neither synced.
	`CREATE TABLE intents (
		session TEXT NOT NULL,
		seq INTEGER NOT NULL,
		text TEXT NOT NULL,
		PRIMARY KEY (session, seq)
	) WITHOUT ROWID;
	CREATE TABLE prompts (
		session TEXT NOT NULL,
		seq INTEGER NOT NULL,
		at INTEGER NOT NULL,
		text TEXT NOT NULL,
		PRIMARY KEY (session, seq)
	) WITHOUT ROWID;`,
	// 9: the index hookd stats counts from (stats.go): every command
	// line's runs in one stretch with what a figure needs (time, status,
	// duration, session), so that a year grouped by command is one pass
	// over the index, no sort and no read of the table's rows. And notes
	// on commands (hookd note, notes.go), keyed as outputs are by their
	// command's session and sequence number; redacted before stored;
	// queued for sync (kind 4, the note's id as the stream) as the rest.
	`CREATE INDEX commands_stats ON commands (command, started_at, exit_code, duration_us, session);
	CREATE TABLE notes (
		id INTEGER PRIMARY KEY,
		session TEXT NOT NULL,
		seq INTEGER NOT NULL,
		text TEXT NOT NULL,
		created_at INTEGER NOT NULL
	);
	CREATE INDEX notes_command ON notes (session, seq);
	CREATE TRIGGER sync_note_added AFTER INSERT ON notes
		WHEN EXISTS (SELECT 1 FROM meta WHERE key = 'sync_on')
		BEGIN INSERT INTO sync_queue (kind, session, seq, stream) VALUES (4, NEW.session, NEW.seq, CAST(NEW.id AS TEXT)); END;`,
	// 10: what hookd stats counts from, kept by triggers (totals.go):
	// each command row says whether a coding agent ran it (agent 1: its
	// session has an author), so that the stats index holds the user's
	// own runs of a line in one stretch; and command_totals, each line's
	// figures, one row per line and kind of run instead of one per run;
	// and an index that holds each line's runs by duration, where its
	// median run is found without sorting them.
	// Every writer (ingest, import, sync, salvage, forget) goes through
	// the triggers, as does a session that gains or loses its author, so
	// both stay exact; both are filled from the rows there are.
	`ALTER TABLE commands ADD COLUMN agent INTEGER NOT NULL DEFAULT 0;
	UPDATE commands SET agent = 1 WHERE session IN (SELECT id FROM sessions WHERE author <> '');
	DROP INDEX commands_stats;
	CREATE INDEX commands_stats ON commands (command, agent, started_at, exit_code, duration_us, session);
	CREATE INDEX commands_durations ON commands (command, agent, duration_us, started_at, exit_code);
	` + totalsSchema + `
	INSERT INTO command_totals (command, agent, n, f, d, l, since)
		SELECT command, agent, COUNT(*), SUM(exit_code <> 0), SUM(duration_us),
			SUM(CASE WHEN exit_code <> 0 THEN duration_us ELSE 0 END), MIN(started_at)
		FROM commands GROUP BY command, agent;`,
}

// backupPath is where migrate keeps the copy of the database at path as it
// was at schema version v, before it was migrated.
func backupPath(path string, v int) string {
	return fmt.Sprintf("%s.schema%d.bak", path, v)
}

// backup keeps a copy of the database at schema version v (backupPath),
// unless one exists. Processes that open an old database at once may each
// make one: each writes its own file, and the first in place wins; a copy
// taken after another process migrated past v is dropped.
func (s *Store) backup(ctx context.Context, v int) error {
	bak := backupPath(s.path, v)
	if _, err := os.Stat(bak); !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	// An empty file of the user's alone (0600), which VACUUM INTO fills.
	f, err := os.CreateTemp(filepath.Dir(s.path), filepath.Base(bak)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	f.Close()
	defer os.Remove(tmp)
	if _, err := s.db.ExecContext(ctx, "VACUUM INTO ?", tmp); err != nil {
		return err
	}
	c, err := sql.Open("sqlite3", tmp)
	if err != nil {
		return err
	}
	var got int
	err = c.QueryRowContext(ctx, "PRAGMA user_version").Scan(&got)
	c.Close()
	if err != nil || got != v {
		return err // migrated meanwhile: that process kept the copy
	}
	if err := os.Link(tmp, bak); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

// migrating, set by tests only, is called inside the transaction of the
// migration to version v, after its statements and before it commits (a
// test kills the process there: upgrade_test.go).
var migrating func(v int)

// SchemaVersion is the schema version this build writes.
var SchemaVersion = len(migrations)

// migrate brings the schema up to this build's version, one migration a
// transaction (with its version), so that one interrupted by a kill leaves
// the previous version whole and the next Open carries on from there.
// Before the first migration of a database that holds a history, a copy
// of it is taken (backupPath), once per version it is migrated from.
func (s *Store) migrate(ctx context.Context) error {
	var v int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if v == len(migrations) {
		return nil // current: no write lock taken to find that out again
	}
	if v > 0 && v < len(migrations) {
		if err := s.backup(ctx, v); err != nil {
			return fmt.Errorf("back up the history before migrating it: %w", err)
		}
	}
	for {
		// The version is read inside the write transaction, so that two
		// processes opening a new database at once migrate it once.
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		var v int
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
			tx.Rollback()
			return err
		}
		if v >= len(migrations) {
			tx.Rollback()
			if v > len(migrations) {
				return fmt.Errorf("schema version %d is newer than this hookd knows (%d): upgrade hookd", v, len(migrations))
			}
			return nil
		}
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate schema to version %d: %w", v+1, err)
		}
		if migrating != nil {
			migrating(v + 1)
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v+1)); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
}
