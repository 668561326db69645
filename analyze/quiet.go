package analyze

import (
	"fmt"
	"strings"
)

// answerCommands exit 1 to say "no": no match, files differ, condition false.
var answerCommands = lazyValue[map[string]bool]{make: func() map[string]bool {
	return map[string]bool{
		"grep": true, "egrep": true, "fgrep": true, "zgrep": true, "rg": true, "ag": true, "ack": true,
		"diff": true, "cmp": true, "colordiff": true, "test": true, "[": true, "[[": true, "false": true,
		"pgrep": true, "pidof": true, "which": true, "look": true, "comm": true,
	}
}}

// isQuiet reports an outcome that deserves no suggestion, with the reason.
func isQuiet(f *Failure) (bool, string) {
	switch f.ExitCode {
	case 0:
		return true, "the command succeeded"
	case 130:
		return true, "interrupted (Ctrl-C)"
	case 141:
		return true, "stopped by a closed pipe (SIGPIPE), usually because a reader such as head had enough"
	case 146, 148:
		return true, "suspended (Ctrl-Z)"
	}
	if f.ExitCode != 1 || f.errorShown() {
		return false, ""
	}
	for i := range f.Calls {
		c := &f.Calls[i]
		name := c.Name()
		switch {
		case answerCommands.get()[name]:
			return true, fmt.Sprintf("%s answered no (exit 1): %s", name, answerMeaning(name))
		case name == "git" && (c.sub() == "diff" || c.sub() == "grep") && (f.Output == "" || c.sub() == "diff"):
			return true, "git " + c.sub() + " answered no (exit 1)"
		case name == "systemctl" && strings.HasPrefix(c.sub(), "is-"):
			return true, "systemctl " + c.sub() + " answered no"
		case name == "git" && c.sub() == "config" && strings.TrimSpace(f.Output) == "" && len(c.Args) <= 4:
			return true, "git config answered no: the key is not set"
		case name == "crontab" && f.has("no crontab for"):
			return true, "there is no crontab yet"
		case (name == "dpkg" || name == "dpkg-query") && f.has("no packages found matching"):
			return true, "dpkg knows no such package"
		case name == "pkill" && strings.TrimSpace(f.Output) == "":
			return true, "pkill matched no process"
		}
	}
	return false, ""
}

func answerMeaning(name string) string {
	switch name {
	case "diff", "cmp", "colordiff", "comm":
		return "the inputs differ"
	case "test", "[", "[[", "false":
		return "the condition is false"
	case "which":
		return "no such command on the PATH"
	case "pgrep", "pidof":
		return "no such process"
	}
	return "nothing matched"
}

var errorShownRe = lazyRegexp(`(?im)(^|: )(error|fatal|usage|invalid|unrecognized|illegal|missing|unknown|cannot|can't|no such file|permission denied|not found|syntax error|unmatched|unbalanced|too many arguments|binary operator expected|unary operator expected|integer expression expected)\b`)

// errorShown reports whether the output carries an error message rather
// than an answer (grep's matches, diff's differences).
func (f *Failure) errorShown() bool {
	if strings.TrimSpace(f.Output) == "" {
		return false
	}
	for _, l := range strings.Split(f.Output, "\n") {
		// Lines of diff output and grep matches are data, not errors.
		if l == "" || strings.HasPrefix(l, "<") || strings.HasPrefix(l, ">") || strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-") || strings.HasPrefix(l, "@@") {
			continue
		}
		for i := range f.Calls {
			if n := f.Calls[i].Name(); n != "" && strings.HasPrefix(l, n+":") && errorShownRe.MatchString(l) {
				return true
			}
		}
		if strings.HasPrefix(l, "bash:") || strings.HasPrefix(l, "zsh:") || strings.HasPrefix(l, "sh:") {
			return true
		}
	}
	return false
}

// signalNames explain exit statuses above 128.
var signalNames = lazyValue[map[int]string]{make: func() map[int]string {
	return map[int]string{
		129: "hung up (SIGHUP)",
		131: "quit (SIGQUIT), with a core dump",
		132: "illegal instruction (SIGILL)",
		134: "aborted (SIGABRT), often an assertion failure",
		135: "bus error (SIGBUS)",
		136: "floating-point exception (SIGFPE), such as a division by zero",
		137: "killed (SIGKILL), often by the out-of-memory killer or a timeout",
		139: "segmentation fault (SIGSEGV): the program accessed invalid memory",
		143: "terminated (SIGTERM)",
	}
}}

// keyLine returns the line of the output that best states the error.
func (f *Failure) keyLine() string {
	lines := strings.Split(strings.TrimSpace(f.Output), "\n")
	// A Python or Java traceback ends with the exception.
	if f.has("traceback (most recent call last)") {
		for i := len(lines) - 1; i >= 0; i-- {
			if l := strings.TrimSpace(lines[i]); l != "" && !strings.HasPrefix(lines[i], " ") {
				return l
			}
		}
	}
	best, bestScore := "", 0
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if s := lineScore(l); s > bestScore {
			best, bestScore = l, s
		}
	}
	if best != "" {
		return best
	}
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

var (
	strongErrRe = lazyRegexp(`(?i)\b(?:error|fatal|failed|exception)\b`)
	weakErrRe   = lazyRegexp(`(?i)\b(?:cannot|can't|could not|couldn't|unable|denied|not found|no such|invalid|unknown|unrecognized|missing|refused|panic|not allowed|not permitted|timed out|illegal|abort)`)
)

// lineScore rates how well a line states an error: error words count, and
// separators, headers ending in a colon and very long lines count against.
func lineScore(l string) int {
	if len(l) < 4 || strings.Trim(l, "=-_*#~+ ") == "" {
		return 0
	}
	s := 0
	if strongErrRe.MatchString(l) {
		s += 3
	}
	if weakErrRe.MatchString(l) {
		s += 2
	}
	if s == 0 {
		return 0
	}
	if strings.HasSuffix(l, ":") {
		s -= 2
	}
	if strings.Count(l, "=") > 10 || strings.Count(l, "-") > 20 {
		s -= 2
	}
	if len(l) > 200 {
		s--
	}
	if strings.Contains(strings.ToLower(l), "warning") {
		s -= 2
	}
	return max(s, 1)
}

var fallbackTypes = []struct {
	re  lazyRegexp
	typ string
}{
	{lazyRegexp(`(?i)permission denied|not permitted|are you root|must be root|eacces|access denied|superuser`), PermissionDenied},
	{lazyRegexp(`(?i)command not found|: not found|no such command|unknown command|is not a .* command`), CommandNotFound},
	{lazyRegexp(`(?i)no module named|cannot find module|could not find package|missing dependency|not installed|unresolved import`), MissingDependency},
	{lazyRegexp(`(?i)syntax error|syntaxerror|unexpected token|parse error|unexpected eof|invalid syntax`), SyntaxError},
	{lazyRegexp(`(?i)connection refused|could not resolve|name or service not known|network is unreachable|timed out|no route to host|temporary failure in name resolution|couldn't connect`), NetworkError},
	{lazyRegexp(`(?i)no such file or directory|does not exist|not found|cannot find|can't open`), FileNotFound},
	{lazyRegexp(`(?i)invalid option|unknown option|unrecognized option|usage:|config|invalid argument`), ConfigurationError},
}

// fallback explains a failure no rule recognised.
func fallback(f *Failure) (string, string) {
	name := f.main().Name()
	if name == "" {
		name = "the command"
	}
	if why, ok := signalNames.get()[f.ExitCode]; ok && strings.TrimSpace(f.Output) == "" || ok && f.has("segmentation fault", "killed", "core dumped", "aborted") {
		return Unknown, fmt.Sprintf("%s was %s.", name, why)
	}
	line := f.keyLine()
	typ := Unknown
	for _, ft := range fallbackTypes {
		if ft.re.MatchString(line) {
			typ = ft.typ
			break
		}
	}
	switch {
	case line != "":
		return typ, fmt.Sprintf("%s failed: %s", name, line)
	case f.ExitCode == 126:
		return PermissionDenied, fmt.Sprintf("%s could not be executed (exit 126): it is not executable or not a program.", name)
	case f.ExitCode == 127:
		return CommandNotFound, fmt.Sprintf("%s was not found (exit 127).", name)
	}
	return Unknown, fmt.Sprintf("%s exited with status %d and printed nothing that explains why.", name, f.ExitCode)
}
