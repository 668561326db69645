package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/sys/unix"

	"github.com/hookd/hookd/internal/sanitize"
)

// Terminal is where the search draws and reads keys: normally /dev/tty,
// so that its drawing never goes to the standard output a shell widget
// reads the outcome from.
type Terminal struct {
	TTY     *os.File
	Env     []string // the environment (TERM, COLORTERM…)
	NoColor bool     // NO_COLOR: no colour, only bold, faint and reverse
	Home    string   // shown as ~ in directories
	// Line is the prompt's line as the shell showed it (the last line of
	// the prompt, then the command line), for a shell that clears that
	// line while the search runs (bash's bind -x): it is drawn there, as
	// plain text, and cleared again on the way out for the shell to redraw.
	Line string
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
		if t.Line != "" {
			b = append(b, "\r\x1b[K"...)
			b = append(b, promptLine(t.Line, cols)...)
		}
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
		// The prompt's line drawn for the shell is cleared again: the
		// shell redraws it from the start of the line.
		back := "\r\x1b[J\x1b8"
		if t.Line != "" {
			back += "\r\x1b[K"
		}
		t.TTY.Write([]byte(back))
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

// promptLine is the shell's prompt line made plain and safe to draw (its
// colours and other sequences dropped, readline's \001 and \002 markers
// too, anything else escaped), cut to fit one row of width cols.
func promptLine(line string, cols int) string {
	line = strings.NewReplacer("\x01", "", "\x02", "").Replace(ansi.Strip(line))
	return ansi.Truncate(sanitize.Line(line), max(cols-1, 0), "")
}
