package cloudsync

import (
	"testing"
	"time"
)

// TestSummary: the one line and the problem that hookd status and hookd
// sync --status print for each state of sync.
func TestSummary(t *testing.T) {
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) string { return now.Add(-d).Format(time.RFC3339Nano) }
	on := Status{Configured: true, Key: true, URL: "s3://b/p", LastSync: at(90 * time.Second), Backlog: 3, Hosts: []HostStatus{{ID: "a"}}}
	for _, c := range []struct {
		name          string
		st            Status
		line, problem string
	}{
		{"off", Status{}, "off (set sync.url in the config file: docs/sync.md)", ""},
		{"no key", Status{Configured: true, URL: "s3://b/p"}, "not set up: s3://b/p",
			"sync: sync.url is set but this installation has no key: run `hookd sync init` (first machine) or `hookd sync join`"},
		{"on", on, "s3://b/p, last sync 1m30s ago, 3 waiting to go up, 1 host", ""},
		{"failed", func() Status { s := on; s.LastError = "403"; return s }(), "", "sync: the last pass failed: 403"},
		{"warnings this week", func() Status {
			s := on
			s.Warnings, s.WarningsAt = []string{"w1", "w2"}, at(6*24*time.Hour)
			return s
		}(), "", "sync: w1 (and 1 more: hookd sync --status)"},
		{"warnings of last week", func() Status {
			s := on
			s.Warnings, s.WarningsAt = []string{"w1"}, at(8*24*time.Hour)
			return s
		}(), "", ""},
		{"never, two hosts", Status{Configured: true, Key: true, URL: "s3://b", Hosts: make([]HostStatus, 2)}, "s3://b, last sync never, 0 waiting to go up, 2 hosts", ""},
	} {
		line, problem := c.st.Summary(now)
		if c.line != "" && line != c.line {
			t.Errorf("%s: line %q; want %q", c.name, line, c.line)
		}
		if problem != c.problem {
			t.Errorf("%s: problem %q; want %q", c.name, problem, c.problem)
		}
	}
}
