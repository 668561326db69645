package history

import sqlite3 "github.com/mattn/go-sqlite3"

// SQLiteVersion is the version of the SQLite library compiled into this
// build (go-sqlite3 bundles its own), read without opening a database.
func SQLiteVersion() string {
	v, _, _ := sqlite3.Version()
	return v
}
