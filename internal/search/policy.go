package search

import (
	"context"
	"os"
	"runtime/debug"
)

// SmallHistory is the size (by its highest command id) of a history read
// whole in a few milliseconds: an interactive search left before the read
// reads it then, where a larger one is left to another process.
const SmallHistory = 50000

// CacheStep is what to do for the search's cache once an interactive
// search has ended.
type CacheStep int

const (
	CacheCurrent  CacheStep = iota // nothing: the cache file is current
	CacheSave                      // the history was read: write the engine's copy (SaveCache)
	CacheLoadSave                  // a small history left unread: Load it now, then SaveCache
	CacheBuild                     // a large history left unread (the first search, or the first after a forget): another process, detached, reads it and writes the cache, so that the shell need not wait
)

// AfterInteractive says what to do for the cache after an interactive
// search (Ctrl-R) ends.
func (e *Engine) AfterInteractive(ctx context.Context) CacheStep {
	switch {
	case e.Loaded():
		return CacheSave
	case !e.CacheStale():
		return CacheCurrent
	}
	if g, err := e.store.Generation(ctx); err == nil && g.MaxID < SmallHistory {
		return CacheLoadSave
	}
	return CacheBuild
}

// TuneGC sets the collector for a short-lived process that reads tens of
// megabytes at once (the interactive search): fewer collections, not less
// memory, is what it needs. A GOGC of the user's is left as it is.
func TuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}

// JSONLine is the object `hookd search --json` prints for r: hookd history
// --json's fields (the host being self, this installation's id, where r
// has none), and count, and for a match in an output, matched, line and
// line_number.
func (r Result) JSONLine(self string) map[string]any {
	if r.HostID == "" {
		r.HostID = self
	}
	m := r.JSON()
	m["count"] = r.Count
	if r.Matched != 0 {
		m["matched"] = r.Matched.String()
	}
	if r.Matched&InOutput != 0 && r.LineNo > 0 {
		m["line"] = r.Line
		m["line_number"] = r.LineNo
	} else if r.Matched&InNote != 0 {
		m["note"] = r.Line
	}
	return m
}
