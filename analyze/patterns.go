package analyze

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Pattern is a rule of the user's own: regular expressions on the command
// line and on the output (either may be empty, not both), what a match
// means, and fixes as templates. In a template, {command} is the command
// line, {args} the words after the command's name, {1}, {2}… the groups of
// the output expression (or, without one, of the command expression) and
// {name} a named group of either.
type Pattern struct {
	Name        string
	Command     string
	Output      string
	ErrorType   string // one of the error types; default Unknown
	Explanation string
	Fixes       []PatternFix
}

// PatternFix is one fix of a Pattern.
type PatternFix struct {
	Command     string
	Explanation string
}

var errorTypes = lazyValue[map[string]bool]{make: func() map[string]bool {
	return map[string]bool{PermissionDenied: true, CommandNotFound: true, MissingDependency: true,
		SyntaxError: true, NetworkError: true, FileNotFound: true, ConfigurationError: true, Unknown: true}
}}

var templateVar = lazyRegexp(`\{([A-Za-z_][A-Za-z0-9_]*|[0-9]+)\}`)

// CompilePatterns checks ps and returns the good ones as rules, and one
// error per bad one, naming it. A bad pattern never stops the others.
func CompilePatterns(ps []Pattern) ([]Rule, []error) {
	var rules []Rule
	var errs []error
	for i, p := range ps {
		if p.Name == "" {
			p.Name = fmt.Sprintf("pattern %d", i+1)
		}
		r, err := compilePattern(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p.Name, err))
			continue
		}
		rules = append(rules, r)
	}
	return rules, errs
}

func compilePattern(p Pattern) (*patternRule, error) {
	r := &patternRule{p: p}
	if p.Command == "" && p.Output == "" {
		return nil, fmt.Errorf("needs a command or an output expression")
	}
	if p.ErrorType == "" {
		r.p.ErrorType = Unknown
	} else if !errorTypes.get()[p.ErrorType] {
		return nil, fmt.Errorf("unknown error type %q", p.ErrorType)
	}
	if len(p.Fixes) > MaxFixes {
		return nil, fmt.Errorf("%d fixes; at most %d", len(p.Fixes), MaxFixes)
	}
	var err error
	known := map[string]bool{"command": true, "args": true}
	groups := 0
	for _, src := range []struct {
		expr string
		re   **regexp.Regexp
	}{{p.Command, &r.cmd}, {p.Output, &r.out}} {
		if src.expr == "" {
			continue
		}
		if *src.re, err = regexp.Compile(src.expr); err != nil {
			return nil, fmt.Errorf("bad expression %q: %v", src.expr, err)
		}
		for _, n := range (*src.re).SubexpNames() {
			if n != "" {
				known[n] = true
			}
		}
		groups = max(groups, (*src.re).NumSubexp())
	}
	for _, f := range p.Fixes {
		if strings.TrimSpace(f.Command) == "" {
			return nil, fmt.Errorf("a fix without a command")
		}
		for _, m := range templateVar.FindAllStringSubmatch(f.Command, -1) {
			if n, err := strconv.Atoi(m[1]); err == nil && n >= 1 && n <= groups || known[m[1]] {
				continue
			}
			return nil, fmt.Errorf("fix %q: no {%s} to fill in", f.Command, m[1])
		}
	}
	return r, nil
}

type patternRule struct {
	p        Pattern
	cmd, out *regexp.Regexp
}

func (r *patternRule) Name() string { return "user:" + r.p.Name }

// Check matches the pattern; the user's own rules are trusted above the
// built-in ones.
func (r *patternRule) Check(ctx context.Context, f *Failure) *Finding {
	vars := map[string]string{"command": strings.TrimSpace(f.Command)}
	outVars := map[string]bool{} // the variables filled from the output, which is untrusted
	if w := strings.Fields(vars["command"]); len(w) > 0 {
		vars["args"] = strings.TrimSpace(strings.TrimPrefix(vars["command"], w[0]))
	}
	for _, m := range []struct {
		re   *regexp.Regexp
		text string
	}{{r.cmd, f.Command}, {r.out, f.Output}} {
		if m.re == nil {
			continue
		}
		sub := m.re.FindStringSubmatch(m.text)
		if sub == nil {
			return nil
		}
		for i, name := range m.re.SubexpNames() {
			if i == 0 {
				continue
			}
			vars[strconv.Itoa(i)] = sub[i] // the output's groups, when both match, win
			outVars[strconv.Itoa(i)] = m.re == r.out
			if name != "" {
				vars[name] = sub[i]
				outVars[name] = m.re == r.out
			}
		}
	}
	cause := r.p.Explanation
	if cause == "" {
		cause = "Matches your pattern " + r.p.Name + "."
	}
	fd := &Finding{ErrorType: r.p.ErrorType, RootCause: cause, Confidence: 0.97, Exclusive: len(r.p.Fixes) > 0}
	for _, pf := range r.p.Fixes {
		fromOutput := false
		cmd := templateVar.ReplaceAllStringFunc(pf.Command, func(v string) string {
			name := v[1 : len(v)-1]
			fromOutput = fromOutput || outVars[name] && vars[name] != ""
			return vars[name]
		})
		fd.Fixes = append(fd.Fixes, Fix{Command: cmd, Explanation: pf.Explanation, Confidence: 0.97, Untrusted: fromOutput})
	}
	return fd
}
