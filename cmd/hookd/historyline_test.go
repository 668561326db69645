package main

import (
	"bytes"
	"fmt"
	"github.com/hookd/hookd/internal/ui/units"
	"os"
	"testing"
	"time"
	_ "time/tzdata" // the zones below on a machine without /usr/share/zoneinfo

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/ui/style"
	"github.com/muesli/termenv"
)

// fmtEntryLine is hookd history's line as it was written with fmt (before
// the listing of a million rows formatted into one buffer): the
// reference the faster one must match byte for byte.
func fmtEntryLine(e *env, en history.Entry) string {
	when := time.UnixMicro(en.StartedAt).Local().Format("2006-01-02 15:04:05")
	status := fmt.Sprintf("%3d", en.ExitCode)
	st := e.palette.Render(style.Success, status)
	if !en.StatusKnown() {
		st = e.palette.Render(style.Dim, "  -")
	}
	if en.ExitCode != 0 {
		st = e.palette.Render(style.Danger, status)
	}
	id := e.palette.Render(style.Dim, fmt.Sprintf("%6d", en.ID))
	size := ""
	if en.OutputBytes > 0 {
		size = units.Size(en.OutputBytes)
	}
	by := ""
	if en.Author != "" {
		by = e.palette.Render(style.Dim, "["+sanitize.Line(en.Author)+"]") + " "
	}
	if en.HostID != "" {
		by += e.palette.Render(style.Dim, "[@"+sanitize.Line(en.Host)+"]") + " "
	}
	took := "-"
	if en.DurationKnown() {
		took = units.Micros(en.DurationUS)
	}
	return fmt.Sprintf("%s  %s  %7s  %s  %s  %s%s\n", id, when, took, st,
		e.palette.Render(style.Dim, fmt.Sprintf("%5s", size)), by, sanitize.Line(en.Command))
}

// TestEntryLinesAsFmt: the lines of hookd history, formatted into one
// buffer with the minute's date kept from line to line, are those fmt
// wrote, in colour and without, for durations and sizes of each unit, exit
// statuses of one to three digits and negative, ids of any width, authors
// and other hosts, hostile text, and times across a daylight saving change
// and in a zone whose offset is not whole minutes.
func TestEntryLinesAsFmt(t *testing.T) {
	var entries []history.Entry
	durations := []int64{0, 7, 999, 1000, 1234, 9999, 10000, 999999, 1000000, 59949999, 59950000, 60000000, 61500000, 3599999999, 3600000000, 86400000000 * 3}
	sizes := []int64{0, 1, 1023, 1024, 10239, 10240, 1<<20 - 1, 1 << 20, 10<<20 - 1, 10 << 20, 5 << 30}
	// Around Europe/Paris's change of 2026-10-25 01:00 UTC, a second at a time
	// over some minutes, and a leap to another day.
	start := time.Date(2026, 10, 25, 0, 58, 30, 0, time.UTC).UnixMicro()
	for i := 0; i < 400; i++ {
		en := history.Entry{ID: int64(i) * 997, Command: "echo " + fmt.Sprint(i), StartedAt: start + int64(i)*1700000 + int64(i%3),
			DurationUS: durations[i%len(durations)], OutputBytes: sizes[i%len(sizes)], ExitCode: []int{0, 1, 127, -1, 255, 1000}[i%6], Source: []string{"hook", "import", "agent", "run", "hook"}[i%5]}
		switch i % 5 {
		case 1:
			en.Author = "claude-code"
		case 2:
			en.HostID, en.Host = "0123456789abcdef", "lap\x1btop"
		case 3:
			en.Command = "printf '\x1b[31m\u202e'\nnext"
		}
		entries = append(entries, en)
	}
	entries = append(entries, history.Entry{ID: 1 << 40, StartedAt: -1500000, Command: "before 1970"},
		history.Entry{ID: 3, StartedAt: time.Date(1890, 1, 1, 0, 0, 7, 0, time.UTC).UnixMicro(), Command: "local mean time"})
	for _, zone := range []string{"UTC", "Europe/Paris", "Asia/Kolkata", "Europe/Amsterdam"} {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Fatal(err)
		}
		saved := time.Local
		time.Local = loc
		for _, profile := range []termenv.Profile{termenv.Ascii, termenv.TrueColor} {
			e := &env{palette: style.New(termenv.NewOutput(os.Stdout, termenv.WithProfile(profile)))}
			var got bytes.Buffer
			lines := &entryLines{w: &got, e: e}
			var want bytes.Buffer
			for _, en := range entries {
				lines.print(en)
				want.WriteString(fmtEntryLine(e, en))
			}
			if got.String() != want.String() {
				g, w := bytes.Split(got.Bytes(), []byte("\n")), bytes.Split(want.Bytes(), []byte("\n"))
				for i := range min(len(g), len(w)) {
					if !bytes.Equal(g[i], w[i]) {
						t.Errorf("%s, profile %v, line %d:\n got %q\nwant %q", zone, profile, i, g[i], w[i])
						break
					}
				}
			}
		}
		time.Local = saved
	}
}
