package analyze

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"strings"
)

// A mistyped long option (`ls --colr`, `git log --grpah`, `sort --reverce`)
// is among the commonest failures, and each family of tools words it its own
// way. The rule finds the rejected option in the output, then the options
// the program has: the tool's own proposals where it makes some (GNU's
// "is ambiguous; possibilities:", clap's "tip:"), else the options of the
// usage text it printed (argparse, Go's flag package, cobra), else those of
// its manual page on this machine (read, never run), and offers the nearest.

// optionDialect is one tool family's message about an option it rejects.
type optionDialect struct {
	key       string     // lower-case text the output must hold, checked first
	re        lazyRegexp // submatch 1: the option as typed (without =value)
	proposals int        // submatch index of the tool's own proposals, 0 if none
}

var optionDialects = []optionDialect{
	// GNU getopt_long (coreutils, grep, tar, …): option '--al' is ambiguous; possibilities: '--all' '--almost-all'
	{"is ambiguous; possibilities", `option '(--[^'=\s]+)[^']*' is ambiguous; possibilities:((?:\s*'--[^']+')+)`, 2},
	// clap 3/4: unexpected argument '--relese' found\n\n  tip: a similar argument exists: '--release'
	{"unexpected argument", `unexpected argument '(--?[^'=\s]+)[^']*' found(?:\s*\n\s*tip: (?:a similar argument exists|some similar arguments exist): ((?:'[^']+'(?:, )?)+))?`, 2},
	// git's parse-options (real): error: unknown option `shrot' (the name
	// without its dashes), then the usage with every option
	{"error: unknown ", "error: unknown (?:option|switch) `([^']+)'", 0},
	// GNU getopt_long: ls: unrecognized option '--colr'
	{"unrecognized option", `unrecognized option[: ]+'?(--[^'=\s]+)`, 0},
	// git log, rev-list: fatal: unrecognized argument: --grpah
	{"unrecognized argument", `unrecognized arguments?: (--?[^\s=]+)`, 0},
	// git diff: error: invalid option: --stats
	{"invalid option: -", `invalid option: (--[^\s=]+)`, 0},
	// Go's flag package: flag provided but not defined: -verbos
	{"flag provided but not defined", `flag provided but not defined: (--?[^\s=]+)`, 0},
	// cobra (kubectl, docker, gh, helm, hugo): Error: unknown flag: --namespce
	{"unknown flag", `unknown flag: (--[^\s=]+)`, 0},
	// curl: curl: option --silnt: is unknown
	{"is unknown", `option (--[^\s:=]+): is unknown`, 0},
	// Python's optparse (pip): no such option: --upgarde
	{"no such option", `no such option: (--?[^\s=]+)`, 0},
	// Maven (real): Unable to parse command line options: Unrecognized option: --quite
	{"unrecognized option: -", `Unrecognized option: (--?[^\s=]+)`, 0},
	// javac (real): error: invalid flag: -sourc
	{"invalid flag", `invalid flag: (--?[^\s=]+)`, 0},
}

var (
	// quotedOption is one of a list of proposals.
	quotedOption = lazyRegexp(`'(--?[^'=\s]+)`)
)

// maxManPage bounds the compressed manual page read (git-log's is 35 KB).
const maxManPage = 256 << 10

func ruleUnknownOption(ctx context.Context, f *Failure) *Finding {
	for _, d := range append(optionDialects[:len(optionDialects):len(optionDialects)], moreOptionDialects...) {
		if !f.has(d.key) {
			continue
		}
		m := f.find(d.re)
		if m == nil {
			continue
		}
		c, idx, typed := f.optionWord(m[1])
		if c == nil {
			continue
		}
		var proposals []string
		if d.proposals > 0 && m[d.proposals] != "" {
			for _, p := range quotedOption.get().FindAllStringSubmatch(m[d.proposals], -1) {
				proposals = append(proposals, p[1])
			}
			if len(proposals) == 0 && strings.HasPrefix(m[d.proposals], "-") {
				proposals = []string{m[d.proposals]} // unquoted: clap 2's "Did you mean --hidden?"
			}
		}
		// The tool's own proposals, else the options of the usage it
		// printed (both the output's text: untrusted, unless trust.go sees
		// a mere typo corrected), else those of its manual page.
		opts, untrusted := optionChoices(typed, proposals), true
		if len(opts) == 0 {
			opts = optionChoices(typed, nearestOptions(typed, usageOptions(f.Output, typed)))
		}
		if len(opts) == 0 {
			opts, untrusted = optionChoices(typed, nearestOptions(typed, systemOptions(ctx, f, c))), false
		}
		if len(opts) == 0 {
			if argv := helpArgv(f.Output, c); argv != nil {
				opts = optionChoices(typed, nearestOptions(typed, scanOptions(f.Env.Help(ctx, argv))))
			}
		}
		if len(opts) == 0 && strings.HasPrefix(typed, "--") {
			// Nearly every tool takes these two, listed or not (perl's
			// --version is in no page of its own).
			opts = optionChoices(typed, nearestOptions(typed, []string{"--help", "--version"}))
		}
		name := c.Name()
		if sub := toolSub(c); sub != "" && idx > c.subIndex() {
			name += " " + sub
		} else if strings.HasPrefix(name, "python") && strings.HasSuffix(c.Arg(1), ".py") && idx > 1 {
			name = c.Arg(1) // argparse speaks for the script
		}
		if len(opts) == 0 {
			return explain(SyntaxError, 0.7, "%s has no option %s; %s --help lists the ones it has.", name, typed, name)
		}
		rest := strings.TrimPrefix(c.Args[idx], typed) // "=value", kept
		fd := found(SyntaxError, 0.9, fmt.Sprintf("%s has no option %s; did you mean %s?", name, typed, opts[0]))
		for i, o := range opts {
			fx := fix(f.putWord(c, idx, o+rest), 0.9-0.04*float64(i), "Did you mean %s?", o)
			fx.Untrusted = untrusted
			fd.Fixes = append(fd.Fixes, fx)
		}
		return fd
	}
	return nil
}

// helpAdvice is a tool's advice to ask it for help, in the words to run:
// cobra's "Run 'docker run --help' for more information", kubectl's "See
// 'kubectl get -h' for help", GNU's "Try 'tail --help'".
var helpAdvice = lazyRegexp("(?i)(?:run|try|see|use|type)\\s+['‘\"`]([^'’\"`\n]{1,120}?) (--help|-h)['’\"]")

// helpArgv is the command the output advises for help, when its words are
// those c starts with (the program as a name, its subcommands): the tool
// that rejected the option names where its options are.
func helpArgv(out string, c *Call) []string {
	if !strings.Contains(out, " -") || strings.Contains(c.Arg(0), "/") {
		return nil
	}
	for _, m := range helpAdvice.get().FindAllStringSubmatch(out, 4) {
		words := strings.Fields(m[1])
		if len(words) == 0 || len(words) > len(c.Args) || words[0] != c.Arg(0) {
			continue
		}
		same := true
		for i := 1; i < len(words); i++ {
			same = same && words[i] == c.Args[i]
		}
		if same {
			return append(words, m[2])
		}
	}
	return nil
}

// optionWord finds the word of the command line that holds the option the
// output names (alone or as --option=value), in the last call that has it,
// and the option as typed there: git names it without its dashes, Go's flag
// package with one whichever were typed.
func (f *Failure) optionWord(named string) (*Call, int, string) {
	forms := []string{named}
	switch {
	case !strings.HasPrefix(named, "-"):
		forms = []string{"--" + named, "-" + named}
	case !strings.HasPrefix(named, "--"):
		forms = append(forms, "-"+named)
	}
	for _, typed := range forms {
		for i := len(f.Calls) - 1; i >= 0; i-- {
			c := &f.Calls[i]
			for j := 1; j < len(c.Args); j++ {
				a := c.Args[j]
				if a == "--" {
					break
				}
				if a == typed || strings.HasPrefix(a, typed+"=") {
					return c, j, typed
				}
			}
		}
	}
	// An option of a wrapper (xargs --nulll, timeout --singal=KILL): the
	// wrapper is the program that rejected it.
	for _, typed := range forms {
		for i := len(f.Calls) - 1; i >= 0; i-- {
			w := f.Calls[i].wrapped
			if w == nil {
				continue
			}
			for j := 1; j < len(w.Args)-len(f.Calls[i].Args); j++ {
				if a := w.Args[j]; a == typed || strings.HasPrefix(a, typed+"=") {
					if wc := f.Calls[i].wrapperCall(j); wc != nil {
						return wc, j - (len(w.Args) - len(wc.Args)), typed
					}
				}
			}
		}
	}
	return nil, 0, ""
}

// optionChoices are the candidates that can replace typed, at most
// MaxFixes, spelt with the dashes typed (Go's flags take one or two).
func optionChoices(typed string, cands []string) []string {
	var out []string
	for _, o := range cands {
		if len(out) == MaxFixes {
			break
		}
		if o == typed || !strings.HasPrefix(o, "-") {
			continue
		}
		if strings.HasSuffix(o, ",") && !strings.Contains(typed, ",") {
			continue // its value joined (gcc's -Wa,): a match of its start, not a typo of -Wal
		}
		if strings.HasPrefix(typed, "--") && !strings.HasPrefix(o, "--") {
			o = "-" + o
		}
		out = append(out, o)
	}
	return out
}

// nearestOptions are the options of vocab within a typo of typed, nearest
// first; the dashes count as typed.
func nearestOptions(typed string, vocab []string) []string {
	long := strings.HasPrefix(typed, "--")
	// A long option stays long (--vrebose is not -v), unless the program
	// has only single-dash options (Go's flag package, which takes both).
	keepLong := false
	for _, o := range vocab {
		keepLong = keepLong || long && strings.HasPrefix(o, "--")
	}
	byName := map[string]string{}
	var names []string
	for _, o := range vocab {
		n := strings.TrimLeft(o, "-")
		if len(n) < 2 || keepLong && !strings.HasPrefix(o, "--") {
			continue
		}
		if _, ok := byName[n]; !ok {
			byName[n] = o
			names = append(names, n)
		}
	}
	var out []string
	name := strings.TrimLeft(typed, "-")
	for _, m := range closest(name, names, nil) {
		out = append(out, byName[m.word])
	}
	if len(out) > 0 || !long || len(name) < 4 {
		return out
	}
	// GNU tools take any unambiguous start of a long option, so --humn is
	// a typo of --human(-readable): compare with each option's start.
	for _, n := range names {
		for _, k := range []int{len(name) - 1, len(name), len(name) + 1} {
			if k < len(n) && k >= 4 && distance(name, n[:k]) == 1 {
				out = append(out, byName[n])
				break
			}
		}
	}
	if len(out) > 1 {
		return nil // ambiguous: the tool would not know either
	}
	return out
}

// usageOptions are the options a usage text in the output lists (argparse,
// Go's flag package and cobra print one with the error), without typed.
func usageOptions(out, typed string) []string {
	l := strings.ToLower(out)
	if !strings.Contains(l, "usage") && !strings.Contains(l, "flags:") && !strings.Contains(l, "options:") {
		return nil
	}
	var opts []string
	for _, o := range scanOptions(out) {
		if o != typed {
			opts = append(opts, o)
		}
	}
	return opts
}

// scanOptions returns the words of text that look like options: one or two
// dashes after a space or an opening mark, a letter, then letters, digits,
// '-' and '_' (a manual page of 200 KB takes well under a millisecond,
// where a regular expression took several).
func scanOptions(text string) []string {
	var out []string
	for i := 0; i < len(text); i++ {
		if text[i] != '-' || i > 0 && !strings.ContainsRune(" \t\n[,(|\"'", rune(text[i-1])) {
			continue
		}
		j := i + 1
		if j < len(text) && text[j] == '-' {
			j++
		}
		dashes := text[i:j]
		if strings.HasPrefix(text[j:], "[no-]") {
			j += len("[no-]") // git's usage: --[no-]verbose
		}
		k := j
		for k < len(text) && (isOptionByte(text[k]) || k > j && (text[k] >= '0' && text[k] <= '9' || text[k] == '-' || text[k] == '_')) {
			k++
		}
		for k > j && (text[k-1] == '-' || text[k-1] == '_') {
			k--
		}
		if k-j >= 2 && isOptionByte(text[j]) {
			out = append(out, dashes+text[j:k])
		}
		i = max(i, k-1)
	}
	return out
}

func isOptionByte(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// manOptions are the options the manual page of the command names: for a
// tool with subcommands, the subcommand's page first (git-log(1)).
func manOptions(ctx context.Context, f *Failure, c *Call) []string {
	var pages []string
	if sub := toolSub(c); sub != "" {
		pages = append(pages, c.Name()+"-"+sub)
	}
	pages = append(pages, c.Name())
	for _, p := range pages {
		for _, sec := range []string{"1", "8"} {
			text, ok := manPageText(ctx, f, "/usr/share/man/man"+sec+"/"+p+"."+sec+".gz")
			if !ok {
				continue
			}
			text = mdocFlags.Replace(groffPlain.Replace(text))
			if opts := scanOptions(text); len(opts) > 0 {
				return opts
			}
		}
	}
	return nil
}

// systemOptions are the options the system's files name for the command:
// its manual page's, with those of its completion files (bash-completion,
// zsh) after them, all read as data on the failure path only.
func systemOptions(ctx context.Context, f *Failure, c *Call) []string {
	opts := manOptions(ctx, f, c)
	if !strings.ContainsAny(c.Name(), "/ ") {
		opts = append(opts, f.Env.Completion(ctx, c.Name()).Options...)
	}
	return opts
}

// toolSub is the subcommand of a tool known to have subcommands (git log),
// or "".
func toolSub(c *Call) string {
	if _, ok := subcommands.get()[c.Name()]; !ok {
		return ""
	}
	if sub := c.sub(); !strings.ContainsAny(sub, "/. ") {
		return sub
	}
	return ""
}

// mdocFlags spells mdoc's option macro as the option it prints (node(1):
// .It Fl v , Fl -version is -v, --version).
var mdocFlags = strings.NewReplacer(" Fl -", " --", " Fl ", " -")

// groffPlain turns a manual page's escapes into plain text, enough for
// options to be found (\fB\-\-almost\-all\fR is --almost-all).
var groffPlain = strings.NewReplacer(`\-`, "-", `\^`, "", `\|`, "", `\fB`, " ", `\fI`, " ", `\fR`, " ", `\fP`, " ", `\f(CW`, " ",
	`\f[B]`, " ", `\f[I]`, " ", `\f[R]`, " ", `\f[C]`, " ", `\f[CB]`, " ", `\f[CR]`, " ", `\f[CI]`, " ", `\(em`, " ", `\&`, "")

// gunzip decompresses a manual page, up to 4 MiB.
func gunzip(b []byte) (string, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return "", err
	}
	out, err := io.ReadAll(io.LimitReader(zr, 4<<20))
	if err != nil && len(out) == 0 {
		return "", err
	}
	return string(out), nil
}
