// Package search finds commands in the history by their text and by what
// they printed: the engine behind hookd search and Ctrl-R.
//
// An Engine keeps the whole history in memory (a corpus: every distinct
// command line once, every run as a row of parallel arrays), so that each
// key typed is matched against every distinct command within a frame;
// outputs are searched in SQLite, through the full-text index where the
// build has one. Results are distinct command lines, with how often each
// ran, ranked by how well they match, how recently and how often they ran,
// and whether they ran in this directory.
package search

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/hookd/hookd/history"
)

// Scope limits a search to where commands ran.
type Scope int

// The scopes, in the order Next cycles through them.
const (
	ScopeAll     Scope = iota // everything
	ScopeSession              // this shell session
	ScopeDir                  // this directory
	ScopeRepo                 // this git repository (the directory when there is none)
	ScopeHost                 // this host
)

var scopeNames = []string{"everything", "session", "directory", "repository", "host"}

// String names the scope as the config and the flags do.
func (s Scope) String() string {
	if s < 0 || int(s) >= len(scopeNames) {
		return fmt.Sprintf("Scope(%d)", int(s))
	}
	return scopeNames[s]
}

// Next is the scope after s: session, directory, repository, host,
// everything, and round again.
func (s Scope) Next() Scope { return (s + 1) % Scope(len(scopeNames)) }

// ParseScope reads a scope's name (or its first letters: "dir", "repo",
// "all").
func ParseScope(name string) (Scope, error) {
	switch name {
	case "all", "global":
		return ScopeAll, nil
	case "dir", "cwd":
		return ScopeDir, nil
	case "repo", "git":
		return ScopeRepo, nil
	}
	for i, n := range scopeNames {
		if n == name {
			return Scope(i), nil
		}
	}
	return 0, fmt.Errorf("unknown scope %q (want %s)", name, strings.Join(scopeNames, ", "))
}

// Mode is how the query matches a command line.
type Mode int

// The modes, in the order Next cycles through them.
const (
	Fuzzy    Mode = iota // fzf's algorithm: the characters in order, scored
	Prefix               // the command line starts with the query
	FullText             // every word occurs as it is
)

var modeNames = []string{"fuzzy", "prefix", "full-text"}

// String names the mode.
func (m Mode) String() string {
	if m < 0 || int(m) >= len(modeNames) {
		return fmt.Sprintf("Mode(%d)", int(m))
	}
	return modeNames[m]
}

// Next is the mode after m.
func (m Mode) Next() Mode { return (m + 1) % Mode(len(modeNames)) }

// ParseMode reads a mode's name ("fulltext" too).
func ParseMode(name string) (Mode, error) {
	if name == "fulltext" || name == "full_text" {
		return FullText, nil
	}
	for i, n := range modeNames {
		if n == name {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown mode %q (want %s)", name, strings.Join(modeNames, ", "))
}

// Where says where a query matched: the command line, its output, or both.
type Where uint8

// Where a query matched, or may match (Query.In).
const (
	InCommand Where = 1 << iota
	InOutput
	// InNote is a match in a note on the command (hookd note), looked
	// for wherever outputs are.
	InNote
	InBoth = InCommand | InOutput
)

// String is the JSON contract's name: "command", "output" or "both";
// "note" for a note, after a + for a note besides ("command+note").
func (w Where) String() string {
	if w&InNote != 0 {
		if base := (w &^ InNote).String(); base != "" {
			return base + "+note"
		}
		return "note"
	}
	switch w {
	case InCommand:
		return "command"
	case InOutput:
		return "output"
	case InBoth:
		return "both"
	}
	return ""
}

// Here is where a search is made from: the session, directory and
// repository that the scopes and the ranking refer to. (The host is this
// installation: see HostOf.)
type Here struct {
	Session string
	Cwd     string
	Repo    string // the git repository's top directory; "" outside one
	Now     time.Time
}

// Filter selects the runs a search looks at.
type Filter struct {
	Scope  Scope
	Failed bool   // only runs that failed
	Since  int64  // only runs started at or after this time (µs)
	Cwd    string // only runs started in this directory (besides Scope)
	// Agents includes the commands of coding agents' sessions
	// (sessions.author not empty), which are left out by default.
	Agents bool
	// Author, when set, keeps only the commands of this coding agent
	// (claude-code, say); Agents is then implied.
	Author string
	// Session, when set, keeps only the runs of this session (besides
	// Scope: hookd mcp names a session that is not the searcher's).
	Session string
}

// authorOK reports whether f keeps the runs of a session whose author is
// author ("" for the user's own).
func (f Filter) authorOK(author string) bool {
	switch {
	case f.Author != "":
		return author == f.Author
	case f.Agents:
		return true
	}
	return author == ""
}

// authors is f's selection of authors as history.Query.Authors has it.
func (f Filter) authors() []string {
	switch {
	case f.Author != "":
		return []string{f.Author}
	case f.Agents:
		return nil
	}
	return []string{""}
}

// Query is one search.
type Query struct {
	Text string // words; "" lists the most recent commands
	Mode Mode
	Filter
	In    Where // where the words may match (0: both)
	Limit int   // at most this many results (0: 50)
	// Typed says the text is being typed, a request a key (the web
	// page's search as you type): its last word may be unfinished, and
	// looking it up in the outputs as the start of a word is cut short
	// at TypedPrefixTime (SearchTyped reports it).
	Typed bool
}

// TypedPrefixTime bounds a typed query's lookup of its last word as the
// start of the outputs' words, so that a key is answered in well under
// 50 ms whatever it starts: the whole words are found first, a prefix
// that starts too many words to merge in time finds more once typed on.
// (A variable for tests, which cut every lookup.)
var TypedPrefixTime = 15 * time.Millisecond

// Result is one distinct command line found.
type Result struct {
	// Entry is its most recent run within the filter (the one whose
	// output matched, for an output match).
	history.Entry
	// Count is how many times it ran within the filter.
	Count int
	// Matched says where the query matched (0 for an empty query).
	Matched Where
	// Positions are the offsets, in runes of Command, of the characters
	// the query matched, for highlighting.
	Positions []int
	// Line is, for an output match, the first line of the output that
	// matched (as stored: to be sanitized before it is printed), and
	// LineNo its number from 1.
	Line   string
	LineNo int
	// Score ranks the results, highest first.
	Score int
}

// HostOf returns the installation that recorded session's commands, for
// the scope "this host": "" for this one, the other installation's id for a
// session synced from it (history.SessionHost). A host is an installation
// (internal/hostid), not a hostname: two machines of one name are two
// hosts, and a history synced in from another machine is not this host's.
func HostOf(session string) string { return history.SessionHost(session) }

// Engine searches one history.
type Engine struct {
	store     *history.Store
	here      Here
	cachePath string

	loading sync.Mutex // one Load at a time: a second waits and reads only what is new
	mu      sync.Mutex
	c       *corpus
	full    bool // the corpus was read whole from the database this time
	dirty   bool // the cache file must be written again (read whole, forgotten)
	saved   int  // the runs the cache file holds (the rest are read from SQLite each time)
	views   map[Filter]*view
	last    lastMatch
}

// New returns an engine over store, searching from here. cachePath is the
// corpus cache's file ("" for none). The corpus is read on the first
// search, or by Load.
func New(store *history.Store, here Here, cachePath string) *Engine {
	if here.Now.IsZero() {
		here.Now = time.Now()
	}
	return &Engine{store: store, here: here, cachePath: cachePath, views: map[Filter]*view{}}
}

// Rebind points the engine at store, the same history opened again (hookd
// mcp opens it for each call), and at here, keeping the corpus: the next
// Load reads only what the history has beyond it (all of it again when
// commands were forgotten or the database replaced). Not to be called
// while a search runs. The views made for a filter are kept while here
// stays the same and the history has nothing new.
func (e *Engine) Rebind(store *history.Store, here Here) {
	e.loading.Lock()
	defer e.loading.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if here.Now.IsZero() {
		here.Now = time.Now()
	}
	e.store = store
	if here != e.here {
		// The views rank from here (its directory, its time): made again.
		e.here = here
		e.views = map[Filter]*view{}
		e.last = lastMatch{}
	}
}

// Here returns where the engine searches from.
func (e *Engine) Here() Here { return e.here }

// Load reads the corpus: from the cache file and then what the history has
// beyond it, or all of it from the history. It is safe to call again: it
// then reads what was added since.
func (e *Engine) Load(ctx context.Context) error {
	e.loading.Lock()
	defer e.loading.Unlock()
	e.mu.Lock()
	c := e.c
	e.mu.Unlock()
	if c == nil && e.cachePath != "" {
		if c = loadCache(e.cachePath); c != nil {
			e.mu.Lock()
			e.saved = len(c.id)
			e.mu.Unlock()
		}
	}
	runs := 0
	if c != nil {
		runs = len(c.id)
	}
	n, full, err := c.update(ctx, e.store)
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	// A corpus read again, or one that grew in place (a long-lived
	// engine: hookd mcp), makes the views and the last match stale.
	if n != e.c || full || len(n.id) != runs {
		e.views = map[Filter]*view{}
		e.last = lastMatch{}
	}
	if full {
		e.full, e.dirty, e.saved = true, true, 0
	}
	e.c = n
	return nil
}

// CacheStale reports whether the cache file is missing or must be written
// again (the corpus was read whole from the database, or lost commands):
// a search that ends before its corpus is read leaves that to another
// process (hookd search --build-cache).
func (e *Engine) CacheStale() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cachePath == "" {
		return false
	}
	if e.c == nil {
		_, err := os.Stat(e.cachePath)
		return err != nil
	}
	return e.dirty
}

// Loaded reports whether the corpus has been read.
func (e *Engine) Loaded() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.c != nil
}

// SaveCache writes the corpus cache when it is worth it: when the corpus
// was read whole from the database or lost a command, or when the runs
// added since the cache was written are more than a few thousand (or 2%).
// Fewer are cheaper read from SQLite each time than a cache rewritten on
// every search (the shell waits for the search to end). A no-op without a
// cache path.
func (e *Engine) SaveCache() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cachePath == "" || e.c == nil {
		return nil
	}
	n := len(e.c.id)
	if !e.dirty && n-e.saved <= max(2000, n/50) {
		return nil
	}
	if err := saveCache(e.cachePath, e.c); err != nil {
		return err
	}
	e.dirty, e.saved = false, n
	return nil
}

// Search runs q over the command lines and the outputs and returns the
// results, best first.
func (e *Engine) Search(ctx context.Context, q Query) ([]Result, error) {
	res, _, err := e.SearchTyped(ctx, q)
	return res, err
}

// SearchTyped is Search, and also says whether the outputs' search was cut
// short (q.Typed: its last word's prefix took longer than TypedPrefixTime),
// so that more outputs may match than were found.
func (e *Engine) SearchTyped(ctx context.Context, q Query) (res []Result, cut bool, err error) {
	q = q.norm()
	var cmds, outs []Result
	if q.In&InCommand != 0 {
		if err := e.Load(ctx); err != nil {
			return nil, false, err
		}
		cmds = e.Commands(q)
	}
	// A prefix is the start of a command line: outputs are searched
	// by their words only when asked for alone.
	if q.In&InOutput != 0 && strings.TrimSpace(q.Text) != "" && (q.Mode != Prefix || q.In == InOutput) {
		if outs, cut, err = e.outputs(ctx, q); err != nil {
			return nil, false, err
		}
	}
	if q.In&InOutput != 0 && strings.TrimSpace(q.Text) != "" && q.Mode != Prefix {
		notes, err := e.Notes(ctx, q)
		if err != nil {
			return nil, false, err
		}
		outs = append(outs, notes...)
	}
	res = Merge(cmds, outs, q.Limit)
	if err := e.Fill(ctx, res); err != nil {
		return nil, false, err
	}
	return res, cut, nil
}

// TypedOutputs reports whether a query typed key by key (Ctrl-R, the web
// page's search as you type) searches the outputs too: from two
// characters on, and not in prefix mode (a prefix is the start of a
// command line). A single letter would match most outputs' words.
func TypedOutputs(q Query) bool {
	return len(strings.TrimSpace(q.Text)) >= 2 && q.Mode != Prefix
}

func (q Query) norm() Query {
	if q.In == 0 {
		q.In = InBoth
	}
	if q.Limit <= 0 {
		q.Limit = 50
	}
	return q
}

// Merge combines the results of Commands and Outputs (and Notes) for one
// query: a command line found several ways is one result, matched in each,
// ranked a little higher.
func Merge(cmds, outs []Result, limit int) []Result {
	if len(outs) == 0 {
		return top(cmds, limit)
	}
	byText := make(map[string]int, len(cmds))
	res := append([]Result(nil), cmds...)
	for i, r := range res {
		byText[r.Command] = i
	}
	for _, o := range outs {
		if i, ok := byText[o.Command]; ok {
			r := &res[i]
			r.Matched |= o.Matched
			r.Score = max(r.Score, o.Score) + bothBonus
			if r.Line == "" {
				r.Line, r.LineNo = o.Line, o.LineNo
				r.Entry = o.Entry
			}
			continue
		}
		byText[o.Command] = len(res)
		res = append(res, o)
	}
	return top(res, limit)
}

// Fill completes results that carry only an id (from the corpus) with the
// rest of their entry (directory, duration, output size…).
func (e *Engine) Fill(ctx context.Context, res []Result) error {
	var ids []int64
	for _, r := range res {
		if r.Session == "" {
			ids = append(ids, r.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	m, err := e.store.Entries(ctx, ids)
	if err != nil {
		return err
	}
	for i := range res {
		if res[i].Session != "" {
			continue
		}
		if en, ok := m[res[i].ID]; ok {
			res[i].Entry = en
		}
	}
	return nil
}

// Ranking, in the units of fzf's scores (16 a character matched).
const (
	recencyMax   = 48  // ran just now; half of it after recencyHalf
	recencyHalf  = 3.0 // days
	frequencyPer = 6   // per doubling of the count
	frequencyMax = 48
	hereBonus    = 24 // ran in this directory
	exactBonus   = 64 // the command line is the query
	prefixBonus  = 32 // the command line starts with the query
	bothBonus    = 8  // matched in the command and its output
)

func (e *Engine) boost(at int64, count int, here bool) int {
	age := e.here.Now.Sub(time.UnixMicro(at)).Hours() / 24
	if age < 0 {
		age = 0
	}
	b := int(recencyMax * recencyHalf / (recencyHalf + age))
	b += min(frequencyMax, int(frequencyPer*math.Log2(float64(count)+1)))
	if here {
		b += hereBonus
	}
	return b
}

// Outputs finds the commands whose output holds every word of q.Text: the
// most recent run of each command line whose output matched, newest first,
// with the line that matched.
func (e *Engine) Outputs(ctx context.Context, q Query) ([]Result, error) {
	res, _, err := e.outputs(ctx, q)
	return res, err
}

// outputs is Outputs, and says whether a typed query's search was cut short.
func (e *Engine) outputs(ctx context.Context, q Query) (res []Result, cut bool, err error) {
	q = q.norm()
	words := strings.Fields(q.Text)
	if len(words) == 0 {
		return nil, false, nil
	}
	oq := history.OutputSearch{Words: words, Failed: q.Failed, Since: q.Since, Cwd: q.Cwd, Limit: q.Limit * 4}
	oq.Session = q.Session
	switch q.Scope {
	case ScopeSession:
		if q.Session != "" && q.Session != e.here.Session {
			return nil, false, nil
		}
		oq.Session = e.sessionOrNone()
	case ScopeDir:
		oq.Cwd = e.here.Cwd
		if q.Cwd != "" && q.Cwd != e.here.Cwd {
			return nil, false, nil
		}
	case ScopeRepo:
		oq.CwdUnder = e.repo()
	}
	oq.Authors = q.authors()
	oq.ThisHost = q.Scope == ScopeHost
	var entries []history.Entry
	if q.Typed {
		entries, cut, err = e.store.SearchOutputsTyped(ctx, oq, TypedPrefixTime)
	} else {
		entries, err = e.store.SearchOutputs(ctx, oq)
	}
	if err != nil {
		return nil, false, err
	}
	seen := map[string]int{}
	var counts map[string]int
	if e.Loaded() {
		counts = e.countsOf(q.Filter, entries)
	}
	base := 0
	for _, w := range words {
		base += scoreMatch * len([]rune(w))
	}
	for _, en := range entries {
		if i, ok := seen[en.Command]; ok {
			if counts == nil {
				res[i].Count++
			}
			continue
		}
		line, no := "", 0
		if o, err := e.store.Output(ctx, en.Session, en.Seq, ""); err == nil {
			line, no = MatchingLine(o.Text, words)
		}
		count := 1
		if counts != nil {
			count = max(1, counts[en.Command])
		}
		seen[en.Command] = len(res)
		res = append(res, Result{Entry: en, Count: count, Matched: InOutput, Line: line, LineNo: no,
			Score: base + e.boost(en.StartedAt, count, en.Cwd == e.here.Cwd)})
		if len(res) == q.Limit {
			break
		}
	}
	return res, cut, nil
}

const scoreMatch = 16

// countsOf returns how often each command line of entries ran within f.
func (e *Engine) countsOf(f Filter, entries []history.Entry) map[string]int {
	e.mu.Lock()
	defer e.mu.Unlock()
	v := e.viewLocked(f)
	m := map[string]int{}
	for _, en := range entries {
		if t, ok := e.c.textIndex()[en.Command]; ok {
			m[en.Command] = int(v.count[t])
		}
	}
	return m
}

func (e *Engine) sessionOrNone() string { return e.here.sessionOrNone() }

// repo is the directory the repository scope covers: the repository's top,
// else the directory.
func (e *Engine) repo() string { return e.here.repo() }

// MatchingLine returns the first line of text that holds every word
// (ASCII case ignored), else the first that holds one of them, else the
// first holding the letters and digits of a word in order (how the
// output index matches), with its number from 1; "", 0 when none does.
func MatchingLine(text []byte, words []string) (string, int) {
	lower := []byte(strings.ToLower(string(text)))
	lw := make([]string, len(words))
	for i, w := range words {
		lw[i] = strings.ToLower(w)
	}
	lines := strings.Split(string(lower), "\n")
	orig := strings.Split(string(text), "\n")
	if len(orig) != len(lines) { // ToLower changed the length: use the lowered text
		orig = lines
	}
	for _, all := range []bool{true, false} {
		for i, l := range lines {
			n := 0
			for _, w := range lw {
				if strings.Contains(l, w) {
					n++
				}
			}
			if (all && n == len(lw)) || (!all && n > 0) {
				return orig[i], i + 1
			}
		}
	}
	for _, w := range lw {
		toks := strings.FieldsFunc(w, notWordRune)
		if len(toks) == 0 {
			continue
		}
		for i, l := range lines {
			if containsInOrder(l, toks) {
				return orig[i], i + 1
			}
		}
	}
	return "", 0
}

func containsInOrder(s string, toks []string) bool {
	for _, t := range toks {
		i := strings.Index(s, t)
		if i < 0 {
			return false
		}
		s = s[i+len(t):]
	}
	return true
}

// Forget deletes every run of the command line command from the history
// for good (as hookd forget does), and from the engine's corpus, and
// returns how many runs there were.
func (e *Engine) Forget(ctx context.Context, command string) (int, error) {
	n, err := e.store.ForgetCommand(ctx, command)
	if err != nil {
		return n, err
	}
	g, err := e.store.Generation(ctx)
	if err != nil {
		return n, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if c := e.c; c != nil {
		if t, ok := c.textIndex()[command]; ok {
			c.drop(t)
		}
		c.gen.Forget = g.Forget
		if len(c.id) > 0 {
			c.gen.MaxID, c.gen.Tag = c.id[len(c.id)-1], c.texts[c.text[len(c.text)-1]]
		} else {
			c.gen.MaxID, c.gen.Tag = 0, ""
		}
		e.views = map[Filter]*view{}
		e.last = lastMatch{}
		e.dirty = true
	}
	return n, nil
}

// Recent lists the most recent distinct command lines within f straight
// from the database, without the corpus: the first screen of Ctrl-R while
// the corpus loads. Counts are 0 (not known yet).
func (e *Engine) Recent(ctx context.Context, f Filter, limit int) ([]Result, error) {
	q, ok := f.HistoryQuery(e.here)
	if !ok {
		return nil, nil
	}
	q.Limit = limit * 3
	entries, err := e.store.List(ctx, q)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var res []Result
	for _, en := range entries {
		if seen[en.Command] {
			continue
		}
		seen[en.Command] = true
		res = append(res, Result{Entry: en})
		if len(res) == limit {
			break
		}
	}
	return res, nil
}
