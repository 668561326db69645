package search

import (
	"context"
	"strings"

	"github.com/hookd/hookd/history"
)

// Notes finds the commands with a note (hookd note) that holds every word
// of q.Text, within q's filter: one result per command line, its most
// recently noted run, the note as the matching line (LineNo 0).
func (e *Engine) Notes(ctx context.Context, q Query) ([]Result, error) {
	q = q.norm()
	words := strings.Fields(q.Text)
	hq, ok := q.Filter.HistoryQuery(e.here)
	if len(words) == 0 || !ok {
		return nil, nil
	}
	ids, err := e.store.NotesMatching(ctx, words, q.Limit*4)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	entries, err := e.store.Entries(ctx, ids)
	if err != nil {
		return nil, err
	}
	notes, err := e.store.Notes(ctx, ids)
	if err != nil {
		return nil, err
	}
	base := 0
	for _, w := range words {
		base += scoreMatch * len([]rune(w))
	}
	var res []Result
	seen := map[string]bool{}
	for _, id := range ids {
		en, ok := entries[id]
		if !ok || seen[en.Command] || !keeps(hq, en) {
			continue
		}
		seen[en.Command] = true
		line := ""
		for _, n := range notes[id] {
			if l, _ := MatchingLine([]byte(n.Text), words); l != "" {
				line = l
			}
		}
		res = append(res, Result{Entry: en, Count: 1, Matched: InNote, Line: line,
			Score: base + e.boost(en.StartedAt, 1, en.Cwd == e.here.Cwd)})
		if len(res) == q.Limit {
			break
		}
	}
	return res, nil
}

// keeps reports whether the history query q (a Filter's, HistoryQuery)
// selects en.
func keeps(q history.Query, en history.Entry) bool {
	switch {
	case q.Failed && en.ExitCode == 0,
		q.Session != "" && en.Session != q.Session,
		q.Cwd != "" && en.Cwd != q.Cwd,
		q.CwdUnder != "" && en.Cwd != strings.TrimSuffix(q.CwdUnder, "/") && !strings.HasPrefix(en.Cwd, strings.TrimSuffix(q.CwdUnder, "/")+"/"),
		q.Since != 0 && en.StartedAt < q.Since,
		q.ThisHost && en.HostID != "":
		return false
	}
	if q.Authors != nil {
		for _, a := range q.Authors {
			if a == en.Author {
				return true
			}
		}
		return false
	}
	return true
}
