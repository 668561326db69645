package ingest

import (
	"context"
	"strings"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/runctx"
	"github.com/hookd/hookd/internal/recording/spool"
)

// What is noted of the context a command ran in (package runctx): its
// key, and the git work tree, branch and changes, read from the
// repository's files as the command is ingested. The branch at the
// command's start is found from the HEAD reflog, so a late ingest (the
// daemon was down) still gets it right; whether the work tree had changes
// can only be seen now, so it is noted only for a command that ended at
// most dirtyWithin ago.
const (
	dirtyWithin = 10 * time.Second
	// dirtyLimit bounds the index read for the changes: a larger work
	// tree's are not noted (the failure path must stay fast).
	dirtyLimit = 5000
)

// noter notes contexts for one pass over a spool's new records, reading
// each repository once.
type noter struct {
	now   time.Time
	repos map[string]*repoFacts // by directory
	dirty map[string]int        // by git directory: 1, 0, or -1 unknown
}

type repoFacts struct {
	repo   runctx.Repo
	ok     bool
	snap   runctx.Snapshot // HEAD and its reflog, read once
	snapd  bool            // snap was read (or could not be)
	snapOK bool
}

func newNoter(now time.Time) *noter {
	return &noter{now: now, repos: map[string]*repoFacts{}, dirty: map[string]int{}}
}

// context returns what is noted of c's context; text is its command line
// as stored, ownSecond says that a checkout in the second c started may
// be its own or a later command's (see runctx.Repo.HeadAt).
func (n *noter) context(c *spool.Command, text string, ownSecond bool) history.Context {
	hc := history.Context{Key: runctx.KeyHash(text), Dirty: -1}
	rf, ok := n.repos[c.Cwd]
	if !ok {
		r, found := runctx.FindRepo(c.Cwd)
		rf = &repoFacts{repo: r, ok: found}
		n.repos[c.Cwd] = rf
	}
	if !rf.ok {
		return hc
	}
	hc.Repo = rf.repo.Root
	if !rf.snapd {
		var err error
		rf.snap, err = rf.repo.Snapshot()
		rf.snapd, rf.snapOK = true, err == nil
	}
	if rf.snapOK {
		h := rf.snap.HeadAt(c.Start, ownSecond)
		hc.Branch, hc.Head = h.Branch, h.Commit
	}
	if n.now.Sub(time.UnixMicro(c.End)) <= dirtyWithin {
		d, ok := n.dirty[rf.repo.GitDir]
		if !ok {
			d = -1
			if dirty, known := rf.repo.Dirty(dirtyLimit); known {
				d = 0
				if dirty {
					d = 1
				}
			}
			n.dirty[rf.repo.GitDir] = d
		}
		hc.Dirty = d
	}
	return hc
}

// runsGit reports a command line that may check out another branch.
func runsGit(text string) bool {
	return strings.Contains(" "+text, " git ")
}

// ownSeconds says, for each record, whether a checkout in the second its
// command started may have come from it or from a later command of the
// batch started in that same second (see runctx.Repo.HeadAt).
func ownSeconds(recs []spool.Record) []bool {
	own := make([]bool, len(recs))
	gitSec := int64(-1) // the start second of the next command that runs git
	for i := len(recs) - 1; i >= 0; i-- {
		c := recs[i].Command
		if c == nil {
			continue
		}
		sec := c.Start / 1e6
		if runsGit(c.Text) {
			gitSec = sec
		}
		own[i] = gitSec == sec
	}
	return own
}

// noteEnv stores an environment record, its values redacted.
func noteEnv(ctx context.Context, tx *history.Tx, session string, e *spool.Env, rules *Rules, st *Stats) error {
	vars := make(map[string]string, len(e.Names))
	for i, name := range e.Names {
		v := e.Values[i]
		if v == "" {
			continue
		}
		red, k := rules.Redactor.String(name + "=" + v)
		st.Redacted += k
		if val, ok := strings.CutPrefix(red, name+"="); ok {
			v = val
		} else if k > 0 {
			v = "[REDACTED]"
		}
		vars[name] = v
	}
	return tx.AddEnv(ctx, session, e.Seq, vars)
}
