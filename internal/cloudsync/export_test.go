package cloudsync

import "github.com/hookd/hookd/history"

// What the tests of trust need to write objects as a rogue machine holding
// the key would: any plain text, sealed under any name.

// MaxObject and MaxPlain are the bounds of a segment object and of its
// plain text.
func MaxObject() int64 { return maxObject() }
func MaxPlain() int    { return maxPlain }

// SetMaxPlain changes the bound of a segment's plain text; it returns a
// function that puts it back.
func SetMaxPlain(n int) (restore func()) {
	old := maxPlain
	maxPlain = n
	return func() { maxPlain = old }
}

// SealForTest seals plain as the object name, as seal does.
func SealForTest(k Key, name string, plain []byte) ([]byte, error) { return seal(k, name, plain) }

// SealDeflatedForTest seals z, a DEFLATE stream, as the object name.
func SealDeflatedForTest(k Key, name string, z []byte) ([]byte, error) {
	return sealDeflated(k, name, z)
}

// EncodeForTest encodes a batch as installation host's segment start-end.
func EncodeForTest(host string, start, end int64, b *history.SyncBatch) ([]byte, error) {
	return encode(wireSegment{Host: host, Label: "rogue", DB: "rogue", Upto: 1, Start: start, End: end}, b, naming{self: host})
}

// SegmentName is the name (relative to the prefix) of host's segment
// start-end; HeadName of its head seq.
func SegmentName(host string, start, end int64) string { return segmentName(host, start, end) }
func HeadName(host string, seq int64) string           { return headName(host, seq) }

// MaxItems bounds each list of a segment.
const MaxItems = maxItems
