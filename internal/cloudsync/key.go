package cloudsync

import (
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Key is the user's sync key: 32 random bytes that only the user's
// machines hold. It never leaves them, except as the recovery phrase the
// user writes down.
type Key [32]byte

// NewKey makes a key.
func NewKey() (Key, error) {
	var k Key
	_, err := rand.Read(k[:])
	return k, err
}

// ID names the key without revealing it (HKDF-SHA256, 8 bytes): every
// segment carries it, so that a segment sealed with another key is told
// apart from a damaged one.
func (k Key) ID() [8]byte {
	b, _ := hkdf.Key(sha256.New, k[:], nil, "hookd sync key id v1", 8)
	var id [8]byte
	copy(id[:], b)
	return id
}

// wrapKey is the key that wraps each segment's own key.
func (k Key) wrapKey() []byte {
	b, _ := hkdf.Key(sha256.New, k[:], nil, "hookd sync wrap v1", 32)
	return b
}

// The recovery phrase: the key and a 2-byte checksum (SHA-256) in
// base32 (RFC 4648's alphabet, lowercase, no padding), in groups of five
// letters, after a version word: "hookd1-xxxxx-xxxxx-…". Reading it back
// ignores case, spaces and dashes, and takes 0 for o and 8 for b (base32
// has no 0 or 8, so a digit cannot be meant).
const phrasePrefix = "hookd1"

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

// Phrase returns the recovery phrase of k.
func (k Key) Phrase() string {
	sum := sha256.Sum256(k[:])
	raw := append(k[:], sum[0], sum[1])
	s := strings.ToLower(b32.EncodeToString(raw))
	var groups []string
	for len(s) > 5 {
		groups = append(groups, s[:5])
		s = s[5:]
	}
	groups = append(groups, s)
	return phrasePrefix + "-" + strings.Join(groups, "-")
}

// ErrPhrase reports text that is not a recovery phrase.
var ErrPhrase = errors.New("that is not a hookd recovery phrase (it starts with hookd1-; check it for typos)")

// ParsePhrase reads a recovery phrase back.
func ParsePhrase(s string) (Key, error) {
	var k Key
	s = strings.ToLower(strings.Join(strings.Fields(s), ""))
	s = strings.NewReplacer("-", "", "0", "o", "8", "b").Replace(s)
	if !strings.HasPrefix(s, phrasePrefix) {
		return k, ErrPhrase
	}
	s = strings.TrimPrefix(s, phrasePrefix)
	raw, err := b32.DecodeString(strings.ToUpper(s))
	if err != nil || len(raw) != len(k)+2 {
		return k, ErrPhrase
	}
	copy(k[:], raw)
	sum := sha256.Sum256(k[:])
	if raw[len(k)] != sum[0] || raw[len(k)+1] != sum[1] {
		return k, ErrPhrase
	}
	return k, nil
}

// LoadKey reads the key file (hex), or an error wrapping os.ErrNotExist.
func LoadKey(path string) (Key, error) {
	var k Key
	b, err := os.ReadFile(path)
	if err != nil {
		return k, err
	}
	raw, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(raw) != len(k) {
		return k, fmt.Errorf("%s does not hold a sync key: run `hookd sync join` again with the recovery phrase", path)
	}
	copy(k[:], raw)
	return k, nil
}

// SaveKey writes the key file, 0600 in a 0700 directory; it refuses to
// replace one that exists.
func SaveKey(path string, k Key) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString(hex.EncodeToString(k[:]) + "\n")
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}
