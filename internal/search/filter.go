package search

import "github.com/hookd/hookd/history"

// HistoryQuery is the history query that selects the runs f keeps, seen
// from here (its session, directory and repository: the scopes'); false
// when f keeps none (a session named besides the session scope's own).
// The query's Limit, Text and order are left for the caller.
func (f Filter) HistoryQuery(here Here) (history.Query, bool) {
	q := history.Query{Failed: f.Failed, Since: f.Since, Cwd: f.Cwd, Session: f.Session,
		Authors: f.authors(), ThisHost: f.Scope == ScopeHost}
	switch f.Scope {
	case ScopeSession:
		if f.Session != "" && f.Session != here.Session {
			return q, false
		}
		q.Session = here.sessionOrNone()
	case ScopeDir:
		if f.Cwd != "" && f.Cwd != here.Cwd {
			return q, false
		}
		q.Cwd = here.Cwd
	case ScopeRepo:
		q.CwdUnder = here.repo()
	}
	return q, true
}

// sessionOrNone is the session the session scope keeps: none outside a
// hooked shell.
func (h Here) sessionOrNone() string {
	if h.Session == "" {
		return "\x00none"
	}
	return h.Session
}

// repo is the directory the repository scope covers: the repository's
// top, else the directory.
func (h Here) repo() string {
	if h.Repo != "" {
		return h.Repo
	}
	return h.Cwd
}
