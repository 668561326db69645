package shelltest

import (
	"io"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/vt"
)

// screen is what a terminal of the shell's size shows: a terminal emulator
// fed the shell's output, up to where it has read it. It is made on the
// first look (most tests never take one) and from then on fed only what
// arrived since, so that each look costs what is new. Resizes are replayed
// where they happened in the output.
type screen struct {
	mu         sync.Mutex
	cols, rows int // the size the shell started with
	emu        *vt.Emulator
	fed        int // the raw output fed so far
	resizes    []resize
	closed     bool
}

// resize is a change of the terminal's size, at an offset of the output.
type resize struct{ at, cols, rows int }

func (sc *screen) resize(at, cols, rows int) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.resizes = append(sc.resizes, resize{at, cols, rows})
}

// text feeds the emulator raw (the whole output so far) beyond what it was
// fed, and returns the screen as text, each line's trailing blanks trimmed.
func (sc *screen) text(raw []byte) string {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.closed {
		return ""
	}
	if sc.emu == nil {
		sc.emu = vt.NewEmulator(sc.cols, sc.rows)
		// The emulator's answers to queries go nowhere, as on a terminal
		// that answers none; they must be read for it not to block.
		go io.Copy(io.Discard, sc.emu)
	}
	// Resizes replayed in order where they happened (one recorded after
	// raw was taken waits for the next look).
	for len(sc.resizes) > 0 && sc.resizes[0].at <= len(raw) {
		r := sc.resizes[0]
		sc.resizes = sc.resizes[1:]
		if r.at > sc.fed {
			sc.emu.Write(raw[sc.fed:r.at])
			sc.fed = r.at
		}
		sc.emu.Resize(r.cols, r.rows)
	}
	sc.emu.Write(raw[sc.fed:])
	sc.fed = len(raw)
	lines := strings.Split(sc.emu.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

func (sc *screen) close() {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.emu != nil && !sc.closed {
		sc.emu.Close()
	}
	sc.closed = true
}

// Screen returns what a terminal of the shell's size shows now, as text,
// trailing blanks trimmed: what a program that redraws only what changed
// leaves on the screen.
func (s *Shell) Screen() string {
	b, _, _ := s.out.view(false)
	return s.screen.text(b)
}

// WaitForScreen waits until the screen (Screen) matches re, and returns
// it. Like the other waits it wakes when output arrives, not on a timer.
func (s *Shell) WaitForScreen(re *regexp.Regexp, timeout time.Duration) string {
	s.t.Helper()
	d := deadline(timeout)
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		b, changed, closed := s.out.view(false)
		text := s.screen.text(b)
		if re.MatchString(text) {
			return text
		}
		if closed {
			s.t.Fatalf("%s exited before %q was on the screen; screen:\n%s", s.Name, re, text)
		}
		select {
		case <-changed:
		case <-timer.C:
			s.t.Fatalf("%s: no %q on the screen within %v; screen:\n%s", s.Name, re, d, text)
		}
	}
}
