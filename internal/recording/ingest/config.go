package ingest

import (
	"github.com/hookd/hookd/internal/config"
	"github.com/hookd/hookd/internal/redact"
)

// RulesFrom are the rules the configuration c, read from file, sets:
// history.ignore, history.ignore_dirs and redact.patterns. A redaction
// pattern the built-in redactor cannot take is a warning, and the built-in
// redaction alone applies.
func RulesFrom(c config.Config, file string) (*Rules, []config.Warning) {
	var warns []config.Warning
	red, err := redact.New(c.Redact.Patterns.Sources())
	if err != nil {
		warns = append(warns, config.Warning{File: file, Key: "redact.patterns", Msg: err.Error(), Then: "using the built-in redaction only"})
		red, _ = redact.New(nil)
	}
	return &Rules{IgnoreDirs: c.History.IgnoreDirs, Ignore: c.History.Ignore.Compiled(), Redactor: red,
		LearnFromAgents: c.Agents.Learn, DropPrompts: !c.Agents.KeepPrompts}, warns
}
