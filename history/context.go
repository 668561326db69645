package history

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

// Context is what was noted of the context a command ran in, besides its
// directory and time (see package runctx): its key, the git work tree it
// ran in, the branch or detached commit checked out, whether the work tree
// had changes, and the environment the shell noted.
type Context struct {
	// Key is the hash of the command's program and subcommand
	// (runctx.KeyHash): the runs of "the same command" share it.
	Key int64
	// Repo is the top of the git work tree the command ran in ("" for
	// none, or not known).
	Repo string
	// Branch is the branch checked out when it started; Head the commit,
	// when HEAD was detached instead.
	Branch, Head string
	// Dirty is 1 when the work tree had changes, 0 when it had none, -1
	// when that is not known.
	Dirty int
	// Env maps the environment variables the shell noted to their
	// values, redacted (unset ones are absent); nil when the shell noted
	// none (an older hook, an import, hookd run).
	Env map[string]string
}

const (
	addEnvSQL  = `INSERT INTO envs (hash, vars) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING`
	addSEnvSQL = `INSERT INTO session_envs (session, from_seq, env)
		VALUES (?, ?, (SELECT id FROM envs WHERE hash = ?))
		ON CONFLICT (session, from_seq) DO UPDATE SET env = excluded.env`
	addRepoSQL = `INSERT INTO repos (path) VALUES (?) ON CONFLICT (path) DO NOTHING`
	addCtxSQL  = `INSERT OR IGNORE INTO contexts (id, key, ok, started_at, repo, branch, head, dirty)
		SELECT id, ?, ?, ?, COALESCE((SELECT id FROM repos WHERE path = ?), 0), ?, ?, ? FROM commands WHERE session = ? AND seq = ?`
)

// AddEnv records that the commands of session from sequence number from
// on ran in the environment vars (until the next one recorded). Each set
// of values is stored once. A variable whose name is not one a shell can
// export (shellwords.IsName) is left out, whichever way the environment
// came in (a shell's record, a merged segment): an environment's names are
// always words of an `export` line, never code.
func (t *Tx) AddEnv(ctx context.Context, session string, from int64, vars map[string]string) error {
	vars = validNames(vars)
	b, err := json.Marshal(vars) // keys sorted: the same vars, the same text
	if err != nil {
		return err
	}
	sum := sha256.Sum256(b)
	h := hex.EncodeToString(sum[:])
	for _, q := range []struct {
		sql  string
		args []any
	}{{addEnvSQL, []any{h, string(b)}}, {addSEnvSQL, []any{session, from, h}}} {
		st, err := t.stmt(ctx, q.sql)
		if err == nil {
			_, err = st.ExecContext(ctx, q.args...)
		}
		if err != nil {
			return fmt.Errorf("add environment: %w", classify(err))
		}
	}
	return nil
}

// AddContext records the context of the command with sequence number seq
// in session, which must be in the transaction already: c (its Env is not
// stored here: see AddEnv), whether it succeeded and when it started (µs).
// A second call for the same command changes nothing.
func (t *Tx) AddContext(ctx context.Context, session string, seq int64, ok bool, started int64, c Context) error {
	if c.Repo != "" && !t.repos[c.Repo] {
		st, err := t.stmt(ctx, addRepoSQL)
		if err == nil {
			_, err = st.ExecContext(ctx, c.Repo)
		}
		if err != nil {
			return fmt.Errorf("add context: %w", classify(err))
		}
		if t.repos == nil {
			t.repos = map[string]bool{}
		}
		t.repos[c.Repo] = true
	}
	st, err := t.stmt(ctx, addCtxSQL)
	if err == nil {
		_, err = st.ExecContext(ctx, c.Key, ok, started, c.Repo, c.Branch, c.Head, c.Dirty, session, seq)
	}
	if err != nil {
		return fmt.Errorf("add context: %w", classify(err))
	}
	return nil
}

// Context returns the context noted for e, with the environment its shell
// noted for it; ok is false when nothing was noted (a command recorded
// before hookd noted contexts).
func (s *Store) Context(ctx context.Context, e Entry) (c Context, ok bool, err error) {
	c.Dirty = -1
	err = s.db.QueryRowContext(ctx, `SELECT c.key, COALESCE(r.path, ''), c.branch, c.head, c.dirty
		FROM contexts c LEFT JOIN repos r ON r.id = c.repo WHERE c.id = ?`,
		e.ID).Scan(&c.Key, &c.Repo, &c.Branch, &c.Head, &c.Dirty)
	switch {
	case err == sql.ErrNoRows:
		ok, err = false, nil
	case err != nil:
		return c, false, fmt.Errorf("context of %d: %w", e.ID, classify(err))
	default:
		ok = true
	}
	var vars string
	err = s.db.QueryRowContext(ctx, `SELECT e.vars FROM session_envs s JOIN envs e ON e.id = s.env
		WHERE s.session = ? AND s.from_seq <= ? ORDER BY s.from_seq DESC LIMIT 1`, e.Session, e.Seq).Scan(&vars)
	switch {
	case err == sql.ErrNoRows:
		return c, ok, nil
	case err != nil:
		return c, ok, fmt.Errorf("environment of %d: %w", e.ID, classify(err))
	}
	if err := json.Unmarshal([]byte(vars), &c.Env); err != nil {
		return c, ok, fmt.Errorf("environment of %d: %w", e.ID, err)
	}
	c.Env = validNames(c.Env) // (one stored before names were checked)
	if c.Env == nil {
		c.Env = map[string]string{}
	}
	return c, true, nil
}

// Successes returns up to limit commands with the given key that
// succeeded and started before before (µs), recorded on installation host
// ("" for this one; see SessionHost), newest first: one range of a partial
// index, whatever the size of the history. (A success on another machine,
// synced here, explains nothing of a failure here: its directories, PATH
// and environments are that machine's.)
func (s *Store) Successes(ctx context.Context, key, before int64, host string, limit int) ([]Entry, error) {
	var out []Entry
	err := s.EachSuccess(ctx, key, before, host, limit, func(e Entry) bool {
		out = append(out, e)
		return true
	})
	return out, err
}

// errStop ends a walk early, without an error.
var errStop = errors.New("stop")

// EachSuccess calls fn with each entry Successes would return, newest
// first, as they are read, until fn returns false (the failure path's
// search for the last success stops at the first run of the same line,
// and reads one row rather than fifty).
func (s *Store) EachSuccess(ctx context.Context, key, before int64, host string, limit int, fn func(Entry) bool) error {
	where := "c.session NOT GLOB '" + remoteGlob + "'"
	var args []any
	if host != "" {
		where = "c.session GLOB ?"
		args = append(args, "*"+HostSep+globQuote(host))
	}
	err := s.each(ctx, "successes", "SELECT "+entryColumns+` FROM contexts x
		JOIN commands c ON c.id = x.id
		LEFT JOIN sessions s ON s.id = c.session
		LEFT JOIN outputs o ON o.session = c.session AND o.seq = c.seq AND o.stream = ''
		WHERE x.key = ? AND x.ok = 1 AND x.started_at < ? AND `+where+`
		ORDER BY x.started_at DESC LIMIT ?`, append(append([]any{key, before}, args...), limit), func(e Entry) error {
		if !fn(e) {
			return errStop
		}
		return nil
	})
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

// globQuote escapes GLOB's special characters in s.
func globQuote(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r == '*' || r == '?' || r == '[' {
			b.WriteByte('[')
			b.WriteRune(r)
			b.WriteByte(']')
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// validNames returns vars without the variables whose names a shell
// cannot export (vars itself when there are none).
func validNames(vars map[string]string) map[string]string {
	for name := range vars {
		if !shellwords.IsName(name) {
			out := make(map[string]string, len(vars))
			for n, v := range vars {
				if shellwords.IsName(n) {
					out[n] = v
				}
			}
			return out
		}
	}
	return vars
}
