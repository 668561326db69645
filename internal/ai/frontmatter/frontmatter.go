// Package frontmatter reads Markdown files that may open with YAML
// frontmatter between two `---` lines, as skill files and prompt files
// (Claude Code's command files among them) do.
package frontmatter

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/hookd/hookd/internal/yamlpos"
)

// Doc is a file split into its frontmatter and its body.
type Doc struct {
	// Fields are the frontmatter's keys and values (empty, never nil, for
	// a file without frontmatter or with frontmatter that is not valid).
	Fields map[string]any
	// Raw is the frontmatter as written, without its `---` lines.
	Raw string
	// Body is the rest of the file.
	Body string
	// BodyLine is the line the body starts on, from 1.
	BodyLine int
}

// Error is frontmatter that is not a valid YAML mapping: the file is read
// as if it had none (Doc.Fields is empty, the body still applies).
type Error struct {
	Line int // in the file, from 1; 0 when unknown
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: frontmatter: %s", e.Line, e.Msg)
	}
	return "frontmatter: " + e.Msg
}

// Parse splits data. Frontmatter starts with a first line of exactly
// `---` and ends at the next such line (`...` also ends it); without the
// closing line, the whole file is body. The error, an *Error, says what is
// wrong with frontmatter that is there but not a mapping; Doc is usable
// either way.
func Parse(data []byte) (Doc, error) {
	d := Doc{Fields: map[string]any{}, Body: string(data), BodyLine: 1}
	rest, ok := cutLine(data, "---")
	if !ok {
		return d, nil
	}
	var raw []byte
	line := 2
	for len(rest) > 0 {
		l, after := nextLine(rest)
		t := bytes.TrimRight(l, " \t\r")
		if string(t) == "---" || string(t) == "..." {
			d.Raw, d.Body, d.BodyLine = string(raw), string(after), line+1
			return d, d.decode()
		}
		raw = append(raw, l...)
		raw = append(raw, '\n')
		rest = after
		line++
	}
	return d, nil
}

// decode fills Fields from Raw.
func (d *Doc) decode() error {
	if len(bytes.TrimSpace([]byte(d.Raw))) == 0 {
		return nil
	}
	var v any
	if err := yaml.Unmarshal([]byte(d.Raw), &v); err != nil {
		e := &Error{Msg: "not valid YAML"}
		if msg, line, _, ok := yamlpos.Error(err); ok {
			e.Msg = msg
			if line > 0 {
				e.Line = line + 1 // the opening --- is line 1
			}
		}
		return e
	}
	m, ok := v.(map[string]any)
	if !ok {
		return &Error{Line: 2, Msg: fmt.Sprintf("not a mapping of keys to values (it is %s)", kind(v))}
	}
	d.Fields = m
	return nil
}

// String returns the field key as a string, and whether it is one.
func (d Doc) String(key string) (string, bool) {
	s, ok := d.Fields[key].(string)
	return s, ok
}

// Text returns the value of a top-level key as text: a string as it is,
// anything else (a list, a number) as written on the key's line, so that
// Claude Code's `argument-hint: [message]`, a YAML list, reads as
// "[message]". A key that is not there, or whose value is not on its
// line, is "".
func (d Doc) Text(key string) string {
	if s, ok := d.String(key); ok {
		return s
	}
	if _, ok := d.Fields[key]; !ok {
		return ""
	}
	for l := range strings.SplitSeq(d.Raw, "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimRight(k, " ") == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// Line returns the line of the file where the frontmatter's top-level key
// is written, 0 when it is not.
func (d Doc) Line(key string) int {
	line := 2
	for _, l := range bytes.Split([]byte(d.Raw), []byte("\n")) {
		if k, _, ok := bytes.Cut(l, []byte(":")); ok && string(bytes.TrimRight(k, " ")) == key {
			return line
		}
		line++
	}
	return 0
}

func kind(v any) string {
	switch v.(type) {
	case []any:
		return "a list"
	case string:
		return "a string"
	case nil:
		return "empty"
	}
	return fmt.Sprintf("a %T", v)
}

// cutLine returns what follows data's first line when that line is want.
func cutLine(data []byte, want string) ([]byte, bool) {
	l, rest := nextLine(data)
	if string(bytes.TrimRight(l, " \t\r")) != want {
		return nil, false
	}
	return rest, true
}

// nextLine splits data after its first line; the line has no newline.
func nextLine(data []byte) (line, rest []byte) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return data[:i], data[i+1:]
	}
	return data, nil
}
