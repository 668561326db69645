package ui

import (
	"context"
	"errors"
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"golang.org/x/sys/unix"
)

// Terminal is where the search draws and reads keys: normally /dev/tty,
// so that its drawing never goes to the standard output a shell widget
// reads the outcome from.
type Terminal struct {
	TTY     *os.File
	Env     []string // the environment (TERM, COLORTERM…)
	NoColor bool     // NO_COLOR: no colour, only bold, faint and reverse
	Home    string   // shown as ~ in directories
}

// Show shows the search on t and returns what the user chose. Inline, it
// takes o.Height lines below the cursor's line (the prompt) and clears
// them on the way out, leaving the cursor where it was; a terminal too
// small for that, or o.FullScreen, gets the alternate screen, restored on
// the way out. It asks the terminal nothing it must wait for, so a
// terminal that answers no query (an agent's pty, a dumb multiplexer)
// works as well.
func Show(ctx context.Context, o Options, t Terminal) (Outcome, error) {
	fd := int(t.TTY.Fd())
	ws, err := unix.IoctlGetWinsize(fd, unix.TIOCGWINSZ)
	if err != nil {
		return Outcome{}, fmt.Errorf("search: %s is not a terminal: %w", t.TTY.Name(), err)
	}
	homeDir = t.Home
	rows, cols := int(ws.Row), int(ws.Col)
	if rows == 0 || cols == 0 {
		rows, cols = 24, 80
	}
	if o.Height < 6 {
		o.Height = 12
	}
	if !o.FullScreen && rows < o.Height+2 {
		o.Height = rows - 2
		if o.Height < 6 {
			o.FullScreen = true
		}
	}
	inline := !o.FullScreen
	if inline {
		// Room below the prompt: IND (ESC D) moves down a line, scrolling
		// at the bottom, and keeps the column (a newline would not, where
		// the terminal maps it to CR LF); back up to the prompt's line,
		// save the position (DECSC), and start on the next line.
		var b []byte
		for range o.Height {
			b = append(b, "\x1bD"...)
		}
		b = fmt.Appendf(b, "\x1b[%dA\x1b7\x1b[1B\r", o.Height)
		if _, err := t.TTY.Write(b); err != nil {
			return Outcome{}, err
		}
	}
	m := newModel(ctx, o)
	m.width = cols
	if o.FullScreen {
		m.height = rows
	} else {
		m.height = o.Height
	}
	m.fixTop()
	// 120 frames a second (Bubble Tea's most): a key's list is on the
	// screen within 8 ms of being ready, and so is the first screen.
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithInput(t.TTY), tea.WithOutput(t.TTY),
		tea.WithEnvironment(t.Env), tea.WithWindowSize(cols, rows), tea.WithFPS(120)}
	if t.NoColor {
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	}
	p := tea.NewProgram(m, opts...)
	final, err := p.Run()
	if inline {
		// Clear what was drawn and go back to the prompt (DECRC).
		t.TTY.Write([]byte("\r\x1b[J\x1b8"))
	}
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		return Outcome{}, err
	}
	fm, _ := final.(*model)
	if fm == nil {
		return Outcome{}, nil
	}
	return fm.outcome, nil
}
