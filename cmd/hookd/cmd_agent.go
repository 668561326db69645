package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/spf13/pflag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/internal/recording/agenthook"
	"github.com/hookd/hookd/internal/recording/runrecord"
)

// cmdAgentHook records a command a coding agent ran, from its hook's
// payload on stdin (Claude Code's and Codex's PostToolUse, Gemini CLI's
// AfterTool, hookd's opencode plugin's tool.execute.after, Copilot CLI's
// postToolUse), or a prompt
// the user gave it. It never holds the agent up: it reads, writes a spool
// file and the outputs, and exits 0 whatever happens; what it could not
// record, or would not (a payload that is not a shell call), is a line in
// hookd.log.
func cmdAgentHook(fs *pflag.FlagSet) runFunc {
	printConfig := fs.Bool("print-config", false, "print the agent's hook configuration (settings.json hooks, config.toml tables, opencode plugin), and where it goes")
	install := fs.Bool("install", false, "add the hook to the agent's settings file (~/.claude/settings.json, ~/.gemini/settings.json, ~/.codex/config.toml, opencode's plugin directory, this repository's .github/hooks for copilot), keeping all else and a backup")
	uninstall := fs.Bool("uninstall", false, "take hookd's hook out of the agent's settings file again")
	settings := fs.String("settings", "", "with --install/--uninstall: the settings `FILE` to edit (a project's .claude/settings.json…)")
	check := fs.Bool("check", false, "claude-code: with --install or --print-config, also a PreToolUse hook (hookd check --hook claude-code) that has Claude Code ask you before a risky command, even one its settings allow; with --uninstall, take out only that one")
	return func(ctx context.Context, e *env, args []string) error {
		if len(args) != 1 {
			return usagef("name the agent: %s", strings.Join(agenthook.Hooked, ", "))
		}
		agent := args[0]
		if !slices.Contains(agenthook.Hooked, agent) {
			return usagef("no hook for %q: one of %s has one (any other tool: hookd record --author NAME -- COMMAND; cursor: hookd mcp --print-config cursor)", agent, strings.Join(agenthook.Hooked, ", "))
		}
		if *printConfig {
			s, err := agenthook.HookConfig(agent, e.executable(), agenthook.Hooks{Check: *check})
			if err != nil {
				return usageError{err.Error()}
			}
			fmt.Fprintf(e.stderr, "# %s\n", s.Where)
			_, err = io.WriteString(e.stdout, s.Text)
			return err
		}
		if *check && !*install && !*uninstall {
			return usagef("--check goes with --install, --uninstall or --print-config")
		}
		if *install || *uninstall {
			if *install && *uninstall {
				return usagef("--install and --uninstall: give one")
			}
			return e.installHook(agent, *settings, *install, agenthook.Hooks{Check: *check})
		}
		if agent == "gemini" {
			// Gemini CLI reads a hook's stdout as JSON: an empty object
			// changes nothing.
			defer io.WriteString(e.stdout, "{}\n")
		}
		payload, err := io.ReadAll(io.LimitReader(e.stdin, agenthook.MaxPayload+1))
		if err == nil && len(payload) > agenthook.MaxPayload {
			err = fmt.Errorf("the payload is larger than %d MiB", agenthook.MaxPayload>>20)
		}
		if err != nil {
			e.agentLog("agent-hook "+agent+": not recorded", err)
			return nil
		}
		ev, err := agenthook.Parse(agent, payload, time.Now())
		if err != nil {
			e.agentLog("agent-hook "+agent+": nothing recorded", err)
			return nil
		}
		if ev.Prompt != nil {
			if err := e.savePrompt(agent, *ev.Prompt); err != nil {
				e.agentLog("agent-hook "+agent, err)
			}
			return nil
		}
		call := *ev.Call
		c := runrecord.Command{Text: call.Command, Cwd: call.Cwd, Status: call.Exit, Start: call.Start, End: call.End, Intent: call.Intent}
		limit := int(e.config().Output.Limit)
		if !call.Background {
			c.Output = capture.NewBuffer(limit)
			if call.Apart {
				c.Stdout, c.Stderr = capture.NewBuffer(limit), capture.NewBuffer(limit)
				c.Stdout.Write([]byte(call.Stdout))
				c.Stderr.Write([]byte(call.Stderr))
				c.Output.Write([]byte(call.Stdout))
				c.Output.Write([]byte(call.Stderr))
			} else {
				c.Output.Write([]byte(call.Output))
			}
		}
		if err := e.saveAgent(agent, call.SessionKey, c); err != nil {
			e.agentLog("agent-hook "+agent, err)
		}
		return nil
	}
}

// cmdRecord records a command that another tool ran, as that tool's.
func cmdRecord(fs *pflag.FlagSet) runFunc {
	author := fs.String("author", "", "who ran it: a coding agent's `NAME` (letters, digits, - _ .); required")
	exit := fs.Int("exit", 0, "its exit status `N`")
	cwd := fs.String("cwd", "", "the directory `DIR` it ran in (default: this one)")
	outFile := fs.String("output-file", "", "what it printed, from file `F` (- for stdin)")
	session := fs.String("session", "", "the tool's own session `KEY`: its commands go to one hookd session (default: the shell session hookd runs in, else one per day)")
	dur := fs.Duration("duration", 0, "how long it ran (`D`: 1.5s, 2m)")
	fs.SetInterspersed(false)
	return func(ctx context.Context, e *env, args []string) error {
		switch {
		case *author == "":
			return usagef("--author NAME is required (an agent's commands are never recorded as yours)")
		case !runrecord.ValidAuthor(*author):
			return usagef("bad --author %q: letters, digits, - _ . (at most 64, starting with a letter or digit)", *author)
		case len(args) == 0:
			return usagef("give the command after --")
		case *dur < 0:
			return usagef("--duration must not be negative")
		}
		text := args[0]
		if len(args) > 1 {
			text = runrecord.Text(args)
		}
		if strings.TrimSpace(text) == "" {
			return usagef("the command is empty")
		}
		dir := *cwd
		if dir == "" {
			dir, _ = os.Getwd()
		} else if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		end := time.Now()
		c := runrecord.Command{Text: text, Cwd: dir, Status: *exit, Start: end.Add(-*dur), End: end}
		if *outFile != "" {
			var r io.Reader = e.stdin
			if *outFile != "-" {
				f, err := os.Open(*outFile)
				if err != nil {
					return fmt.Errorf("--output-file: %w", err)
				}
				defer f.Close()
				r = f
			}
			c.Output = capture.NewBuffer(int(e.config().Output.Limit))
			if _, err := io.Copy(c.Output, r); err != nil {
				return fmt.Errorf("--output-file: %w", err)
			}
		}
		key := *session
		if key == "" {
			key = e.session
		}
		if key == "" {
			key = end.Format("2006-01-02")
		}
		return e.saveAgent(*author, key, c)
	}
}

// saveAgent records c as a command of the coding agent author, in the
// hookd session of the agent's session key.
func (e *env) saveAgent(author, key string, c runrecord.Command) error {
	seq, err := runrecord.NextSeq(e.paths.AgentSeq)
	if err != nil {
		return fmt.Errorf("not recorded: %w", err)
	}
	return runrecord.SaveAgent(e.paths.Spool, e.paths.Outbox, agentWriter(author), c, runrecord.AgentSession(author, key), seq)
}

// savePrompt records a prompt given to the coding agent author, unless
// agents.keep_prompts is off: then it is not written anywhere.
func (e *env) savePrompt(author string, p agenthook.Prompt) error {
	if !e.config().Agents.KeepPrompts {
		return nil
	}
	seq, err := runrecord.NextSeq(e.paths.AgentSeq)
	if err != nil {
		return fmt.Errorf("prompt not recorded: %w", err)
	}
	return runrecord.SavePrompt(e.paths.Spool, agentWriter(author), runrecord.AgentSession(author, p.SessionKey), seq, p.At, p.Text)
}

// agentWriter is the writer of an agent's records: this process, for the
// agent author.
func agentWriter(author string) runrecord.Writer {
	host, _ := os.Hostname()
	return runrecord.Writer{Shell: "agent", Version: version, PID: os.Getpid(), Host: host, User: os.Getenv("USER"),
		UID: os.Getuid(), Author: author}
}

// agentLog writes a line about a hook's payload to hookd.log, where
// hookd status sends the user; the hook itself stays silent.
func (e *env) agentLog(what string, err error) {
	log, closer, lerr := e.logger()
	if lerr != nil {
		return
	}
	defer closer.Close()
	if errors.Is(err, agenthook.ErrIgnored) {
		log.Info(what, "why", err.Error())
		return
	}
	log.Warn(what, "error", err.Error())
}

// executable is the path of this hookd, for the snippets that tell other
// programs how to run it ("hookd" when it cannot be found).
func (e *env) executable() string {
	p, err := os.Executable()
	if err != nil {
		return "hookd"
	}
	return p
}

// installHook adds hookd's hook to agent's settings file (path, or the
// agent's own), or takes it out, and says what it did.
func (e *env) installHook(agent, path string, install bool, which agenthook.Hooks) error {
	if path == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return err
		}
		if path, err = agenthook.Settings(agent, home, os.Getenv("XDG_CONFIG_HOME")); err != nil {
			return usageError{err.Error()}
		}
	}
	changed, backup, err := agenthook.Install(agent, e.executable(), path, install, which)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	did := "installed in"
	switch {
	case !changed && install:
		did = "already in"
	case !changed:
		did = "not in"
	case !install:
		did = "removed from"
	}
	what := "hook"
	switch {
	case which.Check && install:
		what = "hook and consent hook"
	case which.Check:
		what = "consent hook"
	}
	fmt.Fprintf(e.stdout, "hookd's %s %s: %s %s\n", agent, what, did, path)
	if backup != "" {
		fmt.Fprintf(e.stdout, "the file as it was: %s\n", backup)
	}
	return nil
}
