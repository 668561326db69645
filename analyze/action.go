package analyze

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
)

// SameAction reports whether two command lines, run in the directory cwd
// of a user whose home is home, do the same thing: the same words, once
// paths are made absolute and clean ("source .venv/bin/activate",
// "source ~/app/.venv/bin/activate" and "source /home/u/app/.venv/bin/activate"
// in ~/app; ". x" and "source x"). A list of fixes shows one of them.
func SameAction(a, b, cwd, home, shell string) bool {
	return a == b || actionKey(a, cwd, home, shell) == actionKey(b, cwd, home, shell)
}

// actionKey is the words of a command line's calls with paths resolved.
func actionKey(cmd, cwd, home, shell string) string {
	var b strings.Builder
	for _, c := range parseCalls(cmd, shell) {
		if c.Sudo {
			b.WriteString("sudo\x00")
		}
		for i, w := range c.Args {
			switch {
			case i == 0 && w == ".":
				w = "source"
			case home != "" && (w == "~" || strings.HasPrefix(w, "~/")):
				w = filepath.Join(home, w[1:])
			case strings.Contains(w, "/") && !strings.HasPrefix(w, "-") && !strings.ContainsAny(w, "=:$~"):
				if !filepath.IsAbs(w) && cwd != "" {
					w = filepath.Join(cwd, w)
				}
				w = filepath.Clean(w)
			}
			b.WriteString(w)
			b.WriteByte(0)
		}
		b.WriteByte(1)
	}
	return b.String()
}

// Runnable reports whether the program a command line starts with exists:
// a path, one of the shell's builtins, the user's aliases and functions,
// or a program on the PATH. A fix with python where only python3 exists is
// not one to offer. With nothing known (a nil env), it is assumed to exist.
func Runnable(ctx context.Context, env Facts, cmd, shell string) bool {
	if env == nil {
		return true
	}
	name := firstProgram(cmd, shell)
	if name == "" {
		return true // assignments only, or nothing hookd can parse
	}
	if strings.Contains(name, "/") || env.LookPath(ctx, name) {
		return true
	}
	for _, list := range [][]string{env.Builtins(ctx), env.Aliases(ctx), env.Functions(ctx)} {
		if slices.Contains(list, name) {
			return true
		}
	}
	return false
}

// firstProgram returns the program of a command line's first call, past
// its wrappers (sudo, env, …), or "".
func firstProgram(cmd, shell string) string {
	calls := parseCalls(cmd, shell)
	if len(calls) == 0 {
		return ""
	}
	return calls[0].Args[0]
}
