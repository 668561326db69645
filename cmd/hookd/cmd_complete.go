package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/hookd/hookd/config"
	"github.com/hookd/hookd/project"
	"github.com/hookd/hookd/sanitize"
	"github.com/spf13/pflag"
)

// completeCommand is the hidden subcommand the shell code's completion
// functions call: `hookd __complete WORD…` with the words after "hookd"
// up to the cursor, the last one being completed ("" at a space). It
// prints the candidates that start with it, one a line, each followed by
// a tab and a description where there is one; a lone filesMark asks the
// shell to complete file names instead.
const completeCommand = "__complete"

const filesMark = ":files"

// cmdComplete completes a hookd command line. Subcommands and their flags
// come from the command table and each command's own flag set (read by
// running it with --help, output discarded: the same flags the help
// shows), prompt-file names from promptfile, profiles from the config and
// the project's .hookd.yml. Nothing is written, nothing is run.
func cmdComplete(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		args = []string{""}
	}
	cur, words := args[len(args)-1], args[:len(args)-1]
	var cands [][2]string // value, description
	prefixed := ""        // what the candidates start with beside cur
	add := func(value, desc string) {
		if strings.HasPrefix(value, prefixed+cur) {
			cands = append(cands, [2]string{value, desc})
		}
	}
	if len(words) == 0 {
		for _, c := range commands {
			add(c.name, c.summary)
		}
		add("help", "the help of a command")
		return printCands(e.stdout, cands)
	}
	name := words[0]
	if name == "help" {
		if len(words) == 1 {
			for _, c := range commands {
				add(c.name, c.summary)
			}
		}
		return printCands(e.stdout, cands)
	}
	i := slices.IndexFunc(commands, func(c command) bool { return c.name == name })
	if i < 0 {
		return nil
	}
	fs := commandFlags(ctx, e, commands[i])

	// The value of a flag: the previous word is a flag that takes one
	// (bash splits --flag=value into three words), or the word is
	// --flag=value (zsh does not).
	flag, prefix := "", ""
	if n := len(words); n > 1 && words[n-1] == "=" {
		flag = words[n-2]
	} else if n > 1 && !strings.Contains(words[n-1], "=") {
		if f := lookupFlag(fs, words[n-1]); f != nil && f.NoOptDefVal == "" {
			flag = words[n-1]
		}
	} else if f, _, ok := strings.Cut(cur, "="); ok && strings.HasPrefix(cur, "--") {
		flag, prefix = f, f+"="
		cur, prefixed = strings.TrimPrefix(cur, prefix), prefix
	}
	if f := lookupFlag(fs, flag); f != nil && takesValue(f) {
		vals, files := flagValues(e, name, f.Name)
		if files && prefix == "" {
			fmt.Fprintln(e.stdout, filesMark)
			return nil
		}
		for _, v := range vals {
			add(prefix+v, "")
		}
		return printCands(e.stdout, cands)
	}
	if strings.HasPrefix(cur, "-") && strings.Trim(cur, "-0123456789") != "" || cur == "-" || cur == "--" {
		fs.VisitAll(func(f *pflag.Flag) {
			if f.Hidden {
				return
			}
			long := "--" + f.Name
			if takesValue(f) && f.NoOptDefVal != "" {
				long += "="
			}
			add(long, f.Usage)
		})
		return printCands(e.stdout, cands)
	}

	// A positional argument: its position among the words that are
	// neither flags nor flag values.
	pos := 0
	for j := 1; j < len(words); j++ {
		w := words[j]
		if w == "--" {
			pos += len(words) - j - 1
			break
		}
		if len(w) > 1 && w[0] == '-' {
			if f := lookupFlag(fs, w); f != nil && takesValue(f) && f.NoOptDefVal == "" && !strings.Contains(w, "=") {
				j++ // its value
				if j < len(words) && words[j] == "=" {
					j++ // bash's word for --flag=value
				}
			}
			continue
		}
		pos++
	}
	switch name {
	case "ask":
		// The question is free text; a prompt file as the first word.
		if pos > 0 || cur != "" && cur[0] != '/' {
			fmt.Fprintln(e.stdout, filesMark) // a question may name files
			return nil
		}
		for _, f := range promptNames(e) {
			add("/"+f[0], f[1])
		}
	case "expand":
		if pos == 0 {
			for _, f := range promptNames(e) {
				add(f[0], f[1])
			}
		}
	case "init", "import":
		if pos == 0 {
			add("bash", "")
			add("zsh", "")
		}
	case "chain", "allow", "deny":
		if pos == 0 {
			fmt.Fprintln(e.stdout, filesMark)
			return nil
		}
	case "run", "shell":
		fmt.Fprintln(e.stdout, filesMark)
		return nil
	}
	return printCands(e.stdout, cands)
}

// commandFlags returns c's flag set, as c itself defines it: c runs with
// --help (every command parses its flags before it does anything) and its
// output is discarded.
func commandFlags(ctx context.Context, e *env, c command) *pflag.FlagSet {
	probe := *e
	probe.stdout, probe.stderr = io.Discard, io.Discard
	probe.flagSet = nil
	c.run(ctx, &probe, []string{"--help"})
	if probe.flagSet == nil {
		return pflag.NewFlagSet(c.name, pflag.ContinueOnError)
	}
	return probe.flagSet
}

// lookupFlag returns the flag word names (--name, --name=value, -x), or
// nil.
func lookupFlag(fs *pflag.FlagSet, word string) *pflag.Flag {
	if long, ok := strings.CutPrefix(word, "--"); ok {
		long, _, _ = strings.Cut(long, "=")
		return fs.Lookup(long)
	}
	if len(word) == 2 && word[0] == '-' {
		return fs.ShorthandLookup(word[1:])
	}
	return nil
}

func takesValue(f *pflag.Flag) bool { return f.Value.Type() != "bool" }

// flagValues are the values worth offering for a command's flag; files
// is true when they are file names.
func flagValues(e *env, cmd, flag string) (vals []string, files bool) {
	switch {
	case flag == "profile":
		return profileNames(e), false
	case flag == "stream":
		return []string{"stdout", "stderr"}, false
	case flag == "capture":
		return []string{"pty", "off"}, false
	case flag == "shell" && cmd != "shell":
		return []string{"bash", "zsh"}, false
	case flag == "file" || flag == "output-file" || flag == "cwd" || flag == "shell":
		return nil, true
	}
	return nil, false
}

// promptNames are the prompt files that resolve here, with their
// descriptions.
func promptNames(e *env) [][2]string {
	cwd, _ := os.Getwd()
	var out [][2]string
	for _, f := range e.promptOptions(cwd).Places.List() {
		if f.ShadowedBy == "" {
			desc := f.Description
			if f.ArgumentHint != "" {
				desc = strings.TrimSpace(f.ArgumentHint + "  " + desc)
			}
			out = append(out, [2]string{f.Name, desc})
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
		a, _ := config.LoadProject(path)
		for n := range a.Profiles {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// printCands prints each candidate on a line, its description (the first
// line, escaped, without the backquotes that mark a flag's value name)
// after a tab.
func printCands(w io.Writer, cands [][2]string) error {
	for _, c := range cands {
		if strings.ContainsAny(c[0], "\n\t") {
			continue
		}
		desc, _, _ := strings.Cut(c[1], "\n")
		desc = strings.ReplaceAll(sanitize.Line(strings.ReplaceAll(desc, "`", "")), "\t", " ")
		if desc != "" {
			fmt.Fprintf(w, "%s\t%s\n", c[0], desc)
		} else {
			fmt.Fprintln(w, c[0])
		}
	}
	return nil
}
