package analyze

import (
	"context"
	"fmt"
	"strings"
)

// A short option the tool rejects whose other case it has: BSD and macOS
// spell some options in capitals where GNU's tools have them in lower case
// (base64 -D for -d), and a held Shift gives the same slip. getopt words it
// "invalid option -- 'D'" (glibc) or "illegal option -- D" (BSD's libc);
// the other case is offered only when the tool's manual page, read as data
// on the failure path, names it as an option and does not name the letter
// typed.

// shortOptionRe is getopt's message; submatch 1 is the letter.
var shortOptionRe = lazyRegexp(`(?:invalid|illegal|unknown) option -- '?([A-Za-z])'?`)

func ruleShortOptionCase(ctx context.Context, f *Failure) *Finding {
	m := f.findIf("option -- ", shortOptionRe)
	if m == nil {
		return nil
	}
	typed := m[1][0]
	other := typed ^ 0x20 // the letter's other case
	for ci := len(f.Calls) - 1; ci >= 0; ci-- {
		c := &f.Calls[ci]
		for j := 1; j < len(c.Args); j++ {
			a := c.Args[j]
			if a == "--" {
				break
			}
			if len(a) < 2 || a[0] != '-' || a[1] == '-' || !isOptionByte(a[1]) || strings.IndexByte(a, typed) < 0 {
				continue
			}
			short := manShortOptions(ctx, f, c)
			if !short[other] || short[typed] {
				return nil
			}
			w := strings.Replace(a, string(typed), string(other), 1)
			return found(SyntaxError, 0.75, fmt.Sprintf("%s has no option -%c; its manual page names -%c.", c.Name(), typed, other),
				fix(f.putWord(c, j, w), 0.75, "%s has no option -%c (BSD's spelling or a held Shift); its manual page names -%c.", c.Name(), typed, other))
		}
	}
	return nil
}

// manShortOptions are the one-letter options c's manual page names (-d,
// \-d, mdoc's Fl d), read only after a failure that named one.
func manShortOptions(ctx context.Context, f *Failure, c *Call) map[byte]bool {
	out := map[byte]bool{}
	for _, sec := range []string{"1", "8"} {
		text, ok := manPageText(ctx, f, "/usr/share/man/man"+sec+"/"+c.Name()+"."+sec+".gz")
		if !ok || strings.ContainsAny(c.Name(), "/ ") {
			continue
		}
		text = mdocFlags.Replace(groffPlain.Replace(text))
		for i := 0; i+1 < len(text); i++ {
			if text[i] != '-' || i > 0 && !strings.ContainsRune(" \t\n[,(|\"'", rune(text[i-1])) || !isOptionByte(text[i+1]) {
				continue
			}
			if i+2 == len(text) || strings.IndexByte(" \t\n],)|=\"'", text[i+2]) >= 0 {
				out[text[i+1]] = true
			}
		}
		return out
	}
	return out
}

// ruleSedEmptySuffix: BSD's and macOS's sed take -i's backup suffix as the
// next word (sed -i ” …); GNU's sed reads that empty word as the script
// and the script as a file, "sed: can't read s/a/b/: No such file or
// directory". The empty word goes.
func ruleSedEmptySuffix(ctx context.Context, f *Failure) *Finding {
	if !f.has("can't read") {
		return nil
	}
	c := f.call("sed")
	if c == nil {
		return nil
	}
	for j := 1; j+1 < len(c.Args); j++ {
		if c.Args[j] == "-i" && c.Args[j+1] == "" {
			return found(SyntaxError, 0.8, "GNU sed's -i takes no separate suffix: it read the empty word ('') as the script and the script as a file.",
				fix(f.replaceWords(c, j+1, j+2, ""), 0.8, "Drop the '' that BSD's sed -i needs and GNU's does not."))
		}
	}
	return nil
}
