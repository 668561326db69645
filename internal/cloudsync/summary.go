package cloudsync

import (
	"fmt"
	"time"
)

// WarningsFor is how long the warnings of a pass count as a problem (in
// Summary, for hookd status and hookd sync --status).
const WarningsFor = 7 * 24 * time.Hour

// Summary says the state of sync in one line at now, and the problem if
// any: the one wording hookd status and hookd sync --status print.
func (st Status) Summary(now time.Time) (line, problem string) {
	switch {
	case !st.Configured:
		return "off (set sync.url in the config file: docs/sync.md)", ""
	case !st.Key:
		return "not set up: " + st.URL, "sync: sync.url is set but this installation has no key: run `hookd sync init` (first machine) or `hookd sync join`"
	}
	last := "never"
	if t, err := time.Parse(time.RFC3339Nano, st.LastSync); err == nil {
		last = now.Sub(t).Round(time.Second).String() + " ago"
	}
	hosts := fmt.Sprintf("%d hosts", len(st.Hosts))
	if len(st.Hosts) == 1 {
		hosts = "1 host"
	}
	line = fmt.Sprintf("%s, last sync %s, %d waiting to go up, %s", st.URL, last, st.Backlog, hosts)
	switch {
	case st.LastError != "":
		problem = "sync: the last pass failed: " + st.LastError
	case len(st.Warnings) > 0 && st.warningsRecent(now):
		problem = "sync: " + st.Warnings[0]
		if len(st.Warnings) > 1 {
			problem += fmt.Sprintf(" (and %d more: hookd sync --status)", len(st.Warnings)-1)
		}
	}
	return line, problem
}

// warningsRecent reports whether the last pass's warnings are from within
// WarningsFor of now.
func (st Status) warningsRecent(now time.Time) bool {
	t, err := time.Parse(time.RFC3339Nano, st.WarningsAt)
	return err == nil && now.Sub(t) < WarningsFor
}
