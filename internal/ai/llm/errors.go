package llm

import (
	"errors"
	"fmt"
	"strconv"
)

// ErrorKind says what went wrong, so that a caller can decide what to do
// (and tests can check it).
type ErrorKind int

// The kinds of error.
const (
	// Other is a failure none of the kinds below describes (a 400 that
	// is not about the model, say).
	Other ErrorKind = iota
	// NotConfigured: no provider is set up, or the Config is invalid.
	NotConfigured
	// Auth: the server refused the key (401, 403), or there is none.
	Auth
	// Connect: the server could not be reached.
	Connect
	// Model: the server does not know the model.
	Model
	// RateLimit: 429, still after the retries.
	RateLimit
	// Server: 5xx, still after the retries, or the server's error
	// mid-stream.
	Server
	// Timeout: Config.Timeout (or the caller's deadline) ran out.
	Timeout
	// Stream: the answer was malformed or cut short.
	Stream
	// Canceled: the caller cancelled (Ctrl-C).
	Canceled
	// CommandFailed: provider Command's command failed.
	CommandFailed
)

var kindNames = [...]string{"other", "not configured", "auth", "connect", "model", "rate limit", "server",
	"timeout", "stream", "canceled", "command failed"}

// String names the kind in a few words ("rate limit").
func (k ErrorKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind " + strconv.Itoa(int(k))
}

// Error is what Stream, Models and Resolve fail with: what went wrong and
// what to do about it.
type Error struct {
	Kind   ErrorKind
	Status int    // the HTTP status, if there was one
	Msg    string // what went wrong, lower-case, naming the provider
	Hint   string // what to do about it ("" if nothing useful); may span lines
	Err    error  // the underlying error, if any
}

// Error returns the message, followed by the hint if there is one.
func (e *Error) Error() string {
	s := e.Msg
	if e.Err != nil && e.Msg == "" {
		s = e.Err.Error()
	}
	if e.Hint != "" {
		s += "; " + e.Hint
	}
	return s
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is ErrNotConfigured and e of kind
// NotConfigured, so that errors.Is(err, ErrNotConfigured) works.
func (e *Error) Is(target error) bool {
	return target == ErrNotConfigured && e.Kind == NotConfigured
}

// ErrNotConfigured is matched (with errors.Is) by the error Resolve returns
// when no provider is set up.
var ErrNotConfigured = errors.New("no LLM is set up")

// KindOf returns the kind of err's *Error, Other if it has none.
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Other
}

func quote(s string) string { return strconv.Quote(s) }

func errorf(kind ErrorKind, err error, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...), Err: err}
}
