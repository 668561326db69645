package ingest_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/ingest"
	"github.com/hookd/hookd/internal/recording/spool"
)

func TestIngestRecords(t *testing.T) {
	e := newEnv(t)
	zsh := sessionID(livePID, 1)
	bash := sessionID(livePID, 2)

	var b []byte
	b = spool.AppendSession(b, spool.Session{Shell: "zsh", Version: "5.9", PID: livePID, Host: hostname(), User: "ann", UID: 1000, Start: base})
	b = spool.AppendCommand(b, spool.Command{Seq: 1, Start: base + 10, End: base + 2_010, Exit: 0, Cwd: "/home/ann", Text: "ls -la"})
	b = spool.AppendCommand(b, spool.Command{Seq: 2, Start: base + 20, End: base + 10, Exit: 141, Pipestatus: []int{0, 141},
		Cwd: "/tmp/dir with spaces", Text: "yes | head -1"}) // a clock step backwards
	b = spool.AppendCommand(b, spool.Command{Seq: 3, Start: base + 30, End: base + 40, Exit: 1, Cwd: "/", Text: "echo \xff\xfe 日本 \x1b[31m"})
	e.write(zsh, b)

	b = spool.AppendSession(nil, spool.Session{Shell: "bash", Version: "5.2.21", PID: livePID, Host: hostname(), User: "ann", UID: 1000, Start: base + 1})
	b = spool.AppendHistoryCommand(b, spool.Command{Seq: 1, Start: base + 50, End: base + 60, Cwd: "/srv", Text: "for i in 1 2\ndo echo $i\ndone"}, 7)
	b = spool.AppendHistoryCommand(b, spool.Command{Seq: 2, Start: base + 70, End: base + 80, Exit: 127, Cwd: "/srv", Text: "echo  two  inner  spaces"}, 123456)
	e.write(bash, b)

	st := e.ingest()
	if st.Spools != 2 || st.Added != 5 || st.Ignored != 0 || st.Bad != 0 || st.Removed != 0 {
		t.Errorf("Ingest stats = %+v; want 2 spools, 5 added", st)
	}
	want := []history.Entry{
		{Session: zsh, Seq: 1, Command: "ls -la", Cwd: "/home/ann", StartedAt: base + 10, DurationUS: 2000},
		{Session: zsh, Seq: 2, Command: "yes | head -1", ExitCode: 141, Pipestatus: []int{0, 141}, Cwd: "/tmp/dir with spaces", StartedAt: base + 20},
		{Session: zsh, Seq: 3, Command: "echo \xff\xfe 日本 \x1b[31m", ExitCode: 1, Cwd: "/", StartedAt: base + 30, DurationUS: 10},
		{Session: bash, Seq: 1, Command: "for i in 1 2\ndo echo $i\ndone", Cwd: "/srv", StartedAt: base + 50, DurationUS: 10},
		{Session: bash, Seq: 2, Command: "echo  two  inner  spaces", ExitCode: 127, Cwd: "/srv", StartedAt: base + 70, DurationUS: 10},
	}
	if bash < zsh {
		want = append(want[3:], want[:3]...)
	}
	got := e.entries()
	if len(got) != len(want) {
		t.Fatalf("history has %d entries; want %d: %+v", len(got), len(want), got)
	}
	for i := range got {
		g := got[i]
		if g.ID == 0 || g.Source != "hook" || g.User != "ann" || g.Host != hostname() {
			t.Errorf("entry %d = %+v; want an id, source hook, user ann, host %s", i, g, hostname())
		}
		wantShell := "zsh"
		if g.Session == bash {
			wantShell = "bash"
		}
		if g.Shell != wantShell {
			t.Errorf("entry %d shell = %q; want %q", i, g.Shell, wantShell)
		}
		g.ID, g.Source, g.User, g.Host, g.Shell, g.TTY = 0, "", "", "", "", ""
		if !reflect.DeepEqual(g, want[i]) {
			t.Errorf("entry %d =\n  %+v\nwant\n  %+v", i, g, want[i])
		}
	}

	// Nothing new: nothing added, however often it runs.
	for range 3 {
		if st := e.ingest(); st.Added != 0 || st.Bad != 0 || st.Ignored != 0 {
			t.Errorf("Ingest with nothing new = %+v; want nothing added", st)
		}
	}
	if n := len(e.entries()); n != 5 {
		t.Errorf("after repeated passes, history has %d entries; want 5", n)
	}
}

func TestIngestAppendsExactlyOnce(t *testing.T) {
	e := newEnv(t)
	s1, s2 := sessionID(livePID, 1), sessionID(livePID, 2)
	e.write(s1, header(livePID))
	next := map[string]int{s1: 1, s2: 1}
	total := 0
	for round := 1; round <= 30; round++ {
		want := 0
		for _, s := range []string{s1, s2} {
			n := round % 4 // sometimes nothing
			e.write(s, records(next[s], n, "echo round "+fmt.Sprint(round)+" cmd %d"))
			next[s] += n
			want += n
		}
		st := e.ingest()
		total += want
		if st.Added != want || st.Bad != 0 {
			t.Fatalf("round %d: Ingest = %+v; want %d added", round, st, want)
		}
	}
	for _, s := range []string{s1, s2} {
		got := e.texts(s)
		if len(got) != next[s]-1 {
			t.Errorf("session %s has %d commands; want %d", s, len(got), next[s]-1)
		}
	}
	offsets, err := e.store.SpoolOffsets(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{s1, s2} {
		fi, err := os.Stat(e.path(s))
		if err != nil {
			t.Fatal(err)
		}
		if got := offsets[s+spool.Suffix].Offset; got != fi.Size() {
			t.Errorf("offset of %s = %d; want the file size %d", s, got, fi.Size())
		}
	}
}

// TestIngestPartialRecord cuts a record at every byte: the part before the
// cut must wait, and be ingested exactly once when the rest comes.
func TestIngestPartialRecord(t *testing.T) {
	e := newEnv(t)
	first := records(1, 1, "echo first %d")
	second := spool.AppendCommand(nil, spool.Command{Seq: 2, Start: base + 5, End: base + 6, Exit: 3, Pipestatus: []int{1, 3},
		Cwd: "/home/u", Text: "echo second"})
	for cut := range len(second) {
		e.write(sessionID(livePID, cut), append(append([]byte{}, first...), second[:cut]...))
	}
	st := e.ingest()
	if st.Added != len(second) || st.Bad != 0 {
		t.Fatalf("first pass = %+v; want %d added (the complete records), none bad", st, len(second))
	}
	if st := e.ingest(); st.Added != 0 || st.Bad != 0 {
		t.Fatalf("second pass, nothing new = %+v; want nothing", st)
	}
	for cut := range len(second) {
		e.write(sessionID(livePID, cut), second[cut:])
	}
	st = e.ingest()
	if st.Added != len(second) || st.Bad != 0 {
		t.Fatalf("pass after completing the records = %+v; want %d added, none bad", st, len(second))
	}
	for cut := range len(second) {
		if got, want := e.texts(sessionID(livePID, cut)), []string{"echo first 1", "echo second"}; !reflect.DeepEqual(got, want) {
			t.Errorf("cut at %d: history %q; want %q", cut, got, want)
		}
	}
	if st, err := e.store.Stats(t.Context()); err != nil || st.Bad != 0 {
		t.Errorf("Stats.Bad = %d, %v; want 0", st.Bad, err)
	}
}

func TestIngestSkipsGarbage(t *testing.T) {
	good := func(seq int, text string) []byte {
		return spool.AppendCommand(nil, command(int64(seq), text))
	}
	cut := func(b []byte, n int) []byte { return b[:len(b)-n] }
	join := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	// Malformed records, made from good ones so as not to depend on the
	// layout of the fields.
	badNum := bytes.Replace(good(1, "ls"), []byte("\nC1\x001"), []byte("\nC1\x00x"), 1)
	badHeader := bytes.Replace(header(4242), []byte("\x004242\x00"), []byte("\x00pid\x00"), 1)
	tests := []struct {
		name    string
		data    []byte
		want    []string
		wantBad int
	}{
		{"garbage between records", join(good(1, "one"), []byte("junk\x00more junk\x00"), good(2, "two")), []string{"one", "two"}, 1},
		{"garbage first", join([]byte("\x00\x00\x00zz\x00"), good(1, "one")), []string{"one"}, 1},
		{"record cut short by a crash", join(good(1, "one"), cut(good(2, "lost"), 12), good(3, "three")), []string{"one", "three"}, 1},
		// A write cut inside a field glues the next record's tag onto it.
		// (Cut inside the last field, the text, the glued record looks
		// complete: the spool decoder cannot tell, so that is not tested.)
		{"write cut inside a field", join(good(1, "one"), cut(good(2, "lost"), len("/home/u\x00r\x00lost\x00")-3), good(3, "three")), []string{"one", "three"}, 1},
		{"bad number", join(badNum, good(2, "two")), []string{"two"}, 1},
		{"unknown format", join(bytes.Replace(good(1, "x"), []byte("\x00r\x00"), []byte("\x00q\x00"), 1), good(2, "two")), []string{"two"}, 1},
		{"bad history line", join(bytes.Replace(good(1, "x"), []byte("\x00r\x00"), []byte("\x00h\x00"), 1), good(2, "two")), []string{"two"}, 1},
		{"bad header", join(badHeader, good(1, "one")), []string{"one"}, 1},
		{"two bad stretches", join(badNum, good(2, "two"), []byte("?\x00"), good(3, "three")), []string{"two", "three"}, 2},
		{"NUL-free binary then record", join([]byte("\xff\xfe\x01\x02binary\x00"), good(1, "one")), []string{"one"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			s := sessionID(livePID, 1)
			e.write(s, tt.data)
			st := e.ingest()
			if got := e.texts(s); !reflect.DeepEqual(got, tt.want) || st.Bad != tt.wantBad || st.Added != len(tt.want) {
				t.Errorf("Ingest(%q) kept %q, stats %+v; want %q, %d bad", tt.data, got, st, tt.want, tt.wantBad)
			}
			if len(st.Problems) != tt.wantBad {
				t.Errorf("Problems = %q; want %d", st.Problems, tt.wantBad)
			}
			// Counted once, in the database too, and not again.
			if st := e.ingest(); st.Bad != 0 || st.Added != 0 {
				t.Errorf("second pass = %+v; want nothing", st)
			}
			if hs, err := e.store.Stats(t.Context()); err != nil || hs.Bad != int64(tt.wantBad) {
				t.Errorf("history Stats.Bad = %d, %v; want %d", hs.Bad, err, tt.wantBad)
			}
			// What comes next is still read.
			e.write(s, good(10, "after"))
			if st := e.ingest(); st.Added != 1 || st.Bad != 0 {
				t.Errorf("pass after a new record = %+v; want 1 added", st)
			}
		})
	}
}

// TestIngestTrailingBytes: bytes after the last NUL may be a record being
// written, so they wait while the shell lives; once it has ended they are
// garbage.
func TestIngestTrailingBytes(t *testing.T) {
	e := newEnv(t)
	live, dead := sessionID(livePID, 1), sessionID(deadPID(t), 2)
	for _, s := range []string{live, dead} {
		e.write(s, append(records(1, 2, "cmd %d"), "half a rec"...))
	}
	st := e.ingest()
	if st.Added != 4 || st.Bad != 1 || st.Removed != 1 {
		t.Errorf("Ingest = %+v; want 4 added, 1 bad (the dead shell's tail), 1 removed", st)
	}
	if _, err := os.Stat(e.path(live)); err != nil {
		t.Errorf("live spool: %v", err)
	}
	if _, err := os.Stat(e.path(dead)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("dead spool still there (%v)", err)
	}
}

func TestIngestReplacedFile(t *testing.T) {
	tests := []struct {
		name    string
		replace func(t *testing.T, path string, b []byte)
	}{
		{"renamed over", func(t *testing.T, path string, b []byte) {
			// The new file exists before the old one goes: its inode differs.
			tmp := path + ".tmp"
			if err := os.WriteFile(tmp, b, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
		}},
		{"removed and recreated", func(t *testing.T, path string, b []byte) {
			// The file system may give the new file the old inode number.
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			appendFile(t, path, b)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			s := sessionID(livePID, 1)
			e.write(s, records(1, 40, "old command number %d"))
			if st := e.ingest(); st.Added != 40 {
				t.Fatalf("first pass = %+v; want 40 added", st)
			}
			tt.replace(t, e.path(s), records(41, 2, "new %d"))
			if st := e.ingest(); st.Added != 2 || st.Bad != 0 {
				t.Errorf("pass after replacing the file = %+v; want 2 added, none bad", st)
			}
			if got := e.texts(s); len(got) != 42 || got[40] != "new 41" || got[41] != "new 42" {
				t.Errorf("history = %d commands, ending %q; want 42 ending new 41, new 42", len(got), got[max(len(got)-2, 0):])
			}
		})
	}
}

func TestIngestRemovesEndedSessions(t *testing.T) {
	e := newEnv(t)
	dead := deadPID(t)
	done := sessionID(dead, 1)           // ended: removed once read
	live := sessionID(livePID, 2)        // running: kept
	other := sessionID(dead, 3)          // ended, but on another machine: kept
	odd := "not-a-session-id-at-all"     // no pid in the name: kept
	empty := sessionID(deadPID(t), 4)    // ended without a command: removed
	noHeader := sessionID(deadPID(t), 5) // ended, commands only: removed
	e.write(done, append(header(dead), records(1, 3, "done %d")...))
	e.write(live, append(header(livePID), records(1, 3, "live %d")...))
	e.write(other, append(spool.AppendSession(nil, spool.Session{Shell: "zsh", PID: dead, Host: "elsewhere.example", Start: base}), records(1, 3, "other %d")...))
	e.write(odd, records(1, 3, "odd %d"))
	e.write(empty, nil)
	e.write(noHeader, records(1, 1, "no header %d"))

	st := e.ingest()
	if st.Spools != 6 || st.Added != 13 || st.Removed != 3 || st.Bad != 0 {
		t.Errorf("Ingest = %+v; want 6 spools, 13 added, 3 removed", st)
	}
	for s, wantKept := range map[string]bool{done: false, live: true, other: true, odd: true, empty: false, noHeader: false} {
		_, err := os.Stat(e.path(s))
		if kept := err == nil; kept != wantKept {
			t.Errorf("spool %s: kept = %v (%v); want %v", s, kept, err, wantKept)
		}
	}
	offsets, err := e.store.SpoolOffsets(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{done, empty, noHeader} {
		if o, ok := offsets[s+spool.Suffix]; ok {
			t.Errorf("offset of removed spool %s still recorded: %+v", s, o)
		}
	}
	if got := e.texts(done); !reflect.DeepEqual(got, []string{"done 1", "done 2", "done 3"}) {
		t.Errorf("commands of the ended session = %q", got)
	}
	if st := e.ingest(); st.Added != 0 || st.Removed != 0 || st.Bad != 0 {
		t.Errorf("second pass = %+v; want nothing", st)
	}
}

func TestIngestIgnoresOtherFiles(t *testing.T) {
	e := newEnv(t)
	if err := os.WriteFile(filepath.Join(e.dir, "notes.txt"), records(1, 1, "x %d"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.dir, "x.spool.tmp"), records(1, 1, "x %d"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(e.dir, "dir.spool"), 0o700); err != nil {
		t.Fatal(err)
	}
	if st := e.ingest(); st.Spools != 0 || st.Added != 0 {
		t.Errorf("Ingest = %+v; want no spools", st)
	}
	st, err := ingest.Spools(t.Context(), e.store, filepath.Join(e.dir, "missing"), e.rules, time.Now())
	if err != nil || st.Spools != 0 {
		t.Errorf("Ingest of a missing directory = %+v, %v; want nothing, no error", st, err)
	}
}

func TestIngestMakesSpoolPrivate(t *testing.T) {
	e := newEnv(t)
	s := sessionID(livePID, 1)
	if err := os.WriteFile(e.path(s), records(1, 1, "x %d"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(e.path(s), 0o644); err != nil { // whatever the umask
		t.Fatal(err)
	}
	e.ingest()
	fi, err := os.Stat(e.path(s))
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o600 {
		t.Errorf("spool mode after Ingest = %v; want 0600", got)
	}
}

// TestIngestLargeSpool reads a spool larger than one transaction's chunk.
func TestIngestLargeSpool(t *testing.T) {
	e := newEnv(t)
	s := sessionID(livePID, 1)
	const n = 60_000
	pad := strings.Repeat("x", 80)
	e.write(s, records(1, n, "echo %07d "+pad))
	if fi, _ := os.Stat(e.path(s)); fi.Size() <= 4<<20 {
		t.Fatalf("spool is only %d bytes: the test needs more than a chunk", fi.Size())
	}
	st := e.ingest()
	if st.Added != n || st.Bad != 0 {
		t.Fatalf("Ingest = Added %d, Bad %d; want %d, 0", st.Added, st.Bad, n)
	}
	got := e.texts(s)
	for i, text := range got {
		if want := fmt.Sprintf("echo %07d %s", i+1, pad); text != want {
			t.Fatalf("command %d = %q; want %q", i+1, text, want)
		}
	}
}

// TestIngestHugeRecord: a record longer than a chunk cannot be read whole;
// it is skipped, and what follows is kept.
func TestIngestHugeRecord(t *testing.T) {
	e := newEnv(t)
	s := sessionID(livePID, 1)
	e.write(s, records(1, 1, "before %d"))
	e.write(s, spool.AppendCommand(nil, command(2, "echo "+strings.Repeat("y", 5<<20))))
	e.write(s, records(3, 1, "after %d"))
	st := e.ingest()
	if got := e.texts(s); !reflect.DeepEqual(got, []string{"before 1", "after 3"}) || st.Bad == 0 {
		t.Errorf("Ingest kept %q, stats Added %d Bad %d; want before and after kept, the huge record bad", got, st.Added, st.Bad)
	}
}

func TestIngestCanceled(t *testing.T) {
	e := newEnv(t)
	for k := range 3 {
		e.write(sessionID(livePID, k), records(1, 10, "echo %d"))
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	st, err := ingest.Spools(ctx, e.store, e.dir, e.rules, time.Now())
	if !errors.Is(err, context.Canceled) || st.Added != 0 {
		t.Errorf("Ingest with a canceled context = %+v, %v; want context.Canceled, nothing added", st, err)
	}
	if st := e.ingest(); st.Added != 30 {
		t.Errorf("next pass = %+v; want all 30 added", st)
	}
}
