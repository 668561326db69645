package analyze

import (
	"context"
	"fmt"
	"strings"
)

// Some tools reject an option without naming it: zstd says "Incorrect
// parameters" and prints its usage, procps's ps "unknown gnu long option".
// The rule takes the command line's long options that are none of the
// tool's (those of the usage it printed, else of its manual page and
// completion files, read only after such a failure) and offers the nearest
// for the one that is a typo of an option it has.

// namelessOptionKeys are the lower-case wordings, each from a tool run on
// this machine.
var namelessOptionKeys = []string{
	"incorrect parameters",     // zstd
	"unknown gnu long option",  // ps (procps-ng)
	"unrecognized long option", // BSD getopt_long without the name
	"invalid long option",
}

func ruleNamelessOption(ctx context.Context, f *Failure) *Finding {
	if !f.has(namelessOptionKeys...) {
		return nil
	}
	for ci := len(f.Calls) - 1; ci >= 0; ci-- {
		c := &f.Calls[ci]
		var vocab []string
		read, untrusted := false, true
		for j := 1; j < len(c.Args); j++ {
			a := c.Args[j]
			if a == "--" {
				break
			}
			typed, rest, _ := strings.Cut(a, "=")
			if !strings.HasPrefix(typed, "--") || len(typed) < 5 {
				continue
			}
			if !read {
				read = true
				if vocab = usageOptions(f.Output, ""); len(vocab) < 3 {
					vocab, untrusted = systemOptions(ctx, f, c), false
				}
			}
			if len(vocab) < 3 || contains(vocab, typed) {
				continue // the tool has it (or nothing is known): another word failed
			}
			opts := optionChoices(typed, nearestOptions(typed, vocab))
			if len(opts) == 0 {
				continue
			}
			if rest != "" || strings.Contains(a, "=") {
				rest = "=" + rest
			}
			fd := found(SyntaxError, 0.8, fmt.Sprintf("%s has no option %s; did you mean %s?", c.Name(), typed, opts[0]))
			for i, o := range opts {
				fx := fix(f.putWord(c, j, o+rest), 0.8-0.04*float64(i), "%s rejected an option; it has %s, not %s.", c.Name(), o, typed)
				fx.Untrusted = untrusted
				fd.Fixes = append(fd.Fixes, fx)
			}
			return fd
		}
	}
	return nil
}
