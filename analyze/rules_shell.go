package analyze

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

var (
	notExecRes = []*regexp.Regexp{
		regexp.MustCompile(`(?m)^(?:[^\s:]+: )?(?:line \d+: |\d+: )?(\S+): [Pp]ermission denied\s*$`),
		regexp.MustCompile(`(?m)zsh: permission denied: (\S+)`),
	}
	isDirExecRe   = regexp.MustCompile(`(?m)(?:^[^\s:]+: |zsh: is a directory: )(\S+?)(?:: [Ii]s a directory)?\s*$`)
	badInterpRe   = regexp.MustCompile(`(?m)(\S+): (?:/bin/\S+: )?bad interpreter: ([^:]+): No such file or directory`)
	execFormatRe  = regexp.MustCompile(`(?i)exec format error|cannot execute binary file`)
	crlfRe        = regexp.MustCompile(`\$'\\r': command not found|\r: command not found|\^M: bad interpreter|/\S+\r: bad interpreter`)
	noMatchesRe   = regexp.MustCompile(`(?m)zsh: no matches? found: (.+)$`)
	eventRe       = regexp.MustCompile(`(?m)(\S+): event not found`)
	syntaxErrRe   = regexp.MustCompile(`(?m)^(.*(?:syntax error near unexpected token|unexpected EOF while looking for matching|syntax error: unexpected end of file|parse error near|unmatched ["'` + "`" + `]|bad substitution|unbound variable|ambiguous redirect|bad assignment).*)$`)
	bracketRe     = regexp.MustCompile("\\[: missing [`']\\]'|\\[: missing \\]")
	testArgsRe    = regexp.MustCompile(`\[: too many arguments|unary operator expected|binary operator expected|integer expression expected`)
	notIdentRe    = regexp.MustCompile("(?:export|declare|local|readonly|typeset): [`']?([^'`:]*)'?: not a valid identifier|not valid in this context: (\\S+)")
	cdTooManyRe   = regexp.MustCompile(`cd: too many arguments|cd: string not in pwd`)
	sudoBuiltinRe = regexp.MustCompile(`sudo: (cd|source|alias|export|ulimit|pushd|popd|history|\.): command not found`)
)

func ruleNotExecutable(ctx context.Context, f *Failure) *Finding {
	if f.has("bad interpreter") {
		return badInterpreter(ctx, f)
	}
	var target string
	for _, re := range notExecRes {
		if m := f.find(re); m != nil {
			target = m[1]
			break
		}
	}
	if m := f.find(isDirExecRe); m != nil && f.has("is a directory") && f.callByName(m[1]) != nil {
		c := f.callByName(m[1])
		return found(PermissionDenied, 0.85, fmt.Sprintf("%s is a directory, not a program.", m[1]),
			fix(f.replaceWords(c, 0, len(c.Args), "cd "+c.Raw[0]), 0.85, "Change into the directory."))
	}
	c := f.callByName(target)
	if c == nil && f.ExitCode == 126 && strings.TrimSpace(f.Output) == "" {
		for i := range f.Calls {
			if strings.Contains(f.Calls[i].Args[0], "/") {
				c = &f.Calls[i]
				target = c.Args[0]
				break
			}
		}
	}
	if c == nil {
		return nil
	}
	if execFormatRe.MatchString(f.Output) {
		return explain(PermissionDenied, 0.85, "%s is not a program for this machine (exec format error): built for another architecture or OS, or not a binary at all.", target)
	}
	e, err := f.Env.Stat(ctx, f.path(target))
	if err == nil && e.Dir {
		return found(PermissionDenied, 0.85, fmt.Sprintf("%s is a directory, not a program.", target),
			fix(f.replaceWords(c, 0, len(c.Args), "cd "+c.Raw[0]), 0.85, "Change into the directory."))
	}
	if err == nil && e.Exec {
		return nil // executable, so the denial is about something else
	}
	fd := found(PermissionDenied, 0.9, fmt.Sprintf("%s is not executable: it lacks the execute permission.", target))
	fd.Fixes = append(fd.Fixes, fix("chmod +x "+c.Raw[0]+" && "+f.callText(c), 0.9, "Give the file execute permission, then run it."))
	if interp := interpreterFor(ctx, f, target); interp != "" {
		fd.Fixes = append(fd.Fixes, fix(f.replaceWord(c, 0, interp+" "+c.Raw[0]), 0.85, "Run the script through %s, which needs no execute permission.", interp))
	}
	return fd
}

// badInterpreter handles a #! line naming a missing program.
func badInterpreter(ctx context.Context, f *Failure) *Finding {
	m := f.find(badInterpRe)
	if m == nil {
		return nil
	}
	script, interp := m[1], strings.TrimSpace(m[2])
	c := f.callByName(script)
	if crlfRe.MatchString(f.Output) || strings.HasSuffix(interp, "\r") || strings.HasSuffix(interp, "^M") {
		return crlfFinding(ctx, f, script, c)
	}
	fd := found(CommandNotFound, 0.85, fmt.Sprintf("The #! line of %s names %s, which does not exist.", script, interp))
	base := interp[strings.LastIndex(interp, "/")+1:]
	alt := base
	if base == "python" || base == "python2" {
		alt = "python3"
	}
	if c != nil && f.Env.LookPath(ctx, alt) {
		fd.Fixes = append(fd.Fixes, fix(f.replaceWord(c, 0, alt+" "+c.Raw[0]), 0.8, "Run the script with %s from the PATH.", alt))
	}
	return fd
}

// crlfFinding handles scripts saved with Windows line endings.
func crlfFinding(ctx context.Context, f *Failure, script string, c *Call) *Finding {
	fd := found(SyntaxError, 0.9, fmt.Sprintf("%s has Windows (CRLF) line endings; the shell reads the \\r as part of each line.", script))
	tool := "sed -i 's/\\r$//' " + quote(script)
	if f.Env.LookPath(ctx, "dos2unix") {
		tool = "dos2unix " + quote(script)
	}
	cmd := tool
	if c != nil {
		cmd += " && " + f.callText(c)
	}
	fd.Fixes = append(fd.Fixes, fix(cmd, 0.85, "Convert the line endings to Unix, then run it again."))
	return fd
}

func ruleShellSyntax(ctx context.Context, f *Failure) *Finding {
	if crlfRe.MatchString(f.Output) {
		for i := range f.Calls {
			c := &f.Calls[i]
			script := c.Args[0]
			if (c.Name() == "bash" || c.Name() == "sh" || c.Name() == "zsh") && len(c.Args) > 1 {
				script = c.Args[1]
			}
			if f.isFile(ctx, script) || strings.Contains(script, "/") {
				return crlfFinding(ctx, f, script, c)
			}
		}
		return crlfFinding(ctx, f, "the script", nil)
	}
	if m := f.find(sudoBuiltinRe); m != nil {
		c := f.main()
		fd := explain(CommandNotFound, 0.85, "%s is a shell builtin, not a program, so sudo cannot run it; start a root shell (sudo -s) or use sudo sh -c '…'.", m[1])
		if c != nil && c.Sudo {
			fd.Fixes = []Fix{fix("sudo sh -c "+quote(f.argsText(c, 0)), 0.6, "Run the builtin inside a root shell.")}
		}
		return fd
	}
	if m := f.find(noMatchesRe); m != nil {
		pat := strings.TrimSpace(m[1])
		for i := range f.Calls {
			c := &f.Calls[i]
			for j, raw := range c.Raw {
				if raw == pat {
					return found(SyntaxError, 0.9, fmt.Sprintf("zsh found no file matching %s and stopped; quote the pattern to pass it to the command as is.", pat),
						fix(f.replaceWord(c, j, "'"+strings.ReplaceAll(c.Args[j], "'", `'\''`)+"'"), 0.9, "Quote the pattern so that zsh does not expand it."))
				}
			}
		}
		return explain(SyntaxError, 0.8, "zsh found no file matching %s; quote the pattern to pass it on unexpanded.", pat)
	}
	if m := f.find(eventRe); m != nil {
		return explain(SyntaxError, 0.85, "The shell read %s as a history expansion (!) inside double quotes; use single quotes around text with !.", m[1])
	}
	if f.find(bracketRe) != nil {
		if c := f.call("["); c != nil && len(c.Args) > 1 {
			last := len(c.Args) - 1
			raw := c.Raw[last]
			if strings.HasSuffix(raw, "]") && raw != "]" {
				return found(SyntaxError, 0.9, "[ needs its closing ] as a separate word.",
					fix(f.replaceWord(c, last, raw[:len(raw)-1]+" ]"), 0.9, "Put a space before the closing ]."))
			}
			return found(SyntaxError, 0.85, "[ needs a closing ].", fix(f.replaceWords(c, len(c.Args), len(c.Args), "]"), 0.85, "Add the closing ]."))
		}
	}
	if m := f.find(notIdentRe); m != nil {
		if c := f.call("export", "declare", "local", "readonly", "typeset", "alias"); c != nil {
			for i := 1; i+1 < len(c.Args); i++ {
				switch {
				case c.Args[i] == "=" && i > 1 && i+1 < len(c.Args):
					return found(SyntaxError, 0.9, "Assignments take no spaces around =.", fix(f.replaceWords(c, i-1, i+2, c.Raw[i-1]+"="+c.Raw[i+1]), 0.9, "Remove the spaces around =."))
				case strings.HasSuffix(c.Args[i], "=") && !strings.HasPrefix(c.Args[i+1], "-"):
					return found(SyntaxError, 0.85, "Assignments take no spaces around =.", fix(f.replaceWords(c, i, i+2, c.Raw[i]+c.Raw[i+1]), 0.85, "Remove the space after =."))
				case strings.HasPrefix(c.Args[i+1], "=") && len(c.Args[i+1]) > 1:
					return found(SyntaxError, 0.85, "Assignments take no spaces around =.", fix(f.replaceWords(c, i, i+2, c.Raw[i]+c.Raw[i+1]), 0.85, "Remove the space before =."))
				}
			}
			name := m[1] + m[2]
			return explain(SyntaxError, 0.8, "%q is not a valid variable name: names hold only letters, digits and _, and do not start with a digit.", name)
		}
	}
	if f.find(testArgsRe) != nil {
		return explain(SyntaxError, 0.75, "The test got the wrong number of words: an unquoted variable was empty or held spaces; quote variables inside [ ], as in [ \"$x\" = y ].")
	}
	if f.find(cdTooManyRe) != nil {
		if c := f.call("cd"); c != nil && len(c.Args) > 2 {
			dir := strings.Join(c.Args[1:], " ")
			if f.isDir(ctx, dir) {
				return found(SyntaxError, 0.9, "cd takes one directory; a name with spaces must be quoted.",
					fix(f.replaceWords(c, 1, len(c.Args), quote(dir)), 0.9, "Quote the directory name."))
			}
			return explain(SyntaxError, 0.8, "cd takes one directory; quote a name that contains spaces.")
		}
	}
	if m := f.find(syntaxErrRe); m != nil {
		line := strings.TrimSpace(m[1])
		switch {
		case strings.Contains(line, "unexpected EOF") || strings.Contains(line, "unmatched"):
			return explain(SyntaxError, 0.7, "A quote or bracket is not closed: %s", line)
		case strings.Contains(line, "unbound variable"):
			return explain(ConfigurationError, 0.7, "A variable is used but not set (set -u is on): %s", line)
		case strings.Contains(line, "bad substitution"):
			return explain(SyntaxError, 0.7, "The shell does not support this expansion (a bash feature run by sh?): %s", line)
		case strings.Contains(line, "ambiguous redirect"):
			return explain(SyntaxError, 0.7, "The redirection target expanded to nothing or to several words; quote the variable: %s", line)
		}
		return explain(SyntaxError, 0.65, "Shell syntax error: %s", line)
	}
	if f.has("source: not found") {
		if c := f.call("source"); c != nil {
			return found(CommandNotFound, 0.85, "sh has no source command; its equivalent is the . command.",
				fix(f.replaceWord(c, 0, "."), 0.85, "Use . instead of source."))
		}
	}
	return nil
}

// ruleHistory proposes a command the user ran successfully that differs
// from the failed one by a typo or two, preferring this directory.
func ruleHistory(ctx context.Context, f *Failure) *Finding {
	cmd := strings.TrimSpace(f.Command)
	if cmd == "" || len(f.History) == 0 {
		return nil
	}
	type cand struct {
		cmd   string
		score float64
	}
	best := map[string]float64{}
	limit := max(1, min(len(cmd)/6, 3))
	for _, p := range f.History {
		pc := strings.TrimSpace(p.Command)
		if p.ExitCode != 0 || pc == cmd || pc == "" || abs(len(pc)-len(cmd)) > limit {
			continue
		}
		d := distance(cmd, pc)
		if d == 0 || d > limit {
			continue
		}
		s := 0.75 - 0.05*float64(d)
		if isTransposition(cmd, pc) {
			s = 0.8
		}
		if p.Cwd != "" && p.Cwd == f.Cwd {
			s += 0.08
		}
		if s > best[pc] {
			best[pc] = min(s+0.01*float64(countRuns(f.History, pc)), 0.9)
		}
	}
	if len(best) == 0 {
		return nil
	}
	fd := found(Unknown, 0.3, "")
	for c, s := range best {
		fd.Fixes = append(fd.Fixes, fix(c, s, "You ran this successfully before."))
	}
	return fd
}

func countRuns(h []Past, cmd string) int {
	n := 0
	for _, p := range h {
		if p.ExitCode == 0 && strings.TrimSpace(p.Command) == cmd {
			n++
		}
	}
	return min(n, 5)
}
