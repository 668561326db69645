package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/redact"
	"github.com/hookd/hookd/spool"
)

// SpoolSuffix ends the name of every spool file; the rest is the session id.
const SpoolSuffix = ".spool"

// chunk is how much of a spool one transaction takes at most.
const chunk = 4 << 20

// Rules decide what is kept of a command and how.
type Rules struct {
	Redactor   *redact.Redactor // nil: the built-in rules
	Ignore     []*regexp.Regexp // commands matching any of these are not recorded
	IgnoreDirs []string         // nor commands started in or below these directories
}

// Filter decides whether a command is recorded and returns its text with
// secrets redacted, and how many were. A leading space means "do not record
// this", whatever the shell's own settings.
func (r *Rules) Filter(text, cwd string) (kept string, ok bool, redacted int) {
	if text == "" || text[0] == ' ' || text[0] == '\t' {
		return "", false, 0
	}
	for _, re := range r.Ignore {
		if re.MatchString(text) {
			return "", false, 0
		}
	}
	for _, d := range r.IgnoreDirs {
		d = strings.TrimRight(d, "/")
		if d == "" || cwd == d || strings.HasPrefix(cwd, d+"/") {
			return "", false, 0
		}
	}
	kept, redacted = r.Redactor.String(text)
	return kept, true, redacted
}

// Stats counts what one ingestion pass did.
type Stats struct {
	Spools   int // spool files looked at
	Added    int // commands added to the history
	Ignored  int // commands left out by the rules
	Redacted int // secrets replaced
	Bad      int // malformed records skipped
	Removed  int // spools of finished sessions removed
	Outputs  int // captured outputs stored
	// OutputsDropped counts captured outputs of commands that were not
	// recorded (and so are not stored either).
	OutputsDropped int
	Problems       []string
}

// Ingest moves every complete record from the spool files in dir into store,
// exactly once: each spool's read offset is committed in the same
// transaction as the rows read up to it. Ingested bytes are then punched out
// of the file where the file system allows, so that raw command lines do not
// linger on disk; spools of sessions that have ended are removed once read.
// Several processes may ingest at once.
func Ingest(ctx context.Context, store *history.Store, dir string, rules *Rules, now time.Time) (Stats, error) {
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
		if !strings.HasSuffix(name, SpoolSuffix) || ent.IsDir() {
			continue
		}
		present[name] = true
		st.Spools++
		if err := ingestFile(ctx, store, filepath.Join(dir, name), known[name], rules, now, host, &st); err != nil {
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
		if !present[name] && !strings.HasPrefix(name, streamOffsetPrefix) {
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

func ingestFile(ctx context.Context, store *history.Store, path string, known history.SpoolState, rules *Rules, now time.Time, host string, st *Stats) error {
	name := filepath.Base(path)
	session := strings.TrimSuffix(name, SpoolSuffix)
	// Read-write, so that punch can free what was read (fallocate needs a
	// descriptor open for writing); read-only where that is not allowed.
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		f, err = os.Open(path)
	}
	if errors.Is(err, os.ErrNotExist) {
		return nil // removed by another ingester
	}
	if err != nil {
		return fmt.Errorf("ingest %s: %w", name, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("ingest %s: %w", name, err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		f.Chmod(0o600) // the shell's umask may have been loose when it made the file
	}
	inode := fi.Sys().(*syscall.Stat_t).Ino
	// A spool is complete when its shell has ended: then a record cut short
	// at the end will never be finished.
	dead := sessionEnded(session)
	if known.Inode == inode && known.Offset == fi.Size() && !dead {
		return nil // nothing new
	}
	for {
		done, err := ingestChunk(ctx, store, f, name, session, inode, dead, rules, now, st)
		if err != nil {
			return fmt.Errorf("ingest %s: %w", name, err)
		}
		if done {
			break
		}
	}
	if dead {
		return removeSpool(ctx, store, f, path, name, inode, host, st)
	}
	return nil
}

// ingestChunk reads up to one chunk of new records in one transaction.
func ingestChunk(ctx context.Context, store *history.Store, f *os.File, name, session string, inode uint64,
	atEOF bool, rules *Rules, now time.Time, st *Stats) (done bool, err error) {
	tx, err := store.Begin(ctx)
	if err != nil {
		return true, err
	}
	defer tx.Rollback()
	ino, off, err := tx.SpoolOffset(ctx, name)
	if err != nil {
		return true, err
	}
	fi, err := f.Stat()
	if err != nil {
		return true, err
	}
	if ino != inode && fi.Sys().(*syscall.Stat_t).Nlink == 0 {
		// Removed, after it was read to the end, by another ingester that
		// has also dropped its offset: reading it again from 0 would count
		// its records, or the holes punched in it, a second time.
		return true, nil
	}
	size := fi.Size()
	if ino != inode || size < off {
		// A new file under an old name. A spool never shrinks (punching
		// keeps its size), so a shorter one is new even when the file
		// system gave it the old file's inode number.
		off = 0
	}
	if size <= off {
		return true, nil
	}
	n := size - off
	last := true
	if n > chunk {
		n, last = chunk, false
	}
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, off); err != nil && err != io.EOF {
		return true, err
	}
	recs, used, bad := spool.Decode(buf, atEOF && last)
	if used == 0 && len(bad) == 0 {
		if !last {
			// A single record larger than a chunk: nothing a shell writes.
			bad = append(bad, fmt.Errorf("offset %d: record longer than %d bytes", off, chunk))
			used = len(buf)
		} else {
			return true, nil
		}
	}
	var sess *spool.Session
	for _, r := range recs {
		switch {
		case r.Session != nil:
			sess = r.Session
			if sess.User == "" { // USER is not always set (su, some terminals)
				if u, err := user.LookupId(strconv.Itoa(sess.UID)); err == nil {
					sess.User = u.Username
				}
			}
			if err := tx.AddSession(ctx, history.Session{ID: session, Shell: sess.Shell, Version: sess.Version,
				PID: sess.PID, Host: sess.Host, User: sess.User, UID: sess.UID, TTY: ttyOf(sess.PID, atEOF),
				StartedAt: sess.Start, Capture: sess.Capture}); err != nil {
				return true, err
			}
		case r.Command != nil:
			c := r.Command
			text, ok, k := rules.Filter(c.Text, c.Cwd)
			if !ok {
				st.Ignored++
				continue
			}
			st.Redacted += k
			added, err := tx.AddCommand(ctx, history.Entry{Session: session, Seq: c.Seq, Command: text,
				ExitCode: c.Exit, Pipestatus: c.Pipestatus, Cwd: c.Cwd, StartedAt: c.Start,
				DurationUS: max(c.End-c.Start, 0), Source: "hook"})
			if err != nil {
				return true, err
			}
			if added {
				st.Added++
			}
		}
	}
	for _, b := range bad {
		st.Problems = append(st.Problems, name+": "+b.Error())
	}
	st.Bad += len(bad)
	if err := tx.SetSpoolOffset(ctx, name, inode, off+int64(used), len(bad), now.UnixMicro()); err != nil {
		return true, err
	}
	if err := tx.Commit(); err != nil {
		return true, err
	}
	punch(f, off+int64(used))
	return last && off+int64(used) >= size, nil
}

// punch frees the file's blocks before end, so that what was ingested (raw,
// unredacted command lines) does not stay on disk. The file keeps its size,
// so offsets stay valid. File systems without hole punching keep the bytes
// until the spool is removed.
func punch(f *os.File, end int64) {
	const punchHole, keepSize = 0x02, 0x01
	syscall.Fallocate(int(f.Fd()), punchHole|keepSize, 0, end) // best effort
}

// removeSpool deletes the fully ingested spool of an ended session. The file
// goes first: a crash in between leaves an offset row without a file, which
// the next pass drops, never a file that would be read again from 0.
func removeSpool(ctx context.Context, store *history.Store, f *os.File, path, name string, inode uint64, host string, st *Stats) error {
	fi, err := f.Stat()
	if err != nil || fi.Sys().(*syscall.Stat_t).Nlink == 0 {
		return err // already removed by another ingester
	}
	if sess, err := store.Session(ctx, strings.TrimSuffix(name, SpoolSuffix)); err == nil && sess.Host != "" && host != "" && sess.Host != host {
		return nil // a shell of another machine sharing this directory
	}
	tx, err := store.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	_, off, err := tx.SpoolOffset(ctx, name)
	if err != nil || off < fi.Size() {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", name, err)
	}
	if err := tx.DeleteSpool(ctx, name); err != nil {
		return err
	}
	st.Removed++
	return tx.Commit()
}

// SessionPID returns the pid of the shell of a session, from its id
// ("<start µs>-<pid>-<random>"), or 0.
func SessionPID(session string) int {
	parts := strings.Split(session, "-")
	if len(parts) != 3 {
		return 0
	}
	pid, err := strconv.Atoi(parts[1])
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// sessionEnded reports whether the shell of a session has exited.
func sessionEnded(session string) bool {
	pid := SessionPID(session)
	return pid > 0 && errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// ttyOf names the terminal of a live shell, from /proc.
func ttyOf(pid int, ended bool) string {
	if ended || pid <= 0 {
		return ""
	}
	t, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/0", pid))
	if err != nil || !(strings.HasPrefix(t, "/dev/pts/") || strings.HasPrefix(t, "/dev/tty")) {
		return ""
	}
	return t
}
