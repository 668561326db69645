// Package hostid names this installation of hookd: an id made once, at
// first use, and kept in a file of the user's data directory. A host is an
// installation, not a hostname: two containers or two home directories on
// a machine of one name are two hosts. Sync files each installation's
// segments under its id, and history marks the commands that came from
// another installation with that installation's id; the hostname is kept
// only as a label. This is the one place that reads or makes the id.
package hostid

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Len is the length of an id: 16 lowercase hexadecimal digits.
const Len = 16

// Valid reports whether s has the form of an installation id.
func Valid(s string) bool {
	if len(s) != Len {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Read returns the id kept at path, or an error wrapping os.ErrNotExist
// when none was made yet.
func Read(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	id := strings.TrimSpace(string(b))
	if !Valid(id) {
		return "", fmt.Errorf("%s does not hold an installation id (%d hexadecimal digits): remove it to make a new one", path, Len)
	}
	return id, nil
}

// Get returns the id kept at path, making it first when there is none
// (0600, in a 0700 directory). Two processes making it at once agree on
// one: the file is created whole under a temporary name and linked into
// place, and the loser reads the winner's.
func Get(path string) (string, error) {
	id, err := Read(path)
	if err == nil || !errors.Is(err, os.ErrNotExist) {
		return id, err
	}
	tmp, err := write(path)
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("installation id: %w", err)
	}
	return Read(path)
}

// Renew gives this installation a new id in place of old, the id another
// installation turned out to have too (a copied home directory, a cloned
// machine: sync finds the other's segments in its series), and returns
// it. When the file no longer holds old (another process renewed it
// first), it returns the id the file holds.
func Renew(path, old string) (string, error) {
	if id, err := Read(path); err != nil || id != old {
		return id, err
	}
	tmp, err := write(path)
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp)
	if err := os.Rename(tmp, path); err != nil {
		return "", fmt.Errorf("installation id: %w", err)
	}
	return Read(path)
}

// write makes a new id in a temporary file beside path and returns the
// file's name.
func write(path string) (string, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("installation id: %w", err)
	}
	var b [Len / 2]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("installation id: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".host-id-*")
	if err != nil {
		return "", fmt.Errorf("installation id: %w", err)
	}
	_, err = tmp.WriteString(hex.EncodeToString(b[:]) + "\n")
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("installation id: %w", err)
	}
	return tmp.Name(), nil
}
