//go:build sqlite_fts5 || fts5

package history

// FTS5 says whether this build's SQLite has FTS5 (go-sqlite3 compiles it in
// under the same build tags): the full-text search of commands and outputs.
// TestFTS5Compiled checks it against SQLite's own compile options.
const FTS5 = true
