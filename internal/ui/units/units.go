// Package units writes durations, byte counts and counts of things the
// short, human way every view of hookd shows them (hookd history, show and
// status, Ctrl-R's preview, stats, the web page, export, sync, the MCP
// server's text): one format, so that the same figure reads the same
// everywhere.
package units

import (
	"strconv"
	"time"
)

// Duration is d the short way: 0s, 850µs, 4.2ms, 85ms, 4.2s, 3m07s, 5h02m,
// and from 100 hours on days, 10d04h. A duration of zero or less is "0s".
func Duration(d time.Duration) string { return string(AppendDuration(nil, d)) }

// Micros is Duration of us microseconds, the unit the history keeps.
func Micros(us int64) string { return Duration(time.Duration(us) * time.Microsecond) }

// AppendDuration appends Duration(d) to b.
func AppendDuration(b []byte, d time.Duration) []byte {
	switch {
	case d <= 0:
		return append(b, "0s"...)
	case d < time.Millisecond:
		return append(strconv.AppendInt(b, d.Microseconds(), 10), "µs"...)
	case d < 10*time.Millisecond:
		return append(strconv.AppendFloat(b, float64(d.Microseconds())/1000, 'f', 1, 64), "ms"...)
	case d < time.Second:
		return append(strconv.AppendInt(b, d.Milliseconds(), 10), "ms"...)
	case d < time.Minute:
		return append(strconv.AppendFloat(b, d.Seconds(), 'f', 1, 64), 's')
	case d < time.Hour:
		b = append(strconv.AppendInt(b, int64(d/time.Minute), 10), 'm')
		return append(append02(b, int64(d/time.Second)%60), 's')
	case d < 100*time.Hour:
		b = append(strconv.AppendInt(b, int64(d/time.Hour), 10), 'h')
		return append(append02(b, int64(d/time.Minute)%60), 'm')
	}
	b = append(strconv.AppendInt(b, int64(d/(24*time.Hour)), 10), 'd')
	return append(append02(b, int64(d/time.Hour)%24), 'h')
}

// Size is a byte count the short way: 512B, 3.4K, 120K, 1.5M, 12M
// (K and M are 1,024 and 1,048,576 bytes).
func Size(n int64) string { return string(AppendSize(nil, n)) }

// AppendSize appends Size(n) to b.
func AppendSize(b []byte, n int64) []byte {
	switch {
	case n < 1024:
		return append(strconv.AppendInt(b, n, 10), 'B')
	case n < 10<<10:
		return append(strconv.AppendFloat(b, float64(n)/1024, 'f', 1, 64), 'K')
	case n < 1<<20:
		return append(strconv.AppendInt(b, n>>10, 10), 'K')
	case n < 10<<20:
		return append(strconv.AppendFloat(b, float64(n)/(1<<20), 'f', 1, 64), 'M')
	}
	return append(strconv.AppendInt(b, n>>20, 10), 'M')
}

// append02 appends n with at least two digits, as fmt's %02d does.
func append02(b []byte, n int64) []byte {
	if n < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, n, 10)
}

// Count is n things: "1 command", "3 commands", "0 commands". what is the
// singular; its plural takes an s.
func Count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
