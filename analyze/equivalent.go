package analyze

import (
	"context"
	"sort"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

// Equivalent answers count once (issue 37 item 5): two fixes that run the
// same command, spelt with an option's short and long names (-f and
// --force, as the tool's manual page pairs them) or with options in
// another order (-rf, -fr, -r -f), are one fix; the more confident is kept.

// dropEquivalent removes from fixes, sorted best first, each fix that runs
// the same command as a better one.
func dropEquivalent(ctx context.Context, f *Failure, fixes []Fix) []Fix {
	if len(fixes) < 2 {
		return fixes
	}
	pairs := map[string]map[string]string{} // manual page → short or long option → canonical
	names := func(words []string) map[string]string {
		page := words[0]
		if _, ok := subcommands.get()[page]; ok && len(words) > 1 && !isOptionWord(words[1]) {
			page += "-" + words[1] // git push's options are git-push(1)'s
		}
		if m, ok := pairs[page]; ok {
			return m
		}
		m := optionPairs(ctx, f, page)
		pairs[page] = m
		return m
	}
	out := fixes[:0:0]
	for _, fx := range fixes {
		dup := false
		for _, k := range out {
			if equivalentCommands(fx.Command, k.Command, f.Shell, names) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, fx)
		}
	}
	return out
}

// equivalentCommands reports whether a and b run the same simple commands
// with the same operands, in order, and the same options between each two
// operands, in any order and by either name. The option just before an
// operand stays in place (it may take the operand as its value: tar -c -f
// out.tar is not tar -f -c out.tar) unless the manual page shows it takes
// none.
func equivalentCommands(a, b, shell string, names func(words []string) map[string]string) bool {
	if a == b {
		return true
	}
	ca, cb := shellwords.Commands(a, shell), shellwords.Commands(b, shell)
	if len(ca) != len(cb) {
		return false
	}
	for i := range ca {
		wa, wb := ca[i], cb[i]
		if len(wa) == 0 || len(wb) == 0 || wa[0] != wb[0] {
			return false
		}
		if strings.Join(wa, "\x00") == strings.Join(wb, "\x00") {
			continue
		}
		// Only options differ, or nothing is the same.
		if !sameOperands(wa, wb) {
			return false
		}
		m := names(wa)
		if optionKey(wa, m) != optionKey(wb, m) {
			return false
		}
	}
	return true
}

func isOptionWord(w string) bool { return len(w) > 1 && w[0] == '-' }

// sameOperands compares the words that are not options, in order.
func sameOperands(a, b []string) bool {
	var oa, ob []string
	for _, w := range a[1:] {
		if !isOptionWord(w) {
			oa = append(oa, w)
		}
	}
	for _, w := range b[1:] {
		if !isOptionWord(w) {
			ob = append(ob, w)
		}
	}
	return strings.Join(oa, "\x00") == strings.Join(ob, "\x00")
}

// optionKey is a command's words with each run of options between two
// operands sorted, by canonical name (names), bundles of known short
// options split (-rf is -r -f); the option before an operand that may take
// it as its value kept last.
func optionKey(words []string, names map[string]string) string {
	var b strings.Builder
	b.WriteString(words[0])
	var run []string
	flush := func(last string) {
		sort.Strings(run)
		for _, o := range run {
			b.WriteString("\x00" + o)
		}
		if last != "" {
			b.WriteString("\x02" + last) // with its value, after it
		}
		run = run[:0]
	}
	rest := words[1:]
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		if w == "--" {
			flush("")
			for _, x := range rest[i:] {
				b.WriteString("\x01" + x)
			}
			return b.String()
		}
		if !isOptionWord(w) {
			flush("")
			b.WriteString("\x01" + w)
			continue
		}
		opts := canonicalOptions(w, names)
		last := opts[len(opts)-1]
		_, known := names[last]
		if i+1 < len(rest) && !isOptionWord(rest[i+1]) && (!known || names[valueMark+last] != "") {
			// It may take the next word: only its own bundle may be
			// reordered, and it keeps its place.
			run = append(run, opts[:len(opts)-1]...)
			flush(last)
			continue
		}
		run = append(run, opts...)
	}
	flush("")
	return b.String()
}

// canonicalOptions names the options of one word canonically: a paired
// short or long name as its long name, a bundle of known short options
// (-rf) as each of them; any other word as it is.
func canonicalOptions(w string, names map[string]string) []string {
	if c, ok := names[w]; ok {
		return []string{c}
	}
	if strings.HasPrefix(w, "--") || len(w) < 3 || strings.ContainsAny(w, "=") {
		return []string{w}
	}
	var out []string
	for _, r := range w[1:] {
		c, ok := names["-"+string(r)]
		if !ok {
			return []string{w}
		}
		out = append(out, c)
	}
	return out
}

// optionPairs are a program's options by canonical name, as its manual
// page gives them (\fB\-f\fR, \fB\-\-force\fR: -f and --force are
// --force; a short option alone is itself), read on the failure path only,
// when two fixes differ only in their options.
func optionPairs(ctx context.Context, f *Failure, prog string) map[string]string {
	m := map[string]string{}
	if strings.ContainsAny(prog, "/ ") || prog == "" {
		return m
	}
	for _, sec := range []string{"1", "8"} {
		text, ok := manPageText(ctx, f, "/usr/share/man/man"+sec+"/"+prog+"."+sec+".gz")
		if !ok {
			continue
		}
		for _, line := range strings.Split(groffPlain.Replace(text), "\n") {
			fs := strings.Fields(strings.NewReplacer(",", " ", "|", " ", `"`, " ").Replace(line))
			if len(fs) > 0 && strings.HasPrefix(fs[0], ".") {
				fs = fs[1:] // .B, .BR, .IP, .It Fl …
			}
			if len(fs) == 0 || !isShortOption(fs[0]) {
				continue
			}
			next := 1
			for next < len(fs) && isShortOption(fs[next]) {
				next++ // -r, -R, --recursive
			}
			shorts, canon := fs[:next], fs[0]
			if next < len(fs) && strings.HasPrefix(fs[next], "--") && len(fs[next]) > 3 {
				long, _, _ := strings.Cut(fs[next], "=")
				long, _, _ = strings.Cut(long, "[")
				canon = long
				next++
			}
			if _, ok := m[shorts[0]]; ok {
				continue
			}
			m[canon] = canon
			for _, s := range shorts {
				m[s] = canon
			}
			// A value: --file=ARCHIVE, -o FILE, -C <path>.
			if strings.ContainsAny(fs[next-1], "=[") || next < len(fs) && (strings.ContainsRune("<=[", rune(fs[next][0])) || fs[next][0] >= 'A' && fs[next][0] <= 'Z') {
				m[valueMark+canon] = "1"
			}
		}
		break
	}
	return m
}

// valueMark, before an option's canonical name, marks in the names of
// optionPairs an option that takes a value.
const valueMark = "="

func isShortOption(w string) bool {
	return len(w) == 2 && w[0] == '-' && (isOptionByte(w[1]) || w[1] >= '0' && w[1] <= '9')
}
