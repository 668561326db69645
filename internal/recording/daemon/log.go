package daemon

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
)

// OpenLog opens the daemon's log at path (0600; what is there beyond 10
// MiB moves to path.1 first) and returns a logger writing to it: info and
// above, debug too with debug.
func OpenLog(path string, debug bool) (*slog.Logger, io.Closer, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, nil, err
	}
	if fi, err := os.Stat(path); err == nil && fi.Size() > 10<<20 {
		os.Rename(path, path+".1")
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, err
	}
	level := slog.LevelInfo
	if debug {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: level})), f, nil
}
