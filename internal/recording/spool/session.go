package spool

import (
	"crypto/rand"
	"encoding/hex"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Suffix ends the name of every spool file; the rest of the name is the
// session id. The shell code names its spool "$HOOKD_SESSION.spool" in the
// spool directory that `hookd init` fills in.
const Suffix = ".spool"

// Path returns the spool file of session in dir.
func Path(dir, session string) string { return filepath.Join(dir, session+Suffix) }

// SessionOf returns the session id of a spool file's name, and whether the
// name is a spool's at all.
func SessionOf(name string) (string, bool) {
	if !strings.HasSuffix(name, Suffix) || len(name) == len(Suffix) {
		return "", false
	}
	return strings.TrimSuffix(name, Suffix), true
}

// NewSessionID returns a session id in the shells' form,
// "<start µs>-<pid>-<random>", for a process of hookd's own that writes
// records (hookd run) or per-process files the daemon must know the writer
// of (output streams): the daemon reads the pid back to tell when the
// writer has ended.
//
// The shell code builds the same form without a fork: bash from
// EPOCHREALTIME, $$ and $RANDOM, zsh likewise (see scripts/).
func NewSessionID(start time.Time, pid int) string {
	var rnd [4]byte
	rand.Read(rnd[:])
	return strconv.FormatInt(start.UnixMicro(), 10) + "-" + strconv.Itoa(pid) + "-" + hex.EncodeToString(rnd[:])
}

// SessionPID returns the pid of the process that writes a session (the
// shell, or hookd's own writer), read from its id, or 0 when the id is not
// in that form (an imported session's, say).
func SessionPID(session string) int {
	parts := strings.Split(session, "-")
	if len(parts) != 3 {
		return 0
	}
	if _, err := strconv.ParseInt(parts[0], 10, 64); err != nil {
		return 0
	}
	pid, err := strconv.Atoi(parts[1])
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// ValidSessionID reports whether id can name a session's files (spool,
// outbox items): not empty, at most 128 bytes, no path separator, dot or
// NUL.
func ValidSessionID(id string) bool {
	return id != "" && len(id) <= 128 && !strings.ContainsAny(id, "/.\x00")
}
