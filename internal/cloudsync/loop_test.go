package cloudsync

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/cloudsync/s3"
)

// TestLoopBacksOff: a pass that fails makes the loop wait 30 s, then
// twice as long each time up to 30 min; one that succeeds goes back to
// the interval. Sync not configured, or interval 0, waits a minute and
// looks again.
func TestLoopBacksOff(t *testing.T) {
	dir := t.TempDir()
	k, _ := NewKey()
	if err := SaveKey(filepath.Join(dir, "key"), k); err != nil {
		t.Fatal(err)
	}
	s := &Syncer{Settings: Settings{URL: "s3://b/", Bucket: "bkt", Endpoint: "http://127.0.0.1:1", PathStyle: true, Interval: time.Hour},
		Paths: Paths{Key: filepath.Join(dir, "key"), Lock: filepath.Join(dir, "lock")}, HostID: "0123456789abcdef",
		Creds: s3.Credentials{AccessKey: "a", SecretKey: "b"},
		Open: func(ctx context.Context) (*history.Store, error) {
			return history.Open(ctx, filepath.Join(dir, "h.db"), time.Second)
		}}
	var configured *Syncer = s
	l := &Loop{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), New: func() (*Syncer, error) { return configured, nil }}
	var backoff time.Duration
	var waits []time.Duration
	for range 8 {
		waits = append(waits, l.pass(t.Context(), &backoff))
	}
	want := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 30 * time.Minute, 30 * time.Minute}
	for i := range want {
		if waits[i] != want[i] {
			t.Fatalf("waits after failures = %v; want %v", waits, want)
		}
	}
	configured = nil
	if w := l.pass(t.Context(), &backoff); w != time.Minute {
		t.Errorf("not configured: wait %v; want 1m", w)
	}
	configured = s
	s.Settings.Interval = 0
	if w := l.pass(t.Context(), &backoff); w != time.Minute {
		t.Errorf("interval 0: wait %v; want 1m (background sync off)", w)
	}
}

// TestLoopBurst: a burst of new commands starts a pass within seconds,
// long before the interval (and the first pass's pause) is up; a few
// commands do not.
func TestLoopBurst(t *testing.T) {
	calls := make(chan struct{}, 10)
	l := &Loop{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), First: time.Hour, Burst: 20,
		New: func() (*Syncer, error) { calls <- struct{}{}; return nil, nil }}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	l.Init()
	go l.Run(ctx)
	l.Kick(5)
	select {
	case <-calls:
		t.Fatal("a pass started after 5 commands")
	case <-time.After(3 * time.Second):
	}
	l.Kick(15)
	select {
	case <-calls:
	case <-time.After(30 * time.Second):
		t.Fatal("no pass within 30 s of a burst of 20 commands")
	}
}
