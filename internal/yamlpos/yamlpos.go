// Package yamlpos says where in a YAML file something is: the one way the
// configuration, chain files and prompt files' front matter point at a bad
// line (line and column from 1, as FILE:LINE:COLUMN shows them).
package yamlpos

import (
	"errors"
	"fmt"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// Of returns the line and column of tok; 0, 0 when unknown.
func Of(tok *token.Token) (line, column int) {
	if tok == nil || tok.Position == nil {
		return 0, 0
	}
	return tok.Position.Line, tok.Position.Column
}

// Node returns the line and column where n starts; 0, 0 for nil or when
// unknown.
func Node(n ast.Node) (line, column int) {
	if n == nil {
		return 0, 0
	}
	return Of(n.GetToken())
}

// Error returns the message of a YAML parser or decoder error and where it
// is; ok is false for another error (msg is then its text, with no place).
func Error(err error) (msg string, line, column int, ok bool) {
	var ye yaml.Error
	if !errors.As(err, &ye) {
		return err.Error(), 0, 0, false
	}
	line, column = Of(ye.GetToken())
	return ye.GetMessage(), line, column, true
}

// Message is the one form of a message about a place in a file, for the
// configuration's warnings and the chain files' problems alike:
// FILE:LINE:COLUMN: PART: PART… (LINE and COLUMN left out when 0, the
// empty parts left out).
func Message(file string, line, column int, parts ...string) string {
	var b strings.Builder
	b.WriteString(file)
	if line > 0 {
		fmt.Fprintf(&b, ":%d", line)
		if column > 0 {
			fmt.Fprintf(&b, ":%d", column)
		}
	}
	for _, p := range parts {
		if p != "" {
			b.WriteString(": " + p)
		}
	}
	return b.String()
}
