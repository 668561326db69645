package suggest

import (
	"fmt"
	"io"
	"strings"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/ui/style"
)

// Printer writes the analysis of a failed command for a terminal: the one
// renderer of a list of fixes. Everything the command or a model wrote is
// sanitized; colours come from the palette.
//
// The list form (hookd suggest, hookd run):
//
//	Lead: the cause
//	  (from the LLM; risks rated again by hookd)
//	  1. COMMAND   (low) why it works
//	     what to know before running it
//
// The inline form (under the prompt: at most three lines, each cut to
// Width, named by what runs it):
//
//	↳ COMMAND (medium risk)   fix 2
//
// Both end with what changed since the same command last worked, when
// that explains the failure (Worked, dim):
//
//	↳ worked 20 min ago on branch main; now on feature-x
type Printer struct {
	Palette style.Palette
	// Lead opens the list's first line (hookd run names the command and
	// its status there); the cause follows it.
	Lead string
	// Asked says the user asked for this analysis (hookd suggest): the
	// cause is said even when there is no fix and the cause is no news
	// ("it failed"). Otherwise such an analysis prints nothing.
	Asked bool
	// Inline is the form under the prompt, cut to Width columns (20 at
	// least); with Learn, why each fix works and its note go under it.
	Inline bool
	Width  int
	Learn  bool
	// Worked is the line that says when the same command last worked and
	// what changed since (WorkedBefore's comparison, its Line): printed
	// under the fixes, even when there is no fix; "" for none.
	Worked string
}

// Print writes r; a quiet analysis (an ordinary "no") prints nothing.
func (p Printer) Print(w io.Writer, r analyze.Result) error {
	news := len(r.Fixes) > 0 || r.RootCause != "" && r.ErrorType != analyze.Unknown && !(p.Inline && r.Restates)
	if r.Quiet || !news && p.Worked == "" && (p.Inline || !p.Asked) {
		return nil
	}
	var b strings.Builder
	if p.Inline {
		p.inline(&b, r)
	} else {
		p.list(&b, r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (p Printer) list(b *strings.Builder, r analyze.Result) {
	s := p.Palette.Render
	cause := sanitize.Line(r.RootCause)
	switch {
	case p.Lead != "" && cause != "":
		fmt.Fprintf(b, "%s: %s\n", p.Lead, cause)
	case p.Lead != "":
		fmt.Fprintln(b, p.Lead)
	case cause != "":
		fmt.Fprintln(b, cause)
	}
	switch r.Method {
	case analyze.MethodAI:
		fmt.Fprintln(b, s(style.Dim, "  (from the LLM; risks rated again by hookd)"))
	case analyze.MethodHybrid:
		fmt.Fprintln(b, s(style.Dim, "  (from the rules and the LLM; risks rated again by hookd)"))
	}
	for i, f := range r.Fixes {
		fmt.Fprintf(b, "  %d. %s   (%s) %s\n", i+1, s(style.Command, sanitize.Line(f.Command)),
			s(riskStyle(f.Risk), f.Risk), sanitize.Line(f.Explanation))
		if note := Note(f); note != "" {
			fmt.Fprintf(b, "     %s\n", s(style.Caution, sanitize.Line(note)))
		}
	}
	if p.Worked != "" {
		fmt.Fprintf(b, "  %s %s\n", s(style.Dim, "↳"), s(style.Dim, sanitize.Line(p.Worked)))
	}
}

func (p Printer) inline(b *strings.Builder, r analyze.Result) {
	s := p.Palette.Render
	width := max(p.Width, 20)
	line := func(text string) string {
		text = sanitize.Line(text)
		if r := []rune(text); len(r) > width-4 {
			text = string(r[:width-5]) + "…"
		}
		return text
	}
	arrow := s(style.Dim, "↳")
	if len(r.Fixes) == 0 && r.RootCause != "" && r.ErrorType != analyze.Unknown && !r.Restates {
		// A cause worth a line; "it failed" is not news, nor the error
		// above said again.
		fmt.Fprintf(b, "  %s %s\n", arrow, s(style.Dim, line(r.RootCause)))
	}
	for i, f := range r.Fixes {
		label := "fix"
		if i > 0 {
			label = fmt.Sprintf("fix %d", i+1)
		}
		if f.Learned > 0 {
			label += fmt.Sprintf(" · learned, worked %d×", f.Learned)
		}
		marks := ""
		if f.Risk != analyze.RiskLow {
			marks = " " + s(riskStyle(f.Risk), "("+f.Risk+" risk)")
		}
		if f.Incomplete {
			marks += " " + s(style.Caution, "(complete it first)")
		}
		fmt.Fprintf(b, "  %s %s%s   %s\n", arrow, s(style.Command, line(f.Command)), marks, s(style.Dim, label))
		if p.Learn && f.Explanation != "" {
			// Learning mode: why this fix works, under it.
			fmt.Fprintf(b, "    %s\n", s(style.Dim, line(f.Explanation)))
		}
		if note := Note(f); p.Learn && note != "" {
			fmt.Fprintf(b, "    %s\n", s(style.Dim, line(note)))
		}
	}
	if p.Worked != "" {
		fmt.Fprintf(b, "  %s %s\n", arrow, s(style.Dim, line(p.Worked)))
	}
}

// riskStyle is how a risk is shown: high as a danger, medium as a
// caution, low plain.
func riskStyle(risk string) style.Style {
	switch risk {
	case analyze.RiskHigh:
		return style.Danger
	case analyze.RiskMedium:
		return style.Caution
	}
	return style.Style{}
}
