// Package suggest analyses a recorded failure with everything hookd knows
// about it: the command and its status from the history, its output
// (captured, or read back from the terminal), what the user ran before, the
// environment, the built-in rules and the user's own patterns. It is the
// failure path behind `hookd suggest`, the fixes printed before the prompt
// and `hookd run`; package analyze is the engine it feeds.
package suggest

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/config"
	"github.com/hookd/hookd/internal/fix/before"
	"github.com/hookd/hookd/internal/fix/offer"
	"github.com/hookd/hookd/internal/recording/recall"
)

// Engine analyses failures.
type Engine struct {
	Analyzer *analyze.Analyzer
	// Facts returns the environment facts (PATH, files, …) for a command
	// run in shell, gathered lazily; nil: none known.
	Facts func(shell string) analyze.Facts
	// Terminal reads the last command's output back from the terminal
	// when it was not captured, and names where it read it (see package
	// scrollback); nil: never.
	Terminal func(ctx context.Context, command string) (text, source string, err error)
	// Home is the user's home directory (shown as ~ in what it says).
	Home string
}

// NewAnalyzer returns the built-in rules plus the user's patterns from
// patternsFile, and what is wrong in that file, each with its line (a bad
// pattern is skipped, the others kept: a broken file never stops the
// analysis).
func NewAnalyzer(patternsFile string) (*analyze.Analyzer, []config.Warning) {
	a := &analyze.Analyzer{Rules: analyze.DefaultRules()}
	specs, warns := config.LoadPatterns(patternsFile)
	for i, s := range specs {
		p := analyze.Pattern{Name: s.Name, Command: s.Command, Output: s.Output, ErrorType: s.ErrorType, Explanation: s.Explanation}
		if p.Name == "" {
			p.Name = fmt.Sprintf("pattern %d", i+1)
		}
		for _, f := range s.Fixes {
			p.Fixes = append(p.Fixes, analyze.PatternFix{Command: f.Command, Explanation: f.Explanation})
		}
		rules, errs := analyze.CompilePatterns([]analyze.Pattern{p})
		a.Rules = append(a.Rules, rules...)
		for _, err := range errs {
			warns = append(warns, config.Warning{File: patternsFile, Line: s.Line, Msg: err.Error(), Then: "pattern skipped"})
		}
	}
	return a, warns
}

// pastRuns is the number of recent commands the rules see: a day or two of
// work for most, read in 0.4 ms of a fresh process at 1M commands (500
// took 1.2 ms of the failure path's 15).
const pastRuns = 200

// Past returns the user's recent commands, newest first, for the rules that
// prefer what this user ran successfully before.
func Past(ctx context.Context, s *history.Store) []analyze.Past {
	es, err := s.Latest(ctx, pastRuns)
	if err != nil {
		return nil
	}
	past := make([]analyze.Past, 0, len(es))
	for _, en := range es {
		past = append(past, analyze.Past{Command: en.Command, Cwd: en.Cwd, ExitCode: en.ExitCode, When: time.UnixMicro(en.StartedAt)})
	}
	return past
}

// Analyze analyses in within timeout, filling in the environment facts.
func (e *Engine) Analyze(ctx context.Context, in analyze.Input, timeout time.Duration) analyze.Result {
	if in.Env == nil && e.Facts != nil {
		in.Env = e.Facts(in.Shell)
	}
	if in.Home == "" {
		in.Home = e.Home
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return e.Analyzer.Analyze(ctx, in)
}

// A Failure is what the failure pipeline (Engine.Suggest) reads.
type Failure struct {
	Input analyze.Input
	// Entry is the failure as recorded; nil for one described by hand,
	// whose command, status and directory (Input's) are compared with
	// the history as of now.
	Entry *history.Entry
	// Store is the history, for the fixes learned from it and the last
	// success of the same command; nil: neither.
	Store *history.Store
	// Timeout bounds the analysis.
	Timeout time.Duration
	// AI, when set, is given the result last and returns it with a
	// model's fixes merged (the caller decides when to ask one).
	AI func(ctx context.Context, in analyze.Input, res analyze.Result) analyze.Result
	// Environ, when set, looks a variable up in the environment of the
	// shell the failure ran in, as it is now: set only where hookd
	// suggest runs as that shell's child (before.Options.Environ).
	Environ func(name string) (string, bool)
}

// Suggest is the failure pipeline every command runs (hookd suggest, the
// prompt's inline fixes, hookd run): the analysis (rules and the user's
// patterns), the fixes learned from the history put first (Learned), the
// fixes that restore what changed since the command last worked merged
// (WorkedBefore), then the model's (Failure.AI). It returns the result
// and the comparison with the last success, if any; printing and offering
// the fixes are the caller's.
func (e *Engine) Suggest(ctx context.Context, f Failure) (analyze.Result, *before.Comparison) {
	if f.Input.Env == nil && e.Facts != nil {
		f.Input.Env = e.Facts(f.Input.Shell) // one probe for the rules and the learned fixes
	}
	res := e.Analyze(ctx, f.Input, f.Timeout)
	res = Learned(ctx, f.Store, f.Input, res)
	var cmp *before.Comparison
	if f.Store != nil {
		en := f.Entry
		if en == nil {
			en = &history.Entry{Command: f.Input.Command, ExitCode: f.Input.ExitCode, Cwd: f.Input.Cwd,
				StartedAt: time.Now().UnixMicro()}
		}
		res, cmp = WorkedBefore(ctx, f.Store, *en, f.Input.Output, res, e.Home, f.Environ)
	}
	if f.AI != nil {
		res = f.AI(ctx, f.Input, res)
	}
	return res, cmp
}

// Input is the analysis input for a recorded command: its text, status,
// directory and shell, its output, and the history. When nothing was
// captured and last is true (the command is the last one of the caller's
// own session), the output is read back from the terminal; source then
// names the terminal ("" when the output came from the history, or there
// is none).
func (e *Engine) Input(ctx context.Context, rd *recall.Reader, en history.Entry, last bool) (in analyze.Input, source string) {
	in = analyze.Input{Command: en.Command, ExitCode: en.ExitCode, Cwd: en.Cwd, Shell: en.Shell, History: Past(ctx, rd.Store)}
	if o, err := rd.Output(ctx, en, "", 0); err == nil {
		in.Output = string(o.Text)
	} else if last && e.Terminal != nil {
		// Not captured: the terminal may still show it (the last command
		// only: further back, the screen is not to be trusted).
		if text, src, err := e.Terminal(ctx, en.Command); err == nil {
			in.Output, source = text, src
		}
	}
	return in, source
}

// Inline is the failure path of the shell hooks, run by the prompt after a
// command failed.
type Inline struct {
	// Seq is the command's sequence number in the reader's session (0:
	// the last command).
	Seq int64
	// Captured says the shell runs under the capturing proxy, which is
	// storing the output: wait for it.
	Captured bool
	// FixCommand is the name of the shell's fix command: a call of it is
	// not analysed, and keeps the fixes it was offered.
	FixCommand string
	// Offers is the directory of the offers (package offer).
	Offers string
	// Environ looks a variable up in the shell's environment now (the
	// shell runs this process on its failure path): Failure.Environ.
	Environ func(name string) (string, bool)
}

// Run analyses the command and offers its fixes for the shell's fix
// command (replacing any earlier offer of the session). ok is false when
// there is nothing to say: the command is not in the history, was the fix
// command itself, succeeded, or failed in an ordinary way (Result.Quiet).
func (e *Engine) Run(ctx context.Context, rd *recall.Reader, o Inline) (res analyze.Result, ok bool, err error) {
	res, _, ok, err = e.RunCompared(ctx, rd, o)
	return res, ok, err
}

// RunCompared is Run, and also returns the comparison with the last
// success of the same command (WorkedBefore), whose restoring fixes are
// among those offered.
func (e *Engine) RunCompared(ctx context.Context, rd *recall.Reader, o Inline) (res analyze.Result, cmp *before.Comparison, ok bool, err error) {
	var en history.Entry
	if o.Seq > 0 {
		en, err = rd.Store.BySeq(ctx, rd.Session, o.Seq)
	} else {
		en, err = rd.Store.Recent(ctx, rd.Session, 1)
	}
	if err != nil || isFixCall(en.Command, o.FixCommand) {
		return res, nil, false, nil // a declined fix keeps the fixes it declined
	}
	// The fixes of an earlier command never apply to this one.
	if err := offer.Clear(o.Offers, rd.Session); err != nil {
		return res, nil, false, err
	}
	if en.ExitCode == 0 {
		return res, nil, false, nil
	}
	in := analyze.Input{Command: en.Command, ExitCode: en.ExitCode, Cwd: en.Cwd, Shell: en.Shell, History: Past(ctx, rd.Store)}
	if o.Captured {
		// The proxy writes the output as soon as it sees the end mark,
		// which the shell printed just before starting this process.
		if out, err := rd.Output(ctx, en, "", 300*time.Millisecond); err == nil {
			in.Output = string(out.Text)
		}
	} else if e.Terminal != nil {
		// Without capture, the terminal (tmux, kitty, WezTerm) may still
		// show the output. Nothing is re-run to get it.
		if text, _, err := e.Terminal(ctx, en.Command); err == nil {
			in.Output = text
		}
	}
	res, cmp = e.Suggest(ctx, Failure{Input: in, Entry: &en, Store: rd.Store, Timeout: 500 * time.Millisecond, Environ: o.Environ})
	if res.Quiet {
		return res, nil, false, nil
	}
	return res, cmp, true, offer.Fixes(o.Offers, rd.Session, res.Fixes)
}

// LastFailed returns the session's last command that failed: the one the
// fixes on offer are for. Interrupted commands (exit status 130) and calls
// of the fix command (fixCmd) do not count; neither does a command older
// than the session's last 50 failures. None is an error wrapping
// history.ErrNotFound.
func LastFailed(ctx context.Context, rd *recall.Reader, fixCmd string) (history.Entry, error) {
	if rd.Session == "" {
		return history.Entry{}, fmt.Errorf("the last failure needs a shell with hookd loaded (%w)", recall.ErrNoSession)
	}
	es, err := rd.Store.List(ctx, history.Query{Session: rd.Session, Failed: true, Limit: 50})
	if err != nil {
		return history.Entry{}, err
	}
	for _, en := range es {
		if en.ExitCode != 130 && !isFixCall(en.Command, fixCmd) {
			return en, nil
		}
	}
	return history.Entry{}, fmt.Errorf("no failed command in this shell yet: %w", history.ErrNotFound)
}

// isFixCall reports the shell's own fix command (fix, fix 2), called name.
func isFixCall(cmd, name string) bool {
	f := strings.Fields(cmd)
	return name != "" && len(f) >= 1 && len(f) <= 2 && f[0] == name
}
