package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/hookd/hookd/history"
	"github.com/spf13/pflag"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// command is one subcommand.
type command struct {
	name    string
	args    string // synopsis after the name
	summary string
	run     func(ctx context.Context, e *env, args []string) error
}

var commands []command

func init() {
	commands = []command{
		{"init", "bash|zsh [--capture=pty|off]", "print the shell code to eval in ~/.bashrc or ~/.zshrc", cmdInit},
		{"history", "[-n N] [--failed] [--session] [--cwd DIR] [--since WHEN] [--json] [QUERY…]", "list and search the history", cmdHistory},
		{"show", "[REF] [--json]", "one command in full, with its output", cmdShow},
		{"out", "[REF] [--stream stdout|stderr]", "print a command's captured output exactly, for pipes and files", cmdOut},
		{"run", "[--no-suggest] [--] CMD [ARG…] | -c 'COMMAND LINE'", "run a command with its output captured and recorded, and a failure analysed; exits with its status", cmdRun},
		{"shell", "[--shell PATH [--login]] | [--shell PATH] -- CMD [ARG…]", "run a shell (or a command) under the output-capturing proxy; the shell code does this for you", cmdShell},
		{"status", "[--json]", "agent, database, spool and output capture state: the first thing to run when something is off", cmdStatus},
		{"suggest", "[REF | --failed] [--ai] [--json] | --command C --exit N [--output-file F] [--cwd D] [--ai] [--json]", "explain a failed command and propose up to three fixes, with --ai the LLM's too (nothing is run)", cmdSuggest},
		{"ask", "[-c] [--exec CMD]… [--no-context-exec] [--profile P] [--dry-run] [--raw] [-v] [--budget N] QUESTION… | /NAME [ARGS…] | --skills | --pin REF | --log [-n N] [--json] | --show ID [--json]", "ask an LLM; !!ctx, !-Nctx and !IDctx in the question bring in those commands with their output; the config's and the project's template, skills and context commands shape it", cmdAsk},
		{"diff", "[REF [REF2]] [--context N] [--json]", "how a run's output (the last command's, or REF's) differs from the last time the same command worked, or from REF2's; and what changed around it", cmdDiff},
		{"ctx", "[REF…] [--budget N]", "print the context block of commands (text, status, directory, output) for any LLM tool", cmdCtx},
		{"allow", "[FILE] | --list", "trust the nearest .hookd.yml (or FILE) to run its context commands, as it is now: an edit untrusts it", cmdAllow},
		{"deny", "[FILE]", "stop trusting the nearest .hookd.yml (or FILE): its context commands no longer run", cmdDeny},
		{"chain", "FILE [--dry-run]", "run a chain: a YAML file of steps (run, ask, expand) that pass outputs on as ${id.name}; the whole file is checked first, each run step recorded; exits with the status of the step that failed", cmdChain},
		{"commands", "[--names | --json]", "list the prompt files here (the project's .hookd/commands and .claude/commands, your own), with descriptions, and which shadows which", cmdCommands},
		{"expand", "NAME|PATH [--json] [ARGS…]", "expand a prompt file: arguments, @file (the project's files) and !`cmd` (allowlisted commands, 5 s each)", cmdExpand},
		{"import", "[bash|zsh] [--file F]", "import an existing history file (again: adds nothing twice)", cmdImport},
		{"forget", "ID… | --match REGEX", "delete entries for good, and what was learned from them", cmdForget},
		{"learned", "[--json] | --delete ID… | --clear", "list the fixes learned from your own fixes of failed commands (offered first when the failure comes back), or delete them", cmdLearned},
		{"daemon", "[--detach]", "the agent; the shell code starts it when it is not running", cmdDaemon},
		{"version", "", "print the version", cmdVersion},
	}
}

// rereadable are the commands that only read the history, run again after
// a damaged database was recovered under them.
var rereadable = map[string]bool{"history": true, "show": true, "out": true, "ctx": true, "status": true, "diff": true}

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
		if err == nil {
			err = c.run(ctx, e, args[1:])
		}
		if e != nil && errors.Is(err, history.ErrCorrupt) {
			// Damage found while reading (opening did not show it): the
			// database is recovered, and a command that only reads runs
			// again on the new one.
			if rerr := e.recoverStore(ctx); rerr != nil {
				err = rerr
			} else if rereadable[c.name] {
				err = c.run(ctx, e, args[1:])
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
			fmt.Fprintf(stderr, "hookd %s: %s\nusage: hookd %s %s\n", c.name, ue.msg, c.name, c.args)
			return 2
		default:
			var ec exitCode
			if errors.As(err, &ec) {
				if ec.msg != "" {
					fmt.Fprintf(stderr, "hookd: %s\n", ec.msg)
				}
				return ec.code
			}
			fmt.Fprintf(stderr, "hookd: %v\n", err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "hookd: unknown command %q\n", args[0])
	printUsage(stderr)
	return 2
}

// exitCode ends hookd with a given status and an optional message.
type exitCode struct {
	code int
	msg  string
}

func (e exitCode) Error() string { return e.msg }

func printUsage(w io.Writer) {
	fmt.Fprintf(w, `hookd %s: every command you type in bash and zsh, remembered.

Setup: add this line to the end of ~/.bashrc or ~/.zshrc
    eval "$(hookd init bash)"      # or: eval "$(hookd init zsh)"

Usage: hookd COMMAND [ARGS]

`, version)
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
Run 'hookd COMMAND --help' for a command's options.
`)
}

// flags returns a flag set for the named command that prints its help.
func flags(e *env, name string) *pflag.FlagSet {
	var c command
	for _, x := range commands {
		if x.name == name {
			c = x
		}
	}
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	e.flagSet = fs
	fs.Usage = func() {
		fmt.Fprintf(e.stdout, "usage: hookd %s %s\n\n%s.\n", c.name, c.args, capitalize(c.summary))
		if strings.Contains(c.args, "REF") {
			fmt.Fprint(e.stdout, "\nREF is a history id, or -N: the N-th most recent command of this shell\nsession (-1, the default, is the last one).\n")
		}
		if fs.HasFlags() {
			fmt.Fprintf(e.stdout, "\nOptions:\n%s", flagUsages(fs))
		}
	}
	return fs
}

// flagUsages lists the flags, one a line: "-n, --limit N  text".
func flagUsages(fs *pflag.FlagSet) string {
	type row struct{ left, usage string }
	var rows []row
	width := 0
	fs.VisitAll(func(f *pflag.Flag) {
		left := "    --" + f.Name
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
		width = max(width, len(left))
		rows = append(rows, row{left, usage})
	})
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, r.left, r.usage)
	}
	return b.String()
}

// parse parses args; -h/--help prints the command's help.
func parse(fs *pflag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		return err // pflag has printed the help
	}
	if err != nil {
		return usageError{err.Error()}
	}
	return nil
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

func cmdVersion(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "version")
	if err := parse(fs, args); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "hookd %s\n", version)
	return nil
}
