package suggest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/internal/ui/style"
	"github.com/muesli/termenv"
)

func printed(p Printer, r analyze.Result) string {
	var b bytes.Buffer
	p.Print(&b, r)
	return b.String()
}

var printResult = analyze.Result{ErrorType: "typo", RootCause: "git: 'psuh' is not a git command", Method: analyze.MethodHeuristic,
	Fixes: []analyze.Fix{
		{Command: "git push", Explanation: "the subcommand you meant", Risk: analyze.RiskLow},
		{Command: "git push --force\x1b[31m", Explanation: "overwrite the remote", Risk: analyze.RiskHigh, Untrusted: true},
		{Command: "curl -H 'Authorization: [REDACTED]' https://example.com/a/very/long/path/to/cut", Explanation: "with the token",
			Risk: analyze.RiskMedium, Incomplete: true, Learned: 2},
	}}

// TestPrintList: hookd suggest's and hookd run's form, plain: the cause
// (after the lead), each fix numbered with its risk and why, its note
// under it, and what the command wrote made safe.
func TestPrintList(t *testing.T) {
	want := `git: 'psuh' is not a git command
  1. git push   (low) the subcommand you meant
  2. git push --force\e[31m   (high) overwrite the remote
     taken from the command's own output: read it before you run it
  3. curl -H 'Authorization: [REDACTED]' https://example.com/a/very/long/path/to/cut   (medium) with the token
     it cannot run as shown: complete it first
`
	if got := printed(Printer{Asked: true}, printResult); got != want {
		t.Errorf("list:\n%s\nwant\n%s", got, want)
	}
	run := printed(Printer{Lead: "hookd: git psuh exited with status 1"}, printResult)
	if first, _, _ := strings.Cut(run, "\n"); first != "hookd: git psuh exited with status 1: git: 'psuh' is not a git command" {
		t.Errorf("with a lead, the first line is %q", first)
	}
	ai := printResult
	ai.Method = analyze.MethodHybrid
	if got := printed(Printer{Asked: true}, ai); !strings.Contains(got, "command\n  (from the rules and the LLM; risks rated again by hookd)\n  1. ") {
		t.Errorf("a hybrid analysis does not say where its fixes came from:\n%s", got)
	}
}

// TestPrintInline: the prompt's form: each fix on one line cut to the
// width, named by what runs it, its risk unless low; with learn, why and
// the note under it.
func TestPrintInline(t *testing.T) {
	want := `  ↳ git push   fix
  ↳ git push --force\e[31m (high risk)   fix 2
  ↳ curl -H 'Authorization: [REDACTED]' https://e… (medium risk) (complete it first)   fix 3 · learned, worked 2×
`
	if got := printed(Printer{Inline: true, Width: 50}, printResult); got != want {
		t.Errorf("inline:\n%s\nwant\n%s", got, want)
	}
	learn := printed(Printer{Inline: true, Width: 80, Learn: true}, printResult)
	if !strings.Contains(learn, "   fix\n    the subcommand you meant\n") || !strings.Contains(learn, "fix 2\n    overwrite the remote\n    taken from the command's own output") {
		t.Errorf("learning mode does not say why under each fix:\n%s", learn)
	}
}

// TestPrintWhatIsNews: a quiet analysis prints nothing; a cause that is
// no news ("it failed") only when the user asked; under the prompt, a
// known cause without a fix is one line.
func TestPrintWhatIsNews(t *testing.T) {
	known := analyze.Result{ErrorType: "not_found", RootCause: "no such file: x"}
	unknown := analyze.Result{ErrorType: analyze.Unknown, RootCause: "it failed (exit status 1)"}
	for _, c := range []struct {
		p    Printer
		r    analyze.Result
		want string
	}{
		{Printer{Asked: true}, analyze.Result{Quiet: true, RootCause: "answered no"}, ""},
		{Printer{Inline: true}, analyze.Result{Quiet: true, RootCause: "answered no"}, ""},
		{Printer{Asked: true}, unknown, "it failed (exit status 1)\n"},
		{Printer{Lead: "hookd: x exited with status 1"}, unknown, ""},
		{Printer{Inline: true}, unknown, ""},
		{Printer{Lead: "hookd: x exited with status 1"}, known, "hookd: x exited with status 1: no such file: x\n"},
		{Printer{Inline: true}, known, "  ↳ no such file: x\n"},
	} {
		if got := printed(c.p, c.r); got != c.want {
			t.Errorf("Printer%+v.Print(%+v) = %q; want %q", c.p, c.r, got, c.want)
		}
	}
}

// TestPrintStyles: on a terminal the palette's named styles mark the
// command, the risk and the note.
func TestPrintStyles(t *testing.T) {
	p := style.New(termenv.NewOutput(&bytes.Buffer{}, termenv.WithProfile(termenv.ANSI)))
	got := printed(Printer{Palette: p, Asked: true}, printResult)
	for _, want := range []string{
		p.Render(style.Command, "git push") + "   (low)",
		"(" + p.Render(style.Danger, "high") + ")",
		"(" + p.Render(style.Caution, "medium") + ")",
		p.Render(style.Caution, "it cannot run as shown: complete it first"),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("styled list lacks %q:\n%q", want, got)
		}
	}
}

// TestPrintWorked: what changed since the same command last worked is the
// last line, dim, in both forms: under the fixes, alone when there is no
// fix and no cause worth a line, cut to the width under the prompt, and
// made safe like the rest.
func TestPrintWorked(t *testing.T) {
	const worked = "worked 20 min ago on branch main; now on feature-x\x1b[2J"
	unknown := analyze.Result{ErrorType: analyze.Unknown, RootCause: "it failed (exit status 1)"}
	for _, c := range []struct {
		p    Printer
		r    analyze.Result
		want string
	}{
		{Printer{Inline: true, Width: 80, Worked: worked}, unknown,
			"  ↳ worked 20 min ago on branch main; now on feature-x\\e[2J\n"},
		{Printer{Inline: true, Width: 30, Worked: worked}, unknown, "  ↳ worked 20 min ago on bran…\n"},
		{Printer{Inline: true, Width: 80, Worked: worked}, analyze.Result{Quiet: true}, ""},
		{Printer{Asked: true, Worked: worked}, unknown,
			"it failed (exit status 1)\n  ↳ worked 20 min ago on branch main; now on feature-x\\e[2J\n"},
	} {
		if got := printed(c.p, c.r); got != c.want {
			t.Errorf("Printer%+v.Print(%+v) = %q; want %q", c.p, c.r, got, c.want)
		}
	}
	inline := printed(Printer{Inline: true, Width: 200, Worked: "worked 2 min ago in ~/app"}, printResult)
	if !strings.HasSuffix(inline, "fix 3 · learned, worked 2×\n  ↳ worked 2 min ago in ~/app\n") {
		t.Errorf("the worked-before line is not under the fixes:\n%s", inline)
	}
	list := printed(Printer{Asked: true, Worked: "worked 2 min ago in ~/app"}, printResult)
	if !strings.HasSuffix(list, "complete it first\n  ↳ worked 2 min ago in ~/app\n") {
		t.Errorf("the worked-before line is not under the list:\n%s", list)
	}
	p := style.New(termenv.NewOutput(&bytes.Buffer{}, termenv.WithProfile(termenv.ANSI)))
	if got := printed(Printer{Palette: p, Inline: true, Width: 80, Worked: "worked 2 min ago"}, unknown); !strings.Contains(got, p.Render(style.Dim, "worked 2 min ago")) {
		t.Errorf("the worked-before line is not dim: %q", got)
	}
}

// TestPrintRestatedCause: under the prompt, a cause that only says the
// error above again (Result.Restates) is left out; asked for, it is said.
func TestPrintRestatedCause(t *testing.T) {
	r := analyze.Result{ErrorType: analyze.FileNotFound, RootCause: "nosuchfile does not exist.", Method: analyze.MethodHeuristic, Restates: true}
	if got := printed(Printer{Inline: true, Width: 80}, r); got != "" {
		t.Errorf("inline printed %q; want nothing", got)
	}
	if got := printed(Printer{Inline: true, Width: 80, Worked: "worked 2 min ago in ~/app"}, r); strings.Contains(got, "nosuchfile") || !strings.Contains(got, "worked 2 min ago") {
		t.Errorf("inline with a worked line printed %q; want the worked line only", got)
	}
	if got := printed(Printer{Asked: true}, r); !strings.Contains(got, "nosuchfile does not exist.") {
		t.Errorf("hookd suggest printed %q; want the cause", got)
	}
}
