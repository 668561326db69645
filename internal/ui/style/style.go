// Package style is hookd's palette: the named styles of its terminal
// output, so that the same kind of text looks the same everywhere (hookd
// suggest, the fixes under the prompt, hookd history and status, and any
// interactive view such as a search UI) and colours are chosen here, not
// as numbers at each use.
//
// A Style is data: a colour among the terminal's sixteen and attributes,
// which another renderer (lipgloss, say) can take as they are. A Palette
// renders them for one output through termenv, and renders plain text for
// an output that is not a terminal, under NO_COLOR, or (the zero Palette)
// when no output was given.
package style

import "github.com/muesli/termenv"

// Style is how one kind of text looks.
type Style struct {
	// Color is an ANSI colour number, "0" to "15" ("1" red, "2" green, "3"
	// yellow); "" keeps the terminal's own.
	Color                string
	Bold, Faint, Reverse bool
}

// The named styles.
var (
	// Command is a command line the user may run: a fix, the command
	// shown.
	Command = Style{Bold: true}
	// Label is the name of a field in a record: command, status, agent.
	Label = Style{Bold: true}
	// Dim is text there for reference: ids, sizes, where something came
	// from, hints, progress.
	Dim = Style{Faint: true}
	// Caution is what to heed: a fix of medium risk, a fix's note, a
	// problem found.
	Caution = Style{Color: "3"}
	// Danger is what may do harm or has failed: a fix of high risk, a
	// failed command's status.
	Danger = Style{Color: "1", Bold: true}
	// Alert is a part that does not work: the daemon not running.
	Alert = Style{Color: "1"}
	// Success is a command that succeeded: a status of 0.
	Success = Style{Color: "2"}
	// Removed and Added are a diff's lines: the old text's only, the new
	// text's only (hookd diff); Hunk is the header of a stretch of them.
	Removed = Style{Color: "1"}
	Added   = Style{Color: "2"}
	Hunk    = Style{Color: "6"}
	// Match is what matched a query in the text shown (the search's
	// matched characters).
	Match = Style{Color: "5", Bold: true}
	// Selected is the row or line chosen in an interactive view.
	Selected = Style{Reverse: true}
	// Rule is a view's frame: the search's divider and its query's mark.
	Rule = Style{Color: "6"}
)

// Palette renders styles for one output.
type Palette struct{ out *termenv.Output }

// New returns the palette of out, whose profile says what it can show
// (termenv.Ascii: nothing).
func New(out *termenv.Output) Palette { return Palette{out: out} }

// Render returns text in style s.
func (p Palette) Render(s Style, text string) string {
	if p.out == nil {
		return text
	}
	st := p.out.String(text)
	if s.Color != "" {
		st = st.Foreground(p.out.Color(s.Color))
	}
	if s.Bold {
		st = st.Bold()
	}
	if s.Faint {
		st = st.Faint()
	}
	if s.Reverse {
		st = st.Reverse()
	}
	return st.String()
}
