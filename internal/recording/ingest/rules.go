package ingest

import (
	"regexp"
	"strings"

	"github.com/hookd/hookd/internal/redact"
)

// Rules decide what is kept of a command and how.
type Rules struct {
	Redactor   *redact.Redactor // nil: the built-in rules
	Ignore     []*regexp.Regexp // commands matching any of these are not recorded
	IgnoreDirs []string         // nor commands started in or below these directories
	// LearnFromAgents makes Learn learn from coding agents' commands too
	// (by default it learns from the user's own only).
	LearnFromAgents bool
	// DropPrompts leaves out the prompts coding agents were given
	// (agents.keep_prompts: false).
	DropPrompts bool
}

// Filter decides whether a command is recorded and returns its text with
// secrets redacted, and how many were. A leading space means "do not record
// this", whatever the shell's own settings.
func (r *Rules) Filter(text, cwd string) (kept string, ok bool, redacted int) {
	if text == "" || text[0] == ' ' || text[0] == '\t' {
		return "", false, 0
	}
	for _, re := range r.Ignore {
		if re.MatchString(text) {
			return "", false, 0
		}
	}
	for _, d := range r.IgnoreDirs {
		d = strings.TrimRight(d, "/")
		if d == "" || cwd == d || strings.HasPrefix(cwd, d+"/") {
			return "", false, 0
		}
	}
	kept, redacted = r.Redactor.String(text)
	return kept, true, redacted
}

// Stats counts what one ingestion pass did.
type Stats struct {
	Spools   int // spool files looked at
	Added    int // commands added to the history
	Ignored  int // commands left out by the rules
	Redacted int // secrets replaced
	Bad      int // malformed records skipped
	Removed  int // spools of finished sessions removed
	Outputs  int // captured outputs stored
	// OutputsDropped counts captured outputs of commands that were not
	// recorded (and so are not stored either).
	OutputsDropped int
	// Problems says what went wrong, one line each (malformed records
	// included), for the log.
	Problems []string
}
