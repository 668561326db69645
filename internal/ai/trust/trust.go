// Package trust records which files the user has allowed to run commands,
// by their content, as direnv does: `hookd allow FILE` records the file's
// path and a hash of its path and content; an edited file is untrusted
// again (Changed) until it is allowed again; `hookd deny FILE` revokes it.
//
// The records live in one directory (0700), one file per path (0600),
// named by the SHA-256 of the path, holding a small JSON object: the path,
// whether it is allowed or denied, the hash allowed and when. One file per
// path makes a write atomic (a rename) and listing possible.
package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Store is the directory of trust records.
type Store struct{ Dir string }

// State is what the store says of a file.
type State int

// The states of a file.
const (
	Untrusted State = iota // never allowed (or denied)
	Allowed                // allowed, with this content
	Changed                // allowed, but its content differs now
	Denied                 // denied: untrusted until allowed again
)

// String returns untrusted, allowed, changed or denied.
func (st State) String() string {
	switch st {
	case Untrusted:
		return "untrusted"
	case Allowed:
		return "allowed"
	case Changed:
		return "changed"
	case Denied:
		return "denied"
	}
	return fmt.Sprintf("State(%d)", int(st))
}

// record is one file's entry in the store.
type record struct {
	Path  string    `json:"path"`
	State string    `json:"state"`          // "allowed" or "denied"
	Hash  string    `json:"hash,omitempty"` // sha256 of path and content, when allowed
	At    time.Time `json:"at"`
}

// Entry is a file the store has a record of.
type Entry struct {
	Path  string
	State State // Allowed, Changed or Denied
	// Missing: the file is gone (State is what was recorded).
	Missing bool
	At      time.Time // when it was allowed or denied
}

// Resolve returns the name the store knows a file by: path made absolute
// and clean, the links among its directories resolved, and its own name
// kept. A link is known by its own path, never by the file it points to:
// allowing a file trusts nothing that merely links to it.
func Resolve(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return "", err
	}
	p := filepath.Join(dir, filepath.Base(abs))
	if _, err := os.Lstat(p); err != nil {
		return "", err
	}
	return p, nil
}

// identity is the hash allowed for a file: of its path and content, so
// that the same content elsewhere is not trusted.
func identity(path string, content []byte) string {
	h := sha256.New()
	h.Write([]byte(path))
	h.Write([]byte{0})
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// file returns the record file of path (resolved).
func (s Store) file(path string) string {
	sum := sha256.Sum256([]byte(path))
	return filepath.Join(s.Dir, hex.EncodeToString(sum[:]))
}

func (s Store) read(path string) (*record, error) {
	data, err := os.ReadFile(s.file(path))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r record
	if err := json.Unmarshal(data, &r); err != nil || r.Path != path {
		// A damaged record trusts nothing.
		return nil, nil
	}
	return &r, nil
}

// Check says whether the file at path may run commands: Allowed only when
// it was allowed with the content it has now. A caller that acts on the
// content reads it once and asks StateOf about those bytes.
func (s Store) Check(path string) (State, error) {
	content, err := os.ReadFile(path)
	if err != nil {
		return Untrusted, err
	}
	return s.StateOf(path, content)
}

// StateOf says whether the file at path, holding content (what the caller
// read, once, and will act on), may run commands: Allowed only when it was
// allowed with exactly this content.
func (s Store) StateOf(path string, content []byte) (State, error) {
	p, err := Resolve(path)
	if err != nil {
		return Untrusted, err
	}
	r, err := s.read(p)
	if err != nil || r == nil {
		return Untrusted, err
	}
	return r.state(identity(p, content)), nil
}

// state is the record's state for a file whose identity is now id.
func (r *record) state(id string) State {
	switch {
	case r.State == "denied":
		return Denied
	case r.State != "allowed":
		return Untrusted
	case r.Hash == id:
		return Allowed
	}
	return Changed
}

// Allow trusts the file at path with the content it has now.
func (s Store) Allow(path string) error {
	content, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return s.AllowContent(path, content)
}

// AllowContent trusts the file at path with content: what the caller read
// and showed the user.
func (s Store) AllowContent(path string, content []byte) error {
	p, err := Resolve(path)
	if err != nil {
		return err
	}
	return s.write(record{Path: p, State: "allowed", Hash: identity(p, content), At: time.Now().UTC()})
}

// Deny revokes the trust of the file at path: Check says Denied until it
// is allowed again. A file that is gone can still be denied.
func (s Store) Deny(path string) error {
	p, err := Resolve(path)
	if errors.Is(err, os.ErrNotExist) {
		p, err = filepath.Abs(path)
	}
	if err != nil {
		return err
	}
	return s.write(record{Path: p, State: "denied", At: time.Now().UTC()})
}

// write stores r atomically: a temporary file (0600) renamed over the old
// record.
func (s Store) write(r record) error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return err
	}
	if fi, err := os.Stat(s.Dir); err == nil && fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(s.Dir, 0o700); err != nil {
			return err
		}
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(s.Dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(append(data, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), s.file(r.Path))
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// List returns the files the store has a record of, by path, each with
// its state now.
func (s Store) List() ([]Entry, error) {
	des, err := os.ReadDir(s.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var es []Entry
	for _, de := range des {
		if strings.HasPrefix(de.Name(), ".") || !de.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(s.Dir, de.Name()))
		if err != nil {
			continue
		}
		var r record
		if json.Unmarshal(data, &r) != nil || r.Path == "" {
			continue
		}
		e := Entry{Path: r.Path, At: r.At}
		content, err := os.ReadFile(r.Path)
		if err != nil {
			e.Missing = true
			e.State = (&r).state(r.Hash)
		} else {
			e.State = (&r).state(identity(r.Path, content))
		}
		es = append(es, e)
	}
	slices.SortFunc(es, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	return es, nil
}
