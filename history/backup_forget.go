package history

import (
	"errors"
	"io/fs"
	"os"
)

// dropBackups removes the copies migrate kept of the history before it
// migrated it (backupPath), once something is forgotten: they hold what
// was forgotten, and a forgotten secret must not stay on disk in them.
func (s *Store) dropBackups() error {
	var first error
	for v := 1; v < SchemaVersion; v++ {
		if err := os.Remove(backupPath(s.path, v)); err != nil && !errors.Is(err, fs.ErrNotExist) && first == nil {
			first = err
		}
	}
	return first
}
