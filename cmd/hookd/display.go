package main

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/hookd/hookd/internal/sanitize"
)

// formatDuration is a short, human duration from microseconds.
func formatDuration(us int64) string { return string(appendDuration(nil, us)) }

// appendDuration appends formatDuration(us) to b.
func appendDuration(b []byte, us int64) []byte {
	d := time.Duration(us) * time.Microsecond
	switch {
	case d < time.Millisecond:
		return append(strconv.AppendInt(b, us, 10), "µs"...)
	case d < 10*time.Millisecond:
		return append(strconv.AppendFloat(b, float64(us)/1000, 'f', 1, 64), "ms"...)
	case d < time.Second:
		return append(strconv.AppendInt(b, d.Milliseconds(), 10), "ms"...)
	case d < time.Minute:
		return append(strconv.AppendFloat(b, d.Seconds(), 'f', 1, 64), 's')
	case d < time.Hour:
		b = append(strconv.AppendInt(b, int64(d.Minutes()), 10), 'm')
		return append(appendInt02(b, int(d.Seconds())%60), 's')
	}
	b = append(strconv.AppendInt(b, int64(d.Hours()), 10), 'h')
	return append(appendInt02(b, int(d.Minutes())%60), 'm')
}

// appendInt02 appends n as fmt's %02d does.
func appendInt02(b []byte, n int) []byte {
	if n >= 0 && n < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(n), 10)
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
