package mcp

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/hookd/hookd/history"
)

// Filters are the arguments history_search and search_output share,
// declared once and embedded in each one's arguments (the SDK's schema
// takes an embedded struct's fields as the tool's own, as encoding/json
// does), read by readFilters and sessionArg.
type Filters struct {
	Cwd     string `json:"cwd,omitempty" jsonschema:"only commands run in this directory (an absolute path)"`
	Session string `json:"session,omitempty" jsonschema:"only this session: a session id, or current for the user's most recent shell"`
	Failed  bool   `json:"failed,omitempty" jsonschema:"only commands that failed (non-zero exit status)"`
	Since   string `json:"since,omitempty" jsonschema:"only commands started since then: a duration back from now (90m, 2h, 3d, 1w) or a date (2026-11-01, RFC 3339)"`
	Author  string `json:"author,omitempty" jsonschema:"whose commands: omitted for the user's own, a coding agent's name (claude-code) for that agent's, any for everyone's"`
}

// filters are Filters read for a query: authors (nil: everyone's), cwd
// (cleaned), since (µs).
type filters struct {
	authors []string
	cwd     string
	since   int64
}

// readFilters reads Author ("" the user's own, "any" everyone's, or an
// agent's name), Cwd (an absolute path) and Since (as history.ParseSince
// reads it).
func (t *tools) readFilters(in Filters) (filters, error) {
	author, cwd, since := in.Author, in.Cwd, in.Since
	var f filters
	switch author {
	case "":
		f.authors = []string{""}
	case "any", "all", "*":
	default:
		f.authors = []string{author}
	}
	if cwd != "" {
		if !filepath.IsAbs(cwd) {
			return f, badArg("cwd must be an absolute path, not %q", t.line(cwd))
		}
		f.cwd = filepath.Clean(cwd)
	}
	if since != "" {
		when, err := history.ParseSince(since, t.o.Now())
		if err != nil {
			return f, badArg("since: %v", err)
		}
		f.since = when.UnixMicro()
	}
	return f, nil
}

// sessionArg reads a session argument: "" none, "current" the user's most
// recent shell (ok false when there is none yet), or a session's id.
func sessionArg(ctx context.Context, s *history.Store, session string) (id string, ok bool, err error) {
	if session != "current" {
		return session, true, nil
	}
	sess, err := s.LatestSession(ctx, "")
	if errors.Is(err, history.ErrNotFound) {
		return "", false, nil
	}
	return sess, err == nil, err
}

// lastOf returns author's most recent session ("" for the user's shell)
// and its last n commands, oldest first; "" when it has none.
func lastOf(ctx context.Context, s *history.Store, author string, n int) (string, []history.Entry, error) {
	sess, err := s.LatestSession(ctx, author)
	if errors.Is(err, history.ErrNotFound) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	es, err := s.List(ctx, history.Query{Session: sess, Limit: n})
	for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
		es[i], es[j] = es[j], es[i]
	}
	return sess, es, err
}
