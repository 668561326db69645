package history

import (
	"fmt"
	"strconv"
	"time"
)

// ParseSince reads a point in time as `hookd history --since` takes it: a
// duration back from now (90m, 2h, 3d, 1w, 1y) or a date (2026-11-01, RFC 3339).
func ParseSince(s string, now time.Time) (time.Time, error) {
	if len(s) > 1 {
		unit := s[len(s)-1]
		if v, err := strconv.Atoi(s[:len(s)-1]); err == nil && v >= 0 {
			switch unit {
			case 'd':
				return now.AddDate(0, 0, -v), nil
			case 'w':
				return now.AddDate(0, 0, -7*v), nil
			case 'y':
				return now.AddDate(-v, 0, 0), nil
			}
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--since %q: want a duration (90m, 2h, 3d, 1w, 1y) or a date (2006-01-02, RFC 3339)", s)
}
