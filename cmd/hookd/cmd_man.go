package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// manCommand is the hidden subcommand that prints hookd's manual page
// (roff, section 1) for the packages: made from the same declarations as
// --help (the commands table, each command's flags), so the two cannot
// disagree. The release build runs it (Makefile).
const manCommand = "__man"

// writeMan prints the manual page. Its date is the build's (the commit's
// time in a release build), so that the page, like the binary, is the
// same every time it is made from the same commit.
func writeMan(w, stderr io.Writer) int {
	date := "unknown"
	if t, err := time.Parse(time.RFC3339, currentVersion().Date); err == nil {
		date = t.UTC().Format("2006-01-02")
	}
	var b strings.Builder
	fmt.Fprintf(&b, ".TH HOOKD 1 %q %q \"User Commands\"\n", date, "hookd "+version)
	b.WriteString(".SH NAME\nhookd \\- every command you type in bash, zsh and fish, remembered\n")
	b.WriteString(".SH SYNOPSIS\n.B hookd\n.I COMMAND\n[\\fIARGS\\fR]\n")
	b.WriteString(".SH DESCRIPTION\n" + roff("hookd records every command typed in bash, zsh and fish, with its status, timing, directory and (with capture on) its output, in a local SQLite history; offers fixes after a failure; and feeds commands and their output to LLMs and coding agents.") + "\n")
	b.WriteString(".PP\n" + roff(setupIntro) + "\n.PP\n.RS\n.EX\n" + roff(setupLine) + "\n" + roff(setupEarly) + "\n.EE\n.RE\n")
	b.WriteString(".SH COMMANDS\n")
	for _, c := range commands {
		fmt.Fprintf(&b, ".SS \"%s\"\n", roff("hookd "+c.name+" "+c.args))
		b.WriteString(roff(capitalize(c.summary)+".") + "\n")
		fs, _ := c.define(io.Discard)
		fs.VisitAll(func(f *pflag.Flag) {
			if f.Hidden {
				return
			}
			left, usage := flagUsage(f)
			fmt.Fprintf(&b, ".TP\n.B %s\n%s\n", roff(left), roff(usage))
		})
	}
	b.WriteString(".SH REFERENCES\n" + roff("REF is a history id, or -N: the N-th most recent command of this shell session (-1, the default, is the last one).") + "\n")
	b.WriteString(".SH FILES\n.TP\n.I $XDG_CONFIG_HOME/hookd/config.yaml\nthe configuration\n.TP\n.I $XDG_DATA_HOME/hookd/history.db\n" +
		"the history (removing the package leaves it)\n.TP\n.I $XDG_STATE_HOME/hookd/\nspool files and logs\n")
	b.WriteString(".SH SEE ALSO\n" + roff("hookd COMMAND --help prints a command's options; hookd version --json says how this binary was built.") + "\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		fmt.Fprintf(stderr, "hookd: %v\n", err)
		return 1
	}
	return 0
}

// roff escapes text for a roff line: backslashes, and a leading dot or
// quote that would read as a request.
func roff(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	s = strings.ReplaceAll(s, "\n", " ")
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
