package config

import (
	"fmt"

	"github.com/goccy/go-yaml/ast"
)

// Search configures hookd search and its key (Ctrl-R).
type Search struct {
	// Key opens the search at the prompt (^R, the default; "" leaves
	// the key alone). It is bound where it is free or holds the shell's
	// own history search, and not where another tool (fzf, atuin)
	// has bound it, unless Replace says so.
	Key Key `yaml:"key"`
	// Replace binds Key even where another tool's widget holds it (fzf's
	// Ctrl-R, say).
	Replace bool `yaml:"replace"`
	// UpKey, when set (^[[A for the Up arrow, say), opens the search too.
	// Empty by default: the Up arrow is never taken unless asked.
	UpKey Key `yaml:"up_key"`
	// Enter is what Enter does with the command chosen: put it on the
	// command line, ready to run (accept, the default), or run it at
	// once (run).
	Enter EnterMode `yaml:"enter"`
	// Height is how many lines the search takes below the prompt (12,
	// the default; at least 6).
	Height int `yaml:"height"`
	// FullScreen takes the whole screen (the alternate screen) instead.
	FullScreen bool `yaml:"full_screen"`
	// Scope is the scope the search starts in: everything (the default),
	// session, directory, repository or host.
	Scope string `yaml:"scope"`
	// Mode is the matching it starts with: fuzzy (the default), prefix
	// or full-text.
	Mode string `yaml:"mode"`
}

// EnterMode is what Enter does in the search.
type EnterMode string

// The Enter modes.
const (
	EnterAccept EnterMode = "accept" // on the command line, ready to run
	EnterRun    EnterMode = "run"    // run at once
)

// UnmarshalYAML accepts accept or run.
func (m *EnterMode) UnmarshalYAML(n ast.Node) error {
	s, err := text(n)
	if err != nil {
		return err
	}
	switch v := EnterMode(s); v {
	case EnterAccept, EnterRun:
		*m = v
		return nil
	}
	return reject(n, fmt.Errorf("want accept or run, not %q", s))
}

// MinSearchHeight is the smallest search.height.
const MinSearchHeight = 6
