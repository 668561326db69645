// Package complete reads a command line being completed and writes the
// candidates for the shell code's completion functions. It knows pflag's
// flag syntax and the protocol between hookd and those functions, not
// hookd's commands: what fits where is the caller's.
//
// The protocol: `hookd __complete WORD…` gets the words after "hookd" up
// to the cursor, the last one being completed ("" after a space). It
// prints one candidate a line, a tab and a description after it where
// there is one; or the single line Files, which asks the shell for its own
// file-name completion.
package complete

import (
	"fmt"
	"io"
	"strings"

	"github.com/hookd/hookd/internal/sanitize"
	"github.com/spf13/pflag"
)

// Files is the answer that asks the shell to complete file names.
const Files = ":files"

// Candidate is one completion.
type Candidate struct {
	Value, Description string
}

// Spot is where in a command line the word being completed stands, for
// a command whose flags are fs.
type Spot struct {
	// Flag is the flag whose value the word is: after `--flag` (and
	// bash's "=" word, which splits --flag=value in three), or in
	// `--flag=value` (zsh keeps it whole; Prefix is then "--flag=").
	Flag   *pflag.Flag
	Prefix string
	// Cur is the word, without Prefix.
	Cur string
	// FlagName: the word is a flag's name (it starts with a dash and is
	// not a -N reference).
	FlagName bool
	// Arg is the word's position among the positional arguments (those
	// neither flags nor flag values), from 0.
	Arg int
}

// Locate finds the spot of cur, the word being completed, after words
// (the command's own words, from the first after its name).
func Locate(words []string, cur string, fs *pflag.FlagSet) Spot {
	sp := Spot{Cur: cur}
	n := len(words)
	switch {
	case n > 0 && words[n-1] == "=" && n > 1:
		sp.Flag = valueFlag(fs, words[n-2], false)
	case n > 0 && !strings.Contains(words[n-1], "="):
		sp.Flag = valueFlag(fs, words[n-1], true)
	case strings.HasPrefix(cur, "--") && strings.Contains(cur, "="):
		name, _, _ := strings.Cut(cur, "=")
		if sp.Flag = valueFlag(fs, name, false); sp.Flag != nil {
			sp.Prefix = name + "="
			sp.Cur = strings.TrimPrefix(cur, sp.Prefix)
		}
	}
	if sp.Flag != nil {
		return sp
	}
	sp.FlagName = cur == "-" || cur == "--" || strings.HasPrefix(cur, "-") && strings.Trim(cur, "-0123456789") != ""
	for j := 0; j < n; j++ {
		w := words[j]
		if w == "--" {
			sp.Arg += n - j - 1
			break
		}
		if len(w) > 1 && w[0] == '-' {
			if !strings.Contains(w, "=") && valueFlag(fs, w, true) != nil {
				j++ // its value
				if j < n && words[j] == "=" {
					j++ // bash's word for --flag=value
				}
			}
			continue
		}
		sp.Arg++
	}
	return sp
}

// valueFlag returns the flag word names (--name, --name=value, -x) when it
// takes a value; separate: only one whose value may be the next word (not
// one with a default for when it is given bare).
func valueFlag(fs *pflag.FlagSet, word string, separate bool) *pflag.Flag {
	var f *pflag.Flag
	if long, ok := strings.CutPrefix(word, "--"); ok {
		long, _, _ = strings.Cut(long, "=")
		f = fs.Lookup(long)
	} else if len(word) == 2 && word[0] == '-' {
		f = fs.ShorthandLookup(word[1:])
	}
	if f == nil || f.Value.Type() == "bool" || separate && f.NoOptDefVal != "" {
		return nil
	}
	return f
}

// Flags are the candidates for a flag's name: every visible flag of fs,
// as --name, with its usage.
func Flags(fs *pflag.FlagSet) []Candidate {
	var cs []Candidate
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			cs = append(cs, Candidate{"--" + f.Name, f.Usage})
		}
	})
	return cs
}

// Write prints the candidates whose value starts with prefix, each on a
// line, its description after a tab: the first line of it, escaped,
// without the backquotes that mark a flag's value name. A value that a
// line cannot hold is left out.
func Write(w io.Writer, prefix string, cs []Candidate) error {
	for _, c := range cs {
		if !strings.HasPrefix(c.Value, prefix) || strings.ContainsAny(c.Value, "\n\t") {
			continue
		}
		desc, _, _ := strings.Cut(c.Description, "\n")
		desc = sanitize.Line(strings.ReplaceAll(desc, "`", "")) // tabs escaped too
		var err error
		if desc != "" {
			_, err = fmt.Fprintf(w, "%s\t%s\n", c.Value, desc)
		} else {
			_, err = fmt.Fprintln(w, c.Value)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
