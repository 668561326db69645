package suggest

import "github.com/hookd/hookd/analyze"

// resultJSON is the shape of an analysis in JSON.
type resultJSON struct {
	ErrorType string `json:"error_type"`
	RootCause string `json:"root_cause"`
	// Explanation is the root cause as a sentence for the user (for tools
	// that look for an explanation under that name).
	Explanation string    `json:"explanation"`
	Method      string    `json:"method"`
	Fixes       []fixJSON `json:"fixes"`
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
