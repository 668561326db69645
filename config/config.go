// Package config reads hookd's configuration file.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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

	// Compiled forms, set by Load.
	IgnoreRE []*regexp.Regexp `yaml:"-"`
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
`

// Load reads the file at path. A missing file is no error: the defaults
// apply. A file that cannot be used gives the defaults and warnings that name
// the file and, where known, the line; hookd never stops for a bad config.
func Load(path, home string) (Config, []string) {
	var c Config
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, []string{fmt.Sprintf("%s: %v; using the defaults", path, err)}
	}
	if err := yaml.UnmarshalWithOptions(data, &c, yaml.Strict()); err != nil {
		return Config{}, []string{fmt.Sprintf("%s: %s; using the defaults", path, yamlError(err))}
	}
	var warns []string
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
