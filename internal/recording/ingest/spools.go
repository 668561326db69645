package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/spool"
)

// maxCommand bounds one record of a spool: a command line longer than this
// is not something a shell writes.
const maxCommand = chunk

// Spools moves every complete record from the spool files in dir into
// store, exactly once (see the package documentation); spools of sessions
// that have ended are removed once read.
func Spools(ctx context.Context, store *history.Store, dir string, rules *Rules, now time.Time) (Stats, error) {
	var st Stats
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		// Removed under the shells' feet: they write nothing until it is
		// back (they test it rather than fork to make it).
		return st, os.MkdirAll(dir, 0o700)
	}
	if err != nil {
		return st, fmt.Errorf("ingest: %w", err)
	}
	host, _ := os.Hostname()
	// A read, no lock: most passes find nothing new, and need no write
	// transaction at all.
	known, err := store.SpoolOffsets(ctx)
	if err != nil {
		return st, fmt.Errorf("ingest: %w", err)
	}
	var firstErr error
	present := map[string]bool{}
	for _, ent := range ents {
		name := ent.Name()
		session, ok := spool.SessionOf(name)
		if !ok || ent.IsDir() {
			continue
		}
		present[name] = true
		st.Spools++
		if err := ingestSpool(ctx, store, filepath.Join(dir, name), session, known[name], rules, now, host, &st); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			st.Problems = append(st.Problems, err.Error())
			if history.IsBusy(err) {
				// Another process holds the database: every other spool
				// would wait as long. The next pass tries again.
				return st, firstErr
			}
		}
		if ctx.Err() != nil {
			return st, ctx.Err()
		}
	}
	// Offsets of spools whose file is gone (removed after a crash between
	// the file and its row) are dropped.
	var gone []string
	for name := range known {
		if !present[name] && !strings.HasPrefix(name, streamKeyPrefix) {
			gone = append(gone, name)
		}
	}
	if len(gone) > 0 && firstErr == nil {
		if err := dropOffsets(ctx, store, dir, gone); err != nil {
			firstErr = err
		}
	}
	return st, firstErr
}

// dropOffsets forgets the offsets of spools that no longer exist.
func dropOffsets(ctx context.Context, store *history.Store, dir string, names []string) error {
	tx, err := store.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, name := range names {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			continue // made again since the directory was read
		}
		if err := tx.DeleteSpool(ctx, name); err != nil {
			return err
		}
	}
	return tx.Commit()
}

func ingestSpool(ctx context.Context, store *history.Store, path, session string, known history.SpoolState, rules *Rules, now time.Time, host string, st *Stats) error {
	l, err := openLog(path, filepath.Base(path), maxCommand)
	if err != nil {
		return fmt.Errorf("ingest %s: %w", filepath.Base(path), err)
	}
	if l == nil {
		return nil // removed by another ingester
	}
	defer l.Close()
	// A spool is complete when its shell has ended: then a record cut short
	// at the end will never be finished.
	ended := writerEnded(spool.SessionPID(session))
	if !ended && l.unchanged(known) {
		return nil // nothing new
	}
	decode := func(ctx context.Context, tx *history.Tx, buf []byte, more, final bool) (int, int, error) {
		return decodeSpool(ctx, tx, l.key, session, buf, more, final, rules, newNoter(now), st)
	}
	if err := l.follow(ctx, store, -1, ended, now, decode, st); err != nil {
		return err
	}
	if !ended {
		return nil
	}
	if sess, err := store.Session(ctx, session); err == nil && sess.Host != "" && host != "" && sess.Host != host {
		return nil // a shell of another machine sharing this directory
	}
	removed, err := l.retire(ctx, store)
	if removed {
		st.Removed++
	}
	return err
}

// decodeSpool stores the session headers and commands in buf.
func decodeSpool(ctx context.Context, tx *history.Tx, name, session string, buf []byte, more, final bool, rules *Rules, nt *noter, st *Stats) (int, int, error) {
	recs, used, bad := spool.Decode(buf, final && !more)
	own := ownSeconds(recs)
	// Commands recorded by `hookd run` (a session of shell "run", written
	// whole in one write) are marked as such; so are a coding agent's
	// (a header with an author, written by hookd agent-hook or hookd
	// record), which go to the session the header names.
	source := "hook"
	ignored := map[int64]bool{} // commands not recorded: nor are their intents
	for i, r := range recs {
		switch {
		case r.Env != nil:
			if err := noteEnv(ctx, tx, session, r.Env, rules, st); err != nil {
				return 0, 0, err
			}
		case r.Session != nil:
			s := r.Session
			if s.Shell == "run" {
				source = "run"
			}
			if s.Author != "" {
				source = "agent"
			}
			if s.Session != "" {
				session = s.Session
			}
			if s.User == "" { // USER is not always set (su, some terminals)
				if u, err := user.LookupId(strconv.Itoa(s.UID)); err == nil {
					s.User = u.Username
				}
			}
			if err := tx.AddSession(ctx, history.Session{ID: session, Shell: s.Shell, Version: s.Version,
				PID: s.PID, Host: s.Host, User: s.User, UID: s.UID, TTY: ttyOf(s.PID, final),
				StartedAt: s.Start, Capture: s.Capture, Author: s.Author}); err != nil {
				return 0, 0, err
			}
		case r.Why != nil:
			if err := noteWhy(ctx, tx, session, r.Why, ignored, rules, st); err != nil {
				return 0, 0, err
			}
		case r.Command != nil:
			c := r.Command
			text, ok, k := rules.Filter(c.Text, c.Cwd)
			if !ok {
				st.Ignored++
				ignored[c.Seq] = true
				continue
			}
			st.Redacted += k
			added, err := tx.AddCommand(ctx, history.Entry{Session: session, Seq: c.Seq, Command: text,
				ExitCode: c.Exit, Pipestatus: c.Pipestatus, Cwd: c.Cwd, StartedAt: c.Start,
				DurationUS: max(c.End-c.Start, 0), Source: source})
			if err != nil {
				return 0, 0, err
			}
			if added {
				st.Added++
				// What else is known of where it ran (runctx).
				if err := tx.AddContext(ctx, session, c.Seq, c.Exit == 0, c.Start, nt.context(c, text, own[i])); err != nil {
					return 0, 0, err
				}
			}
		}
	}
	for _, b := range bad {
		st.Problems = append(st.Problems, name+": "+b.Error())
	}
	return used, len(bad), nil
}

// procRoot is where /proc is (tests: an empty directory).
var procRoot = "/proc"

// ttyOf names the terminal of a live shell, from /proc (none without it).
func ttyOf(pid int, ended bool) string {
	if ended || pid <= 0 {
		return ""
	}
	t, err := os.Readlink(fmt.Sprintf("%s/%d/fd/0", procRoot, pid))
	if err != nil || !(strings.HasPrefix(t, "/dev/pts/") || strings.HasPrefix(t, "/dev/tty")) {
		return ""
	}
	return t
}

// noteWhy stores why an agent ran its commands, redacted: the intent of a
// command (not of one left out of the history), or a prompt (unless
// agents.keep_prompts is off).
func noteWhy(ctx context.Context, tx *history.Tx, session string, w *spool.Why, ignored map[int64]bool, rules *Rules, st *Stats) error {
	if strings.TrimSpace(w.Text) == "" {
		return nil
	}
	text, k := rules.Redactor.String(w.Text)
	switch w.Kind {
	case spool.WhyIntent:
		if ignored[w.Seq] {
			return nil
		}
		st.Redacted += k
		return tx.AddIntent(ctx, session, w.Seq, text)
	case spool.WhyPrompt:
		if rules.DropPrompts {
			return nil
		}
		st.Redacted += k
		return tx.AddPrompt(ctx, session, w.Seq, w.Time, text)
	}
	return nil
}
