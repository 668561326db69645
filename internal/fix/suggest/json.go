package suggest

import (
	"time"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/learn"
	"github.com/hookd/hookd/history"
)

// resultJSON is the shape of an analysis in JSON.
type resultJSON struct {
	ErrorType string `json:"error_type"`
	RootCause string `json:"root_cause"`
	// Explanation is the root cause as a sentence for the user (for tools
	// that look for an explanation under that name).
	Explanation string    `json:"explanation"`
	Method      string    `json:"method"`
	Fixes       []fixJSON `json:"fixes"`
	// WorkedBefore is the comparison with the last success of the same
	// command (worked.go), when there was one.
	WorkedBefore any `json:"worked_before,omitempty"`
}

type fixJSON struct {
	Command     string  `json:"command"`
	Explanation string  `json:"explanation"`
	Risk        string  `json:"risk"`
	Confidence  float64 `json:"confidence"`
	// Untrusted: the command was taken from the failed command's output.
	Untrusted bool `json:"untrusted,omitempty"`
	// Incomplete: it cannot run as shown (a secret was redacted from it);
	// Missing says what to fill in.
	Incomplete bool   `json:"incomplete,omitempty"`
	Missing    string `json:"missing,omitempty"`
	// Learned: learned from the user's own history, and how many times
	// the user ran it after the same failure.
	Learned int `json:"learned,omitempty"`
}

// JSON is the JSON shape of an analysis, as `hookd suggest --json` prints
// it (the contract in docs/design.md).
func JSON(r analyze.Result) any {
	out := resultJSON{ErrorType: r.ErrorType, RootCause: r.RootCause, Explanation: r.RootCause, Method: r.Method, Fixes: []fixJSON{}}
	for _, f := range r.Fixes {
		out.Fixes = append(out.Fixes, fixJSON{f.Command, f.Explanation, f.Risk, f.Confidence, f.Untrusted, f.Incomplete, f.Missing, f.Learned})
	}
	return out
}

// Note says what the user must know before running a fix: that it came
// from the command's own output, or that it must be completed ("" for
// nothing).
func Note(f analyze.Fix) string {
	switch {
	case f.Incomplete && f.Missing != "":
		return f.Missing
	case f.Incomplete:
		return "it cannot run as shown: complete it first"
	case f.Untrusted:
		return "taken from the command's own output: read it before you run it"
	}
	return ""
}

// learnedJSON is the shape of a learned fix in JSON.
type learnedJSON struct {
	ID      int64  `json:"id"`
	Program string `json:"program"`
	Edit    string `json:"edit"`
	Kind    string `json:"kind"`
	From    string `json:"from"`
	To      string `json:"to"`
	After   string `json:"after,omitempty"`
	AtEnd   bool   `json:"at_end,omitempty"`
	Count   int    `json:"count"`
	Worked  int    `json:"worked"`
	Failed  string `json:"example_failed"`
	Fixed   string `json:"example_fixed"`
	First   string `json:"first_seen"`
	Last    string `json:"last_seen"`
}

// LearnedJSON is the JSON shape of a learned fix, as `hookd learned
// --json` prints it.
func LearnedJSON(l history.Learned) any {
	stamp := func(us int64) string { return time.UnixMicro(us).UTC().Format(time.RFC3339Nano) }
	return learnedJSON{ID: l.ID, Program: l.Program, Edit: Edit(l).Describe(), Kind: l.Kind,
		From: l.From, To: l.To, After: l.After, AtEnd: l.AtEnd, Count: l.Count, Worked: l.Worked,
		Failed: l.Failed, Fixed: l.Fixed, First: stamp(l.FirstSeen), Last: stamp(l.LastSeen)}
}

// Edit is a stored learned fix as the edit it applies.
func Edit(l history.Learned) learn.Edit {
	return learn.Edit{Program: l.Program, Kind: l.Kind, From: l.From, To: l.To, After: l.After, AtEnd: l.AtEnd}
}
