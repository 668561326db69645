package history

// SQLite's primary result codes hookd tells apart (sqliteErr), as SQLite
// numbers them (sqlite3.h); go-sqlite3's ErrNo constants are the same.
const (
	codeNone     = 0
	codePerm     = 3  // SQLITE_PERM
	codeBusy     = 5  // SQLITE_BUSY
	codeLocked   = 6  // SQLITE_LOCKED
	codeReadonly = 8  // SQLITE_READONLY
	codeCorrupt  = 11 // SQLITE_CORRUPT
	codeFull     = 13 // SQLITE_FULL
	codeNotADB   = 26 // SQLITE_NOTADB
)
