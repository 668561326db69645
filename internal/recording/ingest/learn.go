package ingest

import (
	"context"
	"fmt"
	"sort"

	"github.com/hookd/hookd/analyze/learn"
	"github.com/hookd/hookd/history"
)

// learnBatch is how many new commands one Learn call reads at most; the
// next call goes on from there.
const learnBatch = 2000

// learnStart is how far back learning starts in a history it has never
// looked at (one made before it existed): the last commands only.
const learnStart = 1000

// learnContext is how many earlier commands of a session are read before
// its new ones: enough to reach a failure that a new command fixes, and
// the failure a new command vetoes (see learn.Scan).
const learnContext = 2 * learn.Window

// LearnStats counts what one Learn call did.
type LearnStats struct {
	Commands int // new commands looked at
	Learned  int // new pairs of a failure and its fix
	Vetoed   int // failures whose "fix" turned out to be a step before them
}

// Learn looks at the commands stored since it last did (the history keeps
// the mark), session by session, for failures fixed by hand, and stores
// what it finds (package learn; history.AddLearned). It reads the new rows
// by id and, for each session among them, a few rows before them on the
// (session, seq) index: no scan. The daemon runs it after each ingestion
// pass, never the failure path. Coding agents' commands are left out
// unless rules say otherwise (nil rules: left out), and so are the
// commands synced from other installations, always.
func Learn(ctx context.Context, store *history.Store, rules *Rules) (LearnStats, error) {
	agents := rules != nil && rules.LearnFromAgents
	var st LearnStats
	mark, set, last, err := store.LearnMark(ctx)
	if err != nil {
		return st, err
	}
	if !set {
		mark = max(last-learnStart, 0)
	}
	if mark >= last {
		if !set {
			_, err = store.AddLearned(ctx, nil, nil, last)
		}
		return st, err
	}
	rows, err := store.CommandsAfter(ctx, mark, learnBatch)
	if err != nil || len(rows) == 0 {
		return st, err
	}
	st.Commands = len(rows)
	upto := rows[len(rows)-1].ID
	bySession := map[string][]history.Entry{}
	var order []string
	for _, e := range rows {
		if e.Source == "import" {
			continue // no exit statuses, no order of sessions to learn from
		}
		if e.Source == "agent" && !agents {
			continue // the fixes offered are the user's own
		}
		if history.SessionHost(e.Session) != "" {
			// Synced from another installation: what was learned never
			// travels, and another machine's commands (a forged one
			// included, by anyone holding the sync key) teach nothing
			// here. Learning reads this installation's commands only.
			continue
		}
		if _, ok := bySession[e.Session]; !ok {
			order = append(order, e.Session)
		}
		bySession[e.Session] = append(bySession[e.Session], e)
	}
	var pairs []history.LearnedPair
	var vetoed []int64
	for _, sess := range order {
		news := bySession[sess]
		sort.Slice(news, func(i, j int) bool { return news[i].Seq < news[j].Seq })
		before, err := store.SessionBefore(ctx, sess, news[0].Seq, learnContext)
		if err != nil {
			return st, err
		}
		seq := append(before, news...)
		cmds := make([]learn.Command, len(seq))
		started := map[int64]int64{}
		for i, e := range seq {
			cmds[i] = learn.Command{ID: e.ID, Text: e.Command, Exit: e.ExitCode}
			started[e.ID] = e.StartedAt
		}
		ps, vs := learn.Scan(cmds)
		vetoed = append(vetoed, vs...)
		for _, p := range ps {
			if p.Fixed.ID <= mark {
				continue // learned when it was new
			}
			e := p.Edit
			pairs = append(pairs, history.LearnedPair{
				Edit:     history.Learned{Program: e.Program, Kind: e.Kind, From: e.From, To: e.To, After: e.After, AtEnd: e.AtEnd},
				FailedID: p.Failed.ID, FixedID: p.Fixed.ID, FailedCommand: p.Failed.Text, FixedCommand: p.Fixed.Text,
				FailedStarted: started[p.Failed.ID], FixedStarted: started[p.Fixed.ID],
			})
		}
	}
	st.Vetoed = len(vetoed)
	n, err := store.AddLearned(ctx, pairs, vetoed, upto)
	if err != nil {
		return st, fmt.Errorf("learn: %w", err)
	}
	st.Learned = n
	return st, nil
}
