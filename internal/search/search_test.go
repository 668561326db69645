package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
)

var now = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)

type run struct {
	sess, cmd, cwd, out string
	exit                int
	ago                 time.Duration
}

// fill writes runs (oldest first) into a new store.
func fill(t *testing.T, runs []run) *history.Store {
	t.Helper()
	ctx := t.Context()
	s, err := history.Open(ctx, filepath.Join(t.TempDir(), "h.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Every session has the same hostname: the one synced in from another
	// installation is another host all the same.
	for _, id := range []string{"a", "b", remote} {
		if err := tx.AddSession(ctx, history.Session{ID: id, Shell: "bash", Host: "host1"}); err != nil {
			t.Fatal(err)
		}
	}
	for i, r := range runs {
		seq := int64(i + 1)
		at := now.Add(-r.ago).UnixMicro()
		if _, err := tx.AddCommand(ctx, history.Entry{Session: r.sess, Seq: seq, Command: r.cmd, Cwd: r.cwd, ExitCode: r.exit, StartedAt: at}); err != nil {
			t.Fatal(err)
		}
		if r.out != "" {
			if err := tx.AddOutput(ctx, history.Output{Session: r.sess, Seq: seq, Text: []byte(r.out), Bytes: int64(len(r.out)), CreatedAt: at}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return s
}

// remote is a session synced in from another installation (sync names
// them so).
const remote = "c" + history.HostSep + "0123456789abcdef"

var sample = []run{
	{sess: "a", cmd: "make build", cwd: "/src/p", out: "ok\n", ago: 50 * time.Hour},
	{sess: "a", cmd: "go test ./...", cwd: "/src/p", out: "--- FAIL: TestX\npanic: runtime error: index out of range\n", exit: 1, ago: 40 * time.Hour},
	{sess: "b", cmd: "docker ps", cwd: "/src/q", out: "CONTAINER ID\n", ago: 30 * time.Hour},
	{sess: "b", cmd: "make build", cwd: "/src/q", out: "ok\n", ago: 20 * time.Hour},
	{sess: remote, cmd: "ls -la", cwd: "/src/p/sub", out: "total 0\n", ago: 10 * time.Hour},
	{sess: "a", cmd: "git status", cwd: "/src/p/sub", out: "On branch main\n", ago: 5 * time.Hour},
	{sess: "a", cmd: "make build", cwd: "/src/p", out: "ok\n", ago: 1 * time.Hour},
}

func commands(res []Result) []string {
	var out []string
	for _, r := range res {
		out = append(out, r.Command)
	}
	return out
}

func TestSearch(t *testing.T) {
	s := fill(t, sample)
	here := Here{Session: "a", Cwd: "/src/p", Repo: "/src/p", Now: now}
	tests := []struct {
		name string
		q    Query
		want []string
	}{
		{"recent first, once each", Query{}, []string{"make build", "git status", "ls -la", "docker ps", "go test ./..."}},
		{"fuzzy", Query{Text: "mkbld"}, []string{"make build"}},
		{"output word", Query{Text: "panic"}, []string{"go test ./..."}},
		{"output only", Query{Text: "ok", In: InOutput}, []string{"make build"}},
		{"command only leaves outputs", Query{Text: "panic", In: InCommand}, nil},
		{"failed", Query{Filter: Filter{Failed: true}}, []string{"go test ./..."}},
		{"session", Query{Filter: Filter{Scope: ScopeSession}}, []string{"make build", "git status", "go test ./..."}},
		{"directory", Query{Filter: Filter{Scope: ScopeDir}}, []string{"make build", "go test ./..."}},
		{"repository", Query{Filter: Filter{Scope: ScopeRepo}}, []string{"make build", "git status", "ls -la", "go test ./..."}},
		{"host", Query{Filter: Filter{Scope: ScopeHost}}, []string{"make build", "git status", "docker ps", "go test ./..."}},
		{"another host's output", Query{Text: "total", In: InOutput}, []string{"ls -la"}},
		{"this host's outputs only", Query{Text: "total", In: InOutput, Filter: Filter{Scope: ScopeHost}}, nil},
		{"prefix", Query{Text: "ma", Mode: Prefix}, []string{"make build"}},
		{"prefix is the start", Query{Text: "build", Mode: Prefix, In: InCommand}, nil},
		{"full text", Query{Text: "status git", Mode: FullText}, []string{"git status"}},
		{"since", Query{Filter: Filter{Since: now.Add(-6 * time.Hour).UnixMicro()}}, []string{"make build", "git status"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := New(s, here, "")
			res, err := e.Search(t.Context(), tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if got := commands(res); !slices.Equal(got, tc.want) {
				t.Errorf("Search(%+v) = %q; want %q", tc.q, got, tc.want)
			}
		})
	}
}

func TestSearchResultDetails(t *testing.T) {
	s := fill(t, sample)
	e := New(s, Here{Session: "a", Cwd: "/src/p", Now: now}, "")
	res, err := e.Search(t.Context(), Query{Text: "panic"})
	if err != nil || len(res) != 1 {
		t.Fatalf("Search(panic) = %v, %v", res, err)
	}
	r := res[0]
	if r.Matched != InOutput || r.Line != "panic: runtime error: index out of range" || r.LineNo != 2 || r.ExitCode != 1 || r.Session != "a" {
		t.Errorf("Search(panic) = %+v; want an output match on line 2, exit 1, session a", r)
	}
	res, err = e.Search(t.Context(), Query{Text: "make"})
	if err != nil || len(res) == 0 || res[0].Command != "make build" || res[0].Count != 3 || res[0].Matched != InCommand {
		t.Fatalf("Search(make) = %+v, %v; want make build, 3 runs, matched in the command", res, err)
	}
	if want := []int{0, 1, 2, 3}; !slices.Equal(res[0].Positions, want) {
		t.Errorf("positions = %v; want %v", res[0].Positions, want)
	}
	if res[0].Cwd != "/src/p" || res[0].OutputBytes == 0 {
		t.Errorf("the result's entry is not filled in: %+v", res[0].Entry)
	}
}

func TestRankingBoostsHereAndExact(t *testing.T) {
	s := fill(t, []run{
		{sess: "a", cmd: "kubectl get pods", cwd: "/here", ago: 48 * time.Hour},
		{sess: "a", cmd: "kubectl get pods -n x", cwd: "/elsewhere", ago: time.Hour},
	})
	e := New(s, Here{Cwd: "/here", Now: now}, "")
	res, err := e.Search(t.Context(), Query{Text: "kubectl get pods", In: InCommand})
	if err != nil {
		t.Fatal(err)
	}
	if got := commands(res); !slices.Equal(got, []string{"kubectl get pods", "kubectl get pods -n x"}) {
		t.Errorf("ranking = %q; want the exact match run here first", got)
	}
}

func TestIncrementalMatchesAsFresh(t *testing.T) {
	s := fill(t, sample)
	here := Here{Session: "a", Cwd: "/src/p", Now: now}
	e := New(s, here, "")
	if err := e.Load(t.Context()); err != nil {
		t.Fatal(err)
	}
	typed := ""
	for _, k := range "make b" {
		typed += string(k)
		got := commands(e.Commands(Query{Text: typed}))
		fresh := New(s, here, "")
		fresh.Load(t.Context())
		want := commands(fresh.Commands(Query{Text: typed}))
		if !slices.Equal(got, want) {
			t.Errorf("after typing %q: %q; a fresh engine finds %q", typed, got, want)
		}
	}
}

// sampleEngine is an engine over the sample history with a cache file of
// its own (not written yet), and what makes another like it.
func sampleEngine(t *testing.T) (e *Engine, s *history.Store, here Here, cache string) {
	s = fill(t, sample)
	cache = filepath.Join(t.TempDir(), "search.cache")
	here = Here{Cwd: "/src/p", Now: now}
	return New(s, here, cache), s, here, cache
}

func TestCacheRoundTripAndForget(t *testing.T) {
	ctx := context.Background()
	e, s, here, cache := sampleEngine(t)
	if err := e.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if err := e.SaveCache(); err != nil {
		t.Fatal(err)
	}
	c := loadCache(cache)
	if c == nil || len(c.id) != len(sample) || len(c.texts) != 5 {
		t.Fatalf("loadCache = %v; want %d runs, 5 distinct", c, len(sample))
	}
	// A forgotten command never comes back from the cache.
	res, _ := New(s, here, cache).Search(ctx, Query{Text: "docker", In: InCommand})
	if len(res) != 1 {
		t.Fatalf("docker: %q", commands(res))
	}
	if _, err := s.Forget(ctx, []int64{res[0].ID}); err != nil {
		t.Fatal(err)
	}
	res, err := New(s, here, cache).Search(ctx, Query{Text: "docker", In: InCommand})
	if err != nil || len(res) != 0 {
		t.Errorf("after forget: %q, %v; want nothing", commands(res), err)
	}
}

func TestMatchingLine(t *testing.T) {
	text := []byte("first\nSecond Error here\nthird error and panic\n")
	for _, tc := range []struct {
		words []string
		line  string
		no    int
	}{
		{[]string{"error", "panic"}, "third error and panic", 3},
		{[]string{"ERROR"}, "Second Error here", 2},
		{[]string{"nothing"}, "", 0},
	} {
		if line, no := MatchingLine(text, tc.words); line != tc.line || no != tc.no {
			t.Errorf("MatchingLine(%q) = %q, %d; want %q, %d", tc.words, line, no, tc.line, tc.no)
		}
	}
}

// TestCacheDelta: commands added after the cache was written are found
// (read from the database), and a few of them do not make every search
// write the cache again.
func TestCacheDelta(t *testing.T) {
	ctx := context.Background()
	s := fill(t, sample)
	cache := filepath.Join(t.TempDir(), "search.cache")
	here := Here{Cwd: "/src/p", Now: now}
	e := New(s, here, cache)
	if err := e.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if err := e.SaveCache(); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(cache)
	tx, _ := s.Begin(ctx)
	tx.AddCommand(ctx, history.Entry{Session: "a", Seq: 100, Command: "terraform plan", Cwd: "/src/p", StartedAt: now.UnixMicro()})
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	e = New(s, here, cache)
	res, err := e.Search(ctx, Query{Text: "terraform", In: InCommand})
	if err != nil || len(res) != 1 {
		t.Fatalf("a command added after the cache: %q, %v", commands(res), err)
	}
	if e.full {
		t.Error("the corpus was read whole although the cache was there")
	}
	if err := e.SaveCache(); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(cache)
	if !after.ModTime().Equal(before.ModTime()) || after.Size() != before.Size() {
		t.Error("one new command made the search write its cache again")
	}
}

// TestAgentsLeftOut: coding agents' commands (their sessions carry the
// agent's name: hookd agent-hook, hookd record) are left out of the search,
// its outputs and its first screen unless asked (Filter.Agents).
func TestAgentsLeftOut(t *testing.T) {
	ctx := context.Background()
	s, err := history.Open(ctx, filepath.Join(t.TempDir(), "h.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tx, _ := s.Begin(ctx)
	tx.AddSession(ctx, history.Session{ID: "me", Shell: "zsh"})
	tx.AddSession(ctx, history.Session{ID: "agent", Shell: "run", Author: "claude-code"})
	tx.AddCommand(ctx, history.Entry{Session: "me", Seq: 1, Command: "make mine", StartedAt: 1})
	tx.AddCommand(ctx, history.Entry{Session: "agent", Seq: 1, Command: "make theirs", StartedAt: 2})
	tx.AddOutput(ctx, history.Output{Session: "agent", Seq: 1, Text: []byte("agentword\n")})
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, agents := range []bool{false, true} {
		e := New(s, Here{}, "")
		res, err := e.Search(ctx, Query{Text: "make", Filter: Filter{Agents: agents}})
		if err != nil {
			t.Fatal(err)
		}
		out, _ := e.Search(ctx, Query{Text: "agentword", Filter: Filter{Agents: agents}})
		first, _ := New(s, Here{}, "").Recent(ctx, Filter{Agents: agents}, 10)
		want := []string{"make mine"}
		if agents {
			want = []string{"make theirs", "make mine"}
		}
		if got := commands(res); !slices.Equal(got, want) {
			t.Errorf("agents %v: %q; want %q", agents, got, want)
		}
		if got := commands(first); !slices.Equal(got, want) {
			t.Errorf("agents %v: the first screen shows %q; want %q", agents, got, want)
		}
		if (len(out) == 1) != agents {
			t.Errorf("agents %v: the agent's output found %d times", agents, len(out))
		}
	}
}

// TestRecentThisHost: the first screen (Recent, read before the corpus)
// keeps to this installation's commands in the host scope, whatever the
// hostname of the sessions synced in from another.
func TestRecentThisHost(t *testing.T) {
	s := fill(t, sample)
	e := New(s, Here{Session: "a", Cwd: "/src/p", Now: now}, "")
	for _, tc := range []struct {
		scope Scope
		want  []string
	}{
		{ScopeAll, []string{"make build", "git status", "ls -la", "docker ps", "go test ./..."}},
		{ScopeHost, []string{"make build", "git status", "docker ps", "go test ./..."}},
	} {
		res, err := e.Recent(t.Context(), Filter{Scope: tc.scope}, 10)
		if err != nil {
			t.Fatal(err)
		}
		if got := commands(res); !slices.Equal(got, tc.want) {
			t.Errorf("Recent(%v) = %q; want %q", tc.scope, got, tc.want)
		}
	}
}

// TestLoadAgain: an engine that lives on (hookd mcp's) finds the commands
// added since its last search, in the views it had made, and forgets the
// forgotten ones.
func TestLoadAgain(t *testing.T) {
	ctx := t.Context()
	s := fill(t, sample)
	e := New(s, Here{Session: "a", Cwd: "/src/p", Now: now}, "")
	for _, f := range []Filter{{}, {Scope: ScopeSession}} {
		if res, err := e.Search(ctx, Query{Text: "mak", Filter: f}); err != nil || len(res) == 0 {
			t.Fatalf("Search(mak) = %v, %v", res, err)
		}
	}
	tx, _ := s.Begin(ctx)
	tx.AddCommand(ctx, history.Entry{Session: "a", Seq: 100, Command: "make install-newtarget", Cwd: "/src/p", StartedAt: now.UnixMicro()})
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	e.Rebind(s, Here{Session: "a", Cwd: "/src/p", Now: now})
	for _, f := range []Filter{{}, {Scope: ScopeSession}} {
		res, err := e.Search(ctx, Query{Text: "maknew", Filter: f})
		if err != nil || len(res) != 1 || res[0].Command != "make install-newtarget" {
			t.Errorf("after a new command, Search(maknew, %v) = %q, %v", f.Scope, commands(res), err)
		}
	}
	// The same engine, without Rebind: Load reads what is new.
	tx, _ = s.Begin(ctx)
	tx.AddCommand(ctx, history.Entry{Session: "b", Seq: 100, Command: "make другой", Cwd: "/src/q", StartedAt: now.UnixMicro()})
	tx.Commit()
	if res, err := e.Search(ctx, Query{Text: "другой"}); err != nil || len(res) != 1 {
		t.Errorf("after another, Search(другой) = %q, %v", commands(res), err)
	}
	if _, err := s.ForgetCommand(ctx, "make install-newtarget"); err != nil {
		t.Fatal(err)
	}
	if res, _ := e.Search(ctx, Query{Text: "maknew"}); len(res) != 0 {
		t.Errorf("after forget, Search(maknew) = %q", commands(res))
	}
}

// TestRecentRepo: the first screen in the repository scope is as full as
// the repository's history allows, however many commands ran elsewhere
// since (the scope is a condition of the query, not a filter after it).
func TestRecentRepo(t *testing.T) {
	runs := []run{{sess: "a", cmd: "make -C here", cwd: "/src/p/sub", out: "ok\n", ago: 9 * time.Hour}}
	for i := range 8 {
		runs = append(runs, run{sess: "a", cmd: fmt.Sprintf("echo elsewhere-%d", i), cwd: "/tmp", out: "x\n", ago: time.Duration(8-i) * time.Hour})
	}
	e := New(fill(t, runs), Here{Session: "a", Cwd: "/src/p", Repo: "/src/p", Now: now}, "")
	res, err := e.Recent(t.Context(), Filter{Scope: ScopeRepo}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := commands(res); !slices.Equal(got, []string{"make -C here"}) {
		t.Errorf("Recent(repository) = %q; want the one command run in it", got)
	}
}

// TestRankingWholeWordInOutputAboveScattered: a word the output holds whole
// ranks above a long command line whose letters happen to spell it across
// many characters, however recently and often that line ran (issue 32);
// and each result says where it matched.
func TestRankingWholeWordInOutputAboveScattered(t *testing.T) {
	scattered := []string{
		"find /var/log -name '*.gz' -amin -60 -ls | grep -v go",
		`git config --global user.name "Ann Lee"; mkdir -p ~/src/flask-app; git init -q ~/src/flask-app && cd ~/src/flask-app && go version`,
	}
	runs := []run{{sess: "a", cmd: "cat ~/notes.txt", cwd: "/elsewhere", out: "birds seen:\na flamingo, two herons\n", ago: 72 * time.Hour}}
	for _, c := range scattered {
		for i := range 8 {
			runs = append(runs, run{sess: "a", cmd: c, cwd: "/here", out: "x\n", ago: time.Duration(i+1) * time.Minute})
		}
	}
	s := fill(t, runs)
	e := New(s, Here{Session: "a", Cwd: "/here", Now: now}, "")
	if err := e.Load(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, c := range scattered {
		if res := e.Commands(Query{Text: "flamingo"}); !slices.Contains(commands(res), c) {
			t.Fatalf("the fuzzy match does not find %q: %q", c, commands(res))
		}
	}
	res, err := e.Search(t.Context(), Query{Text: "flamingo"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 || res[0].Command != "cat ~/notes.txt" || res[0].Matched != InOutput {
		t.Fatalf("Search(flamingo) = %q; want the cat whose output holds the word first, matched in its output", commands(res))
	}
	for _, r := range res[1:] {
		if r.Matched != InCommand {
			t.Errorf("%q matched %v; want in the command", r.Command, r.Matched)
		}
	}
	// A word the command line holds whole still ranks above the output.
	s = fill(t, append(runs, run{sess: "b", cmd: "echo flamingo", cwd: "/elsewhere", ago: 100 * time.Hour}))
	res, err = New(s, Here{Session: "a", Cwd: "/here", Now: now}, "").Search(t.Context(), Query{Text: "flamingo"})
	if err != nil || len(res) == 0 || res[0].Command != "echo flamingo" {
		t.Fatalf("Search(flamingo) = %q, %v; want echo flamingo first", commands(res), err)
	}
}
