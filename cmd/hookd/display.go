package main

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/hookd/hookd/internal/sanitize"
)

// formatDuration is a short, human duration from microseconds.
func formatDuration(us int64) string {
	d := time.Duration(us) * time.Microsecond
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", us)
	case d < 10*time.Millisecond:
		return fmt.Sprintf("%.1fms", float64(us)/1000)
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// jsonEncoder is the encoder of every --json that carries recorded text:
// no HTML escaping, and the characters that hide or reorder text (bidi
// controls, zero-width characters, C1 controls) as \u escapes, which
// decode to the same strings.
func (e *env) jsonEncoder() *json.Encoder {
	enc := json.NewEncoder(sanitize.JSON(e.stdout))
	enc.SetEscapeHTML(false)
	return enc
}
