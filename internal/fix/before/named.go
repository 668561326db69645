package before

import (
	"context"
	"regexp"
	"strings"
	"sync"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/shellwords"
)

// A failure that names an environment variable it misses ("API_TOKEN is
// not set", "API_TOKEN: unbound variable", KeyError: 'API_TOKEN' from
// os.environ) is compared on that variable too, though the shell never
// noted it (only fix.watch_env's and the managers' are noted with each
// command): what it was when the command last succeeded is read from that
// session's own command lines up to the success (an `export NAME=value`,
// `set -gx NAME value`, `declare -x`, `setenv`, or `NAME=value` before the
// command itself; an `unset` or `set -e` since clears it), and whether it
// is set now from the failing shell's environment (Options.Environ: hookd
// suggest runs as the shell's child). Nothing is noted at the prompt for
// it, so it costs the prompt nothing.

// namedVariables returns the upper-case variable names output says are
// missing, each once, in order.
func namedVariables(output string) []string {
	if output == "" {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, re := range missingVarRes() {
		for _, m := range re.FindAllStringSubmatch(output, -1) {
			if n := m[1]; !seen[n] && shellwords.IsName(n) {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	// Python's KeyError names a key of any dict: an environment
	// variable's only when the failure read os.environ (its traceback
	// names it, or os's __getitem__).
	if strings.Contains(output, "environ") || strings.Contains(output, "<frozen os>") || strings.Contains(output, "/os.py") {
		for _, m := range keyErrorRe().FindAllStringSubmatch(output, -1) {
			if n := m[1]; !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// envName is an environment variable's name as tools print it: upper case,
// digits and underscores, two characters at least.
const envName = `([A-Z_][A-Z0-9_]*[A-Z0-9])`

var (
	missingVarRes = sync.OnceValue(func() []*regexp.Regexp {
		return []*regexp.Regexp{
			// bash and zsh: set -u, ${NAME?}, ${NAME:?}.
			regexp.MustCompile(`\b` + envName + `: (?:unbound variable|parameter (?:null or )?not set)`),
			// "NAME is not set", "$NAME must be set", "NAME environment
			// variable is required", "NAME not defined".
			regexp.MustCompile(`(?:^|[\s'"$({\[])\$?` + envName + `['"]?(?: environment variable| env var)?(?: is)? (?:not set|unset|not defined|undefined|required|missing|empty|must be (?:set|defined|provided))\b`),
			// "environment variable NAME is not set", "missing
			// environment variable: NAME", "env var NAME not found".
			regexp.MustCompile(`(?i:environment variable|env var)s?:? ['"$]?` + envName + `\b['"]?(?: (?:is )?(?:not set|unset|not found|not defined|undefined|required|missing|empty))?`),
			// Node: process.env.NAME is undefined.
			regexp.MustCompile(`process\.env\.` + envName + `\b[^\n]*\bundefined`),
		}
	})
	keyErrorRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`KeyError: '` + envName + `'`)
	})
)

// sessionScan is how many of a session's command lines naming the
// variable, before a success, are read for its assignment.
const sessionScan = 200

// setWhen returns the value name had when then ran, as the command lines
// of its session say: ok is false when none of them set it (or the last
// one that touched it unset it). A value the history holds redacted stays
// redacted.
func setWhen(ctx context.Context, s *history.Store, then history.Entry, name string) (value string, ok bool, err error) {
	shell := then.Shell
	// The success's own line first: NAME=value before its program.
	if v, set, found := assigned(then.Command, shell, name, true); found {
		return v, set, nil
	}
	if then.Session == "" {
		return "", false, nil
	}
	lines, err := s.LinesWith(ctx, then.Session, then.Seq, name, sessionScan)
	if err != nil {
		return "", false, err
	}
	for _, line := range lines { // newest first
		if v, set, found := assigned(line, shell, name, false); found {
			return v, set, nil
		}
	}
	return "", false, nil
}

// assigned reports what the last of line's commands that touches name
// does to it: found, set (with its value) or unset. prefix counts an
// assignment before a command's program too, which sets it for that
// command alone (the success's own line).
func assigned(line, shell, name string, prefix bool) (value string, set, found bool) {
	if !strings.Contains(line, name) || !mayAssign(line, name) {
		return "", false, false
	}
	cmds := shellwords.Commands(line, shell)
	for i := len(cmds) - 1; i >= 0; i-- {
		if v, s, f := assignedIn(cmds[i], name, prefix); f {
			return v, s, true
		}
	}
	return "", false, false
}

// mayAssign says, without parsing line, whether it can set or clear name:
// most lines that name a variable only read it (echo $API_TOKEN).
func mayAssign(line, name string) bool {
	if strings.Contains(line, name+"=") {
		return true
	}
	for _, w := range []string{"export", "unset", "set ", "setenv", "declare", "typeset", "readonly", "local"} {
		if strings.Contains(line, w) {
			return true
		}
	}
	return false
}

func assignedIn(words []string, name string, prefix bool) (value string, set, found bool) {
	eq := name + "="
	// NAME=value before the program.
	p := 0
	for p < len(words) && strings.Contains(words[p], "=") && shellwords.IsName(words[p][:strings.Index(words[p], "=")]) {
		if prefix && strings.HasPrefix(words[p], eq) {
			value, set, found = strings.TrimPrefix(words[p], eq), true, true
		}
		p++
	}
	if found || p >= len(words) {
		return value, set, found
	}
	prog, args := words[p], words[p+1:]
	switch prog {
	case "export", "declare", "typeset", "local", "readonly":
		exported := prog == "export"
		for _, a := range args {
			switch {
			case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+"):
				exported = exported || strings.Contains(a, "x")
			case strings.HasPrefix(a, eq) && exported:
				value, set, found = strings.TrimPrefix(a, eq), true, true
			case a == name && exported:
				value, set, found = "", true, true // exported, its value set earlier
			}
		}
	case "unset":
		for _, a := range args {
			if a == name {
				value, set, found = "", false, true
			}
		}
	case "setenv": // fish's and csh's
		if len(args) >= 1 && args[0] == name {
			value, set, found = strings.Join(args[1:], " "), true, true
		}
	case "set": // fish
		exported, erase := false, false
		i := 0
		for ; i < len(args) && strings.HasPrefix(args[i], "-"); i++ {
			switch a := args[i]; {
			case a == "--export" || !strings.HasPrefix(a, "--") && strings.Contains(a, "x"):
				exported = true
			case a == "--erase" || !strings.HasPrefix(a, "--") && strings.Contains(a, "e"):
				erase = true
			}
		}
		if i < len(args) && args[i] == name {
			switch {
			case erase:
				value, set, found = "", false, true
			case exported:
				value, set, found = strings.Join(args[i+1:], " "), true, true
			}
		}
	}
	return value, set, found
}

// addNamed puts the variables the failure's output names, that the shells
// did not note, into both runs' environments: as then ran (setWhen) and
// as the failing shell has it now (o.Environ). Only one that was set then
// and is not now is added: that is the difference that explains a "not
// set".
func addNamed(ctx context.Context, s *history.Store, then history.Entry, thenRun, nowRun *Run, o Options) error {
	if o.Environ == nil {
		return nil
	}
	for _, name := range namedVariables(o.Output) {
		if _, noted := thenRun.Context.Env[name]; noted {
			continue
		}
		if _, noted := nowRun.Context.Env[name]; noted {
			continue
		}
		if v, set := o.Environ(name); set && v != "" {
			continue
		}
		tv, set, err := setWhen(ctx, s, then, name)
		if err != nil {
			return err
		}
		if !set {
			continue
		}
		if tv == "" {
			// Exported with a value given earlier (or by an empty one):
			// known to be set, not to what, as a redacted value is.
			tv = analyze.RedactionMarker
		}
		// Both sides compared on this name alone besides what each noted.
		switch {
		case thenRun.Context.Env == nil && nowRun.Context.Env == nil:
			thenRun.Context.Env, nowRun.Context.Env = map[string]string{}, map[string]string{}
		case thenRun.Context.Env == nil:
			thenRun.Context.Env = cloneEnv(nowRun.Context.Env)
		case nowRun.Context.Env == nil:
			nowRun.Context.Env = cloneEnv(thenRun.Context.Env)
		default:
			thenRun.Context.Env = cloneEnv(thenRun.Context.Env)
			nowRun.Context.Env = cloneEnv(nowRun.Context.Env)
		}
		thenRun.Context.Env[name] = tv
		nowRun.Context.Env[name] = ""
	}
	return nil
}

func cloneEnv(m map[string]string) map[string]string {
	out := make(map[string]string, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}
