package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/hookd/hookd/cmd/hookd/complete"
	"github.com/hookd/hookd/internal/ai/project"
)

// completeCommand is the hidden subcommand the shell code's completion
// functions call (package complete has the protocol).
const completeCommand = "__complete"

// cmdComplete completes a hookd command line: subcommands from the command
// table, each command's flags from the flags it declares (command.define),
// prompt-file names from promptfile, profiles from the config and the
// project's .hookd.yml. Nothing is written, nothing is run.
func cmdComplete(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		args = []string{""}
	}
	cur, words := args[len(args)-1], args[:len(args)-1]
	var subcommands []complete.Candidate
	for _, c := range commands {
		subcommands = append(subcommands, complete.Candidate{Value: c.name, Description: c.summary})
	}
	switch {
	case len(words) == 0:
		return complete.Write(e.stdout, cur, append(subcommands, complete.Candidate{Value: "help", Description: "the help of a command"}))
	case words[0] == "help" && len(words) == 1:
		return complete.Write(e.stdout, cur, subcommands)
	}
	name := words[0]
	i := slices.IndexFunc(commands, func(c command) bool { return c.name == name })
	if i < 0 {
		return nil
	}
	fs, _ := commands[i].define(io.Discard) // the flags, declared with the command: nothing runs
	sp := complete.Locate(words[1:], cur, fs)
	var cands []complete.Candidate
	add := func(values ...string) {
		for _, v := range values {
			cands = append(cands, complete.Candidate{Value: sp.Prefix + v})
		}
	}
	files := false
	switch {
	case sp.Flag != nil:
		switch f := sp.Flag.Name; {
		case f == "profile":
			add(profileNames(e)...)
		case f == "stream":
			add("stdout", "stderr")
		case f == "capture":
			add("pty", "off")
		case f == "shell" && name != "shell":
			add("bash", "zsh", "fish")
		case f == "file" || f == "output-file" || f == "cwd" || f == "shell":
			files = sp.Prefix == ""
		}
	case sp.FlagName:
		cands = complete.Flags(fs)
	case name == "ask":
		// The question is free text, which may name files; a prompt
		// file as the first word.
		if sp.Arg > 0 || cur != "" && cur[0] != '/' {
			files = true
		}
		for _, f := range promptNames(e) {
			cands = append(cands, complete.Candidate{Value: "/" + f.Value, Description: f.Description})
		}
	case name == "expand" && sp.Arg == 0:
		cands = promptNames(e)
	case (name == "init" || name == "import") && sp.Arg == 0:
		add("bash", "zsh", "fish")
	case name == "chain" || name == "allow" || name == "deny":
		files = sp.Arg == 0
	case name == "run" || name == "shell":
		files = true
	}
	if files {
		_, err := fmt.Fprintln(e.stdout, complete.Files)
		return err
	}
	return complete.Write(e.stdout, sp.Prefix+sp.Cur, cands)
}

// promptNames are the prompt files that resolve here, with their
// argument hints and descriptions.
func promptNames(e *env) []complete.Candidate {
	cwd, _ := os.Getwd()
	var out []complete.Candidate
	for _, f := range e.promptOptions(cwd).Places.List() {
		if f.ShadowedBy == "" {
			out = append(out, complete.Candidate{Value: f.Name, Description: f.Summary()})
		}
	}
	return out
}

// profileNames are the profiles of the user's config and of the
// project's .hookd.yml (names only: nothing of the file is used).
func profileNames(e *env) []string {
	var names []string
	for n := range e.config().Ask.Profiles {
		names = append(names, n)
	}
	cwd, _ := os.Getwd()
	if path, ok := project.Find(cwd); ok {
		a, _ := project.ReadAsk(path)
		for n := range a.Profiles {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}
