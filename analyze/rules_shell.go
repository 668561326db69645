package analyze

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

var (
	notExecRes = []lazyRegexp{
		lazyRegexp(`(?m)^(?:[^\s:]+: )?(?:line \d+: |\d+: )?(\S+): [Pp]ermission denied\s*$`),
		lazyRegexp(`(?m)zsh: permission denied: (\S+)`),
	}
	isDirExecRe    = lazyRegexp(`(?m)(?:^[^\s:]+: |zsh: is a directory: )(\S+?)(?:: [Ii]s a directory)?\s*$`)
	badInterpRe    = lazyRegexp(`(?m)(\S+): (?:/bin/\S+: )?bad interpreter: ([^:]+): No such file or directory`)
	requiredFileRe = lazyRegexp(`(\S+): cannot execute: required file not found`)
	execFormatRe   = lazyRegexp(`(?i)exec format error|cannot execute binary file`)
	crlfRe         = lazyRegexp(`\$'\\r': command not found|\r: command not found|\^M: bad interpreter|/\S+\r: bad interpreter`)
	noMatchesRe    = lazyRegexp(`(?m)zsh: no matches? found: (.+)$`)
	eventRe        = lazyRegexp(`(?m)(\S+): event not found`)
	syntaxErrRe    = lazyRegexp(`(?m)^(.*(?:syntax error near unexpected token|unexpected EOF while looking for matching|syntax error: unexpected end of file|parse error near|unmatched ["'` + "`" + `]|bad substitution|unbound variable|ambiguous redirect|bad assignment).*)$`)
	bracketRe      = lazyRegexp("\\[: missing [`']\\]'|\\[: missing \\]")
	intExpectedRe  = lazyRegexp(`(?:\[|test): ([^:\n]*): integer expression expected`)
	bashismRe      = lazyRegexp(`(?m)^(\S+?):? (?:line )?\d+: (?:(?:source|\[\[|declare|shopt|pushd|popd|function|local|let|typeset|mapfile|readarray): not found|Syntax error: "\(" unexpected|Bad substitution|Syntax error: redirection unexpected)`)
	testArgsRe     = lazyRegexp(`\[: too many arguments|unary operator expected|binary operator expected|integer expression expected`)
	notIdentRe     = lazyRegexp("(?:export|declare|local|readonly|typeset): [`']?([^'`:]*)'?: not a valid identifier|not valid in this context: (\\S+)")
	cdTooManyRe    = lazyRegexp(`cd: too many arguments|cd: string not in pwd`)
	sudoBuiltinRe  = lazyRegexp(`sudo: (cd|source|alias|export|ulimit|pushd|popd|history|\.): command not found`)
)

func ruleNotExecutable(ctx context.Context, f *Failure) *Finding {
	if f.has("bad interpreter") {
		return badInterpreter(ctx, f)
	}
	if m := f.find(requiredFileRe); m != nil {
		return missingInterpreter(ctx, f, m[1])
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
		// Executable, yet denied: a filesystem mounted noexec, or a
		// directory on the way that may not be searched.
		fd := found(PermissionDenied, 0.75, fmt.Sprintf("%s is executable, yet running it was denied: its filesystem is probably mounted noexec.", target))
		if interp := interpreterFor(ctx, f, target); interp != "" {
			fd.Fixes = append(fd.Fixes, fix(f.replaceWord(c, 0, interp+" "+c.Raw[0]), 0.75, "Run the script through %s, which only needs to read it.", interp))
		}
		return fd
	}
	fd := found(PermissionDenied, 0.9, fmt.Sprintf("%s is not executable: it lacks the execute permission.", target))
	chmod := "chmod +x "
	if isSystemPath(f.path(target)) || strings.HasPrefix(f.path(target), "/opt/") {
		chmod = f.sudo(ctx) + chmod
	}
	fd.Fixes = append(fd.Fixes, fix(chmod+c.Raw[0]+" && "+f.callText(c), 0.9, "Give the file execute permission, then run it."))
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

// missingInterpreter handles bash's "cannot execute: required file not
// found": the program named on the #! line is missing, or the line ends in
// a carriage return.
func missingInterpreter(ctx context.Context, f *Failure, script string) *Finding {
	c := f.callByName(script)
	head, err := f.Env.ReadHead(ctx, f.path(script), 256)
	if err != nil || !strings.HasPrefix(string(head), "#!") {
		return explain(FileNotFound, 0.7, "%s cannot be executed: the program its #! line names does not exist.", script)
	}
	line := strings.SplitN(string(head[2:]), "\n", 2)[0]
	if strings.HasSuffix(line, "\r") {
		return crlfFinding(ctx, f, script, c)
	}
	interp := strings.Fields(line)
	if len(interp) == 0 {
		return nil
	}
	fd := found(CommandNotFound, 0.85, fmt.Sprintf("The #! line of %s names %s, which does not exist.", script, strings.TrimSpace(line)))
	name := interp[0][strings.LastIndex(interp[0], "/")+1:]
	if name == "env" && len(interp) > 1 {
		name = interp[1]
	}
	alt := name
	if name == "python" || name == "python2" {
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
	file := shellwords.QuotePath(filepath.Clean(script))
	tool := "sed -i 's/\\r$//' " + file
	if f.Env.LookPath(ctx, "dos2unix") {
		tool = "dos2unix " + file
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
			fd.Fixes = []Fix{fix("sudo sh -c "+shellwords.QuoteWord(f.argsText(c, 0)), 0.6, "Run the builtin inside a root shell.")}
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
			for i := 2; i < len(c.Args); i++ {
				// A blank inside a value: PATH=$PATH: /usr/local/go/bin.
				if c.Args[i] == name && strings.Contains(c.Args[i-1], "=") && !strings.HasSuffix(c.Args[i-1], "=") {
					return found(SyntaxError, 0.88, fmt.Sprintf("The value of %s was cut at a blank, so %q became a separate name.", strings.SplitN(c.Args[i-1], "=", 2)[0], name),
						fix(f.replaceWords(c, i-1, i+1, c.Raw[i-1]+c.Raw[i]), 0.88, "Remove the blank inside the value (or quote the value)."))
				}
			}
			return explain(SyntaxError, 0.8, "%q is not a valid variable name: names hold only letters, digits and _, and do not start with a digit.", name)
		}
	}
	if m := f.find(intExpectedRe); m != nil {
		return explain(SyntaxError, 0.8, "-eq, -lt, -gt and the like compare integers, and %q is not an integer; compare strings with = instead.", m[1])
	}
	if c := f.call("alias"); c != nil && f.has("alias: =: not found", "bad assignment") {
		for i := 1; i+2 < len(c.Args); i++ {
			if c.Args[i+1] == "=" {
				return found(SyntaxError, 0.9, "alias takes name=value as one word, without spaces around =.",
					fix(f.replaceWords(c, i, i+3, c.Raw[i]+"="+c.Raw[i+2]), 0.9, "Remove the spaces around =."))
			}
		}
	}
	if m := f.find(bashismRe); m != nil {
		if fd := bashOnly(ctx, f, m[1]); fd != nil {
			return fd
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
					fix(f.replaceWords(c, 1, len(c.Args), shellwords.QuotePath(dir)), 0.9, "Quote the directory name."))
			}
			return explain(SyntaxError, 0.8, "cd takes one directory; quote a name that contains spaces.")
		}
	}
	if m := f.find(syntaxErrRe); m != nil {
		line := strings.TrimSpace(m[1])
		switch {
		case strings.Contains(line, "unexpected EOF") || strings.Contains(line, "unmatched"):
			if cmd := f.closeQuote(ctx); cmd != "" {
				return found(SyntaxError, 0.7, "A quote is not closed: "+line,
					fix(cmd, 0.7, "Close the quote before the words that name files here."))
			}
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

// bashOnly handles a bash script run by sh (dash on Debian), which stops at
// the first bash feature.
func bashOnly(ctx context.Context, f *Failure, script string) *Finding {
	script = strings.TrimSuffix(script, ":")
	fd := found(SyntaxError, 0.88, fmt.Sprintf("%s uses bash features, but sh (dash here) ran it.", script))
	for i := range f.Calls {
		c := &f.Calls[i]
		switch {
		case (c.Name() == "sh" || c.Name() == "dash") && len(c.Args) > 1:
			fd.Fixes = append(fd.Fixes, fix(f.replaceWord(c, 0, "bash"), 0.88, "Run the script with bash."))
			return fd
		case c.Args[0] == script || c.Raw[0] == script:
			fd.RootCause = fmt.Sprintf("%s uses bash features, but its #! line asks for sh.", script)
			fd.Fixes = append(fd.Fixes, fix(f.replaceWord(c, 0, "bash "+c.Raw[0]), 0.85, "Run the script with bash."))
			return fd
		}
	}
	return fd
}

// ruleHistory proposes a command the user ran successfully that differs
// from the failed one by a typo or two, preferring this directory.
func ruleHistory(ctx context.Context, f *Failure) *Finding {
	cmd := strings.TrimSpace(f.Command)
	if cmd == "" || len(f.History) == 0 {
		return nil
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

// killByNameRe is each shell's (and kill(1)'s) wording of a kill given a
// process's name where it takes a process id; submatch 1 to 4: the name.
var killByNameRe = lazyRegexp(`(?im)kill: (?:([^\s:]+): arguments must be process or job ids|illegal (?:pid|number): (\S+)|cannot find process "?([^"\s]+?)"?\.?$|failed to parse argument: '([^']+)')`)

// ruleKillByName: kill takes process ids (or %jobs); a name is pkill's.
func ruleKillByName(ctx context.Context, f *Failure) *Finding {
	c := f.call("kill")
	if c == nil || !f.has("kill: ") {
		return nil
	}
	m := killByNameRe.FindStringSubmatch(f.lower)
	if m == nil {
		return nil
	}
	named := m[1] + m[2] + m[3] + m[4]
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		if !strings.EqualFold(a, named) || strings.HasPrefix(a, "-") || strings.HasPrefix(a, "%") {
			continue
		}
		if strings.Trim(a, "0123456789") == "" {
			return nil // a number after all
		}
		return found(SyntaxError, 0.85, fmt.Sprintf("kill takes process ids, not names; pkill finds processes named %s.", a),
			fix(f.replaceWord(c, 0, "pkill"), 0.85, "Signal the processes named %s.", a))
	}
	return nil
}

// closeQuote returns the command line with its unclosed quote closed before
// the last words when they name files here (sed 's/a/b/g notes.txt, the
// script's end forgotten before its file); "" when every quote is closed or
// no file follows it (the end of the quote would be a guess).
func (f *Failure) closeQuote(ctx context.Context) string {
	cmd := f.Input.Command
	if strings.Contains(cmd, "\n") {
		return ""
	}
	var q byte
	open := -1
	for i := 0; i < len(cmd); i++ {
		ch := cmd[i]
		switch {
		case q == 0 && ch == '\\':
			i++
		case q == 0 && (ch == '\'' || ch == '"'):
			q, open = ch, i
		case q == '"' && ch == '\\':
			i++
		case q != 0 && ch == q:
			q = 0
		}
	}
	if q == 0 {
		return ""
	}
	end := len(strings.TrimRight(cmd, " \t"))
	at := end
	var files []string // the file names after the quote, last first
	for {
		sp := strings.LastIndexAny(cmd[open+1:at], " \t")
		if sp < 0 {
			break
		}
		sp += open + 1
		w := cmd[sp+1 : at]
		if w == "" || !f.exists(ctx, w) {
			break
		}
		if strings.HasPrefix(w, "-") {
			return "" // a name the program would read as an option
		}
		files = append(files, w)
		at = sp
		for at > open+1 && (cmd[at-1] == ' ' || cmd[at-1] == '\t') {
			at--
		}
	}
	if at == open+1 || len(files) == 0 {
		return "" // no file after it: where the quote ends is a guess
	}
	// The names leave the quote as words of their own (a file named
	// $(…) or ;x stays a name).
	slices.Reverse(files)
	return cmd[:at] + string(q) + " " + shellwords.Join(files...)
}
