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
	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/config"
	"github.com/hookd/hookd/history"
)

func cmdSuggest(ctx context.Context, e *env, args []string) error {
	args, refs := splitRefs(args)
	fs := flags(e, "suggest")
	command := fs.String("command", "", "analyse this command line instead of one from the history")
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
	if err := parse(fs, args); err != nil {
		return err
	}
	var shellNames []string
	if *names {
		b, _ := io.ReadAll(io.LimitReader(e.stdin, 1<<20))
		shellNames = strings.Fields(string(b))
	}
	if *inline {
		return suggestInline(ctx, e, *seq, *width, *captured, shellNames)
	}
	refs = append(refs, fs.Args()...)
	in := analyze.Input{Shell: *shell}
	if in.Shell == "" {
		in.Shell = filepath.Base(os.Getenv("SHELL"))
	}
	var store *history.Store
	switch {
	case *command != "":
		if len(refs) > 0 {
			return usagef("give a REF or --command, not both")
		}
		in.Command, in.ExitCode, in.Cwd = *command, *exit, *cwd
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
		if _, err := os.Stat(e.dbPath); err == nil {
			store, _ = e.openStore(ctx, time.Second)
		}
	default:
		ref, err := oneRef(refs)
		if err != nil {
			return err
		}
		if *outputFile != "" || *cwd != "" {
			return usagef("--output-file and --cwd go with --command")
		}
		s, err := e.openFlushed(ctx)
		if err != nil {
			return err
		}
		store = s
		en, err := resolveRef(ctx, e, s, ref)
		if err != nil {
			return err
		}
		in.Command, in.ExitCode, in.Cwd = en.Command, en.ExitCode, en.Cwd
		if en.Shell != "" {
			in.Shell = en.Shell
		}
		if o, err := e.outputOf(ctx, s, en, "", 0); err == nil && noOutputReason(o) == "" {
			in.Output = string(o.Text)
		} else if (ref == "" || ref == "-1") && en.Session == e.session {
			// Not captured: the terminal may still show it (the last
			// command only: further back, the screen is not to be trusted).
			if out, err := capture.FromTerminal(ctx, os.LookupEnv, en.Command, 300*time.Millisecond); err == nil {
				in.Output = out.Text
				fmt.Fprintf(e.stderr, "hookd: no output was captured; read it back from %s\n", out.Source)
			}
		}
	}
	if store != nil {
		defer store.Close()
		in.History = recentHistory(ctx, store)
	}
	in.Env = newProbe(in.Shell, shellNames...)
	actx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	res := e.analyzer(true).Analyze(actx, in)
	if *asJSON {
		return printSuggestJSON(e, res)
	}
	printSuggest(e, in, res)
	return nil
}

// recentHistory returns the user's recent commands, newest first, for the
// rules that prefer what this user ran successfully before.
func recentHistory(ctx context.Context, s *history.Store) []analyze.Past {
	es, err := s.List(ctx, history.Query{Limit: 500})
	if err != nil {
		return nil
	}
	past := make([]analyze.Past, 0, len(es))
	for _, en := range es {
		past = append(past, analyze.Past{Command: en.Command, Cwd: en.Cwd, ExitCode: en.ExitCode, When: time.UnixMicro(en.StartedAt)})
	}
	return past
}

type suggestJSON struct {
	ErrorType string `json:"error_type"`
	RootCause string `json:"root_cause"`
	// Explanation is the root cause as a sentence for the user (for tools
	// that look for an explanation under that name).
	Explanation string    `json:"explanation"`
	Method      string    `json:"method"`
	Fixes       []fixJSON `json:"fixes"`
}

type fixJSON struct {
	Command     string  `json:"command"`
	Explanation string  `json:"explanation"`
	Risk        string  `json:"risk"`
	Confidence  float64 `json:"confidence"`
}

func printSuggestJSON(e *env, r analyze.Result) error {
	out := suggestJSON{ErrorType: r.ErrorType, RootCause: r.RootCause, Explanation: r.RootCause, Method: r.Method, Fixes: []fixJSON{}}
	for _, f := range r.Fixes {
		out.Fixes = append(out.Fixes, fixJSON{f.Command, f.Explanation, f.Risk, f.Confidence})
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

func printSuggest(e *env, in analyze.Input, r analyze.Result) {
	if in.ExitCode == 0 {
		fmt.Fprintf(e.stdout, "%s succeeded (exit status 0): nothing to fix\n", sanitizeLine(in.Command))
		return
	}
	if r.Quiet {
		return
	}
	if r.RootCause != "" {
		fmt.Fprintln(e.stdout, sanitizeLine(r.RootCause))
	}
	for i, f := range r.Fixes {
		risk := e.out.String(f.Risk)
		switch f.Risk {
		case analyze.RiskHigh:
			risk = risk.Foreground(e.out.Color("1")).Bold()
		case analyze.RiskMedium:
			risk = risk.Foreground(e.out.Color("3"))
		}
		fmt.Fprintf(e.stdout, "  %d. %s   (%s) %s\n", i+1, e.out.String(sanitizeLine(f.Command)).Bold(), risk, sanitizeLine(f.Explanation))
	}
}

// suggestInline is the failure path of the shell hooks: analyse the command
// just recorded, print up to three lines that fit the terminal, and keep the
// fixes where the shell's `fix` reads them. It prints nothing for a command
// that succeeded, was interrupted, or answered an ordinary "no".
func suggestInline(ctx context.Context, e *env, seq int64, width int, captured bool, names []string) error {
	if e.session == "" {
		return nil
	}
	fixes := filepath.Join(e.stateDir, "fixes", e.session)
	s, err := e.openFlushed(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	var en history.Entry
	if seq > 0 {
		en, err = s.BySeq(ctx, e.session, seq)
	} else {
		en, err = s.Recent(ctx, e.session, 1)
	}
	cfg := e.config()
	if err != nil || isFixCall(en.Command, string(cfg.Fix.Command)) {
		return nil // a declined fix keeps the fixes it declined
	}
	os.Remove(fixes) // the fixes of an earlier command never apply to this one
	if en.ExitCode == 0 {
		return nil
	}
	in := analyze.Input{Command: en.Command, ExitCode: en.ExitCode, Cwd: en.Cwd, Shell: en.Shell, History: recentHistory(ctx, s)}
	if captured {
		// The proxy writes the output as soon as it sees the end mark,
		// which the shell printed just before starting this process.
		if o, err := e.outputOf(ctx, s, en, "", 300*time.Millisecond); err == nil && noOutputReason(o) == "" {
			in.Output = string(o.Text)
		}
	} else if out, err := capture.FromTerminal(ctx, os.LookupEnv, en.Command, 300*time.Millisecond); err == nil {
		// Without capture, the terminal (tmux, kitty, WezTerm) may still
		// show the output. Nothing is re-run to get it.
		in.Output = out.Text
	}
	in.Env = newProbe(in.Shell, names...)
	actx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	r := e.analyzer(false).Analyze(actx, in)
	if r.Quiet {
		return nil
	}
	learn := cfg.Fix.Learn
	var keep []byte
	for _, f := range r.Fixes {
		keep = append(append(keep, f.Command...), 0)
	}
	if len(keep) > 0 {
		if err := os.MkdirAll(filepath.Dir(fixes), 0o700); err == nil {
			os.WriteFile(fixes, keep, 0o600)
		}
	}
	width = max(width, 20)
	line := func(text string) string {
		text = sanitizeLine(text)
		if r := []rune(text); len(r) > width-4 {
			text = string(r[:width-5]) + "…"
		}
		return text
	}
	if len(r.Fixes) == 0 {
		// A cause worth a line; "it failed" is not news.
		if r.RootCause != "" && r.ErrorType != analyze.Unknown {
			fmt.Fprintf(e.stdout, "  %s %s\n", e.out.String("↳").Faint(), e.out.String(line(r.RootCause)).Faint())
		}
		return nil
	}
	for i, f := range r.Fixes {
		label := "fix"
		if i > 0 {
			label = fmt.Sprintf("fix %d", i+1)
		}
		text := line(f.Command)
		risk := ""
		if f.Risk != analyze.RiskLow {
			risk = " " + e.out.String("("+f.Risk+" risk)").Foreground(e.out.Color("3")).String()
		}
		fmt.Fprintf(e.stdout, "  %s %s%s   %s\n", e.out.String("↳").Faint(), e.out.String(text).Bold(), risk,
			e.out.String(label).Faint())
		if learn && f.Explanation != "" {
			// Learning mode: why this fix works, under it.
			fmt.Fprintf(e.stdout, "    %s\n", e.out.String(line(f.Explanation)).Faint())
		}
	}
	return nil
}

// isFixCall reports the shell's own fix command (fix, fix 2), called name.
func isFixCall(cmd, name string) bool {
	f := strings.Fields(cmd)
	return name != "" && len(f) >= 1 && len(f) <= 2 && f[0] == name
}

// analyzer is the built-in rules plus the user's patterns file; with warn,
// what is wrong in that file is said on stderr (the prompt's path stays
// quiet: a broken pattern file never breaks the shell).
func (e *env) analyzer(warn bool) *analyze.Analyzer {
	a := &analyze.Analyzer{Rules: analyze.DefaultRules()}
	specs, warns := config.LoadPatterns(e.patternsFile)
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
			warns = append(warns, config.Warning{File: e.patternsFile, Line: s.Line, Msg: err.Error(), Then: "pattern skipped"})
		}
	}
	if warn {
		for _, w := range warns {
			fmt.Fprintf(e.stderr, "hookd: warning: %s\n", w)
		}
	}
	return a
}

// newProbe gathers environment facts for the analysis, lazily.
// newProbe gathers environment facts for the analysis; names are the
// shell's aliases and functions, when it told them (they count as
// commands for the typo rules: both are typed the same way).
func newProbe(shell string, names ...string) *probe.Probe {
	return probe.New(probe.Options{Shell: shell, Path: os.Getenv("PATH"), VirtualEnv: os.Getenv("VIRTUAL_ENV"),
		UID: os.Getuid(), Functions: names})
}
