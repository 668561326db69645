package analyze

import (
	"context"
	"fmt"
	"strings"
)

// A module name mistyped in the command line itself (python3 -c 'import
// requets', node -e "require('lodsh')", python3 -m http.sever): the names
// the system knows are read from it, not listed here: the modules Debian
// packages (python3-NAME, node-NAME in apt's lists) and those installed in
// the project (node_modules). Installing the typo instead would fetch
// whatever anyone published under it.

// moduleTypo returns the command line with mod, as written in it, replaced
// by the one known module a typo away, and that module; "" when mod is not
// written in the command line, is itself known, or is near none or several.
func moduleTypo(ctx context.Context, f *Failure, mod, aptPrefix string, dirs ...string) (string, string) {
	at := wordIndex(f.Command, mod)
	if at < 0 || len(mod) < 4 || strings.Contains(mod, ".") {
		return "", ""
	}
	if _, ok := pipPackages.get()[mod]; ok {
		return "", "" // an import name hookd knows the package of
	}
	var known []string
	for _, p := range f.Env.AptPackages(ctx, aptPrefix) {
		n := strings.TrimPrefix(p, aptPrefix)
		if aptPrefix == "python3-" {
			n = strings.ReplaceAll(n, "-", "_") // python3-requests-oauthlib: requests_oauthlib
		}
		known = append(known, n)
	}
	if aptPrefix == "python3-" {
		// The standard library and Debian's installed modules.
		dirs = append(dirs, "/usr/lib/python3/dist-packages")
		es, _ := f.Env.ReadDir(ctx, "/usr/lib")
		for _, e := range es {
			if e.Dir && strings.HasPrefix(e.Name, "python3.") {
				dirs = append(dirs, "/usr/lib/"+e.Name)
			}
		}
	}
	for _, d := range dirs {
		es, _ := f.Env.ReadDir(ctx, f.path(d))
		for _, e := range es {
			n, py := strings.CutSuffix(e.Name, ".py")
			if (e.Dir || py) && !strings.HasPrefix(n, ".") && !strings.HasPrefix(n, "_") {
				known = append(known, n)
			}
		}
	}
	for _, k := range known {
		if k == mod {
			return "", "" // known: missing for another reason
		}
	}
	best := closest(mod, known, nil)
	// One letter wrong, missing, extra or swapped: a name two edits away
	// may well be another package, published under its own name.
	if len(best) == 0 || best[0].dist > 1 && best[0].score < 0.92 || len(best) > 1 && best[1].score > best[0].score-typoMargin {
		return "", ""
	}
	w := best[0].word
	return f.Command[:at] + w + f.Command[at+len(mod):], w
}

// wordIndex is where name is written in cmd as a whole name (between
// quotes, spaces, parentheses, commas or semicolons), or -1.
func wordIndex(cmd, name string) int {
	edge := func(b byte) bool { return strings.IndexByte(" \t'\"();,=", b) >= 0 }
	for from := 0; ; {
		i := strings.Index(cmd[from:], name)
		if i < 0 {
			return -1
		}
		i += from
		e := i + len(name)
		if (i == 0 || edge(cmd[i-1])) && (e == len(cmd) || edge(cmd[e]) || cmd[e] == '.') {
			return i
		}
		from = i + 1
	}
}

// moduleTypoFinding is the finding for a mistyped module, or nil.
func moduleTypoFinding(ctx context.Context, f *Failure, lang, mod, aptPrefix string, dirs ...string) *Finding {
	cmd, w := moduleTypo(ctx, f, mod, aptPrefix, dirs...)
	if cmd == "" {
		return nil
	}
	return found(MissingDependency, 0.92, fmt.Sprintf("There is no %s module %s; %s is one a typo away.", lang, mod, w),
		fix(cmd, 0.92, "Did you mean %s?", w))
}
