package history_test

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/hookd/hookd/history"
)

// sample is a small history: two sessions, failures, several directories.
var sample = []history.Entry{
	{Session: "a", Seq: 1, Command: "git status", Cwd: "/src/p", StartedAt: t0 + 10},
	{Session: "a", Seq: 2, Command: "make test", ExitCode: 2, Pipestatus: []int{2}, Cwd: "/src/p", StartedAt: t0 + 20},
	{Session: "b", Seq: 1, Command: "GIT log --oneline", Cwd: "/tmp", StartedAt: t0 + 30},
	{Session: "b", Seq: 2, Command: "echo 100% done", Cwd: "/tmp", StartedAt: t0 + 40},
	{Session: "a", Seq: 3, Command: "echo 1000 done", ExitCode: 1, Cwd: "/src/p/sub", StartedAt: t0 + 50},
	{Session: "b", Seq: 3, Command: "cat a_b.txt", Cwd: "/tmp", StartedAt: t0 + 60},
	{Session: "b", Seq: 4, Command: "cat axb.txt", ExitCode: 1, Cwd: "/tmp", StartedAt: t0 + 70},
	{Session: "a", Seq: 4, Command: `dir C:\Users\me`, Cwd: "/src/p", StartedAt: t0 + 80},
	{Session: "a", Seq: 5, Command: `dir C:Users`, Cwd: "/src/p", StartedAt: t0 + 90},
	{Session: "b", Seq: 5, Command: "grep -r école .", ExitCode: 1, Cwd: "/tmp", StartedAt: t0 + 100},
	{Session: "b", Seq: 6, Command: "git commit -m 'Fix the PARSER'", Cwd: "/tmp", StartedAt: t0 + 110},
}

var sampleSessions = []history.Session{
	{ID: "a", Shell: "zsh", Version: "5.9", PID: 10, Host: "h1", User: "u", UID: 1000, TTY: "/dev/pts/1", StartedAt: t0},
	{ID: "b", Shell: "bash", Version: "5.2", PID: 11, Host: "h1", User: "u", UID: 1000, StartedAt: t0 + 1},
}

func sampleStore(t *testing.T) *history.Store {
	t.Helper()
	s := newStore(t)
	add(t, s, sampleSessions, sample...)
	return s
}

func commands(es []history.Entry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.Command)
	}
	return out
}

func TestList(t *testing.T) {
	s := sampleStore(t)
	tests := []struct {
		name string
		q    history.Query
		want []string // newest first
	}{
		{"all", history.Query{}, []string{"git commit -m 'Fix the PARSER'", "grep -r école .", `dir C:Users`, `dir C:\Users\me`,
			"cat axb.txt", "cat a_b.txt", "echo 1000 done", "echo 100% done", "GIT log --oneline", "make test", "git status"}},
		{"limit", history.Query{Limit: 2}, []string{"git commit -m 'Fix the PARSER'", "grep -r école ."}},
		{"failed", history.Query{Failed: true}, []string{"grep -r école .", "cat axb.txt", "echo 1000 done", "make test"}},
		{"failed limit", history.Query{Failed: true, Limit: 1}, []string{"grep -r école ."}},
		{"session", history.Query{Session: "a"}, []string{`dir C:Users`, `dir C:\Users\me`, "echo 1000 done", "make test", "git status"}},
		{"unknown session", history.Query{Session: "zzz"}, []string{}},
		{"cwd exact, not below", history.Query{Cwd: "/src/p"}, []string{`dir C:Users`, `dir C:\Users\me`, "make test", "git status"}},
		{"since", history.Query{Since: t0 + 90}, []string{"git commit -m 'Fix the PARSER'", "grep -r école .", `dir C:Users`}},
		{"text ignores ASCII case", history.Query{Text: "git"}, []string{"git commit -m 'Fix the PARSER'", "GIT log --oneline", "git status"}},
		{"text upper query", history.Query{Text: "parser"}, []string{"git commit -m 'Fix the PARSER'"}},
		{"every word", history.Query{Text: "  git   log "}, []string{"GIT log --oneline"}},
		{"words in any order", history.Query{Text: "done echo"}, []string{"echo 1000 done", "echo 100% done"}},
		{"percent is literal", history.Query{Text: "100%"}, []string{"echo 100% done"}},
		{"underscore is literal", history.Query{Text: "a_b"}, []string{"cat a_b.txt"}},
		{"backslash is literal", history.Query{Text: `C:\Users`}, []string{`dir C:\Users\me`}},
		{"lone percent", history.Query{Text: "%"}, []string{"echo 100% done"}},
		{"lone underscore", history.Query{Text: "_"}, []string{"cat a_b.txt"}},
		{"lone backslash", history.Query{Text: `\`}, []string{`dir C:\Users\me`}},
		{"non-ASCII exact", history.Query{Text: "école"}, []string{"grep -r école ."}},
		{"quote in word", history.Query{Text: "'Fix"}, []string{"git commit -m 'Fix the PARSER'"}},
		{"no match", history.Query{Text: "nothing-like-this"}, []string{}},
		{"combined", history.Query{Session: "b", Failed: true, Cwd: "/tmp", Text: "cat", Since: t0 + 60}, []string{"cat axb.txt"}},
		{"whitespace text is no filter", history.Query{Text: " \t ", Limit: 1}, []string{"git commit -m 'Fix the PARSER'"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.List(t.Context(), tt.q)
			if err != nil {
				t.Fatalf("List(%+v): %v", tt.q, err)
			}
			if c := commands(got); !reflect.DeepEqual(c, tt.want) {
				t.Errorf("List(%+v) = %q; want %q", tt.q, c, tt.want)
			}
		})
	}
}

func TestListFields(t *testing.T) {
	s := sampleStore(t)
	got, err := s.List(t.Context(), history.Query{Session: "a", Failed: true, Limit: 1, Text: "make"})
	if err != nil || len(got) != 1 {
		t.Fatalf("List = %+v, %v; want one entry", got, err)
	}
	e := got[0]
	if e.ID == 0 {
		t.Errorf("entry has no ID: %+v", e)
	}
	e.ID = 0
	want := history.Entry{Session: "a", Seq: 2, Command: "make test", ExitCode: 2, Pipestatus: []int{2}, Cwd: "/src/p",
		StartedAt: t0 + 20, Shell: "zsh", Host: "h1", User: "u", TTY: "/dev/pts/1", Source: "hook"}
	if !reflect.DeepEqual(e, want) {
		t.Errorf("entry = %+v;\nwant   %+v", e, want)
	}
}

func TestListSameTimeNewestIDFirst(t *testing.T) {
	s := newStore(t)
	add(t, s, nil,
		history.Entry{Session: "s", Seq: 1, Command: "first", StartedAt: t0},
		history.Entry{Session: "s", Seq: 2, Command: "second", StartedAt: t0},
		history.Entry{Session: "s", Seq: 3, Command: "older", StartedAt: t0 - 1},
	)
	got, err := s.List(t.Context(), history.Query{})
	if want := []string{"second", "first", "older"}; err != nil || !reflect.DeepEqual(commands(got), want) {
		t.Errorf("List = %q, %v; want %q", commands(got), err, want)
	}
}

// TestLatestMatchesList: the failure path's lean read of the past gives
// List's runs, in List's order (equal times: newest id first), with the
// four fields it fills.
func TestLatestMatchesList(t *testing.T) {
	s := sampleStore(t)
	add(t, s, nil, history.Entry{Session: "c", Seq: 1, Command: "same time", Cwd: "/x", ExitCode: 3, StartedAt: t0 + 110})
	for _, n := range []int{1, 3, 12, 50} {
		got, err := s.Latest(t.Context(), n)
		if err != nil {
			t.Fatal(err)
		}
		all, err := s.List(t.Context(), history.Query{Limit: n})
		if err != nil {
			t.Fatal(err)
		}
		want := make([]history.Entry, 0, len(all))
		for _, e := range all {
			want = append(want, history.Entry{Command: e.Command, Cwd: e.Cwd, ExitCode: e.ExitCode, StartedAt: e.StartedAt})
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Latest(%d) =\n%+v;\nwant\n%+v", n, got, want)
		}
	}
	if got, err := s.Latest(t.Context(), 0); err != nil || len(got) != 0 {
		t.Errorf("Latest(0) = %v, %v; want nothing", got, err)
	}
}

func TestGet(t *testing.T) {
	s := sampleStore(t)
	all, err := s.List(t.Context(), history.Query{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range all {
		got, err := s.Get(t.Context(), e.ID)
		if err != nil || !reflect.DeepEqual(got, e) {
			t.Errorf("Get(%d) = %+v, %v; want %+v", e.ID, got, err, e)
		}
	}
	for _, id := range []int64{0, -1, slices.MaxFunc(all, func(a, b history.Entry) int { return int(a.ID - b.ID) }).ID + 1} {
		if _, err := s.Get(t.Context(), id); !errors.Is(err, history.ErrNotFound) {
			t.Errorf("Get(%d) error = %v; want ErrNotFound", id, err)
		}
	}
}

func TestRecent(t *testing.T) {
	s := sampleStore(t)
	tests := []struct {
		session string
		n       int
		want    string // "" means ErrNotFound
	}{
		{"a", 1, `dir C:Users`},
		{"a", 2, `dir C:\Users\me`},
		{"a", 5, "git status"},
		{"a", 6, ""},
		{"a", 0, ""},
		{"a", -1, ""},
		{"b", 1, "git commit -m 'Fix the PARSER'"},
		{"b", 3, "cat axb.txt"},
		{"nope", 1, ""},
	}
	for _, tt := range tests {
		got, err := s.Recent(t.Context(), tt.session, tt.n)
		if tt.want == "" {
			if !errors.Is(err, history.ErrNotFound) {
				t.Errorf("Recent(%q, %d) = %q, %v; want ErrNotFound", tt.session, tt.n, got.Command, err)
			}
			continue
		}
		if err != nil || got.Command != tt.want || got.Session != tt.session {
			t.Errorf("Recent(%q, %d) = %q, %v; want %q", tt.session, tt.n, got.Command, err, tt.want)
		}
	}
}

func TestRecentFollowsSeqNotTime(t *testing.T) {
	// A clock that went backwards must not reorder a session's commands.
	s := newStore(t)
	add(t, s, nil,
		history.Entry{Session: "s", Seq: 1, Command: "one", StartedAt: t0 + 100},
		history.Entry{Session: "s", Seq: 2, Command: "two", StartedAt: t0},
	)
	if got, err := s.Recent(t.Context(), "s", 1); err != nil || got.Command != "two" {
		t.Errorf("Recent(s, 1) = %q, %v; want %q", got.Command, err, "two")
	}
}

func TestTextRoundTrip(t *testing.T) {
	texts := []string{
		"echo \xff\xfe invalid utf-8",
		"\x80",
		"printf '\\e[31mred\\e[0m'\x1b[2J\x07",
		"multi\nline\r\ncommand\t with tabs",
		"日本語 ✓ 🎉",
		string([]byte{1, 2, 3, 0x7f, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0xf8, 0x88, 0x80, 0x80, 0x80}),
		"trailing spaces   ",
		"\u00a0nbsp",
	}
	var all []byte
	for i := 1; i < 256; i++ {
		all = append(all, byte(i))
	}
	texts = append(texts, string(all))

	s := newStore(t)
	for i, text := range texts {
		add(t, s, nil, history.Entry{Session: "s", Seq: int64(i + 1), Command: text, Cwd: text, StartedAt: t0 + int64(i)})
	}
	for i, text := range texts {
		got, err := s.Recent(t.Context(), "s", len(texts)-i)
		if err != nil {
			t.Fatalf("Recent: %v", err)
		}
		if got.Command != text || got.Cwd != text {
			t.Errorf("stored %q; read back command %q, cwd %q", text, got.Command, got.Cwd)
		}
		if byID, err := s.Get(t.Context(), got.ID); err != nil || byID.Command != text {
			t.Errorf("Get: stored %q; read back %q, %v", text, byID.Command, err)
		}
		// A query by the exact cwd finds it.
		l, err := s.List(t.Context(), history.Query{Cwd: text})
		if err != nil || len(l) != 1 || l[0].Command != text {
			t.Errorf("List(Cwd: %q) = %q, %v; want the command", text, commands(l), err)
		}
	}
	got, err := s.List(t.Context(), history.Query{Text: "invalid"})
	if err != nil || !reflect.DeepEqual(commands(got), []string{"echo \xff\xfe invalid utf-8"}) {
		t.Errorf("List(Text: invalid) = %q, %v", commands(got), err)
	}
}

func TestStats(t *testing.T) {
	ctx := t.Context()
	s := newStore(t)
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Commands != 0 || st.Sessions != 0 || st.Failed != 0 || st.Bad != 0 || st.LastError != "" {
		t.Errorf("Stats of an empty history = %+v; want zeros", st)
	}
	add(t, s, sampleSessions, sample...)

	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mustDo(t, tx.SetSpoolOffset(ctx, "x.spool", 7, 100, 2, t0))
	mustDo(t, tx.SetSpoolOffset(ctx, "y.spool", 8, 50, 1, t0))
	mustDo(t, tx.SetSpoolOffset(ctx, "x.spool", 7, 200, 3, t0)) // bad adds up: 5
	mustDo(t, tx.SetMeta(ctx, "last_error", "disk full"))
	mustDo(t, tx.Commit())

	st, err = s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, e := range sample {
		if e.ExitCode != 0 {
			failed++
		}
	}
	if st.Commands != int64(len(sample)) || st.Sessions != 2 || st.Failed != int64(failed) || st.Bad != 6 || st.LastError != "disk full" {
		t.Errorf("Stats = %+v; want %d commands, 2 sessions, %d failed, 6 bad, last error", st, len(sample), failed)
	}
	if st.SizeBytes <= 0 {
		t.Errorf("Stats.SizeBytes = %d; want > 0", st.SizeBytes)
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestSpoolOffsets(t *testing.T) {
	ctx := t.Context()
	s := newStore(t)
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ino, off, err := tx.SpoolOffset(ctx, "new.spool")
	if ino != 0 || off != 0 || err != nil {
		t.Errorf("SpoolOffset of an unknown spool = %d, %d, %v; want 0, 0, nil", ino, off, err)
	}
	mustDo(t, tx.SetSpoolOffset(ctx, "a.spool", 1<<40, 10, 1, t0))
	mustDo(t, tx.SetSpoolOffset(ctx, "b.spool", 5, 20, 0, t0))
	mustDo(t, tx.SetSpoolOffset(ctx, "a.spool", 1<<63+5, 30, 2, t0)) // inodes use all 64 bits
	ino, off, err = tx.SpoolOffset(ctx, "a.spool")
	if ino != 1<<63+5 || off != 30 || err != nil {
		t.Errorf("SpoolOffset(a.spool) in the Tx = %d, %d, %v; want %d, 30", ino, off, err, uint64(1<<63+5))
	}
	mustDo(t, tx.Commit())

	got, err := s.SpoolOffsets(ctx)
	if want := map[string]history.SpoolState{"a.spool": {Inode: 1<<63 + 5, Offset: 30}, "b.spool": {Inode: 5, Offset: 20}}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("SpoolOffsets = %v, %v; want %v", got, err, want)
	}

	// A rolled-back Tx changes nothing.
	tx, err = s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mustDo(t, tx.SetSpoolOffset(ctx, "a.spool", 1, 999, 50, t0))
	mustDo(t, tx.DeleteSpool(ctx, "b.spool"))
	tx.Rollback()
	if got, err := s.SpoolOffsets(ctx); err != nil || got["a.spool"].Offset != 30 || got["b.spool"].Offset != 20 {
		t.Errorf("SpoolOffsets after a rollback = %v, %v", got, err)
	}

	// DeleteSpool forgets the offset but keeps the count of bad records.
	tx, err = s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mustDo(t, tx.DeleteSpool(ctx, "a.spool"))
	mustDo(t, tx.DeleteSpool(ctx, "never-seen.spool"))
	mustDo(t, tx.Commit())
	tx, err = s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mustDo(t, tx.SetSpoolOffset(ctx, "c.spool", 9, 1, 4, t0))
	mustDo(t, tx.DeleteSpool(ctx, "c.spool"))
	mustDo(t, tx.Commit())
	if got, err := s.SpoolOffsets(ctx); err != nil || !reflect.DeepEqual(got, map[string]history.SpoolState{"b.spool": {Inode: 5, Offset: 20}}) {
		t.Errorf("SpoolOffsets after DeleteSpool = %v, %v; want only b.spool", got, err)
	}
	if st, err := s.Stats(ctx); err != nil || st.Bad != 7 {
		t.Errorf("Stats.Bad after deleting spools with 3 and 4 bad records = %d, %v; want 7", st.Bad, err)
	}
}

func TestAddCommandDuplicate(t *testing.T) {
	ctx := t.Context()
	s := newStore(t)
	add(t, s, nil, history.Entry{Session: "s", Seq: 1, Command: "original", StartedAt: t0})
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	added, err := tx.AddCommand(ctx, history.Entry{Session: "s", Seq: 1, Command: "again", StartedAt: t0 + 1})
	if added || err != nil {
		t.Errorf("AddCommand of a recorded (session, seq) = %v, %v; want false, nil", added, err)
	}
	added, err = tx.AddCommand(ctx, history.Entry{Session: "other", Seq: 1, Command: "other session", StartedAt: t0, Source: "import"})
	if !added || err != nil {
		t.Errorf("AddCommand in another session = %v, %v; want true, nil", added, err)
	}
	mustDo(t, tx.Commit())
	got, err := s.List(ctx, history.Query{})
	if want := []string{"other session", "original"}; err != nil || !reflect.DeepEqual(commands(got), want) {
		t.Errorf("List = %q, %v; want %q", commands(got), err, want)
	}
	if got[0].Source != "import" || got[1].Source != "hook" {
		t.Errorf("sources = %q, %q; want import, hook (the default)", got[0].Source, got[1].Source)
	}
}

func TestSession(t *testing.T) {
	ctx := t.Context()
	s := newStore(t)
	first := history.Session{ID: "s1", Shell: "zsh", Version: "5.9", PID: 42, Host: "h", User: "u", UID: 1000, StartedAt: t0}
	add(t, s, []history.Session{first})
	if got, err := s.Session(ctx, "s1"); err != nil || got != first {
		t.Errorf("Session(s1) = %+v, %v; want %+v", got, err, first)
	}
	// A second header keeps the record, and only fills in the tty.
	add(t, s, []history.Session{{ID: "s1", Shell: "bash", PID: 7, TTY: "/dev/pts/4"}})
	want := first
	want.TTY = "/dev/pts/4"
	if got, err := s.Session(ctx, "s1"); err != nil || got != want {
		t.Errorf("Session(s1) after a header with a tty = %+v, %v; want %+v", got, err, want)
	}
	add(t, s, []history.Session{{ID: "s1", Shell: "bash"}})
	if got, err := s.Session(ctx, "s1"); err != nil || got != want {
		t.Errorf("Session(s1) after a header without a tty = %+v, %v; want %+v", got, err, want)
	}
	if _, err := s.Session(ctx, "nope"); !errors.Is(err, history.ErrNotFound) {
		t.Errorf("Session(nope) error = %v; want ErrNotFound", err)
	}
}

// TestListManyRowsSameEntries: a listing of many rows (no limit, or more
// than a thousand), which reads the outputs' sizes in one pass, gives the
// entries a short one gives, output sizes included (a full-screen
// program's 0, another stream's not counted), and Oldest the same reversed.
func TestListManyRowsSameEntries(t *testing.T) {
	s := sampleStore(t)
	addOutputs(t, s,
		history.Output{Session: "a", Seq: 1, Text: []byte("On branch main\n"), Bytes: 15, CreatedAt: t0},
		history.Output{Session: "a", Seq: 2, Text: make([]byte, 20000), Bytes: 20000, Flags: history.OutputTruncated, CreatedAt: t0},
		history.Output{Session: "b", Seq: 1, Text: []byte("[full-screen program]\n"), Bytes: 5000, Flags: history.OutputFullScreen, CreatedAt: t0},
		history.Output{Session: "b", Seq: 2, Stream: "stderr", Text: []byte("only stderr\n"), Bytes: 12, CreatedAt: t0},
	)
	few, err := s.List(t.Context(), history.Query{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	many, err := s.List(t.Context(), history.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(few, many) {
		t.Errorf("List without a limit:\n%+v\nwith -n 1000:\n%+v", many, few)
	}
	sizes := map[string]int64{}
	for _, e := range many {
		sizes[e.Command] = e.OutputBytes
	}
	for cmd, want := range map[string]int64{"git status": 15, "make test": 20000, "GIT log --oneline": 0, "echo 100% done": 0} {
		if sizes[cmd] != want {
			t.Errorf("output size of %q = %d; want %d", cmd, sizes[cmd], want)
		}
	}
	oldest, err := s.List(t.Context(), history.Query{Oldest: true})
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(oldest)
	if !reflect.DeepEqual(oldest, many) {
		t.Errorf("List oldest first, reversed:\n%q\nnewest first:\n%q", commands(oldest), commands(many))
	}
	var walked []history.Entry
	stop := errors.New("stop")
	err = s.Walk(t.Context(), history.Query{}, func(e history.Entry) error {
		walked = append(walked, e)
		if len(walked) == 3 {
			return stop
		}
		return nil
	})
	if err != stop || !reflect.DeepEqual(walked, many[:3]) {
		t.Errorf("Walk stopped after 3: %v, %q", err, commands(walked))
	}
}

// TestListManyRowsEdges: the listing of many rows, which joins sessions and
// output sizes itself, agrees with the short one, row by row, where the
// join has edges: a command whose session has no row, another
// installation's session and a coding agent's, a session numbered far
// beyond its first commands, a pruned output, each filter that reads the
// session (author, host), and one that selects nothing.
func TestListManyRowsEdges(t *testing.T) {
	ctx := t.Context()
	s := newStore(t)
	other := "c" + history.HostSep + "0123456789abcdef"
	add(t, s, []history.Session{
		{ID: "a", Shell: "zsh", Host: "h1", User: "u", TTY: "/dev/pts/1", StartedAt: t0},
		{ID: other, Shell: "bash", Host: "laptop", User: "v", StartedAt: t0},
		{ID: "agent", Shell: "bash", Host: "h1", User: "u", Author: "claude-code", StartedAt: t0},
	},
		history.Entry{Session: "a", Seq: 1, Command: "ls", Pipestatus: []int{0, 1}, StartedAt: t0 + 1},
		history.Entry{Session: "a", Seq: 100000, Command: "far", ExitCode: 3, StartedAt: t0 + 2},
		history.Entry{Session: other, Seq: 1, Command: "remote", StartedAt: t0 + 3, Source: "import"},
		history.Entry{Session: "agent", Seq: 1, Command: "go test", ExitCode: 1, StartedAt: t0 + 4},
		history.Entry{Session: "gone", Seq: 1, Command: "no session row", StartedAt: t0 + 5},
		history.Entry{Session: "a", Seq: 2, Command: "pruned", StartedAt: t0 + 6},
	)
	addOutputs(t, s,
		history.Output{Session: "a", Seq: 1, Text: []byte("x\n"), Bytes: 2, CreatedAt: t0 + 10},
		history.Output{Session: "a", Seq: 100000, Text: []byte("far away\n"), Bytes: 9, CreatedAt: t0 + 10},
		history.Output{Session: other, Seq: 1, Text: []byte("remote output\n"), Bytes: 14, CreatedAt: t0 + 10},
		history.Output{Session: "agent", Seq: 1, Text: []byte("FAIL\n"), Bytes: 5, CreatedAt: t0 + 10},
		history.Output{Session: "gone", Seq: 1, Text: []byte("orphan\n"), Bytes: 7, CreatedAt: t0 + 10},
		history.Output{Session: "a", Seq: 2, Text: []byte("old\n"), Bytes: 4, CreatedAt: t0},
	)
	if _, err := s.PruneOutputs(ctx, t0+1, 0); err != nil {
		t.Fatal(err)
	}
	queries := map[string]history.Query{
		"all":          {},
		"oldest":       {Oldest: true},
		"failed":       {Failed: true},
		"agent":        {Authors: []string{"claude-code"}},
		"own":          {Authors: []string{""}},
		"host label":   {Host: "laptop"},
		"host id":      {Host: "0123456789abcdef"},
		"this host":    {ThisHost: true},
		"session":      {Session: "a"},
		"none":         {Session: "nope"},
		"text":         {Text: "far"},
		"since, limit": {Since: t0 + 2, Limit: 5000},
	}
	for name, q := range queries {
		few := q
		few.Limit = 1000
		want, err := s.List(ctx, few)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: many rows:\n%+v\nfew rows:\n%+v", name, got, want)
		}
		if name == "all" && len(got) != 6 {
			t.Errorf("all: %d entries, want 6", len(got))
		}
	}
	all, _ := s.List(ctx, history.Query{})
	sizes := map[string]int64{}
	for _, e := range all {
		sizes[e.Command] = e.OutputBytes
	}
	if sizes["far"] != 9 || sizes["remote"] != 14 || sizes["no session row"] != 7 {
		t.Errorf("output sizes %v: far 9, remote 14, no session row 7 wanted", sizes)
	}
}
