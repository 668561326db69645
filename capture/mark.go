package capture

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"strconv"
)

// The grammar of private marks; see [Scanner] for the format.
const (
	markPrefix    = "\x1b]6973;hookd;"
	maxSession    = 128
	maxSeqDigits  = 19
	maxStatDigits = 9
	maxNonce      = 128
	// maxMark bounds the bytes the Scanner holds back while it decides
	// whether an escape sequence is a private mark; it is larger than
	// the longest valid mark.
	maxMark = len(markPrefix) + maxNonce + len(";D;") + maxSession + 1 + maxSeqDigits + 1 + 1 + maxStatDigits + 2
)

// NonceEnv is the environment variable through which the proxy hands the
// nonce to the shell hooks. It stays exported, so that a shell started
// inside the wrapped shell, on the same terminal, prints marks the proxy
// honours and its commands' outputs are kept one by one; the hooks use it
// only on the proxy's own terminal (HOOKD_PTY), so a stale copy inherited
// elsewhere (a tmux server's environment) marks nothing.
const NonceEnv = "HOOKD_CAPTURE_NONCE"

// NewNonce returns a fresh random nonce: 32 hexadecimal digits (128 bits
// from crypto/rand).
func NewNonce() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("read random nonce: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// ID identifies the history row a captured output belongs to.
type ID struct {
	// Session is the shell session (HOOKD_SESSION).
	Session string
	// Seq is the command's sequence number within Session.
	Seq uint64
}

// String returns the ID as SESSION:SEQ.
func (id ID) String() string { return id.Session + ":" + strconv.FormatUint(id.Seq, 10) }

// BeginMark returns the private mark that starts the output of command id.
// The shell hooks print the same bytes; the function exists for tests and
// for Go callers that write marks themselves.
func BeginMark(nonce string, id ID) string {
	return markPrefix + nonce + ";C;" + id.Session + ";" + strconv.FormatUint(id.Seq, 10) + "\a"
}

// DiscardMark returns the private mark that ends the output of command id
// without keeping it: the shell did not record the command (a leading
// space, history off), so its output is not kept either.
func DiscardMark(nonce string, id ID) string {
	return markPrefix + nonce + ";X;" + id.Session + ";" + strconv.FormatUint(id.Seq, 10) + "\a"
}

// EndMark returns the private mark that ends the output of command id,
// which exited with status.
func EndMark(nonce string, id ID, status int) string {
	return markPrefix + nonce + ";D;" + id.Session + ";" + strconv.FormatUint(id.Seq, 10) + ";" + strconv.Itoa(status) + "\a"
}

// WithholdMark returns the private mark that withholds the output of the
// command running now: hookd prints it to its terminal before it prints a
// secret (the sync recovery phrase), so that none of that command's
// output is kept. It names no command: it applies to the open one.
func WithholdMark(nonce string) string {
	return markPrefix + nonce + ";S\a"
}

// PauseMark returns the private mark that pauses the capture of the
// command running now: the shell hooks print it before they run a hook of
// a tool hookd knows to print status lines (direnv's "loading …") inside
// a command's output window, and [ResumeMark] after it, so that those
// lines are not stored as the command's output. Like [WithholdMark] it
// names no command.
func PauseMark(nonce string) string {
	return markPrefix + nonce + ";P\a"
}

// ResumeMark returns the private mark that resumes the capture paused by
// [PauseMark].
func ResumeMark(nonce string) string {
	return markPrefix + nonce + ";R\a"
}

// markMatch is the result of matching a private mark at the start of a
// byte slice.
type markMatch int

const (
	notMark  markMatch = iota // the bytes do not start with a valid mark
	needMore                  // the bytes are a proper prefix of what may be a valid mark
	isMark                    // the bytes start with a valid mark
)

// mark is a parsed private mark.
type mark struct {
	end      bool // a D or X mark; otherwise a C mark (or an S mark)
	discard  bool // an X mark: the command was not recorded
	withhold bool // an S mark: the open command's output is not kept
	pause    bool // a P mark: the open command's output is not kept until an R mark
	resume   bool // an R mark
	id       ID
	status   int
}

// matchMark reports whether b starts with a valid private mark carrying
// nonce, and if so its length and content. b[0] is expected to be ESC.
func matchMark(b []byte, nonce string) (int, markMatch, mark) {
	n := min(len(b), len(markPrefix))
	if string(b[:n]) != markPrefix[:n] {
		return 0, notMark, mark{}
	}
	for i := len(markPrefix); i < len(b); i++ {
		c := b[i]
		switch {
		case c == '\a':
			return parseMark(b[len(markPrefix):i], nonce, i+1)
		case c == 0x1b:
			if i+1 == len(b) {
				return 0, needMore, mark{}
			}
			if b[i+1] != '\\' {
				return 0, notMark, mark{}
			}
			return parseMark(b[len(markPrefix):i], nonce, i+2)
		case c < 0x20 || c > 0x7e || i >= maxMark:
			return 0, notMark, mark{}
		}
	}
	if len(b) >= maxMark {
		return 0, notMark, mark{}
	}
	return 0, needMore, mark{}
}

// parseMark checks the body of a complete mark (between the prefix and
// ST); n is the length of the whole mark.
func parseMark(body []byte, nonce string, n int) (int, markMatch, mark) {
	var f [6][]byte
	k := 0
	start := 0
	for i := 0; i <= len(body); i++ {
		if i == len(body) || body[i] == ';' {
			if k == len(f) {
				return 0, notMark, mark{}
			}
			f[k] = body[start:i]
			k++
			start = i + 1
		}
	}
	if nonce == "" || subtle.ConstantTimeCompare(f[0], []byte(nonce)) != 1 {
		return 0, notMark, mark{}
	}
	var m mark
	switch {
	case k == 2 && string(f[1]) == "S":
		return n, isMark, mark{withhold: true}
	case k == 2 && string(f[1]) == "P":
		return n, isMark, mark{pause: true}
	case k == 2 && string(f[1]) == "R":
		return n, isMark, mark{resume: true}
	case k == 4 && string(f[1]) == "C":
	case k == 4 && string(f[1]) == "X":
		m.end, m.discard, m.status = true, true, -1
	case k == 5 && string(f[1]) == "D":
		m.end = true
		s := f[4]
		if len(s) > 0 && s[0] == '-' {
			s = s[1:]
		}
		if len(s) == 0 || len(s) > maxStatDigits || !allDigits(s) {
			return 0, notMark, mark{}
		}
		m.status, _ = strconv.Atoi(string(f[4])) // cannot fail: at most 9 digits
	default:
		return 0, notMark, mark{}
	}
	if len(f[2]) == 0 || len(f[2]) > maxSession {
		return 0, notMark, mark{}
	}
	for _, c := range f[2] {
		if c <= ' ' || c == ';' || c > '~' {
			return 0, notMark, mark{}
		}
	}
	if len(f[3]) == 0 || len(f[3]) > maxSeqDigits || !allDigits(f[3]) {
		return 0, notMark, mark{}
	}
	m.id.Session = string(f[2])
	m.id.Seq, _ = strconv.ParseUint(string(f[3]), 10, 64) // cannot fail: at most 19 digits
	return n, isMark, m
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
