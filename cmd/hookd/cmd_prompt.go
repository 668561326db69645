package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/hookd/hookd/internal/ai/promptfile"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/spf13/pflag"
)

// promptOptions are how prompt files expand here: the places for cwd, the
// built-in allowlist and the user's own prompt_files.allow.
func (e *env) promptOptions(cwd string) promptfile.Options {
	return promptfile.Options{Places: promptfile.PlacesFor(cwd, e.paths.Commands, e.home), Cwd: cwd,
		Allow: promptfile.Allowlist{Extra: e.config().PromptFiles.Allow}, Env: e.commandEnv()}
}

func cmdCommands(fs *pflag.FlagSet) runFunc {
	names := fs.Bool("names", false, "print only the names that resolve, one a line (for completion)")
	asJSON := fs.Bool("json", false, "print JSON Lines: name, path, place, description, shadowed_by")
	return func(ctx context.Context, e *env, args []string) error {
		if len(args) > 0 {
			return usagef("unexpected argument %q", args[0])
		}
		cwd, _ := os.Getwd()
		places := e.promptOptions(cwd).Places
		files := places.List()
		for _, i := range places.Ignored {
			fmt.Fprintf(e.stderr, "hookd: warning: %s\n", sanitize.Line(i.Warning().String()))
		}
		switch {
		case *names:
			for _, f := range files {
				if f.ShadowedBy == "" {
					fmt.Fprintln(e.stdout, f.Name)
				}
			}
			return nil
		case *asJSON:
			enc := json.NewEncoder(e.stdout)
			for _, f := range files {
				if err := enc.Encode(f); err != nil {
					return err
				}
			}
			return nil
		}
		if len(files) == 0 {
			fmt.Fprintf(e.stdout, "No prompt files here. Put Markdown files in %s, a project's .hookd/commands/ or .claude/commands/.\n", e.paths.Commands)
			return nil
		}
		w := 0
		for _, f := range files {
			w = max(w, len(f.Name)+1)
		}
		for _, f := range files {
			fmt.Fprintf(e.stdout, "%-*s  %s\n", w, "/"+f.Name, sanitize.Line(f.Summary()))
			where := "    " + f.Path
			if f.ShadowedBy != "" {
				where += "  (shadowed by " + f.ShadowedBy + ")"
			}
			fmt.Fprintln(e.stdout, where)
			if f.Warning != "" {
				fmt.Fprintf(e.stdout, "    warning: %s\n", sanitize.Line(f.Warning))
			}
		}
		return nil
	}
}

func cmdExpand(fs *pflag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print the JSON result (success, command, expansions, metadata, or error)")
	return func(ctx context.Context, e *env, args []string) error {
		if len(args) == 0 {
			return usagef("name a prompt file")
		}
		cwd, _ := os.Getwd()
		r := promptfile.Expand(ctx, args[0], args[1:], e.promptOptions(cwd))
		if *asJSON {
			enc := json.NewEncoder(e.stdout)
			enc.SetIndent("", "  ")
			if err := enc.Encode(r); err != nil {
				return err
			}
			if !r.Success {
				return exitCode{1, ""}
			}
			return nil
		}
		for _, w := range r.Warnings {
			fmt.Fprintf(e.stderr, "hookd: warning: %s\n", sanitize.Line(w))
		}
		if !r.Success {
			return exitCode{1, promptError(r.Error)}
		}
		reportExpansions(e, r)
		content := sanitize.Text(r.Command.Content)
		fmt.Fprint(e.stdout, content)
		if !strings.HasSuffix(content, "\n") {
			fmt.Fprintln(e.stdout)
		}
		return nil
	}
}

// reportExpansions says on stderr which references were not expanded.
func reportExpansions(e *env, r promptfile.Result) {
	for _, f := range r.Expansions.Files {
		if !f.Resolved {
			fmt.Fprintf(e.stderr, "hookd: %s: %s\n", sanitize.Line(f.Reference), sanitize.Line(f.Error))
		}
	}
	for _, b := range r.Expansions.Bash {
		if !b.Executed {
			msg, _, _ := strings.Cut(b.Error, "\n")
			fmt.Fprintf(e.stderr, "hookd: !`%s`: %s\n", sanitize.Line(b.Command), sanitize.Line(msg))
		}
	}
}

func promptError(pe *promptfile.Error) string {
	msg := pe.Message
	if len(pe.SearchedPaths) > 0 {
		msg += "; looked for:\n  " + strings.Join(pe.SearchedPaths, "\n  ")
	}
	return msg
}

// promptQuestion is the question expanded from the prompt file it starts
// with (promptfile.Question); ok is false for a question that does not.
func promptQuestion(ctx context.Context, e *env, words []string, cwd string) (string, bool, error) {
	r, ok := promptfile.Question(ctx, words, e.promptOptions(cwd))
	if !ok {
		return "", false, nil
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(e.stderr, "hookd: warning: %s\n", sanitize.Line(w))
	}
	if !r.Success {
		return "", false, exitCode{1, promptError(r.Error)}
	}
	reportExpansions(e, r)
	return r.Command.Content, true, nil
}
