// Package config reads hookd's configuration file.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
)

// Config is the whole configuration. The zero value is the default.
type Config struct {
	// Capture is "pty" (the default) or "off".
	Capture string `yaml:"capture"`
	History struct {
		// Ignore holds regular expressions: matching commands are not recorded.
		Ignore []string `yaml:"ignore"`
		// IgnoreDirs holds directories: commands started in or below them
		// are not recorded. A leading ~ is the home directory.
		IgnoreDirs []string `yaml:"ignore_dirs"`
	} `yaml:"history"`
	Redact struct {
		// Patterns are extra regular expressions for secrets; a group named
		// "secret" marks the part to replace.
		Patterns []string `yaml:"patterns"`
	} `yaml:"redact"`

	Output struct {
		// Limit is the most kept of one command's output (head and tail
		// around a marker): a size such as 1MiB or 500KB, or bytes.
		Limit any `yaml:"limit"`
		// KeepSize bounds all stored outputs together; the oldest lose
		// their text first.
		KeepSize any `yaml:"keep_size"`
		// KeepDays is how long an output is kept.
		KeepDays *int `yaml:"keep_days"`
	} `yaml:"output"`

	Fix struct {
		// Command is the name of the shell command that applies a fix
		// ("fix" when unset; "" for none).
		Command *string `yaml:"command"`
		// Key puts the next fix on the command line: caret notation
		// (^Xf is Ctrl-X then f, the default; "" for none).
		Key *string `yaml:"key"`
		// Learn adds, under each fix, why it works.
		Learn bool `yaml:"learn"`
	} `yaml:"fix"`

	// Compiled forms, set by Load.
	IgnoreRE []*regexp.Regexp `yaml:"-"`
	// FixCommand and FixKey are the fix settings with the defaults applied.
	FixCommand string `yaml:"-"`
	FixKey     string `yaml:"-"`
	// OutputLimit, OutputKeepBytes and OutputKeepDays are the output
	// settings with the defaults applied (0 keep: no limit).
	OutputLimit     int64 `yaml:"-"`
	OutputKeepBytes int64 `yaml:"-"`
	OutputKeepDays  int   `yaml:"-"`
}

// Output defaults.
const (
	DefaultOutputLimit    = 1 << 20
	DefaultOutputKeep     = 500 << 20
	DefaultOutputKeepDays = 90
)

// Defaults returns the configuration used when there is no file.
func Defaults() Config {
	return Config{OutputLimit: DefaultOutputLimit, OutputKeepBytes: DefaultOutputKeep, OutputKeepDays: DefaultOutputKeepDays,
		FixCommand: "fix", FixKey: "^Xf"}
}

var shellName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// ValidFixCommand checks a name for the fix command: empty (none) or a
// plain shell word.
func ValidFixCommand(name string) error {
	if name != "" && (!shellName.MatchString(name) || len(name) > 64) {
		return fmt.Errorf("fix command %q: want a plain name (letters, digits, _ and -), or '' for none", name)
	}
	return nil
}

// KeyBytes reads a key in caret notation: ^X is Ctrl-X, ^[ or \e is Esc,
// ^? is Delete, any other printable ASCII character is itself. "" is no key.
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
	return b, nil
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

// sizeOf reads a size given in YAML as a number or a string.
func sizeOf(v any) (int64, error) {
	switch x := v.(type) {
	case uint64:
		return int64(min(x, 1<<62)), nil
	case int64:
		if x < 0 {
			return 0, fmt.Errorf("size %d is negative", x)
		}
		return x, nil
	case int:
		if x < 0 {
			return 0, fmt.Errorf("size %d is negative", x)
		}
		return int64(x), nil
	case string:
		return ParseSize(x)
	default:
		return 0, fmt.Errorf("size %v: want a number of bytes such as 1048576, 1MiB or 500KB", v)
	}
}

// Example is a commented configuration file, for the README and `hookd
// config`.
const Example = `# ~/.config/hookd/config.yaml
capture: pty            # pty: keep each command's output (hookd shell); off: never
history:
  ignore:               # regular expressions: matching commands are not recorded
    - '^(ls|cd|pwd)$'
  ignore_dirs:          # commands started in or below these are not recorded
    - ~/private
redact:
  patterns:             # extra secrets; a (?P<secret>...) group marks the part to replace
    - 'INTERNAL-[0-9a-f]{32}'
fix:
  command: fix          # the shell command that applies a fix ('' for none)
  key: '^Xf'            # Ctrl-X f puts the next fix on the command line ('' for none)
  learn: false          # true: say why each fix works, under it
output:
  limit: 1MiB           # kept per command (head and tail); the rest is elided
  keep_size: 500MiB     # all outputs together; the oldest go first (0: no limit)
  keep_days: 90         # outputs older than this are removed (0: no limit)
`

// Load reads the file at path. A missing file is no error: the defaults
// apply. A file that cannot be used gives the defaults and warnings that name
// the file and, where known, the line; hookd never stops for a bad config.
func Load(path, home string) (Config, []string) {
	c := Defaults()
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, []string{fmt.Sprintf("%s: %v; using the defaults", path, err)}
	}
	if err := yaml.UnmarshalWithOptions(data, &c, yaml.Strict()); err != nil {
		return Defaults(), []string{fmt.Sprintf("%s: %s; using the defaults", path, yamlError(err))}
	}
	var warns []string
	if c.Fix.Command != nil {
		if err := ValidFixCommand(*c.Fix.Command); err != nil {
			warns = append(warns, fmt.Sprintf("%s:%d: fix.command: %v; using fix", path, lineOf(data, "command"), err))
		} else {
			c.FixCommand = *c.Fix.Command
		}
	}
	if c.Fix.Key != nil {
		if _, err := KeyBytes(*c.Fix.Key); err != nil {
			warns = append(warns, fmt.Sprintf("%s:%d: fix.key: %v; using ^Xf", path, lineOf(data, "key"), err))
		} else {
			c.FixKey = *c.Fix.Key
		}
	}
	if c.Output.Limit != nil {
		if n, err := sizeOf(c.Output.Limit); err != nil || n < 1024 {
			if err == nil {
				err = fmt.Errorf("%d bytes is below the minimum of 1KiB", n)
			}
			warns = append(warns, fmt.Sprintf("%s:%d: output.limit: %v; using 1MiB", path, lineOf(data, "limit"), err))
		} else {
			c.OutputLimit = n
		}
	}
	if c.Output.KeepSize != nil {
		if n, err := sizeOf(c.Output.KeepSize); err != nil {
			warns = append(warns, fmt.Sprintf("%s:%d: output.keep_size: %v; using 500MiB", path, lineOf(data, "keep_size"), err))
		} else {
			c.OutputKeepBytes = n
		}
	}
	if c.Output.KeepDays != nil {
		if *c.Output.KeepDays < 0 {
			warns = append(warns, fmt.Sprintf("%s:%d: output.keep_days must be 0 (no limit) or more; using 90", path, lineOf(data, "keep_days")))
		} else {
			c.OutputKeepDays = *c.Output.KeepDays
		}
	}
	switch c.Capture {
	case "", "pty", "off":
	default:
		warns = append(warns, fmt.Sprintf("%s:%d: capture must be pty or off, not %q; using pty", path, lineOf(data, "capture"), c.Capture))
		c.Capture = ""
	}
	var kept []string
	for _, p := range c.History.Ignore {
		re, err := regexp.Compile(p)
		if err != nil {
			warns = append(warns, fmt.Sprintf("%s:%d: history.ignore: %v; pattern skipped", path, lineOf(data, p), err))
			continue
		}
		kept = append(kept, p)
		c.IgnoreRE = append(c.IgnoreRE, re)
	}
	c.History.Ignore = kept
	for i, d := range c.History.IgnoreDirs {
		if d == "~" || strings.HasPrefix(d, "~/") {
			d = filepath.Join(home, d[1:])
		}
		c.History.IgnoreDirs[i] = filepath.Clean(d)
	}
	kept = nil
	for _, p := range c.Redact.Patterns {
		if _, err := regexp.Compile(p); err != nil {
			warns = append(warns, fmt.Sprintf("%s:%d: redact.patterns: %v; pattern skipped", path, lineOf(data, p), err))
			continue
		}
		kept = append(kept, p)
	}
	c.Redact.Patterns = kept
	return c, warns
}

var yamlPos = regexp.MustCompile(`^\[(\d+):(\d+)\] `)

// yamlError shortens the YAML library's message to its first line, and turns
// its "[3:5] " prefix into "line 3, column 5: ".
func yamlError(err error) string {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return yamlPos.ReplaceAllString(msg, "line $1, column $2: ")
}

// lineOf returns the first line of data that contains s, or 0.
func lineOf(data []byte, s string) int {
	i := bytes.Index(data, []byte(s))
	if i < 0 {
		return 0
	}
	return 1 + bytes.Count(data[:i], []byte("\n"))
}
