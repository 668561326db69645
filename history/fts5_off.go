//go:build !(sqlite_fts5 || fts5)

package history

// FTS5 says whether this build's SQLite has FTS5: not without the
// sqlite_fts5 build tag (the search falls back to LIKE).
const FTS5 = false
