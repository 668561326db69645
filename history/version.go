package history

// SQLiteVersion is the version of the SQLite library compiled into this
// build (go-sqlite3 bundles its own), read without opening a database;
// "" without cgo (sqlerr_nocgo.go).
func SQLiteVersion() string { return sqliteVersion() }
