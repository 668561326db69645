package mcp

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/hookd/hookd/history"
)

// filters are the arguments history_search and search_output share, read
// for a query: authors (nil: everyone's), cwd (cleaned), since (µs).
type filters struct {
	authors []string
	cwd     string
	since   int64
}

// readFilters reads author ("" the user's own, "any" everyone's, or an
// agent's name), cwd (an absolute path) and since (as history.ParseSince
// reads it).
func (t *tools) readFilters(author, cwd, since string) (filters, error) {
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
