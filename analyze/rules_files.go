package analyze

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// q matches a quoted path in GNU messages, which quote 'x' in the C locale
// and ‘x’ in UTF-8 ones.
const q = `['‘\x60]([^'’\n]+)['’]`

var (
	mkdirNoParentRe = regexp.MustCompile(`mkdir: cannot create directory ` + q + `: No such file or directory`)
	mvNoParentRe    = regexp.MustCompile(`(?:mv|cp): cannot (?:move|copy) ` + q + ` to ` + q + `: No such file or directory`)
	createFileRe    = regexp.MustCompile(`(?:cp|install|ln): (?:cannot create (?:regular file|directory|symbolic link)|failed to create (?:symbolic|hard) link) ` + q + `: No such file or directory`)
	touchRe         = regexp.MustCompile(`touch: cannot touch ` + q + `: No such file or directory`)
	teeRe           = regexp.MustCompile(`(?m)^tee: ([^:\n]+): No such file or directory`)
	redirNoDirRe    = regexp.MustCompile(`(?m)^(?:bash|zsh|sh)(?:: line \d+| \d+)?: (?:no such file or directory: )?([^:\n]+?)(?:: No such file or directory)?\s*$`)

	missingFileRes = []*regexp.Regexp{
		regexp.MustCompile(`cannot (?:access|stat|open|remove) ` + q + `(?: for reading)?: No such file or directory`),
		regexp.MustCompile(`fatal error: ([^:\n]+): No such file or directory`),
		regexp.MustCompile(`(?m)^\S+: (?:error: |fatal: )?([^:\n]+): No such file or directory`),
		regexp.MustCompile(`can't open file ['"]([^'"]+)['"]: \[Errno 2\]`),
		regexp.MustCompile(`No such file or directory: ['"]([^'"]+)['"]`),
		regexp.MustCompile(`(?m)(?:stat|open|lstat) ([^:\n]+): no such file or directory`),
		regexp.MustCompile(`Cannot find module '([./][^']+)'`),
		regexp.MustCompile(`(?:error: )?file not found: (\S+)`),
		regexp.MustCompile(`cannot find or open ([^,\n]+),`),
		regexp.MustCompile(`(?m)^tar: ([^:\n]+): Cannot (?:open|stat): No such file or directory`),
		regexp.MustCompile(`ENOENT: no such file or directory, (?:open|stat|lstat|scandir) '([^']+)'`),
		regexp.MustCompile(`zsh: no such file or directory: (\S+)`),
		regexp.MustCompile(`(?i)(?:file|path) ['"]?([^'"\s]+)['"]? (?:does not exist|not found)`),
		regexp.MustCompile(`The system cannot find the file specified|Could not find file ['"]([^'"]+)['"]`),
	}

	dirOperandRes = []struct {
		re   *regexp.Regexp
		tool string
	}{
		{regexp.MustCompile(`cp: -r not specified; omitting directory ` + q), "cp"},
		{regexp.MustCompile(`rm: cannot remove ` + q + `: Is a directory`), "rm"},
		{regexp.MustCompile(`rmdir: failed to remove ` + q + `: Directory not empty`), "rmdir"},
		{regexp.MustCompile(`(?m)^grep: ([^:\n]+): Is a directory`), "grep"},
		{regexp.MustCompile(`(?m)^scp: ([^:\n]+): not a regular file`), "scp"},
		{regexp.MustCompile(`ln: ` + `([^:\n]+)` + `: hard link not allowed for directory`), "ln"},
		{regexp.MustCompile(`(?m)^(?:cat|head|tail|less|more|wc|sort|nl|bat|batcat|md5sum|sha256sum|file): ([^:\n]+): Is a directory`), "cat"},
		{regexp.MustCompile(`(?m)^gzip: (\S+) is a directory -- ignored`), "gzip"},
		{regexp.MustCompile(`(?m)^(?:zip|unzip) .*?: ([^:\n]+) is a directory`), "zip"},
	}

	symlinkExistsRe = regexp.MustCompile(`ln: failed to create (?:symbolic|hard) link ` + q + `(?: -> ` + q + `)?: File exists`)
	mkdirExistsRe   = regexp.MustCompile(`mkdir: cannot create directory ` + q + `: File exists`)
	cdMissingRe     = regexp.MustCompile(`cd: (?:no such file or directory: (.+)|(.+?): No such file or directory|can't cd to (.+))\s*$`)
	cdNotDirRe      = regexp.MustCompile(`cd: (?:not a directory: (.+)|(.+?): Not a directory)\s*$`)
	findUnquotedRe  = regexp.MustCompile("paths must precede expression: [`'‘]([^'’]+)['’]")
	findPredRe      = regexp.MustCompile("find: unknown predicate [`'‘](-[^'’]+)['’]")
)

// addShortFlag returns the command line with a one-letter flag added to c:
// merged into its first group of short flags (-n becomes -rn; f goes last,
// as in -sf), or inserted after the command name.
func (f *Failure) addShortFlag(c *Call, letter string) string {
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		if a == "--" || !strings.HasPrefix(a, "-") {
			break
		}
		if len(a) >= 2 && a[1] != '-' && isLetters(a[1:]) {
			if strings.Contains(a, letter) {
				return ""
			}
			if letter == "f" {
				return f.replaceWord(c, i, a+letter)
			}
			return f.replaceWord(c, i, "-"+letter+a[1:])
		}
	}
	return f.replaceWords(c, 1, 1, "-"+letter)
}

func isLetters(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return s != ""
}

// wordFor finds the word of the command line that names path p as printed
// in a message (possibly made absolute, or with its directory).
func (f *Failure) wordFor(p string) (*Call, int) {
	p = strings.TrimSpace(p)
	for pass := 0; pass < 3; pass++ {
		for i := len(f.Calls) - 1; i >= 0; i-- {
			c := &f.Calls[i]
			for j := 1; j < len(c.Args); j++ {
				a := c.Args[j]
				if v, ok := strings.CutPrefix(a, "--"); ok && strings.Contains(v, "=") {
					a = v[strings.Index(v, "=")+1:]
				}
				switch pass {
				case 0:
					if a == p {
						return c, j
					}
				case 1:
					if a != "" && (f.path(a) == p || filepath.Clean(a) == filepath.Clean(p)) {
						return c, j
					}
				case 2:
					if a != "" && !strings.HasPrefix(a, "-") && strings.HasSuffix(p, "/"+strings.TrimPrefix(a, "./")) {
						return c, j
					}
				}
			}
		}
	}
	return nil, -1
}

// nearPath corrects a path that does not exist, one component at a time,
// to the nearest names that do. dirsOnly restricts the last component to
// directories. It returns the corrections, best first, with a score.
func nearPath(ctx context.Context, f *Failure, p string, dirsOnly bool) []match {
	if p == "" || strings.ContainsAny(p, "*?[$`") {
		return nil
	}
	clean := filepath.Clean(p)
	parts := strings.Split(clean, "/")
	prefix := ""
	if strings.HasPrefix(clean, "/") {
		prefix, parts = "/", parts[1:]
	}
	if strings.HasPrefix(p, "./") {
		prefix = "./"
	}
	if len(parts) > 6 {
		return nil
	}
	type partial struct {
		path  string
		score float64
	}
	cur := []partial{{prefix, 1}}
	for k, part := range parts {
		last := k == len(parts)-1
		var next []partial
		for _, pp := range cur {
			dir := pp.path
			if dir == "" {
				dir = "."
			}
			joined := pp.path + part
			if part == "." || part == ".." || f.exists(ctx, joined) && (!last || !dirsOnly || f.isDir(ctx, joined)) {
				next = append(next, partial{joined + slashIf(!last), pp.score})
				continue
			}
			entries, err := f.Env.ReadDir(ctx, f.path(dir))
			if err != nil {
				continue
			}
			var names []string
			for _, e := range entries {
				if (!last || dirsOnly) && !e.Dir {
					continue
				}
				names = append(names, e.Name)
			}
			ext := filepath.Ext(part)
			for i, m := range closest(part, names, func(n string) float64 {
				if ext != "" && filepath.Ext(n) == ext {
					return 0.02
				}
				return 0
			}) {
				if i == 3 {
					break
				}
				next = append(next, partial{pp.path + m.word + slashIf(!last), pp.score * m.score})
			}
		}
		cur = next
		if len(cur) == 0 {
			return nil
		}
	}
	var out []match
	for _, pp := range cur {
		if pp.score < 1 && pp.path != p {
			out = append(out, match{word: pp.path, score: pp.score})
		}
	}
	return out
}

func slashIf(b bool) string {
	if b {
		return "/"
	}
	return ""
}

func ruleMissingParent(ctx context.Context, f *Failure) *Finding {
	if m := f.find(mkdirNoParentRe); m != nil {
		if c := f.call("mkdir"); c != nil {
			return found(FileNotFound, 0.9, fmt.Sprintf("The parent directory of %s does not exist; mkdir creates one level unless given -p.", m[1]),
				fix(f.addShortFlag(c, "p"), 0.92, "Create the missing parent directories too."))
		}
	}
	var dest, tool string
	if m := f.find(mvNoParentRe); m != nil {
		c, j := f.wordFor(m[1])
		if c != nil && !f.exists(ctx, c.Args[j]) {
			return nil // the source is missing, not the destination
		}
		dest, tool = m[2], "mv"
	} else if m := f.find(createFileRe); m != nil {
		dest, tool = m[1], "cp"
	} else if m := f.find(touchRe); m != nil {
		dest, tool = m[1], "touch"
	} else if m := f.find(teeRe); m != nil {
		dest, tool = m[1], "tee"
	} else if m := f.find(redirNoDirRe); m != nil && f.has("no such file or directory") {
		for i := range f.Calls {
			for _, r := range f.Calls[i].Redirs {
				if r.Target == strings.TrimSpace(m[1]) && strings.HasPrefix(r.Op, ">") || strings.HasSuffix(r.Op, ">") && r.Target == strings.TrimSpace(m[1]) {
					dest, tool = r.Target, "redirection"
				}
			}
		}
	}
	if dest == "" {
		return nil
	}
	dir := filepath.Dir(dest)
	if strings.HasSuffix(dest, "/") {
		dir = strings.TrimSuffix(dest, "/")
	}
	if dir == "." || dir == "/" || f.isDir(ctx, dir) {
		return nil
	}
	if f.Cwd != "" && strings.HasPrefix(dir, f.Cwd+"/") {
		dir = dir[len(f.Cwd)+1:]
	}
	fd := found(FileNotFound, 0.88, fmt.Sprintf("The directory %s does not exist, so %s cannot write %s.", dir, tool, dest))
	fd.Fixes = append(fd.Fixes, fix("mkdir -p "+quote(dir)+" && "+strings.TrimSpace(f.Command), 0.9, "Create the directory %s first.", dir))
	// The directory may just be mistyped.
	for i, m := range nearPath(ctx, f, dir, true) {
		if i == 2 || m.score < 0.75 {
			break
		}
		if c, j := f.wordFor(dest); c != nil {
			raw := c.Args[j]
			if strings.HasPrefix(raw, dir) {
				fd.Fixes = append(fd.Fixes, fix(f.replaceWord(c, j, quote(strings.TrimSuffix(m.word, "/")+raw[len(dir):])), m.score-0.1, "Did you mean the existing directory %s?", m.word))
			}
		}
	}
	return fd
}

func ruleMissingFile(ctx context.Context, f *Failure) *Finding {
	if !f.has("no such file", "not found", "cannot find", "does not exist", "can't open", "cannot open") && !(f.Output == "" && f.ExitCode != 0) {
		return nil
	}
	if f.find(mkdirNoParentRe) != nil || f.find(createFileRe) != nil || f.find(touchRe) != nil || f.find(cdMissingRe) != nil {
		return nil
	}
	var paths []string
	for _, re := range missingFileRes {
		for _, m := range re.FindAllStringSubmatch(f.Output, 4) {
			if len(m) > 1 && m[1] != "" {
				paths = append(paths, strings.TrimSpace(m[1]))
			}
		}
	}
	if m := f.find(mvNoParentRe); m != nil {
		paths = append([]string{m[1]}, paths...)
	}
	if f.Output == "" {
		// Capture off: look for arguments that name nothing.
		if c := f.main(); c != nil && len(c.Args) > 1 {
			for _, a := range c.Args[1:] {
				if !strings.HasPrefix(a, "-") && strings.ContainsAny(a, "./") && !f.exists(ctx, a) {
					paths = append(paths, a)
				}
			}
		}
	}
	for _, p := range paths {
		if strings.HasSuffix(p, ".h") || strings.HasSuffix(p, ".hpp") {
			continue // a missing header: rules_build.go
		}
		c, j := f.wordFor(p)
		if c == nil {
			continue
		}
		word := c.Args[j]
		if f.exists(ctx, word) {
			continue
		}
		value := word
		prefix := ""
		if v, ok := strings.CutPrefix(word, "--"); ok && strings.Contains(v, "=") {
			prefix = word[:strings.Index(word, "=")+1]
			value = word[len(prefix):]
		}
		ms := nearPath(ctx, f, value, c.Name() == "cd")
		if len(ms) == 0 {
			continue
		}
		fd := found(FileNotFound, 0.85, fmt.Sprintf("%s does not exist; did you mean %s?", value, ms[0].word))
		for i, m := range ms {
			if i == MaxFixes {
				break
			}
			conf := min(m.score, 0.93) - 0.01*float64(i)
			fd.Fixes = append(fd.Fixes, fix(f.replaceWord(c, j, quote(prefix+m.word)), conf, "%s exists; %s does not.", m.word, value))
		}
		return fd
	}
	if len(paths) > 0 && f.Output != "" {
		return found(FileNotFound, 0.5, fmt.Sprintf("%s does not exist.", f.shortPath(paths[0])))
	}
	return nil
}

func ruleDirectoryOperand(ctx context.Context, f *Failure) *Finding {
	for _, d := range dirOperandRes {
		m := f.find(d.re)
		if m == nil {
			continue
		}
		dir := strings.TrimSpace(m[1])
		c, j := f.wordFor(dir)
		if c == nil {
			c = f.main()
		}
		if c == nil {
			return nil
		}
		cause := fmt.Sprintf("%s is a directory.", dir)
		switch d.tool {
		case "cp", "rm", "scp", "grep":
			what := map[string]string{"cp": "copies directories", "rm": "removes directories", "scp": "copies directories", "grep": "searches directories"}[d.tool]
			letter := "r"
			return found(FileNotFound, 0.9, fmt.Sprintf("%s is a directory; %s only with -r.", dir, c.Name()+" "+what),
				fix(f.addShortFlag(c, letter), 0.92, "Add -r to work on the directory recursively."))
		case "rmdir":
			return found(FileNotFound, 0.85, fmt.Sprintf("%s is not empty; rmdir removes empty directories only.", dir),
				fix(f.replaceWord(c, 0, "rm -r"), 0.85, "Remove the directory and everything in it."))
		case "ln":
			return found(FileNotFound, 0.9, fmt.Sprintf("%s is a directory, and directories cannot be hard-linked.", dir),
				fix(f.addShortFlag(c, "s"), 0.92, "Make a symbolic link instead."))
		case "cat":
			if j < 0 {
				j = len(c.Args) - 1
			}
			return found(FileNotFound, 0.8, cause+" "+c.Name()+" reads files.",
				fix("ls "+c.Raw[j], 0.7, "List the directory instead."))
		case "gzip":
			base := strings.TrimSuffix(dir, "/")
			return found(FileNotFound, 0.85, fmt.Sprintf("gzip compresses single files; %s is a directory.", dir),
				fix("tar -czf "+quote(filepath.Base(base)+".tar.gz")+" "+quote(base), 0.85, "Archive and compress the directory with tar."))
		case "zip":
			return found(FileNotFound, 0.8, cause, fix(f.addShortFlag(c, "r"), 0.85, "Add -r to zip the directory's contents."))
		}
		_ = j
		return found(FileNotFound, 0.6, cause)
	}
	return nil
}

func ruleFileExists(ctx context.Context, f *Failure) *Finding {
	if m := f.find(symlinkExistsRe); m != nil {
		if c := f.call("ln"); c != nil {
			return found(FileNotFound, 0.9, fmt.Sprintf("%s already exists; ln does not replace it unless forced.", m[1]),
				fix(f.addShortFlag(c, "f"), 0.9, "Replace the existing %s with the link.", m[1]))
		}
	}
	if m := f.find(mkdirExistsRe); m != nil {
		what := "a directory"
		if f.isFile(ctx, m[1]) {
			what = "a file"
		}
		return explain(FileNotFound, 0.85, "%s already exists (as %s); there is nothing to create.", m[1], what)
	}
	return nil
}

func ruleCd(ctx context.Context, f *Failure) *Finding {
	c := f.call("cd", "pushd")
	if c == nil {
		return nil
	}
	target := c.Arg(1)
	if m := f.find(cdNotDirRe); m != nil {
		t := m[1] + m[2]
		dir := filepath.Dir(t)
		if dir != "." && dir != t {
			return found(FileNotFound, 0.85, fmt.Sprintf("%s is a file, not a directory.", t),
				fix(f.replaceWords(c, 1, len(c.Args), quote(dir)), 0.8, "Change into the directory that holds the file."))
		}
		return explain(FileNotFound, 0.8, "%s is a file, not a directory; cd only enters directories.", t)
	}
	m := f.find(cdMissingRe)
	if m == nil && !(f.Output == "" && target != "" && !f.exists(ctx, target)) {
		return nil
	}
	if m != nil {
		target = strings.TrimSpace(m[1] + m[2] + m[3])
	}
	j := 1
	for i := 1; i < len(c.Args); i++ {
		if c.Args[i] == target {
			j = i
		}
	}
	if j >= len(c.Args) {
		return nil
	}
	ms := nearPath(ctx, f, c.Args[j], true)
	fd := found(FileNotFound, 0.85, fmt.Sprintf("The directory %s does not exist.", c.Args[j]))
	for i, mm := range ms {
		if i == MaxFixes {
			break
		}
		fd.Fixes = append(fd.Fixes, fix(f.replaceWord(c, j, quote(strings.TrimSuffix(mm.word, "/"))), min(mm.score, 0.93)-0.01*float64(i), "%s exists.", mm.word))
	}
	if len(fd.Fixes) > 0 {
		fd.RootCause = fmt.Sprintf("The directory %s does not exist; did you mean %s?", c.Args[j], strings.TrimSuffix(ms[0].word, "/"))
	}
	return fd
}

// findTests are find's predicates, for correcting a mistyped one.
var findTests = strings.Fields(`-name -iname -path -ipath -wholename -iwholename -regex -iregex -type
	-size -mtime -mmin -atime -amin -ctime -cmin -newer -user -group -perm -empty -executable
	-readable -writable -maxdepth -mindepth -print -print0 -printf -exec -execdir -ok -delete -prune
	-quit -ls -fprint -links -inum -samefile -lname -ilname -xtype -uid -gid -nouser -nogroup -follow
	-xdev -mount -depth -not -and -or -true -false -daystart -regextype -newermt`)

func ruleFind(ctx context.Context, f *Failure) *Finding {
	c := f.call("find")
	if c == nil {
		return nil
	}
	if f.has("possible unquoted pattern") || f.find(findUnquotedRe) != nil {
		for j := 1; j+1 < len(c.Args); j++ {
			switch c.Args[j] {
			case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-lname", "-ilname", "-regex", "-iregex":
			default:
				continue
			}
			raw := c.Raw[j+1]
			if strings.ContainsAny(raw, "*?[") && !strings.ContainsAny(raw, `'"\`) {
				return found(SyntaxError, 0.92, fmt.Sprintf("The shell expanded the pattern %s into file names before find saw it; quote it.", raw),
					fix(f.replaceWord(c, j+1, "'"+raw+"'"), 0.93, "Quote the pattern so that find receives it."))
			}
		}
		if m := f.find(findUnquotedRe); m != nil && !f.has("possible unquoted pattern") {
			// A path after the expression: move it to the front.
			for j := 2; j < len(c.Args); j++ {
				if c.Args[j] == m[1] && strings.HasPrefix(c.Args[1], "-") {
					cmd := f.replaceWord(c, j, "")
					fc := newFailure(Input{Command: cmd, Shell: f.Shell})
					if k := fc.call("find"); k != nil {
						return found(SyntaxError, 0.85, "find takes its paths before the expression.",
							fix(fc.replaceWords(k, 1, 1, c.Raw[j]), 0.85, "Put the path first."))
					}
				}
			}
		}
	}
	if f.has("missing argument to `-exec'", "missing argument to ‘-exec’", "missing argument to `-execdir'") {
		return found(SyntaxError, 0.88, "find's -exec must end with \\; (or + to pass many files at once).",
			fix(f.replaceWords(c, len(c.Args), len(c.Args), `\;`), 0.88, "Terminate -exec with \\;."))
	}
	if m := f.find(findPredRe); m != nil {
		for j := 1; j < len(c.Args); j++ {
			if c.Args[j] == m[1] {
				if ms := closest(m[1], findTests, nil); len(ms) > 0 {
					return found(SyntaxError, 0.88, fmt.Sprintf("find has no test %s; did you mean %s?", m[1], ms[0].word),
						fix(f.replaceWord(c, j, ms[0].word), min(ms[0].score, 0.92), "Did you mean %s?", ms[0].word))
				}
			}
		}
	}
	return nil
}

var fsExplanations = []struct {
	re    *regexp.Regexp
	typ   string
	cause string
}{
	{regexp.MustCompile(`(?i)no space left on device`), ConfigurationError, "The disk is full (no space left on device); free some space (df -h shows usage per filesystem)."},
	{regexp.MustCompile(`(?i)disk quota exceeded`), ConfigurationError, "Your disk quota is exceeded; delete files to get under it."},
	{regexp.MustCompile(`(?i)read-only file system`), PermissionDenied, "The filesystem is mounted read-only, so nothing on it can be changed."},
	{regexp.MustCompile(`(?i)argument list too long`), ConfigurationError, "The expanded argument list is too long for one command; use find … -exec … + or xargs."},
	{regexp.MustCompile(`(?i)too many levels of symbolic links`), FileNotFound, "A symbolic link loops back on itself (too many levels of symbolic links)."},
	{regexp.MustCompile(`(?i)device or resource busy`), ConfigurationError, "The file or mount is busy (device or resource busy): a process is using it."},
	{regexp.MustCompile(`(?i)text file busy`), ConfigurationError, "The program file is running (text file busy), so it cannot be overwritten; stop it first."},
	{regexp.MustCompile(`are the same file`), FileNotFound, "Source and destination are the same file."},
	{regexp.MustCompile(`to a subdirectory of itself`), FileNotFound, "A directory cannot be moved or copied into itself."},
	{regexp.MustCompile(`(?i)too many open files`), ConfigurationError, "The process hit its limit of open files (ulimit -n)."},
	{regexp.MustCompile(`(?i)input/output error`), Unknown, "The device reported an input/output error: a failing disk or a lost network mount."},
	{regexp.MustCompile(`(?i)stale file handle`), Unknown, "Stale file handle: the file or mount went away underneath; remount or cd again."},
	{regexp.MustCompile(`(?i)file name too long`), FileNotFound, "The file name is longer than the filesystem allows."},
	{regexp.MustCompile(`(?i)Directory not empty`), FileNotFound, "The target directory is not empty."},
	{regexp.MustCompile(`(?i)invalid cross-device link`), FileNotFound, "A hard link cannot cross filesystems; copy the file or make a symbolic link."},
}

func ruleFSExplain(ctx context.Context, f *Failure) *Finding {
	for _, e := range fsExplanations {
		if e.re.MatchString(f.Output) {
			return &Finding{ErrorType: e.typ, Confidence: 0.55, RootCause: e.cause}
		}
	}
	return nil
}
