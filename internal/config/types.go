package config

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"

	"github.com/hookd/hookd/internal/shellwords"
)

// Each type below reads itself from YAML and refuses a bad value with an
// error that carries the value's position (reject), so that Load can warn
// about the right line and fall back to the default.

// text decodes a scalar node as a string (a number or true is its text).
func text(n ast.Node) (string, error) {
	var s string
	err := yaml.NodeToValue(n, &s)
	return s, err
}

// Size is a number of bytes. In YAML it is a whole number of bytes or a
// string such as 1MiB or 500KB (see ParseSize).
type Size int64

// UnmarshalYAML reads a number of bytes or a size with a unit.
func (s *Size) UnmarshalYAML(n ast.Node) error {
	var v any
	if err := yaml.NodeToValue(n, &v); err != nil {
		return err
	}
	var (
		size int64
		err  error
	)
	switch x := v.(type) {
	case uint64:
		size = int64(min(x, 1<<62))
	case int64:
		size = x
	case int:
		size = int64(x)
	case string:
		size, err = ParseSize(x)
	default:
		err = fmt.Errorf("size %v: want a number of bytes such as 1048576, 1MiB or 500KB", v)
	}
	if err == nil && size < 0 {
		err = fmt.Errorf("size %d is negative", size)
	}
	if err != nil {
		return reject(n, err)
	}
	*s = Size(size)
	return nil
}

// String returns the size in the largest unit that divides it, such as
// 1MiB, 500KB or 1000 (ParseSize reads it back).
func (s Size) String() string {
	for _, u := range []struct {
		n    int64
		name string
	}{{1 << 30, "GiB"}, {1e9, "GB"}, {1 << 20, "MiB"}, {1e6, "MB"}, {1 << 10, "KiB"}, {1e3, "KB"}} {
		if s != 0 && int64(s)%u.n == 0 {
			return strconv.FormatInt(int64(s)/u.n, 10) + u.name
		}
	}
	return strconv.FormatInt(int64(s), 10)
}

// ParseSize reads a size: a whole number of bytes, optionally followed by
// a unit: K, M or G (or KiB, MiB, GiB: powers of 1024) or KB, MB, GB
// (powers of 1000), case ignored.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("size %q: want a number of bytes such as 1048576, 1MiB or 500KB", s)
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("size %q: %w", s, err)
	}
	var mul int64
	switch strings.ToLower(strings.TrimSpace(t[i:])) {
	case "", "b":
		mul = 1
	case "k", "kib":
		mul = 1 << 10
	case "m", "mib":
		mul = 1 << 20
	case "g", "gib":
		mul = 1 << 30
	case "kb":
		mul = 1e3
	case "mb":
		mul = 1e6
	case "gb":
		mul = 1e9
	default:
		return 0, fmt.Errorf("size %q: unknown unit %q (use K, M, G, KiB, MiB, GiB, KB, MB or GB)", s, t[i:])
	}
	if n > (1<<62)/mul {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return n * mul, nil
}

// Days is a whole number of days, 0 or more.
type Days int

// UnmarshalYAML reads a whole number, 0 or more.
func (d *Days) UnmarshalYAML(n ast.Node) error {
	var v int
	if err := yaml.NodeToValue(n, &v); err != nil {
		return err
	}
	if v < 0 {
		return reject(n, fmt.Errorf("%d days: want 0 or more", v))
	}
	*d = Days(v)
	return nil
}

// Duration returns d as a time.Duration.
func (d Days) Duration() time.Duration { return time.Duration(d) * 24 * time.Hour }

// Duration is a length of time. In YAML it is a number of seconds (5, 0.5)
// or a Go duration such as 30s, 1m30s or 500ms; never negative.
type Duration time.Duration

// UnmarshalYAML reads a number of seconds or a duration with units.
func (d *Duration) UnmarshalYAML(n ast.Node) error {
	s, err := text(n)
	if err != nil {
		return err
	}
	var v time.Duration
	if f, ferr := strconv.ParseFloat(s, 64); ferr == nil {
		if f > float64(1<<62)/float64(time.Second) {
			return reject(n, fmt.Errorf("%s seconds is too long", s))
		}
		v = time.Duration(f * float64(time.Second))
	} else if v, err = time.ParseDuration(s); err != nil {
		return reject(n, fmt.Errorf("duration %q: want seconds (5, 0.5) or a duration such as 30s or 2m", s))
	}
	if v < 0 {
		return reject(n, fmt.Errorf("duration %q is negative", s))
	}
	*d = Duration(v)
	return nil
}

// String returns the duration as Go prints it (5s, 1m30s).
func (d Duration) String() string { return time.Duration(d).String() }

// Regexp is a regular expression (Go's syntax, RE2), compiled when the file
// is read. String returns its source.
type Regexp struct {
	*regexp.Regexp
}

// UnmarshalYAML compiles the expression.
func (r *Regexp) UnmarshalYAML(n ast.Node) error {
	s, err := text(n)
	if err != nil {
		return err
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return reject(n, err)
	}
	r.Regexp = re
	return nil
}

// String returns the source of the expression; "" when there is none.
func (r Regexp) String() string {
	if r.Regexp == nil {
		return ""
	}
	return r.Regexp.String()
}

// Regexps is a list of regular expressions.
type Regexps []Regexp

// Compiled returns the compiled expressions.
func (rs Regexps) Compiled() []*regexp.Regexp {
	var res []*regexp.Regexp
	for _, r := range rs {
		res = append(res, r.Regexp)
	}
	return res
}

// Sources returns the expressions as written.
func (rs Regexps) Sources() []string {
	var res []string
	for _, r := range rs {
		res = append(res, r.String())
	}
	return res
}

// Key is a key sequence in caret notation (see KeyBytes): ^Xf is Ctrl-X
// then f. "" is no key.
type Key string

// UnmarshalYAML checks the notation.
func (k *Key) UnmarshalYAML(n ast.Node) error {
	s, err := text(n)
	if err != nil {
		return err
	}
	if _, err := KeyBytes(s); err != nil {
		return reject(n, err)
	}
	*k = Key(s)
	return nil
}

// Bytes returns the bytes the terminal sends for the key.
func (k Key) Bytes() []byte {
	b, _ := KeyBytes(string(k)) // checked when read
	return b
}

// same reports whether k and o are the same key sequence, however written.
func (k Key) same(o Key) bool { return string(k.Bytes()) == string(o.Bytes()) }

// KeyBytes reads a key in caret notation: ^X is Ctrl-X, ^[ or \e is Esc,
// ^? is Delete, any other printable ASCII character is itself. "" is no key.
// A key must start with a control character (Esc and Delete included): one
// that starts with a printable character is an error.
func KeyBytes(key string) ([]byte, error) {
	var b []byte
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == '^' && i+1 < len(key):
			i++
			d := key[i]
			switch {
			case d == '?':
				b = append(b, 0x7f)
			case d >= '@' && d <= '_':
				b = append(b, d-'@')
			case d >= 'a' && d <= 'z':
				b = append(b, d-'a'+1)
			default:
				return nil, fmt.Errorf("key %q: ^%c is not a control key", key, d)
			}
		case c == '\\' && i+1 < len(key) && key[i+1] == 'e':
			i++
			b = append(b, 0x1b)
		case c > ' ' && c < 0x7f:
			b = append(b, c)
		default:
			return nil, fmt.Errorf("key %q: use caret notation (^Xf is Ctrl-X then f)", key)
		}
	}
	if len(b) > 8 {
		return nil, fmt.Errorf("key %q is too long", key)
	}
	// A key that starts with a character typed as text would be bound
	// over it: each one typed would wait for the rest of the key, or be
	// taken by it (12 takes every 1 typed before a 2).
	if len(b) > 0 && b[0] >= ' ' && b[0] < 0x7f {
		return nil, fmt.Errorf("key %q starts with %q, a character typed as text, which it would take over; start it with a control key (^Xf is Ctrl-X then f)", key, b[0])
	}
	return b, nil
}

// CommandName is the name of a shell command that hookd defines in the
// user's shell: a plain word, or "" for none.
type CommandName string

// UnmarshalYAML checks the name (ValidFixCommand).
func (c *CommandName) UnmarshalYAML(n ast.Node) error {
	s, err := text(n)
	if err != nil {
		return err
	}
	if err := ValidFixCommand(s); err != nil {
		return reject(n, err)
	}
	*c = CommandName(s)
	return nil
}

var shellName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`) })

// ValidFixCommand checks a name for the fix command: empty (none) or a
// plain shell word.
func ValidFixCommand(name string) error {
	if name != "" && (!shellName().MatchString(name) || len(name) > 64) {
		return fmt.Errorf("fix command %q: want a plain name (letters, digits, _ and -), or '' for none", name)
	}
	return nil
}

// CaptureMode says whether hookd keeps each command's output.
type CaptureMode string

// The capture modes.
const (
	CapturePTY CaptureMode = "pty" // hookd shell runs the shell in a PTY and keeps the output
	CaptureOff CaptureMode = "off" // no output is kept
)

// UnmarshalYAML accepts pty or off.
func (m *CaptureMode) UnmarshalYAML(n ast.Node) error {
	s, err := text(n)
	if err != nil {
		return err
	}
	switch v := CaptureMode(s); v {
	case CapturePTY, CaptureOff:
		*m = v
		return nil
	}
	return reject(n, fmt.Errorf("want pty or off, not %q", s))
}

// Provider names the kind of LLM service hookd talks to.
type Provider string

// The providers.
const (
	ProviderAuto      Provider = "auto"      // the first that is set up: an API key in the environment, a local Ollama
	ProviderOpenAI    Provider = "openai"    // OpenAI, or any server with OpenAI's API (base_url)
	ProviderAnthropic Provider = "anthropic" // Anthropic's API
	ProviderOllama    Provider = "ollama"    // a local or remote Ollama (base_url)
	ProviderCommand   Provider = "command"   // a command: the question on stdin, the answer on stdout
)

var providers = []Provider{ProviderAuto, ProviderOpenAI, ProviderAnthropic, ProviderOllama, ProviderCommand}

// UnmarshalYAML accepts the known providers.
func (p *Provider) UnmarshalYAML(n ast.Node) error {
	s, err := text(n)
	if err != nil {
		return err
	}
	for _, known := range providers {
		if Provider(s) == known {
			*p = known
			return nil
		}
	}
	return reject(n, fmt.Errorf("unknown provider %q (want auto, openai, anthropic, ollama or command)", s))
}

// OnFailure says what a failing context command does to the question.
type OnFailure string

// What a failing context command does.
const (
	OnFailureWarn   OnFailure = "warn"   // its block says it failed, with its output; the question goes on
	OnFailureIgnore OnFailure = "ignore" // it is left out silently
	OnFailureFail   OnFailure = "fail"   // the question is not asked
)

// UnmarshalYAML accepts warn, ignore or fail.
func (f *OnFailure) UnmarshalYAML(n ast.Node) error {
	s, err := text(n)
	if err != nil {
		return err
	}
	switch v := OnFailure(s); v {
	case OnFailureWarn, OnFailureIgnore, OnFailureFail:
		*f = v
		return nil
	}
	return reject(n, fmt.Errorf("want warn, ignore or fail, not %q", s))
}

// Reasoning says what is shown of a model's reasoning.
type Reasoning string

// What is shown of a model's reasoning.
const (
	ReasoningDim  Reasoning = "dim"  // shown dimmed, before the answer
	ReasoningHide Reasoning = "hide" // not shown (still stored)
)

// UnmarshalYAML accepts dim or hide.
func (r *Reasoning) UnmarshalYAML(n ast.Node) error {
	s, err := text(n)
	if err != nil {
		return err
	}
	switch v := Reasoning(s); v {
	case ReasoningDim, ReasoningHide:
		*r = v
		return nil
	}
	return reject(n, fmt.Errorf("want dim or hide, not %q", s))
}

// AIMode is when a failure is put to the LLM.
type AIMode string

// The AI modes.
const (
	AIOff       AIMode = "off"        // only when asked (suggest --ai, fix --ai)
	AIOnFailure AIMode = "on_failure" // hookd run asks about each failure
)

// UnmarshalYAML accepts off or on_failure.
func (m *AIMode) UnmarshalYAML(n ast.Node) error {
	s, err := text(n)
	if err != nil {
		return err
	}
	switch v := AIMode(s); v {
	case AIOff, AIOnFailure:
		*m = v
		return nil
	}
	return reject(n, fmt.Errorf("want off or on_failure, not %q", s))
}

// EnvName is the name of an environment variable.
type EnvName string

// UnmarshalYAML checks that the name is one a shell can export.
func (e *EnvName) UnmarshalYAML(n ast.Node) error {
	s, err := text(n)
	if err != nil {
		return err
	}
	if s != "" && !shellwords.IsName(s) {
		return reject(n, fmt.Errorf("%q is not an environment variable's name", s))
	}
	*e = EnvName(s)
	return nil
}

// URL is an http or https address.
type URL string

// UnmarshalYAML checks that the address is http or https, with a host.
func (u *URL) UnmarshalYAML(n ast.Node) error {
	s, err := text(n)
	if err != nil {
		return err
	}
	if s != "" {
		p, err := url.Parse(s)
		if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return reject(n, fmt.Errorf("%q: want an http or https address such as http://localhost:11434", s))
		}
	}
	*u = URL(s)
	return nil
}

// Glob is a shell pattern on a path (path.Match: *, ?, [a-z]). A leading ~
// stands for the home directory.
type Glob string

// UnmarshalYAML checks the pattern's syntax.
func (g *Glob) UnmarshalYAML(n ast.Node) error {
	s, err := text(n)
	if err != nil {
		return err
	}
	if _, err := path.Match(s, ""); errors.Is(err, path.ErrBadPattern) {
		return reject(n, fmt.Errorf("%q is not a valid pattern", s))
	}
	*g = Glob(s)
	return nil
}

// S3URL is s3://BUCKET or s3://BUCKET/PREFIX.
type S3URL string

// UnmarshalYAML checks the form.
func (u *S3URL) UnmarshalYAML(n ast.Node) error {
	s, err := text(n)
	if err != nil {
		return err
	}
	if s != "" {
		if _, _, err := S3URL(s).Split(); err != nil {
			return reject(n, err)
		}
	}
	*u = S3URL(s)
	return nil
}

// Split returns u's bucket and prefix ("" or ending in "/"), or an error
// where u is not s3://BUCKET or s3://BUCKET/PREFIX: the one check of that
// form (the config file's sync.url, sync's settings).
func (u S3URL) Split() (bucket, prefix string, err error) {
	p, err := url.Parse(string(u))
	if err != nil || p.Scheme != "s3" || p.Host == "" || p.RawQuery != "" || p.Fragment != "" {
		return "", "", fmt.Errorf("%q: want s3://BUCKET or s3://BUCKET/PREFIX", string(u))
	}
	prefix = strings.Trim(p.Path, "/")
	if prefix != "" {
		prefix += "/"
	}
	return p.Host, prefix, nil
}

// SyncOutputs says which outputs travel.
type SyncOutputs string

// The sync.outputs modes.
const (
	SyncOutputsNone  SyncOutputs = "none"
	SyncOutputsSmall SyncOutputs = "small"
	SyncOutputsAll   SyncOutputs = "all"
)

// UnmarshalYAML accepts none, small or all.
func (o *SyncOutputs) UnmarshalYAML(n ast.Node) error {
	s, err := text(n)
	if err != nil {
		return err
	}
	switch v := SyncOutputs(s); v {
	case SyncOutputsNone, SyncOutputsSmall, SyncOutputsAll:
		*o = v
		return nil
	}
	return reject(n, fmt.Errorf("want none, small or all, not %q", s))
}
