package cloudsync_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/cloudsync"
	"github.com/hookd/hookd/internal/cloudsync/s3"
	"github.com/hookd/hookd/internal/cloudsync/s3test"
	"github.com/hookd/hookd/internal/config"
	"github.com/hookd/hookd/internal/hostid"
)

// host is one installation: a directory with its history, key, lock and id.
type host struct {
	t    testing.TB
	dir  string
	s    *cloudsync.Syncer
	sess string
	seq  int64
}

func newHost(t testing.TB, srv *s3test.Server, bucket, label string) *host {
	t.Helper()
	dir := t.TempDir()
	id, err := hostid.Get(filepath.Join(dir, "host-id"))
	if err != nil {
		t.Fatal(err)
	}
	set := cloudsync.Settings{URL: "s3://" + bucket + "/hist", Bucket: bucket, Prefix: "hist/", Endpoint: srv.Endpoint,
		PathStyle: true, Outputs: cloudsync.OutputsSmall, OutputLimit: config.DefaultSyncOutputLimit}
	h := &host{t: t, dir: dir, sess: fmt.Sprintf("%d-%d-%s", time.Now().UnixMicro(), rand.IntN(1<<20), label)}
	h.s = &cloudsync.Syncer{Settings: set, HostID: id, Label: label,
		Paths: cloudsync.Paths{DB: filepath.Join(dir, "history.db"), Key: filepath.Join(dir, "sync-key"), Lock: filepath.Join(dir, "sync.lock"),
			HostID: filepath.Join(dir, "host-id")},
		Creds: s3.Credentials{AccessKey: s3test.AccessKey, SecretKey: s3test.SecretKey, Source: "test"},
		Open: func(ctx context.Context) (*history.Store, error) {
			return history.Open(ctx, filepath.Join(dir, "history.db"), 10*time.Second)
		}}
	return h
}

func (h *host) store() *history.Store {
	h.t.Helper()
	s, err := h.s.Open(h.t.Context())
	if err != nil {
		h.t.Fatal(err)
	}
	return s
}

// record adds commands to the history as ingestion would (with an output
// each when out is set).
func (h *host) record(out string, cmds ...string) {
	h.t.Helper()
	ctx := h.t.Context()
	s := h.store()
	defer s.Close()
	tx, err := s.Begin(ctx)
	if err != nil {
		h.t.Fatal(err)
	}
	defer tx.Rollback()
	if err := tx.AddSession(ctx, history.Session{ID: h.sess, Shell: "bash", Host: h.s.Label, User: "u"}); err != nil {
		h.t.Fatal(err)
	}
	for _, c := range cmds {
		h.seq++
		if _, err := tx.AddCommand(ctx, history.Entry{Session: h.sess, Seq: h.seq, Command: c, ExitCode: int(h.seq % 3),
			Pipestatus: []int{int(h.seq % 3)}, Cwd: "/home/u/src", StartedAt: time.Now().UnixMicro(), DurationUS: 1234}); err != nil {
			h.t.Fatal(err)
		}
		if out != "" {
			if err := tx.AddOutput(ctx, history.Output{Session: h.sess, Seq: h.seq, Text: []byte(out + " of " + c), Bytes: int64(len(out)), CreatedAt: 1}); err != nil {
				h.t.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		h.t.Fatal(err)
	}
}

func (h *host) pass() cloudsync.Moved {
	h.t.Helper()
	m, err := h.s.Pass(h.t.Context(), time.Minute)
	if err != nil {
		h.t.Fatalf("%s: pass: %v", h.s.Label, err)
	}
	return m
}

// commands returns every command text in the history, sorted.
func (h *host) commands() []string {
	h.t.Helper()
	s := h.store()
	defer s.Close()
	all, err := s.List(h.t.Context(), history.Query{})
	if err != nil {
		h.t.Fatal(err)
	}
	var out []string
	for _, e := range all {
		out = append(out, e.Command)
	}
	slices.Sort(out)
	return out
}

func (h *host) entries() []history.Entry {
	h.t.Helper()
	s := h.store()
	defer s.Close()
	all, err := s.List(h.t.Context(), history.Query{})
	if err != nil {
		h.t.Fatal(err)
	}
	return all
}

// cluster makes n hosts on one history: the first inits it, the others join.
func cluster(t testing.TB, srv *s3test.Server, n int) []*host {
	t.Helper()
	bucket := srv.Bucket("hookd-" + strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-")))
	var hs []*host
	var key cloudsync.Key
	for i := range n {
		h := newHost(t, srv, bucket, fmt.Sprintf("host%d", i))
		if i == 0 {
			k, err := h.s.Init(t.Context())
			if err != nil {
				t.Fatalf("Init: %v", err)
			}
			key = k
		} else if err := h.s.Join(t.Context(), key); err != nil {
			t.Fatalf("Join: %v", err)
		}
		hs = append(hs, h)
	}
	return hs
}

func TestPhrase(t *testing.T) {
	k, _ := cloudsync.NewKey()
	p := k.Phrase()
	if !strings.HasPrefix(p, "hookd1-") || strings.ContainsAny(p, " \n") {
		t.Fatalf("phrase %q", p)
	}
	for _, variant := range []string{p, strings.ToUpper(p), strings.ReplaceAll(p, "-", " "), " " + p + "\n",
		strings.ReplaceAll(strings.ReplaceAll(p, "o", "0"), "b", "8")} {
		got, err := cloudsync.ParsePhrase(variant)
		if err != nil || got != k {
			t.Errorf("ParsePhrase(%q) = %v; want the key back", variant, err)
		}
	}
	// One letter changed: the checksum catches it.
	bad := []byte(p)
	i := len(bad) - 3
	bad[i] = map[bool]byte{true: 'b', false: 'a'}[bad[i] == 'a']
	if _, err := cloudsync.ParsePhrase(string(bad)); !errors.Is(err, cloudsync.ErrPhrase) {
		t.Errorf("ParsePhrase(typo) = %v; want ErrPhrase", err)
	}
	if _, err := cloudsync.ParsePhrase("correct horse battery staple"); !errors.Is(err, cloudsync.ErrPhrase) {
		t.Errorf("ParsePhrase(words) = %v; want ErrPhrase", err)
	}
}

// TestConverge: three installations record and sync in random order;
// all end with the same history, every command once.
func TestConverge(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 3)
	rng := rand.New(rand.NewPCG(1, 2))
	var want []string
	for round := range 12 {
		for i, h := range hs {
			var cmds []string
			for j := range rng.IntN(4) {
				cmds = append(cmds, fmt.Sprintf("echo r%d-h%d-%d", round, i, j))
			}
			if len(cmds) > 0 {
				h.record("", cmds...)
				want = append(want, cmds...)
			}
		}
		for _, i := range rng.Perm(3)[:1+rng.IntN(3)] {
			hs[i].pass()
		}
	}
	for range 2 {
		for _, h := range hs {
			h.pass()
		}
	}
	slices.Sort(want)
	for _, h := range hs {
		if got := h.commands(); !slices.Equal(got, want) {
			t.Errorf("%s has %d commands; want the %d recorded everywhere, each once:\n got %q\nwant %q", h.s.Label, len(got), len(want), got, want)
		}
	}
	// Hosts: the label travels, and the installation id marks the
	// commands from elsewhere.
	for _, e := range hs[0].entries() {
		origin := strings.Split(e.Command, "-")[1]
		wantID := map[string]string{"h0": "", "h1": hs[1].s.HostID, "h2": hs[2].s.HostID}[origin]
		if e.HostID != wantID || e.Host != "host"+origin[1:] {
			t.Errorf("%q on host0: host %q, host id %q; want host%s, %q", e.Command, e.Host, e.HostID, origin[1:], wantID)
		}
	}
	// Another pass moves nothing.
	for _, h := range hs {
		if m := h.pass(); m.UpCommands+m.DownCommands != 0 {
			t.Errorf("%s: a pass with nothing new moved %s", h.s.Label, m)
		}
	}
}

// TestForgetEverywhere: a command forgotten on one installation goes on
// all, also from one that fetches the tombstone before the command, and
// what was learned from it goes too.
func TestForgetEverywhere(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 3)
	hs[0].record("", "echo keep", "echo secret-token-7731")
	hs[0].pass()
	hs[1].pass()
	s := hs[1].store()
	n, err := s.ForgetMatch(t.Context(), mustRe(t, "secret-token"))
	s.Close()
	if err != nil || n != 1 {
		t.Fatalf("ForgetMatch = %d, %v", n, err)
	}
	calls := make([]int, len(hs))
	for i, h := range hs {
		h.s.Forgotten = func() { calls[i]++ }
	}
	hs[1].pass()
	hs[2].pass() // gets host0's command and host1's tombstone
	hs[0].pass()
	for _, h := range hs {
		if got := h.commands(); !slices.Equal(got, []string{"echo keep"}) {
			t.Errorf("%s has %q; want only echo keep", h.s.Label, got)
		}
	}
	// A host that deleted it on a tombstone says so (the search's cache
	// goes then): host0, which had it. The one that forgot it had nothing
	// left to delete; host2 deletes it or, when the tombstone came first,
	// never adds it.
	if calls[0] != 1 || calls[1] != 0 || calls[2] > 1 {
		t.Errorf("Forgotten called %v times by host; want [1 0 0-1]", calls)
	}
	// A late joiner that reads the tombstone and the command in either
	// order never shows it.
	late := newHost(t, srv, hs[0].s.Settings.Bucket, "late")
	key, _ := cloudsync.LoadKey(hs[0].s.Paths.Key)
	if err := late.s.Join(t.Context(), key); err != nil {
		t.Fatal(err)
	}
	late.pass()
	if got := late.commands(); !slices.Equal(got, []string{"echo keep"}) {
		t.Errorf("late joiner has %q; want only echo keep", got)
	}
}

func mustRe(t *testing.T, s string) *regexp.Regexp { return regexp.MustCompile(s) }

// TestContextsEverywhere: what was noted of the context a command ran in
// (its work tree, branch, changes, the environment) reaches the other
// installations with it, so that they compare two of its runs as the
// machine that ran them does; a tombstone takes the context with the
// command everywhere.
func TestContextsEverywhere(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 2)
	ctx := t.Context()
	s := hs[0].store()
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx.AddSession(ctx, history.Session{ID: hs[0].sess, Shell: "zsh", Host: "host0"})
	if err := tx.AddEnv(ctx, hs[0].sess, 1, map[string]string{"PATH": "/bin", "VIRTUAL_ENV": "/home/u/app/.venv"}); err != nil {
		t.Fatal(err)
	}
	// Out of the session's order on purpose (the second command's row
	// first): each command keeps the environment it ran in either way.
	for _, seq := range []int64{2, 1} {
		branch := map[int64]string{1: "main", 2: "feature"}[seq]
		tx.AddCommand(ctx, history.Entry{Session: hs[0].sess, Seq: seq, Command: "./run.sh", ExitCode: int(seq - 1), Cwd: "/home/u/app",
			StartedAt: seq * 1e6})
		if err := tx.AddContext(ctx, hs[0].sess, seq, seq == 1, seq*1e6,
			history.Context{Key: 7, Repo: "/home/u/app", Branch: branch, Dirty: int(seq - 1)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	hs[0].pass()
	hs[1].pass()
	s = hs[1].store()
	defer s.Close()
	es, err := s.List(ctx, history.Query{})
	if err != nil || len(es) != 2 {
		t.Fatalf("host1 has %d commands, %v", len(es), err)
	}
	for _, e := range es {
		c, ok, err := s.Context(ctx, e)
		want := map[int64]string{1: "main", 2: "feature"}[e.Seq]
		if err != nil || !ok || c.Key != 7 || c.Repo != "/home/u/app" || c.Branch != want || c.Dirty != int(e.Seq-1) ||
			c.Env["VIRTUAL_ENV"] != "/home/u/app/.venv" {
			t.Errorf("host1: context of #%d = %+v, %v, %v; want branch %s and the virtualenv", e.Seq, c, ok, err, want)
		}
	}
	if got, _ := s.Successes(ctx, 7, 10e6, hs[0].s.HostID, 5); len(got) != 1 || got[0].Seq != 1 {
		t.Errorf("host1: host0's successes of the key = %+v; want #1", got)
	}
	// Forgotten on host0: gone with its context on host1.
	s0 := hs[0].store()
	if n, err := s0.ForgetMatch(ctx, mustRe(t, `run\.sh`)); n != 2 || err != nil {
		t.Fatalf("ForgetMatch = %d, %v", n, err)
	}
	s0.Close()
	hs[0].pass()
	hs[1].pass()
	if got, _ := s.Successes(ctx, 7, 10e6, hs[0].s.HostID, 5); len(got) != 0 {
		t.Errorf("host1: a forgotten success is still found: %+v", got)
	}
	if _, ok, _ := s.Context(ctx, es[0]); ok {
		t.Errorf("host1: the forgotten command's context is still there")
	}
}

func copyDB(t *testing.T, db string) string {
	t.Helper()
	dir := t.TempDir()
	for _, suf := range []string{"", "-wal", "-shm"} {
		b, err := os.ReadFile(db + suf)
		if err != nil {
			continue
		}
		os.WriteFile(filepath.Join(dir, "copy"+suf), b, 0o600)
	}
	return filepath.Join(dir, "copy")
}

func restoreDB(t *testing.T, from, db string) {
	t.Helper()
	for _, suf := range []string{"", "-wal", "-shm"} {
		os.Remove(db + suf)
		if b, err := os.ReadFile(from + suf); err == nil {
			os.WriteFile(db+suf, b, 0o600)
		}
	}
}

// TestLateJoinerAndOutputs: a machine joining late gets everything; small
// outputs travel, large ones not (sync.outputs: small).
func TestLateJoinerAndOutputs(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 2)
	hs[0].record("small output", "make build")
	hs[1].record(strings.Repeat("x", config.DefaultSyncOutputLimit+1), "make huge")
	hs[0].pass()
	hs[1].pass()
	late := newHost(t, srv, hs[0].s.Settings.Bucket, "late")
	key, _ := cloudsync.LoadKey(hs[0].s.Paths.Key)
	if err := late.s.Join(t.Context(), key); err != nil {
		t.Fatal(err)
	}
	late.record("", "ls")
	m := late.pass()
	if m.DownCommands != 2 || m.UpCommands != 1 {
		t.Errorf("late pass moved %s; want 2 down, 1 up", m)
	}
	if got := late.commands(); !slices.Equal(got, []string{"ls", "make build", "make huge"}) {
		t.Errorf("late joiner has %q", got)
	}
	s := late.store()
	defer s.Close()
	for _, e := range late.entries() {
		o, err := s.Output(t.Context(), e.Session, e.Seq, "")
		switch e.Command {
		case "make build":
			if err != nil || string(o.Text) != "small output of make build" {
				t.Errorf("output of make build = %q, %v", o.Text, err)
			}
		case "make huge":
			if err == nil {
				t.Errorf("a %d-byte output travelled with outputs: small", len(o.Text))
			}
		}
	}
}

// TestNoPlaintext: nothing of a command or its output is in the bucket's
// bytes, nor the host's name.
func TestNoPlaintext(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 2)
	token := "tok-" + fmt.Sprint(rand.Int64())
	hs[0].record("printed "+token, "echo "+token)
	hs[0].pass()
	hs[1].pass()
	if got := hs[1].commands(); !slices.Equal(got, []string{"echo " + token}) {
		t.Fatalf("host1 has %q", got)
	}
	files := srv.Files()
	if len(files) < 2 {
		t.Fatalf("the bucket holds %d files", len(files))
	}
	for p, b := range files {
		for _, needle := range []string{token, "host0", "/home/u/src", "echo"} {
			if bytes.Contains(b, []byte(needle)) {
				t.Errorf("%s holds %q in plaintext", p, needle)
			}
		}
	}
}

// TestWrongKey: joining with another history's key changes nothing; an
// installation whose key is not the history's says so and merges nothing.
func TestWrongKey(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 1)
	hs[0].record("", "echo one")
	hs[0].pass()
	other := newHost(t, srv, hs[0].s.Settings.Bucket, "other")
	wrong, _ := cloudsync.NewKey()
	err := other.s.Join(t.Context(), wrong)
	if err == nil || !strings.Contains(err.Error(), "not the key of the history") {
		t.Errorf("Join(wrong key) = %v", err)
	}
	if _, err := os.Stat(other.s.Paths.Key); !os.IsNotExist(err) {
		t.Errorf("a wrong key was kept: %v", err)
	}
	// A key file that is not the history's (say, restored from elsewhere).
	if err := cloudsync.SaveKey(other.s.Paths.Key, wrong); err != nil {
		t.Fatal(err)
	}
	other.record("", "echo mine")
	_, err = other.s.Pass(t.Context(), time.Minute)
	if err == nil || !strings.Contains(err.Error(), "different key") {
		t.Errorf("Pass with the wrong key = %v; want a message about the key", err)
	}
	if got := other.commands(); !slices.Equal(got, []string{"echo mine"}) {
		t.Errorf("after a wrong-key pass: %q", got)
	}
	for p := range srv.Files() {
		if strings.Contains(p, other.s.HostID) {
			t.Errorf("a pass with the wrong key uploaded %s", p)
		}
	}
	// The history's own machine is not disturbed.
	hs[0].record("", "echo two")
	hs[0].pass()
	st := cloudsync.Gather(t.Context(), &other.s.Settings, other.s.Paths, other.s.HostID, "other", other.store())
	if !strings.Contains(st.LastError, "different key") {
		t.Errorf("status's last error = %q", st.LastError)
	}
}

// TestInitTwice: a second init on the same place is refused and says to
// join.
func TestInitTwice(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 1)
	other := newHost(t, srv, hs[0].s.Settings.Bucket, "other")
	if _, err := other.s.Init(t.Context()); err == nil || !strings.Contains(err.Error(), "sync join") {
		t.Errorf("second Init = %v; want an error pointing to join", err)
	}
	if _, err := os.Stat(other.s.Paths.Key); !os.IsNotExist(err) {
		t.Errorf("a refused init kept a key: %v", err)
	}
}

// TestRestoredDatabase: a database put back to a copy from before a pass
// (as if the pass had stopped between storing segments and noting them)
// uploads nothing twice and loses nothing.
func TestRestoredDatabase(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 2)
	hs[0].record("", "echo a", "echo b")
	db := hs[0].s.Paths.DB
	snapshot := copyDB(t, db)
	if m := hs[0].pass(); m.UpSegments != 1 {
		t.Fatalf("first pass: %s", m)
	}
	restoreDB(t, snapshot, db)
	hs[0].record("", "echo c")
	m := hs[0].pass()
	if m.UpCommands != 1 {
		t.Errorf("pass after the restore uploaded %d commands; want only the new one", m.UpCommands)
	}
	hs[1].pass()
	if got := hs[1].commands(); !slices.Equal(got, []string{"echo a", "echo b", "echo c"}) {
		t.Errorf("host1 has %q", got)
	}
}

// TestStoppedBeforeNoting: a pass that stopped after storing a segment
// but before noting it, or writing its head (the database as it was
// before, the head gone), finds the number taken on the next upload,
// reads the segment back and goes on: nothing twice, nothing lost.
func TestStoppedBeforeNoting(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 2)
	hs[0].record("", "echo a", "echo b")
	snapshot := copyDB(t, hs[0].s.Paths.DB)
	hs[0].pass()
	restoreDB(t, snapshot, hs[0].s.Paths.DB)
	c, err := s3.New(s3.Config{Endpoint: srv.Endpoint, Bucket: hs[0].s.Settings.Bucket, PathStyle: true, Creds: hs[0].s.Creds})
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.List(t.Context(), "hist/heads/", "", "")
	if err != nil || len(l.Objects) != 1 {
		t.Fatalf("heads: %+v, %v", l, err)
	}
	if err := c.Delete(t.Context(), l.Objects[0].Key); err != nil {
		t.Fatal(err)
	}
	hs[0].record("", "echo c")
	if m := hs[0].pass(); m.UpCommands != 1 || m.UpSegments != 1 {
		t.Errorf("the pass after: %s; want only the new command, in segment 2", m)
	}
	hs[1].pass()
	if got := hs[1].commands(); !slices.Equal(got, []string{"echo a", "echo b", "echo c"}) {
		t.Errorf("host1 has %q", got)
	}
	l, _ = c.List(t.Context(), "hist/h/"+hs[0].s.HostID+"/", "", "")
	if len(l.Objects) != 2 {
		t.Errorf("host0's series: %+v; want segments 1 and 2", l.Objects)
	}
}

// TestCompaction: a host folds its old segments; a new machine and one
// that had merged part of them both end with everything, and a command
// forgotten before the fold leaves the bucket.
func TestCompaction(t *testing.T) {
	defer cloudsync.SetCompaction(6, 2, 1<<20)()
	srv := s3test.Start(t)
	hs := cluster(t, srv, 2)
	var want []string
	for i := range 5 {
		c := fmt.Sprintf("echo early-%d", i)
		hs[0].record("", c)
		want = append(want, c)
		hs[0].pass()
	}
	hs[1].pass() // merged 1..5
	hs[0].record("", "echo gone-token-5521")
	hs[0].pass()
	s := hs[0].store()
	s.ForgetMatch(t.Context(), mustRe(t, "gone-token"))
	s.Close()
	compacted := 0
	for i := range 6 {
		c := fmt.Sprintf("echo late-%d", i)
		hs[0].record("", c)
		want = append(want, c)
		compacted += hs[0].pass().Compacted
	}
	if compacted == 0 {
		t.Errorf("no compaction after 12 segments")
	}
	segs := 0
	for p, b := range srv.Files() {
		if strings.Contains(p, "/h/"+hs[0].s.HostID+"/") && !strings.Contains(p, "meta") {
			segs++
			if bytes.Contains(b, []byte("gone-token")) {
				t.Errorf("%s holds the forgotten command", p)
			}
		}
	}
	if segs >= 13 {
		t.Errorf("%d segment objects after compaction; want fewer than the 13 written", segs)
	}
	slices.Sort(want)
	hs[1].pass()
	late := newHost(t, srv, hs[0].s.Settings.Bucket, "late")
	key, _ := cloudsync.LoadKey(hs[0].s.Paths.Key)
	if err := late.s.Join(t.Context(), key); err != nil {
		t.Fatal(err)
	}
	late.pass()
	for _, h := range []*host{hs[0], hs[1], late} {
		if got := h.commands(); !slices.Equal(got, want) {
			t.Errorf("%s has %q; want %q", h.s.Label, got, want)
		}
	}
}

// counter counts the requests of each method (and LIST apart).
type counter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counter) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	k := r.Method
	if r.Method == http.MethodGet && r.URL.Query().Get("list-type") != "" {
		k = "LIST"
	}
	c.n[k]++
	c.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

func (c *counter) take() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.n
	c.n = map[string]int{}
	return n
}

// TestRequestsPerPass: a pass lists heads/ once; it lists and fetches
// only the series that grew; a pass with nothing new anywhere is one
// request, however many installations there are.
func TestRequestsPerPass(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 4)
	for i, h := range hs {
		h.record("", fmt.Sprintf("echo from-%d", i))
		h.pass()
	}
	hs[0].pass()
	c := &counter{n: map[string]int{}}
	hs[0].s.HTTP = &http.Client{Transport: c}
	hs[0].pass()
	if n := c.take(); !maps.Equal(n, map[string]int{"LIST": 1}) {
		t.Errorf("a pass with nothing new made %v; want one LIST", n)
	}
	hs[2].record("", "echo more")
	hs[2].pass()
	hs[0].pass()
	if n := c.take(); !maps.Equal(n, map[string]int{"LIST": 2, "GET": 1}) {
		t.Errorf("a pass with one new segment elsewhere made %v; want 2 LIST (heads, that series) and 1 GET", n)
	}
	hs[0].record("", "echo up")
	hs[0].pass()
	if n := c.take(); !maps.Equal(n, map[string]int{"LIST": 1, "PUT": 2, "DELETE": 1}) {
		t.Errorf("a pass with one command to upload made %v; want the heads LIST, the segment and head PUTs, the old head's DELETE", n)
	}
}

// TestLargeOutputs: with sync.outputs: all, large outputs travel whole,
// spread over segments of bounded size.
func TestLargeOutputs(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 2)
	for _, h := range hs {
		h.s.Settings.Outputs = cloudsync.OutputsAll
	}
	big := strings.Repeat("0123456789abcdef", 9<<16) // 9 MiB
	hs[0].record(big, "make a", "make b", "make c")
	if m := hs[0].pass(); m.UpSegments < 2 || m.UpOutputs != 3 {
		t.Errorf("up: %s; want 3 outputs in at least 2 segments", m)
	}
	if m := hs[1].pass(); m.DownOutputs != 3 {
		t.Errorf("down: %s", m)
	}
	s := hs[1].store()
	defer s.Close()
	for _, e := range hs[1].entries() {
		o, err := s.Output(t.Context(), e.Session, e.Seq, "")
		if err != nil || string(o.Text) != big+" of "+e.Command {
			t.Errorf("output of %s: %d bytes, %v", e.Command, len(o.Text), err)
		}
	}
}

// TestColoursTravel: an output's colours (stream capture.ColourStream)
// travel with it, the same bytes on the other host; an output without
// colours stays plain there.
func TestColoursTravel(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 2)
	hs[0].record("plain", "make build")
	ctx := t.Context()
	colours := []byte("0 1;34\n4 \n")
	s := hs[0].store()
	tx, err := s.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.AddOutput(ctx, history.Output{Session: hs[0].sess, Seq: hs[0].seq, Stream: capture.ColourStream, Text: colours, Bytes: int64(len(colours)), CreatedAt: 1}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	hs[0].record("no colours", "make test")
	hs[0].pass()
	hs[1].pass()
	s = hs[1].store()
	defer s.Close()
	for _, e := range hs[1].entries() {
		c, err := s.Output(ctx, e.Session, e.Seq, capture.ColourStream)
		switch e.Command {
		case "make build":
			if err != nil || string(c.Text) != string(colours) {
				t.Errorf("colours of make build on the other host = %q, %v; want %q", c.Text, err, colours)
			}
		case "make test":
			if err == nil {
				t.Errorf("colours appeared for a plain output: %q", c.Text)
			}
		}
	}
}
