package ask

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Pins are the commands a `!!ctx` line alone pinned for the next question
// of a session: one file per session in a directory, the history ids one a
// line. The next question takes them (and the file goes).

// Pin adds the command id to the pins of session in dir.
func Pin(dir, session string, id int64) error {
	if session == "" || strings.ContainsAny(session, "/\x00") || session[0] == '.' {
		return fmt.Errorf("pin: bad session id %q", session)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("pin: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, session), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("pin: %w", err)
	}
	_, err = fmt.Fprintf(f, "%d\n", id)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// TakePins returns the ids pinned for session's next question, as REFs,
// and forgets them.
func TakePins(dir, session string) ([]string, error) {
	if session == "" {
		return nil, nil
	}
	path := filepath.Join(dir, session)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pins: %w", err)
	}
	os.Remove(path)
	var refs []string
	for _, f := range strings.Fields(string(b)) {
		if _, err := strconv.ParseInt(f, 10, 64); err == nil && !contains(refs, f) {
			refs = append(refs, f)
		}
	}
	return refs, nil
}
