package search

import (
	"context"
	"runtime/debug"
	"testing"
)

// TestAfterInteractive: the cache is written when the history was read,
// left alone when current, and a small history left unread is read then.
func TestAfterInteractive(t *testing.T) {
	ctx := context.Background()
	e, s, here, cache := sampleEngine(t)
	if got := e.AfterInteractive(ctx); got != CacheLoadSave {
		t.Errorf("a small history, unread, no cache: %v; want CacheLoadSave", got)
	}
	if err := e.Load(ctx); err != nil {
		t.Fatal(err)
	}
	if got := e.AfterInteractive(ctx); got != CacheSave {
		t.Errorf("after Load: %v; want CacheSave", got)
	}
	if err := e.SaveCache(); err != nil {
		t.Fatal(err)
	}
	if got := New(s, here, cache).AfterInteractive(ctx); got != CacheCurrent {
		t.Errorf("a new engine over a current cache: %v; want CacheCurrent", got)
	}
}

// TestTuneGC: the interactive search's collector setting, unless the user
// set GOGC, which stays theirs.
func TestTuneGC(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	t.Setenv("GOGC", "")
	TuneGC()
	if got := debug.SetGCPercent(100); got != 400 {
		t.Errorf("without GOGC: %d; want 400", got)
	}
	t.Setenv("GOGC", "50")
	debug.SetGCPercent(50)
	TuneGC()
	if got := debug.SetGCPercent(100); got != 50 {
		t.Errorf("with GOGC=50: %d; want the user's 50", got)
	}
}
