package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/recall"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/spf13/pflag"
)

// command is one subcommand, declared in one struct literal. Its flags are
// declared with it, as cmd/go's commands carry their flag sets: flags
// defines them on a flag set and returns the function that runs the
// command with their values. It defines flags and nothing else, so that
// --help and completion (hookd __complete) read a command's flags without
// running it.
type command struct {
	name    string
	args    string // synopsis after the name
	summary string
	// refs: the command takes REFs, whose -N form is taken out of the
	// arguments before the flags are parsed (it would read as a flag).
	refs bool
	// flags defines the command's flags on fs and returns the command,
	// to run once they are parsed with the positional arguments (the REFs
	// first, for a refs command).
	flags func(fs *pflag.FlagSet) runFunc
}

// runFunc runs a command; args are its positional arguments.
type runFunc func(ctx context.Context, e *env, args []string) error

var commands = []command{
	{name: "init", args: "bash|zsh|fish [--capture=pty|off] [--early]", summary: "print the shell code to eval in ~/.bashrc or ~/.zshrc (fish: source in config.fish)", flags: cmdInit},
	{name: "history", args: "[-n N | --all] [--failed] [--session] [--cwd DIR] [--since WHEN] [--author NAME] [--host NAME] [--json] [QUERY…]", summary: "list and search the history (coding agents' commands marked with their name, other machines' with their host)", flags: cmdHistory},
	{name: "search", args: "[QUERY…] [--json] [-n N] [--cwd DIR] [--session] [--failed] [--since WHEN] [--command-only|--output-only] [--scope S] [--mode M] [--agents] [--list]", summary: "search commands and what they printed; on a terminal (and on Ctrl-R at the prompt) interactive, with a preview of the output", flags: cmdSearch},
	{name: "show", args: "[REF] [--author NAME] [--json]", refs: true, summary: "one command in full, with its output", flags: cmdShow},
	{name: "out", args: "[REF] [--author NAME] [--stream stdout|stderr] [--color]", refs: true, summary: "print a command's captured output as the terminal showed it: its text for pipes and files (--color: with its colours), with its colours on a terminal", flags: cmdOut},
	{name: "run", args: "[--no-suggest] [--] CMD [ARG…] | -c 'COMMAND LINE'", summary: "run a command with its output captured and recorded, and a failure analysed; exits with its status", flags: cmdRun},
	{name: "shell", args: "[--shell PATH [--login]] | [--shell PATH] -- CMD [ARG…]", summary: "run a shell (or a command) under the output-capturing proxy; the shell code does this for you", flags: cmdShell},
	{name: "status", args: "[--json]", summary: "daemon, database, spool and output capture state: the first thing to run when something is off", flags: cmdStatus},
	{name: "suggest", args: "[REF | --failed] [--ai] [--json] | --command C --exit N [--output-file F] [--cwd D] [--ai] [--json]", refs: true, summary: "explain a failed command and propose up to three fixes, with --ai the LLM's too (nothing is run)", flags: cmdSuggest},
	{name: "ask", args: "[-c] [--exec CMD]… [--no-context-exec] [--profile P] [--dry-run] [--raw] [-v] [--budget N] QUESTION… | /NAME [ARGS…] | --skills | --pin REF | --log [-n N] [--json] | --show ID [--json]", summary: "ask an LLM; !!ctx, !-Nctx and !IDctx in the question bring in those commands with their output; the config's and the project's template, skills and context commands shape it", flags: cmdAsk},
	{name: "diff", args: "[REF [REF2]] [--author NAME] [--context N] [--json]", refs: true, summary: "how a run's output (the last command's, or REF's) differs from the last time the same command worked, or from REF2's; and what changed around it", flags: cmdDiff},
	{name: "stats", args: "[--by command|program|dir|repo|day|week|host|author] [--since WHEN] [--failed] [--scope S] [--cwd DIR] [--agents] [--sort ORDER] [-n N] [--calendar] [--json] [--width N]", summary: "counts, failure rates, total and median durations and time lost to failures per command (or program, directory, repository, day, week, host, author), with sparklines; flaky commands apart; --calendar a year of runs per day", flags: cmdStats},
	{name: "export", args: "[REF…] [--session] [--format md|html|json|text] [--author NAME]", refs: true, summary: "write commands (the last one, the REFs, or REF's whole session) with their outputs, redacted and made inert, for a bug report or a pull request: Markdown, a self-contained HTML page, JSON Lines or text", flags: cmdExport},
	{name: "note", args: "REF TEXT… [--author NAME]", refs: true, summary: "attach a note to a command (redacted like everything stored): shown by hookd show and hookd export, found by hookd search, gone with the command on forget", flags: cmdNote},
	{name: "ctx", args: "[REF…] [--author NAME] [--budget N]", refs: true, summary: "print the context block of commands (text, status, directory, output) for any LLM tool", flags: cmdCtx},
	{name: "allow", args: "[FILE] | --list", summary: "trust the nearest .hookd.yml (or FILE) to run its context commands, as it is now: an edit untrusts it", flags: cmdAllow},
	{name: "deny", args: "[FILE]", summary: "stop trusting the nearest .hookd.yml (or FILE): its context commands no longer run", flags: cmdDeny},
	{name: "chain", args: "FILE [--dry-run]", summary: "run a chain: a YAML file of steps (run, ask, expand) that pass outputs on as ${id.name}; the whole file is checked first, each run step recorded; exits with the status of the step that failed", flags: cmdChain},
	{name: "commands", args: "[--names | --json]", summary: "list the prompt files here (the project's .hookd/commands and .claude/commands, your own), with descriptions, and which shadows which", flags: cmdCommands},
	{name: "expand", args: "NAME|PATH [--json] [ARGS…]", summary: "expand a prompt file: arguments, @file (the project's files) and !`cmd` (allowlisted commands, 5 s each)", flags: cmdExpand},
	{name: "import", args: "[bash|zsh|fish] [--file F]", summary: "import an existing history file (again: adds nothing twice)", flags: cmdImport},
	{name: "forget", args: "ID… | --match REGEX", summary: "delete entries for good, and what was learned from them", flags: cmdForget},
	{name: "learned", args: "[--json] | --delete ID… | --clear", summary: "list the fixes learned from your own fixes of failed commands (offered first when the failure comes back), or delete them", flags: cmdLearned},
	{name: "mcp", args: "[--print-config claude-code|codex|gemini|cursor]", summary: "serve coding agents (Claude Code, Codex, Gemini CLI, Cursor) your history and outputs over MCP on stdin/stdout, read-only and redacted; --print-config prints the setup for an agent", flags: cmdMCP},
	{name: "agent-hook", args: "claude-code|codex|gemini|opencode|copilot [--print-config|--install|--uninstall]", summary: "record a command a coding agent ran, with its output and why (its description, your prompt), from the agent's hook payload on stdin (returns at once, exits 0); --print-config prints the hook for the agent's settings, --install/--uninstall edit them (a backup kept)", flags: cmdAgentHook},
	{name: "check", args: "[--json] -- CMD… | --hook claude-code", summary: "rate a command before it runs, by the risk rules that label fixes, and say why: exits 0, 1 or 2 for low, medium or high (for a coding agent's pre-tool hook)", flags: cmdCheck},
	{name: "record", args: "--author NAME [--exit N] [--cwd DIR] [--output-file F|-] [--session KEY] [--duration D] -- COMMAND…", summary: "record, without running it, a command another tool (a coding agent) already ran, with its output, as that tool's", flags: cmdRecord},
	{name: "sync", args: "[init | join | --status [--json]]", summary: "end-to-end encrypted sync of every machine's history through an S3-compatible bucket (sync: in the config): init makes the key and prints its recovery phrase, join takes it on stdin, no argument runs one pass now", flags: cmdSync},
	{name: "serve", args: "[--port N] [--open]", summary: "a local web page of the history (127.0.0.1 only): search as you type, each command's page with its output and what changed since it worked; prints its address, with its access token, first", flags: cmdServe},
	{name: "daemon", args: "[--detach]", summary: "the background process that stores what the shells record; the shell code starts it when it is not running", flags: cmdDaemon},
	{name: "version", args: "[--json]", summary: "print the version, the commit and date it was built from, the Go and SQLite versions, and whether full-text search (FTS5) is in", flags: cmdVersion},
}

// rereadable are the commands that only read the history, run again after
// a damaged database was recovered under them.
var rereadable = map[string]bool{"history": true, "search": true, "show": true, "out": true, "ctx": true, "status": true, "diff": true, "stats": true, "export": true}

// usageError is a mistake in how hookd was called: exit status 2.
type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) > 1 && args[0] == "help" {
			return run(ctx, []string{args[1], "--help"}, stdin, stdout, stderr)
		}
		w := stdout
		if len(args) == 0 {
			w = stderr
		}
		printUsage(w)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "--version" {
		args[0] = "version"
	}
	if args[0] == manCommand {
		return writeMan(stdout, stderr)
	}
	if args[0] == completeCommand {
		e, err := newEnv(stdin, stdout, stderr)
		if err == nil {
			err = cmdComplete(ctx, e, args[1:])
		}
		if err != nil {
			return 1
		}
		return 0
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		e, err := newEnv(stdin, stdout, stderr)
		var cmd runFunc
		var pos []string
		if err == nil {
			cmd, pos, err = c.parse(e.stdout, args[1:])
		}
		if err == nil {
			err = cmd(ctx, e, pos)
		}
		if e != nil && errors.Is(err, history.ErrCorrupt) {
			// Damage found while reading (opening did not show it): the
			// database is recovered, and a command that only reads runs
			// again on the new one.
			if rerr := e.recoverStore(ctx); rerr != nil {
				err = rerr
			} else if rereadable[c.name] {
				err = cmd(ctx, e, pos)
			} else {
				err = exitCode{1, "the history database was damaged and has been recovered (hookd status says how): run the command again"}
			}
		}
		var ue usageError
		switch {
		case err == nil:
			return 0
		case errors.Is(err, pflag.ErrHelp):
			return 0
		case errors.As(err, &ue):
			fmt.Fprintf(stderr, "hookd %s: %s\nusage: hookd %s %s\n", c.name, sanitize.Text(ue.msg), c.name, c.args)
			return 2
		default:
			var ec exitCode
			if errors.As(err, &ec) {
				if ec.msg != "" {
					fmt.Fprintf(stderr, "hookd: %s\n", sanitize.Text(ec.msg))
				}
				return ec.code
			}
			fmt.Fprintf(stderr, "hookd: %s\n", sanitize.Text(err.Error()))
			return 1
		}
	}
	// A mistake: a word for it and the way to the list, not the whole
	// usage.
	if strings.HasPrefix(args[0], "-") {
		fmt.Fprintf(stderr, "hookd: unknown option %q (options go after the command: hookd COMMAND --help)\n", sanitize.Line(args[0]))
	} else {
		names := make([]string, len(commands))
		for i, c := range commands {
			names[i] = c.name
		}
		mean := ""
		if near := analyze.Closest(args[0], names); near != "" {
			mean = ": did you mean " + near + "?"
		}
		fmt.Fprintf(stderr, "hookd: unknown command %q%s\n", sanitize.Line(args[0]), mean)
	}
	fmt.Fprintln(stderr, "Run 'hookd --help' for the commands.")
	return 2
}

// exitCode ends hookd with a given status and an optional message.
type exitCode struct {
	code int
	msg  string
}

func (e exitCode) Error() string { return e.msg }

// The setup lines --help and the manual page open with: one text for both.
const (
	setupIntro = "Setup: add this line to the end of ~/.bashrc or ~/.zshrc (fish: ~/.config/fish/config.fish)"
	setupLine  = `eval "$(hookd init bash)"      # or: eval "$(hookd init zsh)"; fish: hookd init fish | source`
	setupEarly = `eval "$(hookd init bash --early)"  # optional first line, with capture on: the rc then runs once (fish: hookd init fish --early | source)`
)

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "hookd %s: every command you type in bash, zsh and fish, remembered.\n\n%s\n    %s\n    %s\n\nUsage: hookd COMMAND [ARGS]\n\n",
		version, setupIntro, setupLine, setupEarly)
	width := 0
	for _, c := range commands {
		width = max(width, len(c.name))
	}
	for _, c := range commands {
		fmt.Fprintf(w, "  %-*s  %s\n", width, c.name, c.summary)
	}
	fmt.Fprint(w, `
REF is a history id, or -N: the N-th most recent command of this shell session
(-1, the default, is the last one).
At the prompt: ?? QUESTION asks an LLM (!!ctx brings the last command in), a line
of just !!ctx pins the last command for the next question, fix runs a fix.
`+searchKeysHelp+`
Run 'hookd COMMAND --help' for a command's options.
`)
}

// define returns c's flag set, its flags defined, whose --help prints c's
// help on w; and the command, bound to the flags.
func (c command) define(w io.Writer) (*pflag.FlagSet, runFunc) {
	fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	run := c.flags(fs)
	fs.Usage = func() {
		fmt.Fprintf(w, "usage: hookd %s %s\n\n%s.\n", c.name, c.args, capitalize(c.summary))
		if strings.Contains(c.args, "REF") {
			fmt.Fprint(w, "\nREF is a history id, or -N: the N-th most recent command of this shell\nsession (-1, the default, is the last one).\n")
		}
		if fs.HasFlags() {
			fmt.Fprintf(w, "\nOptions:\n%s", flagUsages(fs))
		}
		if c.name == "search" {
			fmt.Fprint(w, "\n"+searchKeysHelp)
		}
	}
	return fs, run
}

// parse parses c's command line (-h/--help prints its help on w) and
// returns the command and its positional arguments, the REFs first.
func (c command) parse(w io.Writer, args []string) (runFunc, []string, error) {
	var refs []string
	if c.refs {
		args, refs = recall.SplitRefs(args)
	}
	fs, run := c.define(w)
	err := fs.Parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		return nil, nil, err // the help is printed
	}
	if err != nil {
		return nil, nil, usageError{err.Error()}
	}
	return run, append(refs, fs.Args()...), nil
}

// flagUsages lists the flags, one a line: "-n, --limit N  text".
func flagUsages(fs *pflag.FlagSet) string {
	type row struct{ left, usage string }
	var rows []row
	width := 0
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		left, usage := flagUsage(f)
		if f.Shorthand == "" {
			left = "    " + left
		}
		width = max(width, len(left))
		rows = append(rows, row{left, usage})
	})
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, r.left, r.usage)
	}
	return b.String()
}

// flagUsage returns how a flag is written ("-n, --limit N") and its text,
// for --help and the manual page.
func flagUsage(f *pflag.Flag) (left, usage string) {
	left = "--" + f.Name
	if f.Shorthand != "" {
		left = "-" + f.Shorthand + ", --" + f.Name
	}
	arg, usage := pflag.UnquoteUsage(f) // a `NAME` in the usage names the argument
	if f.Value.Type() != "bool" {
		if arg == "" || arg == "string" || arg == "int" {
			arg = strings.ToUpper(f.Name)
		}
		left += " " + arg
	}
	return left, usage
}

// oneRef returns the single REF among refs ("" for none, which means -1).
func oneRef(refs []string) (string, error) {
	switch len(refs) {
	case 0:
		return "", nil
	case 1:
		return refs[0], nil
	}
	return "", usagef("one REF at most")
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
