package cloudsync_test

import (
	"bytes"
	"compress/flate"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/cloudsync"
	"github.com/hookd/hookd/internal/cloudsync/s3"
	"github.com/hookd/hookd/internal/cloudsync/s3test"
	"github.com/hookd/hookd/internal/hostid"
)

// The tests of what a pass trusts (issue 30 items 4-10): a rogue machine
// is a host of the cluster whose key is used to write crafted segments
// with the S3 client, as anyone holding the key could; a bucket writer
// (no key) puts objects of its own, or files straight into the store's
// directory.

// bucketClient is an S3 client on the host's bucket, as a bucket writer has.
func bucketClient(t testing.TB, srv *s3test.Server, h *host) *s3.Client {
	t.Helper()
	c, err := s3.New(s3.Config{Endpoint: srv.Endpoint, Bucket: h.s.Settings.Bucket, PathStyle: true, Creds: h.s.Creds})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// put stores body as the object name (relative to the sync prefix).
func put(t testing.TB, c *s3.Client, name string, body []byte) {
	t.Helper()
	if err := c.Put(t.Context(), "hist/"+name, body, false); err != nil {
		t.Fatalf("put %s: %v", name, err)
	}
}

// plant puts body as installation id's segment n, and its head, as anyone
// who can write to the bucket can, and returns the segment's name.
func plant(t testing.TB, srv *s3test.Server, h *host, id string, n int64, body []byte) string {
	t.Helper()
	c := bucketClient(t, srv, h)
	name := cloudsync.SegmentName(id, n, n)
	put(t, c, name, body)
	put(t, c, cloudsync.HeadName(id, n), nil)
	return name
}

// sealAs seals plain (already deflated when deflated) as installation
// id's segment start-end with h's key, as any machine holding it can.
func sealAs(t testing.TB, h *host, id string, start, end int64, plain []byte, deflated bool) []byte {
	t.Helper()
	key, err := cloudsync.LoadKey(h.s.Paths.Key)
	if err != nil {
		t.Fatal(err)
	}
	seal := cloudsync.SealForTest
	if deflated {
		seal = cloudsync.SealDeflatedForTest
	}
	sealed, err := seal(key, cloudsync.SegmentName(id, start, end), plain)
	if err != nil {
		t.Fatal(err)
	}
	return sealed
}

// forge writes, with h's key, segment n of installation id's series with
// the plain content seg (the wire format, as JSON), and its head.
func forge(t testing.TB, srv *s3test.Server, h *host, id string, n int64, seg map[string]any) string {
	t.Helper()
	seg["v"], seg["host"], seg["start"], seg["end"] = 1, id, n, n
	if _, ok := seg["label"]; !ok {
		seg["label"] = "rogue"
	}
	plain, err := json.Marshal(seg)
	if err != nil {
		t.Fatal(err)
	}
	return plant(t, srv, h, id, n, sealAs(t, h, id, n, n, plain, false))
}

// passWarnings runs a pass that must succeed and returns its warnings.
func (h *host) passWarnings() []string {
	h.t.Helper()
	return h.pass().Warnings
}

func mentions(ws []string, subs ...string) bool {
	for _, w := range ws {
		all := true
		for _, s := range subs {
			all = all && strings.Contains(w, s)
		}
		if all {
			return true
		}
	}
	return false
}

// noKeyBlame: nothing says the key is wrong or to join again.
func noKeyBlame(t *testing.T, what string, ws []string) {
	t.Helper()
	for _, w := range ws {
		if strings.Contains(w, "installation's key") || strings.Contains(w, "different key") || strings.Contains(w, "join") {
			t.Errorf("%s: %q blames this installation's key", what, w)
		}
	}
}

// TestForgedSessionsRefused: a machine holding the key writes, in its own
// series, commands of another machine's session (B's, with B's next
// sequence number), of a session of the reader's own, and of a session
// with no installation at all. The reader merges none of them and says
// so; B's real next command arrives and is shown as B's; nothing appears
// as recorded here (issue 30 item 4).
func TestForgedSessionsRefused(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 3)
	a, b, c := hs[0], hs[1], hs[2]
	b.record("", "echo b1", "echo b2")
	b.pass()
	a.pass()
	bSess := b.sess + "@" + b.s.HostID
	now := time.Now().UnixMicro()
	forge(t, srv, c, c.s.HostID, 1, map[string]any{
		"s": []map[string]any{{"id": bSess, "host": "host1"}, {"id": "mine-1"}, {"id": "x@" + a.s.HostID}, {"id": "own@" + c.s.HostID}},
		"c": []map[string]any{
			{"s": 0, "q": 3, "c": "echo forged-as-b", "t": now},
			{"s": 1, "q": 1, "c": "echo forged-without-host", "t": 1},
			{"s": 2, "q": 1, "c": "echo forged-as-a", "t": 1},
			{"s": 3, "q": 1, "c": "echo c-own", "t": 1},
		},
		"o": []map[string]any{{"s": bSess, "q": 2, "x": []byte("forged output of b2"), "b": 19, "t": 1}},
	})
	ws := a.passWarnings()
	if !mentions(ws, "other installations' sessions", c.s.HostID) {
		t.Errorf("warnings %q; want the refused rows of %s's segment reported", ws, c.s.HostID)
	}
	b.record("", "echo b3")
	b.pass()
	a.pass()
	if got := a.commands(); !slices.Equal(got, []string{"echo b1", "echo b2", "echo b3", "echo c-own"}) {
		t.Errorf("host0 has %q; want B's three real commands and C's own, nothing forged", got)
	}
	for _, e := range a.entries() {
		want := map[string]string{"echo b3": b.s.HostID, "echo c-own": c.s.HostID}[e.Command]
		if want != "" && e.HostID != want {
			t.Errorf("%q is shown as installation %q's; want %q", e.Command, e.HostID, want)
		}
		if e.HostID == "" {
			t.Errorf("%q (session %s) is shown as recorded here", e.Command, e.Session)
		}
	}
	s := a.store()
	defer s.Close()
	if o, err := s.Output(t.Context(), bSess, 2, ""); err == nil {
		t.Errorf("B's command #2 has the forged output %q", o.Text)
	}
}

// TestForgedEnvNames: an environment merged from another machine keeps
// only the variables whose names a shell can export: a name such as
// `A;touch${IFS}pwned;B` never reaches the history (issue 30 item 5).
func TestForgedEnvNames(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 2)
	a, c := hs[0], hs[1]
	sess := "s1@" + c.s.HostID
	env, _ := json.Marshal(map[string]string{"A;touch${IFS}pwned;B": "1", "PATH": "/bin", "1X": "y"})
	forge(t, srv, c, c.s.HostID, 1, map[string]any{
		"s": []map[string]any{{"id": sess}},
		"c": []map[string]any{{"s": 0, "q": 1, "c": "./deploy.sh", "t": 1, "k": map[string]any{"k": 7, "e": 1}}},
		"e": []string{string(env)},
	})
	a.pass()
	s := a.store()
	defer s.Close()
	es := a.entries()
	if len(es) != 1 {
		t.Fatalf("host0 has %d commands", len(es))
	}
	ctx, ok, err := s.Context(t.Context(), es[0])
	if err != nil || !ok {
		t.Fatalf("Context = %v, %v", ok, err)
	}
	if len(ctx.Env) != 1 || ctx.Env["PATH"] != "/bin" {
		t.Errorf("merged environment = %q; want PATH only", ctx.Env)
	}
}

// TestObjectsNotOurs: objects in the bucket that are not ours (a fake
// installation sorting first with garbage, an object sealed with another
// key, a head that is no installation's, a name hookd never makes) are
// skipped and reported as not ours, by name; the rest merges; a second
// pass fetches none of them again; nothing says the key is wrong (issue 30
// item 8).
func TestObjectsNotOurs(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 2)
	a, b := hs[0], hs[1]
	b.record("", "echo real")
	b.pass()
	c := bucketClient(t, srv, a)
	fake := "0000000000000000"
	plant(t, srv, a, fake, 1, bytes.Repeat([]byte("garbage!"), 64))
	other, _ := cloudsync.NewKey()
	fake2 := "0000000000000001"
	sealed, _ := cloudsync.SealForTest(other, cloudsync.SegmentName(fake2, 1, 1), []byte(`{"v":1}`))
	plant(t, srv, a, fake2, 1, sealed)
	put(t, c, "heads/NOT-AN-ID/000000000001", nil)
	put(t, c, "h/"+b.s.HostID+"/README", []byte("hello"))
	put(t, c, cloudsync.HeadName(b.s.HostID, 99), nil) // (B's series grew, it says)
	ws := a.passWarnings()
	for _, name := range []string{cloudsync.SegmentName(fake, 1, 1), cloudsync.SegmentName(fake2, 1, 1), "heads/NOT-AN-ID/000000000001", "h/" + b.s.HostID + "/README"} {
		if !mentions(ws, "an object in the bucket is not ours", "hist/"+name) {
			t.Errorf("warnings %q; want %s reported as not ours", ws, name)
		}
	}
	noKeyBlame(t, "host0", ws)
	if got := a.commands(); !slices.Equal(got, []string{"echo real"}) {
		t.Errorf("host0 has %q; want B's command", got)
	}
	st := cloudsync.Gather(t.Context(), &a.s.Settings, a.s.Paths, a.s.HostID, "host0", a.store())
	if !mentions(st.Warnings, "not ours", cloudsync.SegmentName(fake, 1, 1)) || st.LastError != "" {
		t.Errorf("status: warnings %q, last error %q", st.Warnings, st.LastError)
	}
	// Known: not fetched again, not reported again.
	cnt := &counter{n: map[string]int{}}
	a.s.HTTP = &http.Client{Transport: cnt}
	b.record("", "echo more")
	b.pass()
	if ws := a.passWarnings(); len(ws) != 0 {
		t.Errorf("second pass warnings %q; want none", ws)
	}
	if n := cnt.take(); n["GET"] != 1 {
		t.Errorf("second pass made %v; want one GET (B's new segment)", n)
	}
	if got := a.commands(); !slices.Equal(got, []string{"echo more", "echo real"}) {
		t.Errorf("host0 has %q", got)
	}
}

// TestTakenNumber: someone who can write to the bucket creates B's next
// segment before B does; B moves past it (the pass does not fail), the
// others merge B's segments on both sides of it, and nobody is told their
// key is wrong (issue 30 item 8).
func TestTakenNumber(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 2)
	a, b := hs[0], hs[1]
	b.record("", "echo one")
	b.pass()
	c := bucketClient(t, srv, a)
	taken := cloudsync.SegmentName(b.s.HostID, 2, 2)
	put(t, c, taken, bytes.Repeat([]byte{0xAA}, 300))
	b.record("", "echo two")
	m, err := b.s.Pass(t.Context(), time.Minute)
	if err != nil {
		t.Fatalf("B's pass with its next name taken: %v", err)
	}
	if m.UpCommands != 1 || !mentions(m.Warnings, "not ours", taken) {
		t.Errorf("B's pass: %s, warnings %q; want the command up past the taken name", m, m.Warnings)
	}
	noKeyBlame(t, "host1", m.Warnings)
	b.record("", "echo three")
	b.pass()
	ws := a.passWarnings()
	noKeyBlame(t, "host0", ws)
	if got := a.commands(); !slices.Equal(got, []string{"echo one", "echo three", "echo two"}) {
		t.Errorf("host0 has %q; want all of B's", got)
	}
}

// sparse makes a file of size bytes (a hole: no disk used) straight in the
// store's directory, as an object of the bucket.
func sparse(t testing.TB, srv *s3test.Server, h *host, name string, size int64) {
	t.Helper()
	p := filepath.Join(srv.Root, h.s.Settings.Bucket, "hist", filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// getCounter counts the GETs of each object.
type getCounter struct {
	counter
	keys map[string]int
}

func (g *getCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodGet && r.URL.Query().Get("list-type") == "" {
		g.mu.Lock()
		g.keys[r.URL.Path]++
		g.mu.Unlock()
	}
	return g.counter.RoundTrip(r)
}

// TestHugeObjectsNotFetched: four objects of 1 GiB in the bucket (no key
// needed to put them there) are never fetched: their listed size is more
// than any segment's. The pass merges the rest and reports them (issue 30
// item 7; BenchmarkHostileBucket measures the memory).
func TestHugeObjectsNotFetched(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 2)
	a, b := hs[0], hs[1]
	b.record("", "echo real")
	b.pass()
	fake := "0000000000000000"
	for i := int64(1); i <= 4; i++ {
		sparse(t, srv, a, cloudsync.SegmentName(fake, i, i), 1<<30)
	}
	put(t, bucketClient(t, srv, a), cloudsync.HeadName(fake, 4), nil)
	g := &getCounter{counter{n: map[string]int{}}, map[string]int{}}
	a.s.HTTP = &http.Client{Transport: g}
	ws := a.passWarnings()
	for k, n := range g.keys {
		if strings.Contains(k, fake) {
			t.Errorf("GET %s %d times", k, n)
		}
	}
	if !mentions(ws, "not ours", cloudsync.SegmentName(fake, 1, 1), "larger") {
		t.Errorf("warnings %q; want the huge objects reported", ws)
	}
	if got := a.commands(); !slices.Equal(got, []string{"echo real"}) {
		t.Errorf("host0 has %q", got)
	}
}

// TestDecompressionBomb: a segment sealed with the key (so it
// authenticates) whose body inflates beyond what a segment can be is not
// inflated further than that bound, and is skipped and reported; an
// output longer than output.limit is cut to it on merge, as it would be
// when recorded here (issue 30 item 9).
func TestDecompressionBomb(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 3)
	a, b, c := hs[0], hs[1], hs[2]
	a.s.Settings.KeepOutput = 64 << 10
	name := plant(t, srv, a, c.s.HostID, 1, sealAs(t, c, c.s.HostID, 1, 1, deflatedZeros(int64(cloudsync.MaxPlain())+1<<20), true))
	b.s.Settings.Outputs = cloudsync.OutputsAll
	big := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB
	b.record(big, "make big")
	b.pass()
	ws := a.passWarnings()
	if !mentions(ws, "not ours", name) {
		t.Errorf("warnings %q; want the bomb reported", ws)
	}
	if got := a.commands(); !slices.Equal(got, []string{"make big"}) {
		t.Fatalf("host0 has %q", got)
	}
	s := a.store()
	defer s.Close()
	e := a.entries()[0]
	o, err := s.Output(t.Context(), e.Session, e.Seq, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Text) > 65<<10 || o.Flags&history.OutputTruncated == 0 || !strings.HasPrefix(string(o.Text), "0123456789abcdef") ||
		!strings.HasSuffix(string(o.Text), "abcdef of make big") {
		t.Errorf("merged output: %d bytes, flags %v; want head and tail in output.limit (64 KiB), marked truncated", len(o.Text), o.Flags)
	}
}

// deflatedZeros is a DEFLATE stream of n zero bytes.
func deflatedZeros(n int64) []byte {
	var z bytes.Buffer
	zw, _ := flate.NewWriter(&z, flate.BestCompression)
	io.CopyN(zw, zeros{}, n)
	zw.Close()
	return z.Bytes()
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestClonedInstallation: a copy of an installation's home (its history,
// key and id: a copied home directory, a cloned VM) records and syncs on
// its own. The first of the two to find the other's segment in "its"
// series says so and takes a new id; neither shows the other's commands
// as recorded here, and every machine ends with every command once
// (issue 30 item 10).
func TestClonedInstallation(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 2)
	a, b := hs[0], hs[1]
	a.record("", "echo before-copy")
	a.pass()
	// The copy: the same files in another home.
	clone := newHost(t, srv, a.s.Settings.Bucket, "host0")
	for _, f := range []string{"history.db", "history.db-wal", "history.db-shm", "sync-key", "host-id"} {
		data, err := os.ReadFile(filepath.Join(a.dir, f))
		if err != nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(clone.dir, f), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	clone.s.HostID = a.s.HostID
	clone.sess = a.sess + "-clone"
	a.record("", "echo on-original")
	a.pass()
	clone.record("", "echo on-clone")
	m, err := clone.s.Pass(t.Context(), time.Minute)
	if err != nil {
		t.Fatalf("the clone's pass: %v", err)
	}
	newID, _ := hostid.Read(clone.s.Paths.HostID)
	if newID == a.s.HostID || clone.s.HostID != newID || !mentions(m.Warnings, "two installations had the id "+a.s.HostID, newID) {
		t.Errorf("clone: id %s (file %s), warnings %q; want a new id, said", clone.s.HostID, newID, m.Warnings)
	}
	st := cloudsync.Gather(t.Context(), &clone.s.Settings, clone.s.Paths, newID, "host0", clone.store())
	if !mentions(st.Warnings, "two installations had the id") {
		t.Errorf("status warnings %q", st.Warnings)
	}
	for range 2 {
		for _, h := range []*host{a, b, clone} {
			h.pass()
		}
	}
	want := []string{"echo before-copy", "echo on-clone", "echo on-original"}
	for _, h := range []*host{a, b, clone} {
		if got := h.commands(); !slices.Equal(got, want) {
			t.Errorf("%s (%s) has %q; want %q", h.s.Label, h.dir, got, want)
		}
	}
	local := func(h *host) (out []string) {
		for _, e := range h.entries() {
			if e.HostID == "" {
				out = append(out, e.Command)
			}
		}
		slices.Sort(out)
		return out
	}
	if got := local(a); !slices.Equal(got, []string{"echo before-copy", "echo on-original"}) {
		t.Errorf("the original shows %q as recorded here", got)
	}
	if got := local(clone); !slices.Equal(got, []string{"echo before-copy", "echo on-clone"}) {
		t.Errorf("the clone shows %q as recorded here", got)
	}
	for _, e := range b.entries() {
		want := map[string]string{"echo on-clone": newID}[e.Command]
		if want == "" {
			want = a.s.HostID
		}
		if e.HostID != want {
			t.Errorf("host1 shows %q as %s's; want %s's", e.Command, e.HostID, want)
		}
	}
	_ = fmt.Sprint
}

// TestManyObjectsNotOurs: a bucket writer adding a hundred fake
// installations, each with an object, holds back no known installation:
// those are merged first, a pass fetches at most 64 objects that turn out
// not ours (the rest wait for later passes, each fetched once), and keeps
// at most 50 warnings (issue 30 items 7 and 8: no retry storm).
func TestManyObjectsNotOurs(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 2)
	a, b := hs[0], hs[1]
	b.record("", "echo one")
	b.pass()
	a.pass()
	for i := range 100 {
		fake := fmt.Sprintf("%016x", i)
		plant(t, srv, a, fake, 1, bytes.Repeat([]byte{byte(i)}, 200))
	}
	b.record("", "echo two")
	b.pass()
	g := &getCounter{counter{n: map[string]int{}}, map[string]int{}}
	a.s.HTTP = &http.Client{Transport: g}
	ws := a.passWarnings()
	if got := a.commands(); !slices.Equal(got, []string{"echo one", "echo two"}) {
		t.Errorf("host0 has %q; want B's new command merged first", got)
	}
	fetched := 0
	for k := range g.keys {
		if !strings.Contains(k, b.s.HostID) {
			fetched++
		}
	}
	if fetched > 64 || len(ws) > 50 || !mentions(ws, "the rest of the bucket waits") {
		t.Errorf("first pass fetched %d objects not ours, %d warnings (last %q); want at most 64 and 50, said", fetched, len(ws), ws[len(ws)-1])
	}
	for range 2 {
		a.pass()
	}
	for k, n := range g.keys {
		if n > 1 {
			t.Errorf("%s fetched %d times", k, n)
		}
	}
	if len(g.keys) != 101 {
		t.Errorf("%d objects fetched in three passes; want all 100 not ours once, and B's segment", len(g.keys))
	}
}

// TestForgedRangeInOwnSeries: a machine holding the key writes, in B's
// series, a folded-looking segment over numbers B wrote, with commands B
// never recorded. B's compaction finds it, says so, deletes it and never
// folds it into a segment of its own (its own fold of those numbers may
// then take the name); a machine joining later gets B's real commands and
// none of the forged ones.
func TestForgedRangeInOwnSeries(t *testing.T) {
	defer cloudsync.SetCompaction(6, 2, 1<<20)()
	srv := s3test.Start(t)
	hs := cluster(t, srv, 3)
	b, c := hs[1], hs[2]
	var want []string
	for i := range 5 {
		cmd := fmt.Sprintf("echo b-%d", i)
		b.record("", cmd)
		want = append(want, cmd)
		b.pass()
	}
	name := cloudsync.SegmentName(b.s.HostID, 1, 4)
	plain, _ := json.Marshal(map[string]any{"v": 1, "host": b.s.HostID, "start": 1, "end": 4,
		"s": []map[string]any{{"id": b.sess + "@" + b.s.HostID}},
		"c": []map[string]any{{"s": 0, "q": 1, "c": "echo forged-in-b-series", "t": 1}}})
	put(t, bucketClient(t, srv, b), name, sealAs(t, c, b.s.HostID, 1, 4, plain, false))
	var ws []string
	for i := range 3 {
		cmd := fmt.Sprintf("echo b-late-%d", i)
		b.record("", cmd)
		want = append(want, cmd)
		ws = append(ws, b.passWarnings()...)
	}
	if !mentions(ws, "not ours", name, "never recorded", "deleted") {
		t.Errorf("B's warnings %q; want the forged range reported and deleted", ws)
	}
	late := newHost(t, srv, b.s.Settings.Bucket, "late")
	key, _ := cloudsync.LoadKey(b.s.Paths.Key)
	if err := late.s.Join(t.Context(), key); err != nil {
		t.Fatal(err)
	}
	late.pass()
	slices.Sort(want)
	if got := late.commands(); !slices.Equal(got, want) {
		t.Errorf("late joiner has %q; want B's real commands %q", got, want)
	}
}

// TestRowTooLargeToSync: no segment this hookd writes is larger than what
// a reader takes (MaxPlain): a batch that would be is cut, and a single
// output that alone would be (sync.outputs: all) stays
// on its machine, said; the rest travels. (With the bound lowered to 8 MiB
// and a 7 MiB output, whose encoding is larger.)
func TestRowTooLargeToSync(t *testing.T) {
	defer cloudsync.SetMaxPlain(8 << 20)()
	srv := s3test.Start(t)
	hs := cluster(t, srv, 2)
	a, b := hs[0], hs[1]
	a.s.Settings.Outputs = cloudsync.OutputsAll
	a.record(strings.Repeat("x", 7<<20), "make huge")
	a.record("small", "ls")
	m := a.pass()
	if m.UpCommands != 2 || m.UpOutputs != 1 || !mentions(m.Warnings, "too large to sync") {
		t.Errorf("up: %s, warnings %q; want both commands and the small output, the huge one said", m, m.Warnings)
	}
	for p, data := range srv.Files() {
		if int64(len(data)) > cloudsync.MaxObject() {
			t.Errorf("%s: %d bytes", p, len(data))
		}
	}
	b.pass()
	if got := b.commands(); !slices.Equal(got, []string{"ls", "make huge"}) {
		t.Errorf("host1 has %q", got)
	}
}

// manyRows is the plain text of installation id's segment 1 listing n
// commands of a few bytes each (a key holder's memory bomb: each costs a
// hundred bytes or more once decoded).
func manyRows(id string, n int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"v":1,"host":%q,"start":1,"end":1,"s":[{"id":"x@%s"}],"c":[`, id, id)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"s":0,"q":1,"t":0}`)
	}
	b.WriteString("]}")
	return b.Bytes()
}

// TestTooManyRows: a segment sealed with the key that lists more rows than
// any segment this hookd writes is refused as it is read (not decoded
// whole, not merged), reported as not ours; the rest merges.
func TestTooManyRows(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 3)
	a, b, c := hs[0], hs[1], hs[2]
	name := plant(t, srv, a, c.s.HostID, 1, sealAs(t, c, c.s.HostID, 1, 1, manyRows(c.s.HostID, cloudsync.MaxItems+1), false))
	b.record("", "echo real")
	b.pass()
	ws := a.passWarnings()
	if !mentions(ws, "not ours", name, "more than") {
		t.Errorf("warnings %q; want the segment refused", ws)
	}
	if got := a.commands(); !slices.Equal(got, []string{"echo real"}) {
		t.Errorf("host0 has %d commands; want B's one", len(got))
	}
}
