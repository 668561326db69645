// Package paths is hookd's file layout: where every file and directory
// lives, derived in one place from the XDG base directories. The CLI, the
// daemon and the shell code (through the values `hookd init` fills in) all
// take their paths from here, so that no two of them can disagree.
package paths

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
)

// Dirs are the base directories, as the process found them (package main
// reads the environment; github.com/adrg/xdg resolves the XDG variables).
type Dirs struct {
	Home       string
	ConfigHome string // $XDG_CONFIG_HOME, resolved
	DataHome   string // $XDG_DATA_HOME, resolved
	StateHome  string // $XDG_STATE_HOME, resolved
	// RuntimeDir is $XDG_RUNTIME_DIR as it is: used when it is absolute,
	// else a private directory under TempDir.
	RuntimeDir string
	TempDir    string
	UID        int
}

// Layout names hookd's files. All paths are absolute when Dirs are.
type Layout struct {
	// Config is config.yaml; Patterns the user's failure patterns.
	Config, Patterns string
	// Skills holds the user's skill files (*.md, package skill);
	// Template, if it exists, is the prompt template used when the
	// config sets none.
	Skills, Template string
	// Commands holds the user's prompt files (*.md, package promptfile).
	Commands string
	// DB is the history database.
	DB string
	// State holds what the shells and the daemon write as they go: Spool
	// (one file per shell session), Outbox (captured outputs on their way
	// to the daemon), Offers (commands offered for the next command line,
	// one file per session), PIDFile (the daemon's "pid version"), Log
	// (the daemon's log), CaptureProblem (why output capture could not
	// start, for hookd status), RemoteNotice (there once the notice
	// that context leaves the machine was given) and RCTwice (when a shell
	// last entered the capturing proxy from the rc file's end, running the
	// rc twice: hookd status suggests the early line).
	State, Spool, Outbox, Offers, PIDFile, Log, CaptureProblem, RemoteNotice, RCTwice string
	// Pins holds the commands a `!!ctx` line pinned for a session's next
	// question (package ask).
	Pins string
	// SearchCache is the search's copy of the history in memory (package
	// search): made again whenever commands are forgotten.
	SearchCache string
	// AptNames caches the package names in apt's lists (package probe),
	// made again when the lists change.
	AptNames string
	// PathNames caches the names in the PATH directories (package probe),
	// made again when a directory changes.
	PathNames string
	// Vocab caches, per tool, the subcommands and options its completion
	// files name (package probe), made again when they or the tool change.
	Vocab string
	// AgentSeq is the counter of the sequence numbers given to coding
	// agents' commands (hookd agent-hook, hookd record; package recorder).
	AgentSeq string
	// Runtime holds the daemon's socket and lock: 0700, the user's own.
	Runtime string
	// Trust holds the records of `hookd allow` and `hookd deny` (package
	// trust): 0700, made when first written.
	Trust string
	// HostID holds this installation's id (package hostid): made once,
	// the name of its series of segments in sync, the "this host" of
	// history scopes. SyncKey holds the sync key (0600), SyncLock is
	// taken by a sync pass.
	HostID, SyncKey, SyncLock string
}

// New returns the layout for d.
func New(d Dirs) Layout {
	state := filepath.Join(d.StateHome, "hookd")
	l := Layout{
		Config:         filepath.Join(d.ConfigHome, "hookd", "config.yaml"),
		Patterns:       filepath.Join(d.ConfigHome, "hookd", "patterns.yaml"),
		Skills:         filepath.Join(d.ConfigHome, "hookd", "skills"),
		Template:       filepath.Join(d.ConfigHome, "hookd", "template.md"),
		Commands:       filepath.Join(d.ConfigHome, "hookd", "commands"),
		DB:             filepath.Join(d.DataHome, "hookd", "history.db"),
		State:          state,
		Spool:          filepath.Join(state, "spool"),
		Outbox:         filepath.Join(state, "outputs"),
		Offers:         filepath.Join(state, "fixes"),
		PIDFile:        filepath.Join(state, "agent.pid"),
		Log:            filepath.Join(state, "hookd.log"),
		CaptureProblem: filepath.Join(state, "capture-problem"),
		RemoteNotice:   filepath.Join(state, "remote-notice"),
		RCTwice:        filepath.Join(state, "rc-twice"),
		Pins:           filepath.Join(state, "pins"),
		SearchCache:    filepath.Join(state, "search.cache"),
		AptNames:       filepath.Join(state, "apt-names"),
		PathNames:      filepath.Join(state, "path-names"),
		Vocab:          filepath.Join(state, "vocab"),
		AgentSeq:       filepath.Join(state, "agent-seq"),
		Trust:          filepath.Join(d.DataHome, "hookd", "trust"),
		HostID:         filepath.Join(d.DataHome, "hookd", "host-id"),
		SyncKey:        filepath.Join(d.DataHome, "hookd", "sync-key"),
		SyncLock:       filepath.Join(state, "sync.lock"),
	}
	if filepath.IsAbs(d.RuntimeDir) {
		l.Runtime = filepath.Join(d.RuntimeDir, "hookd")
	} else {
		l.Runtime = filepath.Join(d.TempDir, "hookd-"+strconv.Itoa(d.UID))
	}
	return l
}

// Private makes sure dir exists, belongs to this user and is open to no
// one else (0700): a directory made by an older version or under a loose
// umask is tightened. A directory of another user, or a symlink, is an
// error.
func Private(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok || int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s is not a directory of yours: refusing to use it", dir)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return err
		}
	}
	return nil
}

// Taken says why dir, a private directory of the user's (Private), cannot
// be used: it exists and is not a directory of the user's own, as when
// another user created the fallback runtime directory under /tmp first;
// "" when it is the user's, or is not there yet.
func Taken(dir string) string {
	fi, err := os.Lstat(dir)
	if err != nil {
		return ""
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return fmt.Sprintf("%s is a symbolic link, not a directory of yours: hookd refuses to use it", dir)
	case !fi.IsDir():
		return fmt.Sprintf("%s is not a directory: hookd refuses to use it", dir)
	case ok && int(st.Uid) != os.Getuid():
		owner := "uid " + strconv.Itoa(int(st.Uid))
		if u, err := user.LookupId(strconv.Itoa(int(st.Uid))); err == nil {
			owner = u.Username + " (" + owner + ")"
		}
		return fmt.Sprintf("%s belongs to %s, another user, who could listen on hookd's socket there: hookd refuses to use it", dir, owner)
	}
	return ""
}

// Tighten sets each of dirs that exists to 0700 when it is open to others
// (made by an older version, or under a loose umask). Missing ones are
// left missing.
func Tighten(dirs ...string) error {
	var errs []error
	for _, dir := range dirs {
		fi, err := os.Stat(dir)
		if err != nil || !fi.IsDir() || fi.Mode().Perm()&0o077 == 0 {
			continue
		}
		if err := os.Chmod(dir, 0o700); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// WritePrivate is WriteAtomic in a directory Private makes.
func WritePrivate(path string, data []byte) error {
	if err := Private(filepath.Dir(path)); err != nil {
		return err
	}
	return WriteAtomic(path, data)
}

// WritePrivateOnce is WritePrivate unless path holds data already: a file
// that every shell start would write the same (fish's start-up, its
// on-demand functions) is read and compared, not written again.
func WritePrivateOnce(path string, data []byte) error {
	if err := Private(filepath.Dir(path)); err != nil {
		return err
	}
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	return WriteAtomic(path, data)
}

// WriteAtomic writes data to path whole or not at all, 0600: a file
// beside it, renamed over it, so that a reader never sees half of it.
func WriteAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
