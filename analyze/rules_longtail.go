package analyze

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

// Rules that generalise over the long tail of tools (issue 37): more wordings
// of a rejected option, a subcommand typo of any tool whose manual page is
// installed, and a URL pasted without its command.

// moreOptionDialects are wordings of a rejected option beyond those of
// rules_options.go, each from a tool run on this machine
// (bench/corpus/longtail.jsonl).
var moreOptionDialects = []optionDialect{
	// bzip2: bzip2: Bad flag `--decomprss'
	{"bad flag", "Bad flag `(--?[^'=\\s]+)'", 0},
	// gpg: invalid option "--verfiy"
	{"invalid option \"", `invalid option "(--?[^"=\s]+)"`, 0},
	// jq: jq: Unknown option --raw-ouput
	{"unknown option --", `Unknown option (--[^\s=]+)`, 0},
	// dpkg: dpkg: error: unknown option --listfils
	{"error: unknown option --", `error: unknown option (--[^\s=]+)`, 0},
	// perl: Unrecognized switch: --versoin
	{"unrecognized switch", `Unrecognized switch: (--?[^\s=]+)`, 0},
	// node: node: bad option: --verison
	{"bad option: -", `bad option: (--?[^\s=]+)`, 0},
	// rsync: rsync: --exlude=src: unknown option
	{": unknown option", `(--[^\s=:]+)(?:=[^\s:]*)?: unknown option`, 0},
	// mawk: awk: not an option: --field-seperator=,
	{"not an option", `not an option: (--?[^\s=]+)`, 0},
	// rustc: error: Unrecognized option: 'edtion' (the name without dashes)
	{"unrecognized option: '", `Unrecognized option: '([^'\s=]+)'`, 0},
	// clap 2 (ripgrep, fd): error: Found argument '--hiden' which wasn't
	// expected, or isn't valid in this context\n\tDid you mean --hidden?
	// (fd quotes it: 'Did you mean '--type'?'); the proposal is the tool's.
	{"which wasn't expected", `Found argument '(--?[^'=\s]+)[^']*' which wasn't expected[^\n]*(?:\s*Did you mean '?(--?[A-Za-z][\w-]*))?`, 2},
	// gcc, g++ (their quotes): gcc: error: unrecognized command-line option
	// ‘-fsanitise=address’; did you mean ‘-fsanitize=address’?
	{"unrecognized command-line option", `unrecognized command-line option ‘(-[^’=\s]+)[^’]*’(?:; did you mean ‘(-[^’=]+))?`, 2},
	// cobra, one dash: unknown shorthand flag: 'x' in -x is not offered (a letter has no typo).
}

// subcommandDialects are wordings of a rejected subcommand; submatch 1 is
// the word as the tool names it.
var subcommandDialects = []lazyRegexp{
	// tmux: unknown command: lsit-sessions
	`(?m)^unknown command: (\S+)$`,
	// openssl 3: Invalid command 'genrsaa'; type "help" for a list.
	`Invalid command '([^'\s]+)'`,
	// apt-cache, apt-get: E: Invalid operation serach
	`(?m)^E: Invalid operation (\S+)$`,
	// sqlite3: Error: unknown command or invalid arguments:  "tabels". Enter ".help" for help
	`unknown command or invalid arguments:\s+"([^"\s]+)"`,
	// systemd's tools: Unknown command verb 'stauts'. / Unknown operation stauts
	`Unknown (?:command verb|operation) '?([^'\s.]+)'?`,
	// rustup (clap, a word it tried as a toolchain too): error: "updte" is not a valid subcommand, so it was interpreted as a toolchain name
	`"([^"\s]+)" is not a valid subcommand`,
}

func ruleSubcommandFromManual(ctx context.Context, f *Failure) *Finding {
	if !f.has("unknown command", "invalid command", "invalid operation", "unknown operation", "is not a valid subcommand") {
		return nil // the usual case, without running a pattern
	}
	for _, re := range subcommandDialects {
		m := f.find(re)
		if m == nil {
			continue
		}
		named := m[1]
		for ci := len(f.Calls) - 1; ci >= 0; ci-- {
			c := &f.Calls[ci]
			for j := 1; j < len(c.Args); j++ {
				a := c.Args[j]
				dot := strings.HasPrefix(a, ".") && a[1:] == named // sqlite3's .tabels
				if a != named && !dot {
					continue
				}
				vocab := manWords(ctx, f, c.Name(), dot)
				if !dot && !strings.ContainsAny(c.Name(), "/ ") {
					vocab = append(vocab, f.Env.Completion(ctx, c.Name()).Commands...)
				}
				best := closest(strings.TrimPrefix(a, "."), vocab, nil)
				if len(best) == 0 {
					return nil
				}
				var fixes []Fix
				for i, b := range best {
					if i == MaxFixes || b.score < best[0].score-typoMargin {
						break // far behind the nearest, a word is noise
					}
					w := b.word
					if dot {
						w = "." + w
					}
					fixes = append(fixes, fix(f.putWord(c, j, w), 0.85-0.04*float64(i), "%s has no command %s; its manual page or completion data names %s.", c.Name(), a, w))
				}
				return found(SyntaxError, 0.85, fmt.Sprintf("%s has no command %s; did you mean %s?", c.Name(), a, fixes[0].Command), fixes...)
			}
		}
	}
	return nil
}

// manWords are the words a tool's manual page sets in bold or as a command
// name (\fBsearch\fR, .B search, mdoc's Ic/Cm): its subcommands and keywords,
// read as data, only on the failure path. dotted keeps the words the page
// writes with a leading dot (sqlite3's .tables), without it.
func manWords(ctx context.Context, f *Failure, name string, dotted bool) []string {
	if strings.ContainsAny(name, "/. ") || name == "" {
		return nil
	}
	for _, p := range []string{"1", "8", "1ssl"} {
		sec := p[:1]
		text, ok := manPageText(ctx, f, "/usr/share/man/man"+sec+"/"+name+"."+p+".gz")
		if !ok {
			continue
		}
		var out []string
		add := func(s string) {
			s = strings.NewReplacer(`\-`, "-", `\&`, "", `\e`, "", `"`, "").Replace(s)
			for _, w := range strings.Fields(s) {
				w = strings.TrimRight(w, ",;:)")
				if dotted != strings.HasPrefix(w, ".") {
					continue
				}
				w = strings.TrimPrefix(w, ".")
				if len(w) >= 2 && isOptionByte(w[0]) && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz0123456789-_") == "" {
					out = append(out, w)
				}
			}
		}
		filled := true // outside .nf/.fi: a line is text, not a listing
		for _, line := range strings.Split(text, "\n") {
			switch {
			case strings.HasPrefix(line, ".nf"), strings.HasPrefix(line, ".EX"):
				filled = false
			case strings.HasPrefix(line, ".fi"), strings.HasPrefix(line, ".EE"):
				filled = true
			}
			// A listing (.nf) that starts a line with a command written
			// \&.tables, or %tables where the page's author kept roff from
			// reading the dot as a request (Debian's sqlite3(1)).
			if !filled && dotted {
				for _, lead := range []string{`\&.`, "%"} {
					if strings.HasPrefix(line, lead) {
						add("." + strings.Fields(line[len(lead):] + " x")[0])
					}
				}
			}
			// mdoc's alias of a command: .D1 Pq alias: Ic attach (tmux(1)).
			if i := strings.Index(line, "alias: Ic "); i >= 0 && strings.HasPrefix(line, ".") {
				add(strings.Fields(line[i+len("alias: Ic "):] + " x")[0])
			}
			for _, mac := range []string{".B ", ".BR ", ".IP ", ".It Ic ", ".It Cm ", ".Ic ", ".Cm ", ".It Xo Ic ", ".TP ", ".It "} {
				if strings.HasPrefix(line, mac) {
					add(strings.Fields(line[len(mac):] + " x")[0])
				}
			}
			for rest := line; ; {
				i := strings.Index(rest, `\fB`)
				if i < 0 {
					break
				}
				rest = rest[i+3:]
				k := strings.Index(rest, `\f`)
				if k < 0 {
					k = len(rest)
				}
				if w := strings.Fields(rest[:k] + " x")[0]; w != "x" {
					add(w)
				}
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// rulePastedURL: a URL run as a command (the user pasted it without the
// command that takes it). A git repository's URL is cloned; another is
// downloaded.
func rulePastedURL(ctx context.Context, f *Failure) *Finding {
	if len(f.Calls) != 1 || len(f.Calls[0].Args) != 1 {
		return nil
	}
	u := f.Calls[0].Args[0]
	if !f.has("no such file", "not found") {
		return nil
	}
	isGit := strings.HasPrefix(u, "git@") && strings.Contains(u, ":") || strings.HasPrefix(u, "ssh://") ||
		(strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")) && strings.HasSuffix(u, ".git")
	if isGit {
		return found(CommandNotFound, 0.9, "A repository's URL is not a command; git clone fetches it.",
			fix("git clone "+shellwords.QuoteWord(u), 0.9, "Clone the repository."))
	}
	if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
		return nil
	}
	return found(CommandNotFound, 0.85, "A URL is not a command; curl downloads it.",
		fix("curl -fsSLO "+shellwords.QuoteWord(u), 0.85, "Download it into the current directory."),
		fix("wget "+shellwords.QuoteWord(u), 0.8, "Download it with wget."))
}

// ruleMissingOperand: the output names, in any tool's wording, a file the
// command line gave (an operand or the target of a `<` redirection) that
// does not exist, and one file nearby has a name a typo away. The wordings
// of rules_files.go are a few tools'; this rule only needs the name to be
// echoed back (perl's `Can't open perl script "x"`, zsh's `can't open input
// file: x`, shellcheck's `openBinaryFile: does not exist`, bash's `x: No
// such file or directory` for a redirection).
func ruleMissingOperand(ctx context.Context, f *Failure) *Finding {
	if !f.has("no such file", "not found", "does not exist", "can't open", "cannot open", "unable to open", "could not open", "couldn't read", "cannot find", "no such file") {
		return nil
	}
	for ci := len(f.Calls) - 1; ci >= 0; ci-- {
		c := &f.Calls[ci]
		for _, r := range c.Redirs {
			if r.Op != "<" || !missingNamed(ctx, f, r.Target) {
				continue
			}
			if m := nearPath(ctx, f, r.Target, false); len(m) > 0 {
				cmd := f.Command[:r.span[0]] + r.FD + r.Op + " " + shellwords.QuoteWord(m[0].word) + f.Command[r.span[1]:]
				return found(FileNotFound, 0.8, fmt.Sprintf("%s does not exist; %s does.", r.Target, m[0].word),
					fix(cmd, min(m[0].score, 0.9), "%s exists.", m[0].word))
			}
		}
		for j := 1; j < len(c.Args); j++ {
			a := c.Args[j]
			if strings.HasPrefix(a, "-") || strings.Contains(a, "=") {
				continue
			}
			// The path as the tool may echo it: as typed, without its
			// "./" (go vet ./mian.go: stat /w/mian.go), without a package
			// pattern's "/..." (go test ./pkgs/...: lstat ./pkgs/).
			pre, p, post := "", a, ""
			if q, ok := strings.CutSuffix(p, "/..."); ok && q != "" && q != "." {
				p, post = q, "/..."
			}
			if !missingNamed(ctx, f, p) {
				if q, ok := strings.CutPrefix(p, "./"); ok && len(q) > 2 && missingNamed(ctx, f, q) {
					pre, p = "./", q
				} else {
					continue
				}
			}
			var fixes []Fix
			for i, m := range nearPath(ctx, f, p, false) {
				if i == MaxFixes {
					break
				}
				w := pre + strings.TrimPrefix(m.word, pre) + post
				fixes = append(fixes, fix(f.putWord(c, j, w), min(m.score, 0.9)-0.01*float64(i), "%s exists.", m.word))
			}
			if len(fixes) > 0 {
				return found(FileNotFound, 0.8, fmt.Sprintf("%s does not exist; %s", a, fixes[0].Explanation), fixes...)
			}
		}
	}
	return nil
}

// missingNamed reports whether p names no file and the output names p.
func missingNamed(ctx context.Context, f *Failure, p string) bool {
	return len(p) > 1 && !strings.ContainsAny(p, "*?[$`") && strings.Contains(f.Output, p) && !f.exists(ctx, p)
}

// foreignInstall maps another system's package manager to the words that
// install with it: `dnf install jq` typed on Debian is `apt install jq`.
var foreignInstall = map[string][]string{
	"dnf": {"install"}, "yum": {"install"}, "zypper": {"install", "in"}, "apk": {"add"},
	"pacman": {"-S", "-Sy", "-Syu"}, "brew": {"install"}, "choco": {"install"}, "snap": {"install"},
	"port": {"install"}, "winget": {"install"}, "scoop": {"install"},
}

// ruleForeignPackageManager: a package manager of another system, not on
// this one, asked to install packages; this system's own installs them.
// yarn and pnpm, absent where npm is present, are npm.
func ruleForeignPackageManager(ctx context.Context, f *Failure) *Finding {
	c := f.main()
	if c == nil || len(c.Args) < 2 || !f.has("not found", "unknown command") ||
		!f.has(c.Name()+": command not found", "command not found: "+c.Name(), "unknown command: "+c.Name()) ||
		f.Env.LookPath(ctx, c.Name()) {
		return nil
	}
	name := c.Name()
	if name == "yarn" || name == "pnpm" {
		if !f.Env.LookPath(ctx, "npm") {
			return nil
		}
		words := []string{"npm"}
		switch sub := c.Arg(1); sub {
		case "install", "add", "i":
			words = append(words, "install")
		case "run", "test":
			words = append(words, sub)
		default:
			return nil
		}
		for _, a := range c.Args[2:] {
			words = append(words, shellwords.QuoteWord(a))
		}
		cmd := strings.Join(words, " ")
		// After installing the tool itself (the command-not-found rule's
		// answer), when the project does not need it.
		return found(CommandNotFound, 0.5, fmt.Sprintf("%s is not installed; npm does the same.", name),
			fix(cmd, 0.75, "npm is installed and does the same."))
	}
	verbs, ok := foreignInstall[name]
	if !ok || !contains(verbs, c.Arg(1)) || !f.Env.LookPath(ctx, "apt-get") && !f.Env.LookPath(ctx, "dnf") && !f.Env.LookPath(ctx, "brew") {
		return nil
	}
	var pkgs []string
	for _, a := range c.Args[2:] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		pkgs = append(pkgs, a)
	}
	if len(pkgs) == 0 {
		return nil
	}
	cmd := f.installCommand(ctx, pkgs...)
	if strings.HasPrefix(cmd, name+" ") {
		return nil
	}
	return found(CommandNotFound, 0.92, fmt.Sprintf("%s is another system's package manager; this one installs with %s.", name, strings.Fields(strings.TrimPrefix(cmd, "sudo "))[0]),
		fix(cmd, 0.8, "Install with this system's package manager."))
}

// ruleVirtualFS: /proc and /sys are made by the kernel; nothing creates a
// file or directory there, with -p or sudo or otherwise.
func ruleVirtualFS(ctx context.Context, f *Failure) *Finding {
	if !f.has("cannot create", "no such file", "permission denied", "operation not permitted", "cannot touch", "read-only") {
		return nil
	}
	for _, c := range f.Calls {
		switch c.Name() {
		case "mkdir", "touch", "cp", "mv", "ln", "install", "tee":
		default:
			continue
		}
		for _, a := range c.Args[1:] {
			if strings.HasPrefix(a, "/proc/") || strings.HasPrefix(a, "/sys/") {
				return explain(FileNotFound, 0.97, "%s is in a file system the kernel makes (%s): nothing can create files or directories there, not even root.", a, a[:strings.Index(a[1:], "/")+1])
			}
		}
	}
	return nil
}

// manPageText is a gzip'd manual page's roff source, read as data (at most
// maxManPage compressed bytes).
func manPageText(ctx context.Context, f *Failure, path string) (string, bool) {
	b, err := f.Env.ReadHead(ctx, path, maxManPage)
	if err != nil {
		return "", false
	}
	text, err := gunzip(b)
	return text, err == nil
}

// ruleVocabSubcommand: the first word after a tool's options is none of
// the subcommands its completion data names (systemd's, git's, apt's
// bash-completion or zsh files, read as data), nor a word of its manual
// page, nor a file here, and one subcommand is a typo away: the tool may
// have failed for another reason first (timedatectl stauts without a
// system bus says so, not that stauts is unknown), so it is offered below
// a rule that read the tool's own words.
func ruleVocabSubcommand(ctx context.Context, f *Failure) *Finding {
	c := f.main()
	i, w := vocabTypo(ctx, f, c)
	if w == "" {
		return nil
	}
	return found(SyntaxError, 0.6, fmt.Sprintf("%s has no subcommand %s among those its completion data names; did you mean %s?", c.Name(), c.Args[i], w),
		fix(f.putWord(c, i, w), 0.6, "%s's completion data names %s.", c.Name(), w))
}

// vocabTypo finds c's subcommand word (its index) and the one subcommand of
// its completion data a typo away from it, or "" when the word is one of
// them, a word of its manual page, a file here, or near none or several.
func vocabTypo(ctx context.Context, f *Failure, c *Call) (int, string) {
	if c == nil || strings.ContainsAny(c.Name(), "/. ") || f.ExitCode == 0 {
		return 0, ""
	}
	i := c.subIndex()
	if i < 0 {
		return 0, ""
	}
	typed := c.Args[i]
	if len(typed) < 3 || strings.Trim(typed, "abcdefghijklmnopqrstuvwxyz-") != "" || f.exists(ctx, typed) {
		return 0, ""
	}
	if _, ok := subcommands.get()[c.Name()]; ok {
		return 0, "" // its subcommands are known (rules_didyoumean.go); its completion may list a few only
	}
	if _, ok := manPageText(ctx, f, "/usr/share/man/man1/"+c.Name()+"-"+typed+".1.gz"); ok {
		return 0, "" // a subcommand with a manual page of its own (git-branch(1))
	}
	cmds := f.Env.Completion(ctx, c.Name()).Commands
	if len(cmds) < 3 {
		return 0, ""
	}
	for _, w := range cmds {
		if w == typed {
			return 0, ""
		}
	}
	best := closest(typed, cmds, nil)
	if len(best) == 0 || best[0].score < 0.75 || len(best) > 1 && best[1].score > best[0].score-typoMargin {
		return 0, "" // nothing near, or two as near: not a typo of one
	}
	for _, w := range manWords(ctx, f, c.Name(), false) {
		if w == typed {
			return 0, "" // a word the manual knows (an alias, an operand's keyword)
		}
	}
	return i, best[0].word
}

// sshBadOptionRe is OpenSSH's wording of a -o NAME=VALUE it does not know
// (it prints the name in lower case).
var sshBadOptionRe = lazyRegexp(`Bad configuration option: (\S+)`)

// ruleSSHOption: a mistyped ssh_config option given with -o (ssh, scp,
// sftp): corrected from ssh_config(5)'s keywords, read as data.
func ruleSSHOption(ctx context.Context, f *Failure) *Finding {
	m := f.findIf("bad configuration option", sshBadOptionRe)
	c := f.call("ssh", "scp", "sftp", "autossh")
	if m == nil || c == nil {
		return nil
	}
	for j := 1; j < len(c.Args); j++ {
		a, pre := c.Args[j], ""
		switch {
		case strings.HasPrefix(a, "-o") && len(a) > 2:
			a, pre = a[2:], "-o"
		case j > 1 && c.Args[j-1] == "-o":
		default:
			continue
		}
		name, val, _ := strings.Cut(a, "=")
		if !strings.EqualFold(name, m[1]) {
			continue
		}
		text, ok := manPageText(ctx, f, "/usr/share/man/man5/ssh_config.5.gz")
		if !ok {
			return nil
		}
		var keys []string
		for _, line := range strings.Split(text, "\n") {
			if k, ok := strings.CutPrefix(line, ".It Cm "); ok {
				keys = append(keys, strings.Fields(k + " x")[0])
			}
		}
		best := closest(name, keys, nil)
		if len(best) == 0 || len(best) > 1 && best[1].score > best[0].score-typoMargin {
			return nil
		}
		key := best[0].word
		if strings.Trim(key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != "" {
			return nil
		}
		w := pre + key
		if strings.Contains(a, "=") {
			w += "=" + shellwords.QuoteWord(val)
		}
		return found(SyntaxError, 0.88, fmt.Sprintf("ssh has no option %s; ssh_config(5) names %s.", name, key),
			fix(f.replaceWord(c, j, w), 0.88, "Did you mean %s?", key))
	}
	return nil
}

// badSyscallRe is strace's (and seccomp tools') wording of a system call
// name it does not know.
var badSyscallRe = lazyRegexp(`invalid system call '([a-z0-9_]+)'`)

// ruleSyscallName: a mistyped system call name (strace -e trace=opn),
// corrected from the system calls section 2 of the manual documents (the
// names of its pages, read as a directory listing).
func ruleSyscallName(ctx context.Context, f *Failure) *Finding {
	m := f.findIf("invalid system call", badSyscallRe)
	if m == nil {
		return nil
	}
	named := m[1]
	es, err := f.Env.ReadDir(ctx, "/usr/share/man/man2")
	if err != nil {
		return nil
	}
	var calls []string
	for _, e := range es {
		if n, ok := strings.CutSuffix(e.Name, ".2.gz"); ok {
			calls = append(calls, n)
		}
	}
	best := closest(named, calls, nil)
	if len(best) == 0 || len(best) > 1 && best[1].score > best[0].score-typoMargin && best[1].dist <= best[0].dist {
		return nil
	}
	for ci := len(f.Calls) - 1; ci >= 0; ci-- {
		c := &f.Calls[ci]
		for j := 1; j < len(c.Args); j++ {
			at := wordIndex(strings.ReplaceAll(c.Args[j], ",", " "), named)
			if at < 0 {
				continue
			}
			a := c.Args[j]
			w := a[:at] + best[0].word + a[at+len(named):]
			cmd := f.putWord(c, j, w)
			if c.Raw[j] == a && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz0123456789_=,.%-") == "" {
				cmd = f.replaceWord(c, j, w) // as typed: nothing to quote
			}
			return found(SyntaxError, 0.85, fmt.Sprintf("There is no system call %s; did you mean %s?", named, best[0].word),
				fix(cmd, 0.85, "%s(2) is a system call.", best[0].word))
		}
	}
	return nil
}

// usageLineRe is a line of a usage text: "usage: git submodule [--quiet]
// update …", "   or: git submodule …", "Usage: ip [ OPTIONS ] OBJECT …".
var usageLineRe = lazyRegexp(`(?im)^\s*(?:usage|or):\s+(.+)$`)

// ruleUsageSubcommand: the usage a tool printed names its subcommands, one
// form a line (git submodule, git stash, git remote, ip); the word typed
// where they go is none of them and one is a typo away. The words are the
// output's, so the fix is untrusted unless it is a mere typo corrected.
func ruleUsageSubcommand(ctx context.Context, f *Failure) *Finding {
	if !f.has("usage:") {
		return nil
	}
	c := f.main()
	if c == nil {
		return nil
	}
	// The command's words that are not options, with their indexes.
	var words []string
	var at []int
	for j, a := range c.Args {
		if j > 0 && strings.HasPrefix(a, "-") {
			continue
		}
		if j == 0 {
			a = c.Name()
		}
		words, at = append(words, a), append(at, j)
	}
	vocab := map[int][]string{}
	for _, m := range usageLineRe.FindAllStringSubmatch(f.Output, 40) {
		var us []string
		depth := 0
		for _, t := range strings.Fields(m[1]) {
			open := strings.HasPrefix(t, "[") || strings.HasPrefix(t, "<") || strings.HasPrefix(t, "(") || strings.HasPrefix(t, "{")
			if depth == 0 && !open && !strings.HasPrefix(t, "-") {
				us = append(us, t)
			}
			depth += strings.Count(t, "[") + strings.Count(t, "<") + strings.Count(t, "(") + strings.Count(t, "{") -
				strings.Count(t, "]") - strings.Count(t, ">") - strings.Count(t, ")") - strings.Count(t, "}")
			depth = max(depth, 0)
		}
		for i := 1; i < len(us) && i < len(words); i++ {
			if us[i-1] != words[i-1] && !(i == 1 && filepath.Base(us[0]) == words[0]) {
				break
			}
			if w := us[i]; len(w) >= 2 && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz0123456789-") == "" && isOptionByte(w[0]) {
				vocab[i] = append(vocab[i], w)
			}
		}
	}
	for i := 1; i < len(words); i++ {
		v := vocab[i]
		if len(v) < 2 || contains(v, words[i]) || len(words[i]) < 3 {
			if contains(v, words[i]) {
				continue
			}
			return nil
		}
		best := closest(words[i], v, nil)
		if len(best) == 0 || len(best) > 1 && best[1].score > best[0].score-typoMargin {
			return nil
		}
		w := best[0].word
		fx := fix(f.putWord(c, at[i], w), 0.8, "The usage %s printed names %s.", c.Name(), w)
		fx.Untrusted = true
		return found(SyntaxError, 0.8, fmt.Sprintf("%s has no subcommand %s; its usage names %s.", strings.Join(words[:i], " "), words[i], w), fx)
	}
	return nil
}

// findIf is find, run only when the output holds key (ignoring case): the
// usual failure is not matched against the pattern at all.
func (f *Failure) findIf(key string, re lazyRegexp) []string {
	if !f.has(key) {
		return nil
	}
	return f.find(re)
}

// manMissingRe is man-db's answer for a page it has not: No manual entry for
// tmx (and "in section 3" when one was asked).
var manMissingRe = lazyRegexp(`(?m)^No manual entry for (\S+)(?: in section (\w+))?`)

// ruleManPage offers the manual pages nearest the name asked for, among
// the programs on the PATH (a section's directory holds too many pages to
// list on the failure path: 18,000 where the Cloud SDK is installed) whose
// page is installed.
func ruleManPage(ctx context.Context, f *Failure) *Finding {
	m := f.find(manMissingRe)
	if m == nil {
		return nil
	}
	c := f.call("man")
	if c == nil {
		return nil
	}
	j := -1
	for i := 1; i < len(c.Args); i++ {
		if c.Args[i] == m[1] {
			j = i
		}
	}
	if j < 0 {
		return nil
	}
	sections := []string{"1", "8"}
	if m[2] != "" {
		sections = []string{m[2]}
	}
	var fixes []Fix
	best := closest(m[1], f.Env.Executables(ctx), nil)
	for _, b := range best {
		if len(fixes) == MaxFixes || b.score < best[0].score-typoMargin {
			break
		}
		for _, sec := range sections {
			if _, err := f.Env.Stat(ctx, "/usr/share/man/man"+sec[:1]+"/"+b.word+"."+sec+".gz"); err == nil {
				fixes = append(fixes, fix(f.putWord(c, j, b.word), 0.85-0.04*float64(len(fixes)), "The manual has a page %s.", b.word))
				break
			}
		}
	}
	if len(fixes) == 0 {
		return explain(FileNotFound, 0.7, "No manual page is installed for %s.", m[1])
	}
	return found(FileNotFound, 0.85, fmt.Sprintf("No manual page %s; did you mean %s?", m[1], fixes[0].Command), fixes...)
}

// patchStripRe finds the names a patch gives its files, as patch quotes
// them after "can't find file to patch" (|--- a/old.txt, |+++ b/new.txt).
var patchStripRe = lazyRegexp(`(?m)^\|(?:---|\+\+\+|Index:) ([^\s|]+)`)

// rulePatchStrip: patch did not find the files its patch names with the
// leading directories -p took off. The -p that does find them here is the
// one offered.
func rulePatchStrip(ctx context.Context, f *Failure) *Finding {
	if !f.has("wrong -p or --strip option") {
		return nil
	}
	c := f.call("patch")
	if c == nil {
		return nil
	}
	pi, typed := -1, -1
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		if len(a) == 3 && strings.HasPrefix(a, "-p") && a[2] >= '0' && a[2] <= '9' {
			pi, typed = i, int(a[2]-'0')
		}
	}
	for _, m := range patchStripRe.FindAllStringSubmatch(f.Output, 8) {
		name := m[1]
		if name == "/dev/null" {
			continue
		}
		parts := strings.Split(strings.TrimPrefix(name, "/"), "/")
		for p := 0; p < len(parts) && p <= 4; p++ {
			if p == typed {
				continue
			}
			if f.isFile(ctx, strings.Join(parts[p:], "/")) {
				w := fmt.Sprintf("-p%d", p)
				cmd := ""
				if pi >= 0 {
					cmd = f.replaceWord(c, pi, w)
				} else {
					cmd = f.replaceWords(c, 1, 1, w)
				}
				return found(FileNotFound, 0.85, fmt.Sprintf("The patch names %s; with %s it is %s, which is here.", name, w, strings.Join(parts[p:], "/")),
					fix(cmd, 0.85, "Read the patch's file names with %s.", w))
			}
		}
	}
	return nil
}

// perlModuleRe is perl's word for a module it cannot load: Can't locate
// Text/CSV.pm in @INC (you may need to install the Text::CSV module).
var perlModuleRe = lazyRegexp(`Can't locate (\S+)\.pm in @INC(?: \(you may need to install the ([\w:]+) module\))?`)

// rulePerlModule installs a Perl module perl cannot find: from Debian's
// package of it where apt knows one (Text::CSV is libtext-csv-perl), else
// from CPAN.
func rulePerlModule(ctx context.Context, f *Failure) *Finding {
	m := f.find(perlModuleRe)
	if m == nil {
		return nil
	}
	mod := m[2]
	if mod == "" {
		mod = strings.ReplaceAll(m[1], "/", "::")
	}
	for _, r := range mod {
		if !(r == ':' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return nil
		}
	}
	cause := fmt.Sprintf("The Perl module %s is not installed.", mod)
	var fixes []Fix
	deb := "lib" + strings.ToLower(strings.ReplaceAll(mod, "::", "-")) + "-perl"
	if slices.Contains(f.Env.AptPackages(ctx, deb), deb) {
		fixes = append(fixes, fix(f.installCommand(ctx, deb), 0.85, "Install Debian's package of %s.", mod))
	}
	if f.Env.LookPath(ctx, "cpanm") {
		fixes = append(fixes, fix("cpanm "+shellwords.QuoteWord(mod), 0.8, "Install %s from CPAN.", mod))
	}
	fixes = append(fixes, fix("cpan "+shellwords.QuoteWord(mod), 0.8, "Install %s from CPAN.", mod))
	return found(MissingDependency, 0.85, cause, fixes...)
}

// grepMatchers are grep's options that choose how the pattern is read; it
// takes one.
var grepMatchers = map[string]bool{"-E": true, "-F": true, "-G": true, "-P": true, "--extended-regexp": true,
	"--fixed-strings": true, "--basic-regexp": true, "--perl-regexp": true}

// ruleGrepMatchers: grep was given two ways to read its pattern ("conflicting
// matchers specified"); each fix keeps one of them.
func ruleGrepMatchers(ctx context.Context, f *Failure) *Finding {
	if !f.has("conflicting matchers") {
		return nil
	}
	c := f.call("grep")
	if c == nil {
		return nil
	}
	var at []int
	for i := 1; i < len(c.Args); i++ {
		if c.Args[i] == "--" {
			break
		}
		if grepMatchers[c.Args[i]] {
			at = append(at, i)
		}
	}
	if len(at) != 2 {
		return explain(SyntaxError, 0.75, "grep takes one of -E, -F, -G and -P.")
	}
	fd := found(SyntaxError, 0.85, fmt.Sprintf("grep takes one of -E, -F, -G and -P, not both %s and %s.", c.Args[at[0]], c.Args[at[1]]))
	for k, drop := range []int{at[1], at[0]} {
		keep := c.Args[at[k]]
		fd.Fixes = append(fd.Fixes, fix(f.replaceWords(c, drop, drop+1, ""), 0.85-0.04*float64(k), "Read the pattern as %s says.", keep))
	}
	return fd
}
