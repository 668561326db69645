package runrecord

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/internal/recording/outbox"
	"github.com/hookd/hookd/internal/recording/spool"
)

// A coding agent's commands (Claude Code's, through hookd agent-hook; any
// tool's, through hookd record) are recorded like hookd run's, with two
// differences: each belongs to the hookd session of the agent's own
// session (AgentSession), which many hook processes add to one command
// at a time; and the session carries the agent's name as its author.
// Each command is one spool file of its own (named for a fresh id, so no
// two writers ever share a file) whose S3 header names the session the
// command goes to; its sequence number in that session comes from one
// counter for all agents (NextSeq), so that numbers only grow within a
// session whatever runs at once.

// ValidAuthor reports whether name can be an author: 1 to 64 letters,
// digits, '-', '_' or '.', starting with a letter or digit.
func ValidAuthor(name string) bool {
	if name == "" || len(name) > 64 || !isAlnum(name[0]) {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// AgentSession is the hookd session id of an agent's session: the author
// and the agent's own key (Claude Code's session_id, say), each made safe
// for a file name. A key that does not fit is replaced by its hash, so
// that two keys never share a session.
func AgentSession(author, key string) string {
	a := strings.ReplaceAll(author, ".", "_")
	safe := key != "" && len(a)+1+len(key) <= 100
	for i := 0; safe && i < len(key); i++ {
		c := key[i]
		safe = isAlnum(c) || c == '-' || c == '_'
	}
	if !safe {
		sum := sha256.Sum256([]byte(key))
		key = "h" + hex.EncodeToString(sum[:12])
	}
	return a + "-" + key
}

// NextSeq returns the next sequence number from the counter file at path
// (made 0600 when missing), under an exclusive lock: every process that
// records an agent's command takes its number here.
func NextSeq(path string) (int64, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return 0, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return 0, fmt.Errorf("lock %s: %w", path, err)
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	var buf [32]byte
	n, err := f.ReadAt(buf[:], 0)
	if err != nil && n == 0 && !errors.Is(err, io.EOF) {
		return 0, err
	}
	last, _ := strconv.ParseInt(strings.TrimSpace(string(buf[:n])), 10, 64)
	next := max(last, 0) + 1
	s := strconv.FormatInt(next, 10) + "\n"
	if _, err := f.WriteAt([]byte(s), 0); err != nil {
		return 0, err
	}
	return next, f.Truncate(int64(len(s)))
}

// SaveAgent records c, a command of the coding agent w.Author, as number
// seq of session (see AgentSession and NextSeq): a spool file of its own
// whose header sends it to that session, and its outputs (those of c that
// are not nil: an agent gives what it has) in the outbox.
func SaveAgent(spoolDir, outboxDir string, w Writer, c Command, session string, seq int64) error {
	if !ValidAuthor(w.Author) {
		return fmt.Errorf("not recorded: bad author %q", w.Author)
	}
	if !spool.ValidSessionID(session) {
		return fmt.Errorf("not recorded: bad session id %q", session)
	}
	file := spool.NewSessionID(c.Start, w.PID)
	rec := spool.AppendSession(nil, spool.Session{Shell: w.Shell, Version: w.Version, PID: w.PID, Host: w.Host,
		User: w.User, UID: w.UID, Start: c.Start.UnixMicro(), Capture: "agent", Author: w.Author, Session: session})
	rec = spool.AppendCommand(rec, spool.Command{Seq: seq, Start: c.Start.UnixMicro(), End: c.End.UnixMicro(), Exit: c.Status,
		Cwd: c.Cwd, Text: strings.ReplaceAll(c.Text, "\x00", "")})
	if c.Intent != "" {
		rec = spool.AppendWhy(rec, spool.Why{Seq: seq, Time: c.Start.UnixMicro(), Kind: spool.WhyIntent,
			Text: strings.ReplaceAll(c.Intent, "\x00", "")})
	}
	// The outputs first: the daemon may ingest the command at once, and a
	// command whose output is not there yet reads as one without.
	for _, o := range []struct {
		stream string
		buf    *capture.Buffer
	}{{outbox.Terminal, c.Output}, {outbox.Stdout, c.Stdout}, {outbox.Stderr, c.Stderr}} {
		if o.buf == nil {
			continue
		}
		// Recorded: what the agent's tool gave reached no terminal.
		it := outbox.Item{Session: session, Seq: seq, Stream: o.stream, Status: c.Status, Size: o.buf.Len(),
			Time: c.End.UnixMicro(), Raw: o.buf.Bytes(), Recorded: true}
		if _, err := outbox.Write(outboxDir, it); err != nil {
			return fmt.Errorf("output not kept: %w", err)
		}
	}
	return writeSpool(spoolDir, file, rec)
}

// SavePrompt records a prompt the user gave the coding agent w.Author, at
// time at, as number seq of session (see SaveAgent): the agent's commands
// numbered after it, up to its next prompt, are shown under it.
func SavePrompt(spoolDir string, w Writer, session string, seq int64, at time.Time, prompt string) error {
	if !ValidAuthor(w.Author) {
		return fmt.Errorf("not recorded: bad author %q", w.Author)
	}
	if !spool.ValidSessionID(session) {
		return fmt.Errorf("not recorded: bad session id %q", session)
	}
	rec := spool.AppendSession(nil, spool.Session{Shell: w.Shell, Version: w.Version, PID: w.PID, Host: w.Host,
		User: w.User, UID: w.UID, Start: at.UnixMicro(), Capture: "agent", Author: w.Author, Session: session})
	rec = spool.AppendWhy(rec, spool.Why{Seq: seq, Time: at.UnixMicro(), Kind: spool.WhyPrompt, Text: strings.ReplaceAll(prompt, "\x00", "")})
	return writeSpool(spoolDir, spool.NewSessionID(at, w.PID), rec)
}

// writeSpool writes rec as the spool file named file.
func writeSpool(spoolDir, file string, rec []byte) error {
	if err := os.MkdirAll(spoolDir, 0o700); err != nil {
		return fmt.Errorf("not recorded: %w", err)
	}
	// Written whole under another name, then renamed: the daemon never
	// reads half a record of a writer that has already ended.
	tmp := filepath.Join(spoolDir, "."+file+".tmp")
	if err := os.WriteFile(tmp, rec, 0o600); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("not recorded: %w", err)
	}
	if err := os.Rename(tmp, spool.Path(spoolDir, file)); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("not recorded: %w", err)
	}
	return nil
}
