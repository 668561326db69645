package search

import (
	"bytes"
	"container/heap"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/hookd/hookd/history"
	"github.com/junegunn/fzf/src/algo"
	"github.com/junegunn/fzf/src/util"
)

// view is the corpus seen through one filter: for each distinct command
// line, how often it ran within the filter, its most recent run there, and
// whether it ever ran in this directory.
type view struct {
	count  []int32
	last   []int32 // run index; -1 when it never ran within the filter
	here   []bool
	active []int32 // the command lines that ran within the filter
	// base is the part of each active line's score that does not
	// depend on the query: recency, frequency, this directory.
	base []int32
}

// viewLocked returns the view of f, computed once (e.mu held).
func (e *Engine) viewLocked(f Filter) *view {
	if v, ok := e.views[f]; ok {
		return v
	}
	c := e.c
	n := len(c.texts)
	v := &view{count: make([]int32, n), last: make([]int32, n), here: make([]bool, n)}
	for i := range v.last {
		v.last[i] = -1
	}
	hereCwd, hasHere := c.cwdOf[e.here.Cwd]
	if !hasHere {
		hereCwd = -1
	}
	// Per session: does it pass the filter (scope session and host,
	// session, authors)? Per directory: scope directory and repository, --cwd.
	sessOK := make([]bool, len(c.sessions))
	for i, id := range c.sessions {
		ok := f.authorOK(c.author[i]) && (f.Session == "" || id == f.Session)
		switch f.Scope {
		case ScopeSession:
			ok = ok && id == e.here.Session
		case ScopeHost:
			ok = ok && HostOf(id) == ""
		}
		sessOK[i] = ok
	}
	cwdOK := make([]bool, len(c.cwds))
	repo := strings.TrimSuffix(e.repo(), "/")
	for i, d := range c.cwds {
		ok := f.Cwd == "" || d == f.Cwd
		switch f.Scope {
		case ScopeDir:
			ok = ok && d == e.here.Cwd
		case ScopeRepo:
			ok = ok && (d == repo || strings.HasPrefix(d, repo+"/"))
		}
		cwdOK[i] = ok
	}
	for r := range c.id {
		t := c.text[r]
		if c.cwd[r] == hereCwd {
			v.here[t] = true
		}
		if !sessOK[c.sess[r]] || !cwdOK[c.cwd[r]] || (f.Failed && c.exit[r] == 0) || c.at[r] < f.Since {
			continue
		}
		if v.count[t] == 0 {
			v.active = append(v.active, t)
		}
		v.count[t]++
		v.last[t] = int32(r)
	}
	v.base = make([]int32, n)
	for _, t := range v.active {
		v.base[t] = int32(e.boost(c.at[v.last[t]], int(v.count[t]), v.here[t]))
	}
	e.views[f] = v
	return v
}

// lastMatch remembers the command lines the last query matched, so that a
// query that only adds to it (the next key typed) looks at those alone.
type lastMatch struct {
	filter Filter
	mode   Mode
	text   string
	view   *view
	hits   []int32
}

// pattern is one word of a query, as fzf's matcher takes it.
type pattern struct {
	runes         []rune
	caseSensitive bool
}

func patterns(text string, mode Mode) []pattern {
	var words []string
	if mode == Prefix {
		if t := strings.TrimLeft(text, " "); t != "" {
			words = []string{t}
		}
	} else {
		words = strings.Fields(text)
	}
	ps := make([]pattern, 0, len(words))
	for _, w := range words {
		// Smart case, as fzf: a capital letter makes the word match case.
		cs := strings.IndexFunc(w, unicode.IsUpper) >= 0
		if !cs {
			w = strings.ToLower(w)
		}
		ps = append(ps, pattern{runes: []rune(w), caseSensitive: cs})
	}
	return ps
}

func matcher(mode Mode) algo.Algo {
	switch mode {
	case Prefix:
		return algo.PrefixMatch
	case FullText:
		return algo.ExactMatchNaive
	}
	return algo.FuzzyMatchV2
}

var initAlgo = sync.OnceFunc(func() { algo.Init("history") })

// spread weighs the score of a word of n characters matched across span
// characters of a command line: whole (span n), the score as it is;
// scattered, by n/span, so that letters that happen to spell the word
// across a long line (flamingo in "find /var/log -name … | grep -v go")
// weigh little against the word itself, in a line or in an output.
func spread(score, n, span int) int {
	if span <= n || n == 0 {
		return score
	}
	return score * n / span
}

// matchOne scores text against every pattern: ok is false when one does not
// match.
func matchOne(fn algo.Algo, text *util.Chars, ps []pattern, withPos bool, slab *util.Slab) (score int, pos []int, ok bool) {
	for _, p := range ps {
		r, ps := fn(p.caseSensitive, false, true, text, p.runes, withPos, slab)
		if r.Start < 0 {
			return 0, nil, false
		}
		score += spread(r.Score, len(p.runes), r.End-r.Start)
		if withPos {
			if ps != nil {
				pos = append(pos, *ps...)
			} else {
				for i := r.Start; i < r.End; i++ {
					pos = append(pos, i)
				}
			}
		}
	}
	if withPos {
		slices.Sort(pos)
		pos = slices.Compact(pos)
	}
	return score, pos, true
}

// Commands matches q against every distinct command line that ran within
// its filter, in memory: what Ctrl-R runs on each key. An empty query lists
// the most recent command lines. The corpus must have been loaded (Load);
// results carry their entry's id, command, status, start and directory
// (Fill adds the rest).
func (e *Engine) Commands(q Query) []Result {
	q = q.norm()
	initAlgo()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.c == nil {
		return nil
	}
	v := e.viewLocked(q.Filter)
	ps := patterns(q.Text, q.Mode)
	if len(ps) == 0 {
		return e.recentLocked(v, q.Limit)
	}
	// The candidates: what the previous query matched when this one
	// extends it (every match of "dock" is among those of "doc").
	cands := v.active
	l := e.last
	if l.view == v && l.mode == q.Mode && l.filter == q.Filter && l.text != "" && strings.HasPrefix(q.Text, l.text) {
		cands = l.hits
	}
	// Every candidate is matched once, in parallel, by the quick form of
	// fzf's algorithm (V1: the first occurrence, scored); the best are
	// then scored again by the full one (V2: the best occurrence), which
	// also gives the positions to highlight.
	fn := matcher(q.Mode)
	quick := fn
	if q.Mode == Fuzzy {
		quick = algo.FuzzyMatchV1
	}
	trimmed := strings.TrimSpace(q.Text)
	lowerQ := []byte(strings.ToLower(trimmed))
	lower := e.c.lowered()
	// bonus: the line is the query (exactBonus) or starts with it
	// (prefixBonus), case ignored.
	bonus := func(t int32) int {
		text := e.c.texts[t]
		if len(text) < len(trimmed) {
			return 0
		}
		var starts bool
		if l := lower[t]; l != nil {
			starts = bytes.HasPrefix(l, lowerQ)
		} else {
			starts = strings.EqualFold(text[:len(trimmed)], trimmed)
		}
		switch {
		case !starts:
			return 0
		case len(text) == len(trimmed):
			return exactBonus
		}
		return prefixBonus
	}
	keep := max(150, 3*q.Limit)
	qw := quickWords(ps)
	workers := min(runtime.GOMAXPROCS(0), 1+len(cands)/20000)
	heaps := make([]resultHeap, workers)
	found := make([][]int32, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := len(cands)*w/workers, len(cands)*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			var slab *util.Slab
			h := &heaps[w]
			out := make([]int32, 0, (hi-lo)/4)
			for _, t := range cands[lo:hi] {
				var s int
				var ok bool
				if l := lower[t]; l != nil || e.c.texts[t] == "" {
					s, ok = quickScore(l, e.c.texts[t], qw, q.Mode)
				} else {
					if slab == nil {
						slab = util.MakeSlab(16*1024, 2048)
					}
					s, _, ok = matchOne(quick, &e.c.chars[t], ps, false, slab)
				}
				if ok {
					out = append(out, t)
					s += int(v.base[t])
					if len(*h) == keep && s+exactBonus < (*h)[0].score {
						continue // cannot make the best kept, whatever its bonus
					}
					h.offer(ranked{t: t, score: s + bonus(t), at: e.c.at[v.last[t]]}, keep)
				}
			}
			found[w] = out
		}()
	}
	wg.Wait()
	var hits []int32
	if len(found) == 1 {
		hits = found[0]
	} else {
		for _, f := range found {
			hits = append(hits, f...)
		}
	}
	if len(heaps) > 1 {
		all := &resultHeap{}
		for _, wh := range heaps {
			for _, r := range wh {
				all.offer(r, keep)
			}
		}
		heaps = []resultHeap{*all}
	}
	e.last = lastMatch{filter: q.Filter, mode: q.Mode, text: q.Text, view: v, hits: hits}
	h := &resultHeap{}
	slab := util.MakeSlab(100*1024, 2048)
	pos := map[int32][]int{}
	for _, wh := range heaps {
		for _, r := range wh {
			s, p, _ := matchOne(fn, &e.c.chars[r.t], ps, true, slab)
			pos[r.t] = p
			r.score = s + int(v.base[r.t]) + bonus(r.t)
			h.offer(r, q.Limit)
		}
	}
	best := h.sorted()
	res := make([]Result, len(best))
	for i, b := range best {
		res[i] = e.resultLocked(v, b.t, b.score)
		res[i].Matched = InCommand
		res[i].Positions = pos[b.t]
	}
	return res
}

// recentLocked lists the most recent distinct command lines of v.
func (e *Engine) recentLocked(v *view, limit int) []Result {
	var res []Result
	seen := map[int32]bool{}
	c := e.c
	for r := len(c.id) - 1; r >= 0 && len(res) < limit; r-- {
		t := c.text[r]
		if seen[t] || v.last[t] != int32(r) {
			continue
		}
		seen[t] = true
		res = append(res, e.resultLocked(v, t, 0))
	}
	return res
}

func (e *Engine) resultLocked(v *view, t int32, score int) Result {
	c := e.c
	r := v.last[t]
	return Result{Entry: entryOf(c, int(r)), Count: int(v.count[t]), Score: score}
}

// ranked is a command line and its score, for the heap of the best.
type ranked struct {
	t     int32
	score int
	at    int64
}

// less orders by score, then recency.
func (a ranked) less(b ranked) bool {
	if a.score != b.score {
		return a.score < b.score
	}
	return a.at < b.at
}

// resultHeap keeps the best n: a min-heap whose root is the worst kept.
type resultHeap []ranked

func (h resultHeap) Len() int           { return len(h) }
func (h resultHeap) Less(i, j int) bool { return h[i].less(h[j]) }
func (h resultHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *resultHeap) Push(x any)        { *h = append(*h, x.(ranked)) }
func (h *resultHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (h *resultHeap) offer(r ranked, n int) {
	if h.Len() < n {
		heap.Push(h, r)
		return
	}
	if (*h)[0].less(r) {
		(*h)[0] = r
		heap.Fix(h, 0)
	}
}

// sorted returns the kept, best first.
func (h *resultHeap) sorted() []ranked {
	out := slices.Clone(*h)
	slices.SortFunc(out, func(a, b ranked) int {
		if b.less(a) {
			return -1
		}
		if a.less(b) {
			return 1
		}
		return 0
	})
	return out
}

// top returns the best n results, best first (stable among equals).
func top(res []Result, n int) []Result {
	slices.SortStableFunc(res, func(a, b Result) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		if a.StartedAt != b.StartedAt {
			if a.StartedAt > b.StartedAt {
				return -1
			}
			return 1
		}
		return 0
	})
	if len(res) > n {
		res = res[:n]
	}
	return res
}

func entryOf(c *corpus, r int) history.Entry {
	return history.Entry{ID: c.id[r], Command: c.texts[c.text[r]], ExitCode: int(c.exit[r]), StartedAt: c.at[r], Cwd: c.cwds[c.cwd[r]]}
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// Warm prepares what the first key of a search with filter f needs (the
// view of f, the lowered lines), so that the key does not wait for it.
func (e *Engine) Warm(f Filter) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.c == nil {
		return
	}
	e.viewLocked(f)
	e.c.lowered()
}
