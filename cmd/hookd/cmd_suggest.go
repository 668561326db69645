package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/probe"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/ai/ask"
	"github.com/hookd/hookd/internal/ai/llm"
	"github.com/hookd/hookd/internal/fix/aifix"
	"github.com/hookd/hookd/internal/fix/before"
	"github.com/hookd/hookd/internal/fix/offer"
	"github.com/hookd/hookd/internal/fix/suggest"
	"github.com/hookd/hookd/internal/recording/recall"
	"github.com/hookd/hookd/internal/recording/scrollback"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/ui/style"
	"github.com/spf13/pflag"
)

// cmdSuggest is `hookd suggest`: the fixes for a failed command (the last
// one, or REF), printed, as JSON, or inline for the shell hooks.
func cmdSuggest(fs *pflag.FlagSet) runFunc {
	command := fs.String("command", "", "analyse this command line instead of one from the history (a described failure: fixes through sudo are kept, as hookd cannot know who ran it)")
	exit := fs.Int("exit", 1, "its exit status (with --command)")
	outputFile := fs.String("output-file", "", "a file holding its output, stdout and stderr (with --command)")
	cwd := fs.String("cwd", "", "the directory it ran in (with --command; default: here)")
	shell := fs.String("shell", "", "the shell it ran in: bash or zsh (default: $SHELL's)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	inline := fs.Bool("inline", false, "at most three short lines for the prompt, and keep the fixes for the shell's `fix` (the shell code uses this)")
	seq := fs.Int64("seq", 0, "with --inline: the command with this sequence number in this session (default: the last)")
	width := fs.Int("width", 80, "with --inline: the terminal's width")
	captured := fs.Bool("captured", false, "with --inline: the shell runs under hookd shell, which is storing the output (wait for it)")
	names := fs.Bool("names", false, "read the shell's alias and function names from stdin (for the typo rules)")
	failed := fs.Bool("failed", false, "the last command that failed in this shell (the one fix offers fixes for), instead of a REF")
	ai := fs.Bool("ai", false, "also ask the LLM (llm: in the config) and merge its fixes with the rules'; the rules stand alone if it fails or is slow")
	aiTimeout := fs.Duration("ai-timeout", aifix.DefaultTimeout, "with --ai: how long to wait for the LLM")
	return func(ctx context.Context, e *env, args []string) error {
		var shellNames []string
		if *names {
			b, _ := io.ReadAll(io.LimitReader(e.stdin, 1<<20))
			shellNames = strings.Fields(string(b))
		}
		if *inline {
			return suggestInline(ctx, e, *seq, *width, *captured, shellNames)
		}
		refs := args
		eng := e.engine(true, shellNames)
		in := analyze.Input{Shell: *shell}
		var store *history.Store    // for the fixes learned from the history
		var recorded *history.Entry // the failure, when it is in the history
		if in.Shell == "" {
			in.Shell = filepath.Base(os.Getenv("SHELL"))
		}
		switch {
		case *command != "":
			if len(refs) > 0 || *failed {
				return usagef("give a REF, --failed or --command, not more than one")
			}
			in.Command, in.ExitCode, in.Cwd = *command, *exit, *cwd
			in.Described = true // not recorded here: who ran it is unknown (analyze.Input.Described)
			if in.Cwd == "" {
				in.Cwd, _ = os.Getwd()
			}
			if *outputFile != "" {
				b, err := os.ReadFile(*outputFile)
				if err != nil {
					return fmt.Errorf("suggest: %w", err)
				}
				in.Output = string(b)
			}
			// The history helps (what succeeded here before), but asking a
			// question must not create a database.
			if _, err := os.Stat(e.paths.DB); err == nil {
				if s, err := e.openStore(ctx, time.Second, false); err == nil {
					defer s.Close()
					in.History = suggest.Past(ctx, s)
					store = s
				}
			}
		default:
			ref, err := oneRef(refs)
			if err != nil {
				return err
			}
			if *outputFile != "" || *cwd != "" {
				return usagef("--output-file and --cwd go with --command")
			}
			if *failed && ref != "" {
				return usagef("give a REF or --failed, not both")
			}
			s, err := e.openFlushed(ctx)
			if err != nil {
				return err
			}
			defer closeUnlessExiting(s)
			store = s
			rd := e.reader(s)
			var en history.Entry
			if *failed {
				en, err = suggest.LastFailed(ctx, rd, string(e.config().Fix.Command))
			} else {
				en, err = entry(ctx, rd, ref)
			}
			if err != nil {
				return err
			}
			sh := in.Shell
			var source string
			in, source = eng.Input(ctx, rd, en, rd.Last(ctx, en))
			if in.Shell == "" {
				in.Shell = sh
			}
			if source != "" {
				fmt.Fprintf(e.stderr, "hookd: no output was captured; read it back from %s\n", source)
			}
			recorded = &en
		}
		f := suggest.Failure{Input: in, Entry: recorded, Store: store, Timeout: 2 * time.Second}
		if recorded != nil && e.session != "" && recorded.Session == e.session {
			// The failure is this shell's: its environment is this
			// process's (a variable the output says is missing is
			// compared with what it was when the command last worked).
			f.Environ = os.LookupEnv
		}
		if *ai && in.ExitCode != 0 {
			f.AI = func(ctx context.Context, in analyze.Input, res analyze.Result) analyze.Result {
				return e.aiAnalysis(ctx, in, res, *aiTimeout, !*asJSON)
			}
		}
		res, cmp := eng.Suggest(ctx, f)
		if f.AI != nil && len(res.Fixes) > 0 && e.session != "" && *command == "" {
			// fix N runs these, as after the inline suggestions.
			offer.Fixes(e.paths.Offers, e.session, res.Fixes)
		}
		if *asJSON {
			enc := json.NewEncoder(e.stdout)
			enc.SetEscapeHTML(false)
			return enc.Encode(suggest.JSONWorked(res, cmp))
		}
		printSuggest(e, in, res, cmp)
		return nil
	}
}

// aiAnalysis asks the LLM about the failure in and merges its answer with
// the rules' res; on any failure it says why and the rules stand.
func (e *env) aiAnalysis(ctx context.Context, in analyze.Input, res analyze.Result, timeout time.Duration, say bool) analyze.Result {
	lc, _, err := e.llmConfig(ctx)
	var prov llm.Provider
	if err == nil {
		prov, err = llm.New(lc, nil)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "hookd: --ai: %v; the rules' analysis only\n", err)
		return res
	}
	req, _ := aifix.Prepare(in, res, ask.OS(), nil)
	e.firstRemoteNotice(prov.Endpoint())
	if say {
		// The answer may take seconds: say what is being asked meanwhile.
		fmt.Fprintln(e.stderr, e.palette.Render(style.Dim, fmt.Sprintf("hookd: asking the LLM why %s failed (exit status %d)…", recall.Short(in.Command), in.ExitCode)))
	}
	out := aifix.Analyze(ctx, prov, req, res, timeout)
	if out.Fallback != "" {
		fmt.Fprintf(e.stderr, "hookd: --ai: %s; the rules' analysis only\n", sanitize.Line(out.Fallback))
	}
	return out.Result
}

// printSuggest prints what `hookd suggest` found for in: its fixes, the
// comparison with the last success, or that a command that succeeded has
// nothing to fix.
func printSuggest(e *env, in analyze.Input, r analyze.Result, cmp *before.Comparison) {
	if in.ExitCode == 0 {
		fmt.Fprintf(e.stdout, "%s succeeded (exit status 0): nothing to fix\n", sanitize.Line(in.Command))
		return
	}
	suggest.Printer{Palette: e.palette, Asked: true, Worked: suggest.WorkedLine(cmp)}.Print(e.stdout, r)
}

// closeUnlessExiting closes the history, unless the process exits next: on
// the failure path the prompt waits for this process, and its exit closes
// the file without the 0.4 ms of a checkpoint (the daemon or the next
// writer makes it; SQLite's journal keeps every commit meanwhile).
func closeUnlessExiting(s *history.Store) {
	if !processExits {
		s.Close()
	}
}

// suggestInline is the failure path of the shell hooks: analyse the command
// just recorded, print up to three lines that fit the terminal, and offer
// the fixes to the shell's `fix`. It prints nothing for a command that
// succeeded, was interrupted, or answered an ordinary "no".
func suggestInline(ctx context.Context, e *env, seq int64, width int, captured bool, names []string) error {
	if e.session == "" {
		return nil
	}
	s, err := e.openFlushed(ctx)
	if err != nil {
		return err
	}
	defer closeUnlessExiting(s)
	cfg := e.config()
	r, cmp, ok, err := e.engine(false, names).RunCompared(ctx, e.reader(s), suggest.Inline{Seq: seq, Captured: captured,
		FixCommand: string(cfg.Fix.Command), Offers: e.paths.Offers, Environ: os.LookupEnv})
	if !ok {
		return err
	}
	return suggest.Printer{Palette: e.palette, Inline: true, Width: width, Learn: cfg.Fix.Learn, Worked: suggest.WorkedLine(cmp)}.Print(e.stdout, r)
}

// engine is the failure analysis with the user's patterns; with warn, what
// is wrong in the patterns file is said on stderr (the prompt's path stays
// quiet: a broken pattern file never breaks the shell). names are the
// shell's aliases and functions, when it told them: they count as commands
// for the typo rules.
func (e *env) engine(warn bool, names []string) *suggest.Engine {
	a, warns := suggest.NewAnalyzer(e.paths.Patterns)
	if warn {
		for _, w := range warns {
			fmt.Fprintf(e.stderr, "hookd: warning: %s\n", w)
		}
	}
	return &suggest.Engine{
		Analyzer: a,
		Facts: func(shell string) analyze.Facts {
			return probe.New(probe.Options{Shell: shell, Path: os.Getenv("PATH"), VirtualEnv: os.Getenv("VIRTUAL_ENV"),
				UID: os.Getuid(), Functions: names, AptIndex: e.paths.AptNames, ExeIndex: e.paths.PathNames, VocabDir: e.paths.Vocab,
				Environ: os.Environ()})
		},
		Terminal: e.terminal,
		Home:     e.home,
	}
}

// terminal reads the last command's output back from the terminal it runs
// in (tmux, kitty, WezTerm) when nothing was captured.
func (e *env) terminal(ctx context.Context, command string) (string, string, error) {
	out, err := scrollback.Read(ctx, os.LookupEnv, command, 300*time.Millisecond)
	return out.Text, out.Source, err
}
