package history

// SQLite's primary result codes that hookd tells apart
// (https://sqlite.org/rescode.html), as sqliteError returns them.
// TestSQLiteCodes checks them against go-sqlite3's.
const (
	sqlitePerm     = 3
	sqliteBusy     = 5
	sqliteLocked   = 6
	sqliteReadonly = 8
	sqliteCorrupt  = 11
	sqliteFull     = 13
	sqliteNotADB   = 26
)

// sqliteIs reports whether err came from SQLite with one of codes.
func sqliteIs(err error, codes ...int) bool {
	code, _, ok := sqliteError(err)
	if !ok {
		return false
	}
	for _, c := range codes {
		if code == c {
			return true
		}
	}
	return false
}
