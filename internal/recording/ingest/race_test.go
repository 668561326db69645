package ingest_test

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/ingest"
	"github.com/hookd/hookd/internal/recording/spool"
	"github.com/hookd/hookd/internal/redact"
)

// totals adds up the stats of several passes.
type totals struct {
	mu sync.Mutex
	ingest.Stats
	errs []error
}

func (t *totals) add(st ingest.Stats, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.Spools += st.Spools
	t.Added += st.Added
	t.Ignored += st.Ignored
	t.Redacted += st.Redacted
	t.Bad += st.Bad
	t.Removed += st.Removed
	t.Problems = append(t.Problems, st.Problems...)
	if err != nil {
		t.errs = append(t.errs, err)
	}
}

// checkSessions checks that each session holds exactly the commands
// seq 1..n, each once, with the text written for it.
func checkSessions(t *testing.T, s *history.Store, sessions []string, n int, text func(k int, seq int64) string) {
	t.Helper()
	for k, sess := range sessions {
		es, err := s.List(t.Context(), history.Query{Session: sess})
		if err != nil {
			t.Fatal(err)
		}
		if len(es) != n {
			t.Errorf("session %d has %d commands; want %d", k, len(es), n)
		}
		seen := make([]bool, n+1)
		for _, e := range es {
			if e.Seq < 1 || e.Seq > int64(n) || seen[e.Seq] {
				t.Errorf("session %d: seq %d out of range or repeated", k, e.Seq)
				continue
			}
			seen[e.Seq] = true
			if want := text(k, e.Seq); e.Command != want {
				t.Errorf("session %d seq %d = %q; want %q", k, e.Seq, e.Command, want)
			}
		}
	}
}

// TestIngestConcurrent races four ingesters, each with its own connection,
// against a writer appending to eight spools: every command must land
// exactly once.
func TestIngestConcurrent(t *testing.T) {
	const spools, perSpool, ingesters = 8, 5000, 4
	e := newEnv(t)
	e.rules = testRules(t)
	var sessions []string
	for k := range spools {
		sessions = append(sessions, sessionID(livePID, k))
	}
	secret := func(seq int64) bool { return seq%50 == 0 }
	text := func(k int, seq int64) string {
		if secret(seq) {
			return fmt.Sprintf("export GITHUB_TOKEN=%s # %d/%d", redact.Marker, k, seq)
		}
		return fmt.Sprintf("echo spool %d command %d", k, seq)
	}
	raw := func(k int, seq int64) string {
		if secret(seq) {
			return fmt.Sprintf("export GITHUB_TOKEN=%s # %d/%d", token, k, seq)
		}
		return text(k, seq)
	}

	done := make(chan struct{})
	var writeErr error
	var wg sync.WaitGroup
	var passCount atomic.Int64
	wg.Go(func() {
		defer close(done)
		files := make([]*os.File, spools)
		for k, s := range sessions {
			f, err := os.OpenFile(e.path(s), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
			if err != nil {
				writeErr = err
				return
			}
			defer f.Close()
			files[k] = f
			if _, err := f.Write(header(livePID)); err != nil {
				writeErr = err
				return
			}
		}
		for seq := int64(1); seq <= perSpool; seq++ {
			if seq%250 == 0 {
				// Let the ingesters catch up now and then, so that their
				// passes and the writes interleave.
				deadline, p := time.Now().Add(30*time.Second), passCount.Load()
				for passCount.Load() < p+2 && time.Now().Before(deadline) {
					time.Sleep(time.Millisecond)
				}
			}
			for k, f := range files {
				rec := spool.AppendCommand(nil, command(seq, raw(k, seq)))
				parts := [][]byte{rec}
				if seq%7 == int64(k%7) { // sometimes in two writes, as a slow shell might
					cut := int(seq) % len(rec)
					parts = [][]byte{rec[:cut], rec[cut:]}
				}
				for _, p := range parts {
					if _, err := f.Write(p); err != nil {
						writeErr = err
						return
					}
				}
			}
		}
	})

	var tot totals
	passes := make([]int, ingesters)
	for i := range ingesters {
		store := openStore(t, e.db, 60*time.Second)
		wg.Go(func() {
			for {
				finished := false
				select {
				case <-done:
					finished = true // one more pass: everything is written now
				default:
				}
				st, err := ingest.Spools(t.Context(), store, e.dir, e.rules, time.Now())
				tot.add(st, err)
				passes[i]++
				passCount.Add(1)
				if finished || err != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	if writeErr != nil {
		t.Fatalf("writer: %v", writeErr)
	}
	if len(tot.errs) > 0 {
		t.Fatalf("Ingest errors: %v", tot.errs)
	}
	t.Logf("passes per ingester: %v", passes)

	const n = spools * perSpool
	wantRedacted := spools * (perSpool / 50)
	if tot.Added != n || tot.Bad != 0 || tot.Ignored != 0 || tot.Redacted != wantRedacted {
		t.Errorf("all passes: added %d, bad %d, ignored %d, redacted %d; want %d, 0, 0, %d (each record read once); problems %q",
			tot.Added, tot.Bad, tot.Ignored, tot.Redacted, n, wantRedacted, tot.Problems)
	}
	hs, err := e.store.Stats(t.Context())
	if err != nil || hs.Commands != n || hs.Bad != 0 || hs.Sessions != spools {
		t.Errorf("history Stats = %+v, %v; want %d commands, %d sessions, none bad", hs, err, n, spools)
	}
	checkSessions(t, e.store, sessions, perSpool, text)
	offsets, err := e.store.SpoolOffsets(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sessions {
		fi, err := os.Stat(e.path(s))
		if err != nil {
			t.Fatal(err)
		}
		if got := offsets[s+spool.Suffix]; got.Offset != fi.Size() {
			t.Errorf("offset of %s = %d; want the file size %d", s, got.Offset, fi.Size())
		}
	}
	if st := e.ingest(); st.Added != 0 || st.Bad != 0 {
		t.Errorf("a last pass = %+v; want nothing new", st)
	}
}

// TestIngestConcurrentEnded races ingesters over the spools of ended
// sessions, which the first to finish one removes.
func TestIngestConcurrentEnded(t *testing.T) {
	const spools, perSpool, ingesters = 8, 300, 4
	for round := range 5 {
		e := newEnv(t)
		e.rules = testRules(t)
		var sessions []string
		for k := range spools {
			pid := deadPID(t)
			s := sessionID(pid, k)
			sessions = append(sessions, s)
			b := header(pid)
			for seq := int64(1); seq <= perSpool; seq++ {
				text := fmt.Sprintf("make target-%d-%d", k, seq)
				if seq%10 == 0 {
					text = " " + text // left out
				}
				b = spool.AppendCommand(b, command(seq, text))
			}
			e.write(s, b)
		}
		var tot totals
		var wg sync.WaitGroup
		start := make(chan struct{})
		for range ingesters {
			store := openStore(t, e.db, 60*time.Second)
			wg.Go(func() {
				<-start
				tot.add(ingest.Spools(t.Context(), store, e.dir, e.rules, time.Now()))
			})
		}
		close(start)
		wg.Wait()
		if len(tot.errs) > 0 {
			t.Fatalf("round %d: Ingest errors: %v", round, tot.errs)
		}
		kept := spools * (perSpool - perSpool/10)
		if tot.Added != kept || tot.Ignored != spools*perSpool/10 || tot.Bad != 0 || tot.Removed != spools {
			t.Errorf("round %d: all passes: added %d, ignored %d, bad %d, removed %d; want %d, %d, 0, %d; problems %q",
				round, tot.Added, tot.Ignored, tot.Bad, tot.Removed, kept, spools*perSpool/10, spools, tot.Problems)
		}
		hs, err := e.store.Stats(t.Context())
		if err != nil || hs.Commands != int64(kept) || hs.Bad != 0 {
			t.Errorf("round %d: history Stats = %+v, %v; want %d commands, none bad", round, hs, err, kept)
		}
		// Each session holds its own commands, each once, none it left out.
		for k, sess := range sessions {
			es, err := e.store.List(t.Context(), history.Query{Session: sess})
			if err != nil || len(es) != perSpool-perSpool/10 {
				t.Errorf("round %d: session %d has %d commands, %v; want %d", round, k, len(es), err, perSpool-perSpool/10)
			}
			for _, en := range es {
				if en.Seq%10 == 0 || en.Command != fmt.Sprintf("make target-%d-%d", k, en.Seq) {
					t.Errorf("round %d: session %d holds seq %d %q", round, k, en.Seq, en.Command)
				}
			}
		}
		left, _ := os.ReadDir(e.dir)
		offsets, _ := e.store.SpoolOffsets(t.Context())
		if len(left) != 0 || len(offsets) != 0 {
			t.Errorf("round %d: left behind %d files and offsets %v; want none", round, len(left), offsets)
		}
		if t.Failed() {
			return
		}
	}
}

// TestIngestLocked: while another process holds the write lock past the
// busy timeout, Ingest fails and loses nothing; the next pass gets it all.
func TestIngestLocked(t *testing.T) {
	e := newEnv(t)
	var sessions []string
	for k := range 3 {
		s := sessionID(livePID, k)
		sessions = append(sessions, s)
		e.write(s, append(header(livePID), records(1, 100, fmt.Sprintf("echo %d-%%d", k))...))
	}
	store := openStore(t, e.db, time.Second) // open before the lock is taken

	other, err := sql.Open("sqlite3", "file:"+e.db)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(t.Context(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	st, err := ingest.Spools(t.Context(), store, e.dir, e.rules, time.Now())
	elapsed := time.Since(start)
	if err == nil || st.Added != 0 {
		t.Errorf("Ingest while the database is locked = %+v, %v; want an error, nothing added", st, err)
	}
	if !strings.Contains(fmt.Sprint(err), "locked") && !strings.Contains(fmt.Sprint(err), "busy") {
		t.Errorf("Ingest error %q does not say the database is locked", err)
	}
	if elapsed < 900*time.Millisecond {
		t.Errorf("Ingest gave up after %v; want it to wait the 1 s busy timeout", elapsed)
	}
	t.Logf("Ingest with %d spools gave up after %v: %v", len(sessions), elapsed.Round(time.Millisecond), err)
	if _, err := conn.ExecContext(t.Context(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}

	if got := e.entries(); len(got) != 0 {
		t.Fatalf("history after the failed pass has %d entries; want 0", len(got))
	}
	st, err = ingest.Spools(t.Context(), store, e.dir, e.rules, time.Now())
	if err != nil || st.Added != 300 || st.Bad != 0 {
		t.Errorf("Ingest after the lock was released = %+v, %v; want 300 added", st, err)
	}
	if st := e.ingest(); st.Added != 0 {
		t.Errorf("one more pass = %+v; want nothing", st)
	}
	checkSessions(t, e.store, sessions, 100, func(k int, seq int64) string { return fmt.Sprintf("echo %d-%d", k, seq) })
	if errors.Is(err, history.ErrCorrupt) {
		t.Errorf("a locked database was taken for a corrupt one: %v", err)
	}
}
