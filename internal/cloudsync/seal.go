package cloudsync

import (
	"bytes"
	"compress/flate"
	"crypto/rand"
	"errors"
	"fmt"
	"io"

	"golang.org/x/crypto/chacha20poly1305"
)

// An object in the bucket is sealed so that the store sees nothing but
// its size (and its name, which holds no content):
//
//	magic "HOOKDSY1" | key id (8) | wrap nonce (24) | wrapped segment key (32+16) | body nonce (24) | body
//
// Each object has a segment key of its own, made at random; it is sealed
// (XChaCha20-Poly1305) under the wrap key derived from the user's key,
// and the body, compressed (DEFLATE) before, is sealed under the segment
// key. Both seals authenticate the header and the object's name (relative
// to the sync prefix), so that the store can neither alter an object nor
// pass one off under another name. Nonces are random and 192 bits long,
// and each segment key seals exactly one body: nothing is ever sealed
// twice under one key and nonce.
const magic = "HOOKDSY1"

const headerLen = len(magic) + 8 + chacha20poly1305.NonceSizeX + 32 + chacha20poly1305.Overhead

// maxPlain bounds a body once decompressed: inflating stops there (a
// decompression bomb costs at most that much memory), and no segment this
// hookd writes is larger (upload and fold make sure of it). It leaves room
// for the folds of an earlier hookd, which bounded only their compressed
// size (4 MiB: 32 times that inflated). A variable for tests (SetMaxPlain).
var maxPlain = 128 << 20

// ErrWrongKey reports an object sealed under another key than ours.
var ErrWrongKey = errors.New("it was encrypted with a different key")

// ErrDamaged reports an object that is not one hookd sealed, or was
// altered.
var ErrDamaged = errors.New("it is damaged or was altered (authentication failed)")

// seal compresses and encrypts plain as the object called name.
func seal(k Key, name string, plain []byte) ([]byte, error) {
	var z bytes.Buffer
	zw, _ := flate.NewWriter(&z, flate.DefaultCompression)
	zw.Write(plain)
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return sealDeflated(k, name, z.Bytes())
}

// sealDeflated encrypts z, a DEFLATE stream, as the object called name.
func sealDeflated(k Key, name string, z []byte) ([]byte, error) {
	var dk [32]byte
	if _, err := rand.Read(dk[:]); err != nil {
		return nil, err
	}
	wrap, err := chacha20poly1305.NewX(k.wrapKey())
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, headerLen+chacha20poly1305.NonceSizeX+len(z)+chacha20poly1305.Overhead)
	id := k.ID()
	out = append(out, magic...)
	out = append(out, id[:]...)
	nonce := make([]byte, chacha20poly1305.NonceSizeX)
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	out = append(out, nonce...)
	out = wrap.Seal(out, nonce, dk[:], ad(out, name))
	body, err := chacha20poly1305.NewX(dk[:])
	if err != nil {
		return nil, err
	}
	hdr := out
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	out = append(out, nonce...)
	return body.Seal(out, nonce, z, ad(hdr, name)), nil
}

func ad(hdr []byte, name string) []byte {
	a := make([]byte, 0, len(hdr)+len(name)+1)
	a = append(a, hdr...)
	a = append(a, 0)
	return append(a, name...)
}

// open decrypts and decompresses the object called name.
func open(k Key, name string, data []byte) ([]byte, error) {
	if len(data) < headerLen+chacha20poly1305.NonceSizeX+chacha20poly1305.Overhead || string(data[:len(magic)]) != magic {
		return nil, ErrDamaged
	}
	id := k.ID()
	if !bytes.Equal(data[len(magic):len(magic)+8], id[:]) {
		return nil, ErrWrongKey
	}
	wrap, err := chacha20poly1305.NewX(k.wrapKey())
	if err != nil {
		return nil, err
	}
	nStart := len(magic) + 8
	nonce := data[nStart : nStart+chacha20poly1305.NonceSizeX]
	dk, err := wrap.Open(nil, nonce, data[nStart+len(nonce):headerLen], ad(data[:nStart+len(nonce)], name))
	if err != nil {
		return nil, ErrDamaged
	}
	body, err := chacha20poly1305.NewX(dk)
	if err != nil {
		return nil, err
	}
	bn := data[headerLen : headerLen+chacha20poly1305.NonceSizeX]
	ct := data[headerLen+len(bn):]
	z, err := body.Open(ct[:0], bn, ct, ad(data[:headerLen], name)) // in place: no second copy
	if err != nil {
		return nil, ErrDamaged
	}
	plain, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(z)), int64(maxPlain)+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	if len(plain) > maxPlain {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrDamaged, maxPlain)
	}
	return plain, nil
}
