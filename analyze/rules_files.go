package analyze

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

// q matches a quoted path in GNU messages, which quote 'x' in the C locale
// and ‘x’ in UTF-8 ones.
const q = `['‘\x60]([^'’\n]+)['’]`

var (
	mkdirNoParentRe = lazyRegexp(`mkdir: cannot create directory ` + q + `: No such file or directory`)
	mvNoParentRe    = lazyRegexp(`(?:mv|cp): cannot (?:move|copy) ` + q + ` to ` + q + `: No such file or directory`)
	createFileRe    = lazyRegexp(`(?:cp|install|ln): (?:cannot create (?:regular file|directory|symbolic link)|failed to create (?:symbolic|hard) link) ` + q + `: No such file or directory`)
	mvNotDirRe      = lazyRegexp(`(?:mv|cp): cannot (?:move|copy|create regular file) ` + q + `(?: to ` + q + `)?: Not a directory`)
	tarChdirRe      = lazyRegexp(`(?m)^tar: ([^:\n]+): Cannot (?:open|chdir): No such file or directory`)
	touchRe         = lazyRegexp(`touch: cannot touch ` + q + `: No such file or directory`)
	teeRe           = lazyRegexp(`(?m)^tee: ([^:\n]+): No such file or directory`)
	redirNoDirRe    = lazyRegexp(`(?m)^(?:bash|zsh|sh)(?:: line \d+| \d+)?: (?:no such file or directory: )?([^:\n]+?)(?:: No such file or directory)?\s*$`)

	missingFileRes = []lazyRegexp{
		// coreutils and findutils (real): cannot access 'x', cannot statx 'x',
		// cannot open 'x' for reading, failed to open 'x' for reading (tac),
		// Cannot open input file 'x' (xargs -a)
		lazyRegexp(`(?:[Cc]annot|failed to) (?:access|statx?|open|remove|read|find)(?: [a-z]+){0,2} ` + q + `(?: for (?:reading|writing))?: No such file or directory`),
		// sort (real): sort: cannot read: x: No such file or directory
		lazyRegexp(`cannot read: ([^:\n]+): No such file or directory`),
		lazyRegexp(`Unable to access jarfile (\S+)`),
		lazyRegexp(`fatal error: ([^:\n]+): No such file or directory`),
		// rmdir (real): rmdir: failed to remove 'nosuchdir': No such file or directory
		lazyRegexp(`failed to remove ` + q + `: No such file or directory`),
		// sed (real): sed: can't read nosuch: No such file or directory
		lazyRegexp(`(?m)^\S+: can't (?:read|open|stat) ([^:\n]+): No such file or directory`),
		lazyRegexp(`(?m)^\S+: (?:error: |fatal: )?([^:\n]+): No such file or directory`),
		lazyRegexp(`can't open file ['"]([^'"]+)['"]: \[Errno 2\]`),
		lazyRegexp(`No such file or directory: ['"]([^'"]+)['"]`),
		lazyRegexp(`(?m)(?:stat|open|lstat) ([^:\n]+): no such file or directory`),
		lazyRegexp(`Cannot find module '([./][^']+)'`),
		lazyRegexp(`(?:error: )?file not found: (\S+)`),
		lazyRegexp(`cannot find or open ([^,\n]+),`),
		lazyRegexp(`(?m)^tar(?: \(child\))?: ([^:\n]+): Cannot (?:open|stat): No such file or directory`),
		lazyRegexp(`ENOENT: no such file or directory, (?:open|stat|lstat|scandir) '([^']+)'`),
		lazyRegexp(`zsh: no such file or directory: (\S+)`),
		lazyRegexp(`(?i)(?:file|path) ['"]?([^'"\s]+)['"]? (?:does not exist|not found)`),
		lazyRegexp(`The system cannot find the file specified|Could not find file ['"]([^'"]+)['"]`),
		// zip (real): zip warning: name not matched: scr
		lazyRegexp(`(?m)^\s*zip warning: name not matched: (.+?)\s*$`),
	}

	dirOperandRes = []struct {
		re   lazyRegexp
		tool string
	}{
		{lazyRegexp(`cp: -r not specified; omitting directory ` + q), "cp"},
		{lazyRegexp(`rm: cannot remove ` + q + `: Is a directory`), "rm"},
		{lazyRegexp(`rmdir: failed to remove ` + q + `: Directory not empty`), "rmdir"},
		// rm -d (real): rm: cannot remove 'src': Directory not empty
		{lazyRegexp(`rm: cannot remove ` + q + `: Directory not empty`), "rm -d"},
		{lazyRegexp(`(?m)^grep: ([^:\n]+): Is a directory`), "grep"},
		{lazyRegexp(`(?m)^scp: ([^:\n]+): not a regular file`), "scp"},
		{lazyRegexp(`ln: ` + `([^:\n]+)` + `: hard link not allowed for directory`), "ln"},
		{lazyRegexp(`(?m)^(?:cat|head|tail|less|more|wc|sort|nl|bat|batcat|md5sum|sha256sum|file): ([^:\n]+): Is a directory`), "cat"},
		{lazyRegexp(`(?m)^gzip: (\S+) is a directory -- ignored`), "gzip"},
		{lazyRegexp(`(?m)^(?:zip|unzip) .*?: ([^:\n]+) is a directory`), "zip"},
	}

	symlinkExistsRe = lazyRegexp(`ln: failed to create (?:symbolic|hard) link ` + q + `(?: -> ` + q + `)?: File exists`)
	mkdirExistsRe   = lazyRegexp(`mkdir: cannot create directory ` + q + `: File exists`)
	cdMissingRe     = lazyRegexp(`cd(?::\d+)?: (?:no such file or directory: (.+)|(.+?): No such file or directory|can't cd to (.+))\s*$`)
	cdNotDirRe      = lazyRegexp(`cd(?::\d+)?: (?:not a directory: (.+)|(.+?): Not a directory)\s*$`)
	findUnquotedRe  = lazyRegexp("paths must precede expression: [`'‘]([^'’]+)['’]")
	findPredRe      = lazyRegexp("find: unknown predicate [`'‘](-[^'’]+)['’]")
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
				return f.putWord(c, i, a+letter)
			}
			return f.putWord(c, i, "-"+letter+a[1:])
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
	p = strings.Trim(strings.TrimSpace(p), "'‘’\"`")
	for pass := 0; pass < 3; pass++ {
		for i := len(f.Calls) - 1; i >= 0; i-- {
			c := &f.Calls[i]
			for j := 0; j < len(c.Args); j++ {
				a := c.Args[j]
				if j == 0 && !strings.Contains(a, "/") {
					continue // a command name, not a path
				}
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
					if rest, ok := strings.CutPrefix(a, "~/"); ok && strings.HasSuffix(p, "/"+rest) {
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
	// Without the output (capture off), the file system tells the same.
	if strings.TrimSpace(f.Output) == "" && len(f.Calls) == 1 {
		if c := f.call("mkdir"); c != nil && !hasShortFlag(c, 'p') {
			for _, a := range c.Args[1:] {
				parent := path.Dir(strings.TrimRight(a, "/"))
				if strings.HasPrefix(a, "-") || parent == "." || parent == "/" || f.exists(ctx, parent) {
					continue
				}
				return found(FileNotFound, 0.8, fmt.Sprintf("The parent directory of %s does not exist; mkdir creates one level unless given -p.", a),
					fix(f.addShortFlag(c, "p"), 0.85, "Create the missing parent directories too."))
			}
		}
	}
	if m := f.find(tarChdirRe); m != nil {
		if c := f.call("tar"); c != nil {
			for j := 1; j+1 < len(c.Args); j++ {
				if (c.Args[j] == "-C" || c.Args[j] == "--directory") && c.Args[j+1] == m[1] {
					return found(FileNotFound, 0.9, fmt.Sprintf("The directory %s, to extract into, does not exist.", m[1]),
						fix("mkdir -p "+c.Raw[j+1]+" && "+strings.TrimSpace(f.Command), 0.9, "Create the directory first."))
				}
			}
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
		dest, tool = strings.TrimSuffix(m[1], "/"), "cp"
	} else if m := f.find(mvNotDirRe); m != nil && strings.HasSuffix(m[2], "/") {
		dest, tool = m[2], "mv"
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
	fd.Fixes = append(fd.Fixes, fix("mkdir -p "+shellwords.QuotePath(dir)+" && "+strings.TrimSpace(f.Command), 0.9, "Create the directory %s first.", dir))
	// The directory may just be mistyped.
	for i, m := range nearPath(ctx, f, dir, true) {
		if i == 2 || m.score < 0.75 {
			break
		}
		if c, j := f.wordFor(dest); c != nil {
			raw := c.Args[j]
			if strings.HasPrefix(raw, dir) {
				fd.Fixes = append(fd.Fixes, fix(f.putWord(c, j, strings.TrimSuffix(m.word, "/")+raw[len(dir):]), m.score-0.1, "Did you mean the existing directory %s?", m.word))
			}
		}
	}
	return fd
}

func ruleMissingFile(ctx context.Context, f *Failure) *Finding {
	if !f.has("no such file", "not found", "cannot find", "does not exist", "can't open", "cannot open", "unable to access", "name not matched") && !(f.Output == "" && f.ExitCode != 0) {
		return nil
	}
	if f.find(mkdirNoParentRe) != nil || f.find(createFileRe) != nil || f.find(touchRe) != nil || f.find(cdMissingRe) != nil {
		return nil
	}
	var paths []string
	for _, re := range missingFileRes {
		for _, m := range re.FindAllStringSubmatch(f.Output, 4) {
			if len(m) > 1 && m[1] != "" {
				// make marks its errors with "*** " (make: *** sr: No such file…)
				paths = append(paths, strings.TrimPrefix(strings.Trim(strings.TrimSpace(m[1]), "'‘’\"`"), "*** "))
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
		if strings.ContainsAny(p, "*?") && strings.Contains(f.Command, p) {
			return explain(FileNotFound, 0.8, "No file matches the pattern %s, so the shell passed it on literally.", p)
		}
		if p == "/var/log/syslog" || p == "/var/log/messages" {
			return explain(FileNotFound, 0.85, "%s does not exist: this system logs to the systemd journal (journalctl) instead of a syslog file.", p)
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
		if rest, ok := strings.CutPrefix(value, "~/"); ok && strings.HasSuffix(p, "/"+rest) {
			// The shell expanded ~; the message shows where to.
			home := strings.TrimSuffix(p, rest)
			var fixes []Fix
			for i, m := range nearPath(ctx, f, p, c.Name() == "cd") {
				if i < MaxFixes && strings.HasPrefix(m.word, home) {
					fixes = append(fixes, fix(f.replaceWord(c, j, prefix+shellwords.HomePath(m.word, strings.TrimSuffix(home, "/"))), min(m.score, 0.93)-0.01*float64(i), "%s exists.", m.word))
				}
			}
			if len(fixes) > 0 {
				return found(FileNotFound, 0.85, fmt.Sprintf("%s does not exist.", value), fixes...)
			}
			continue
		}
		ms := nearPath(ctx, f, value, c.Name() == "cd")
		if len(ms) == 0 {
			ms = inSubdirectory(ctx, f, value)
		}
		if len(ms) == 0 {
			continue
		}
		fd := found(FileNotFound, 0.85, fmt.Sprintf("%s does not exist; did you mean %s?", value, ms[0].word))
		for i, m := range ms {
			if i == MaxFixes {
				break
			}
			conf := min(m.score, 0.93) - 0.01*float64(i)
			fd.Fixes = append(fd.Fixes, fix(f.replaceWord(c, j, prefix+shellwords.QuotePath(m.word)), conf, "%s exists; %s does not.", m.word, value))
		}
		return fd
	}
	if len(paths) > 0 && f.Output != "" {
		return found(FileNotFound, 0.5, fmt.Sprintf("%s does not exist.", f.shortPath(paths[0])))
	}
	return nil
}

// inSubdirectory finds a missing file under the same name one directory
// down (src/, app/, …), as when a command is run from the project root.
func inSubdirectory(ctx context.Context, f *Failure, name string) []match {
	if strings.Contains(name, "/") || name == "" {
		return nil
	}
	es, err := f.Env.ReadDir(ctx, f.path("."))
	if err != nil {
		return nil
	}
	var out []match
	dirs := 0
	for _, e := range es {
		if !e.Dir || strings.HasPrefix(e.Name, ".") || e.Name == "node_modules" {
			continue
		}
		if dirs++; dirs > 32 {
			break
		}
		if f.exists(ctx, e.Name+"/"+name) {
			out = append(out, match{word: e.Name + "/" + name, score: 0.8})
		}
	}
	return out
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
			fx := fix(f.addShortFlag(c, letter), 0.92, "Add -r to work on the directory recursively.")
			if d.tool == "rm" {
				fx.Risk = RiskHigh // everything in the directory goes, for good
			}
			return found(FileNotFound, 0.9, fmt.Sprintf("%s is a directory; %s only with -r.", dir, c.Name()+" "+what), fx)
		case "rm -d":
			// -d removes empty directories only: -r in its place.
			for i := 1; i < len(c.Args); i++ {
				a := c.Args[i]
				if a == "--" {
					break
				}
				if a == "-d" || a == "--dir" {
					fx := fix(f.replaceWord(c, i, "-r"), 0.85, "Remove the directory and everything in it.")
					fx.Risk = RiskHigh
					return found(FileNotFound, 0.85, fmt.Sprintf("%s is not empty; rm -d removes empty directories only.", dir), fx)
				}
			}
			return explain(FileNotFound, 0.7, "%s is not empty; rm -r would remove it with everything in it.", dir)
		case "rmdir":
			fx := fix(f.replaceWord(c, 0, "rm -r"), 0.85, "Remove the directory and everything in it.")
			fx.Risk = RiskHigh
			return found(FileNotFound, 0.85, fmt.Sprintf("%s is not empty; rmdir removes empty directories only.", dir), fx)
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
				fix("tar -czf "+shellwords.QuotePath(filepath.Base(base)+".tar.gz")+" "+shellwords.QuotePath(base), 0.85, "Archive and compress the directory with tar."),
				fix(f.addShortFlag(c, "r"), 0.8, "Compress each file in the directory in place (gzip -r)."))
		case "zip":
			return found(FileNotFound, 0.8, cause, fix(f.addShortFlag(c, "r"), 0.85, "Add -r to zip the directory's contents."))
		}
		return found(FileNotFound, 0.6, cause)
	}
	return nil
}

func ruleFileExists(ctx context.Context, f *Failure) *Finding {
	if m := f.find(symlinkExistsRe); m != nil {
		if c := f.call("ln"); c != nil {
			if fd := lnSwapped(ctx, f, c); fd != nil {
				return fd
			}
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
	if dir, ok := f.dirOf(c); !ok {
		return nil // an earlier cd went where hookd cannot tell
	} else if dir != f.Cwd {
		g := *f // the rest of the analysis in the directory the earlier cd left
		g.Input.Cwd = dir
		f = &g
	}
	target := c.Arg(1)
	if m := f.find(cdNotDirRe); m != nil {
		t := m[1] + m[2]
		dir := filepath.Dir(t)
		if dir != "." && dir != t {
			return found(FileNotFound, 0.85, fmt.Sprintf("%s is a file, not a directory.", t),
				fix(f.replaceWords(c, 1, len(c.Args), shellwords.QuotePath(dir)), 0.8, "Change into the directory that holds the file."))
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
	home := ""
	for i := 1; i < len(c.Args); i++ {
		if c.Args[i] == target {
			j = i
		}
		if rest, ok := strings.CutPrefix(c.Args[i], "~/"); ok && strings.HasSuffix(target, "/"+rest) {
			j, home = i, strings.TrimSuffix(target, rest)
		}
	}
	if j >= len(c.Args) {
		return nil
	}
	if home != "" {
		fd := found(FileNotFound, 0.85, fmt.Sprintf("The directory %s does not exist.", c.Args[j]))
		for i, mm := range nearPath(ctx, f, target, true) {
			if i < MaxFixes && strings.HasPrefix(mm.word, home) {
				fd.Fixes = append(fd.Fixes, fix(f.replaceWord(c, j, shellwords.HomePath(strings.TrimSuffix(mm.word, "/"), strings.TrimSuffix(home, "/"))), min(mm.score, 0.93)-0.01*float64(i), "%s exists.", mm.word))
			}
		}
		return fd
	}
	ms := nearPath(ctx, f, c.Args[j], true)
	fd := found(FileNotFound, 0.85, fmt.Sprintf("The directory %s does not exist.", c.Args[j]))
	for i, mm := range ms {
		if i == MaxFixes {
			break
		}
		fd.Fixes = append(fd.Fixes, fix(f.replaceWord(c, j, shellwords.QuotePath(strings.TrimSuffix(mm.word, "/"))), min(mm.score, 0.93)-0.01*float64(i), "%s exists.", mm.word))
	}
	if len(fd.Fixes) > 0 {
		fd.RootCause = fmt.Sprintf("The directory %s does not exist; did you mean %s?", c.Args[j], strings.TrimSuffix(ms[0].word, "/"))
	}
	// Perhaps it is to be made: after the near names, which are likelier.
	if t := c.Args[j]; c.Name() == "cd" && len(c.Args) == 2 && t != "-" && !strings.HasPrefix(t, "~") && !strings.HasPrefix(t, "$") && !strings.HasPrefix(t, "/") && !strings.HasPrefix(t, "..") {
		conf := 0.7
		if len(fd.Fixes) > 0 {
			conf = min(0.6, fd.Fixes[len(fd.Fixes)-1].Confidence-0.05)
		}
		fd.Fixes = append(fd.Fixes, fix("mkdir -p "+c.Raw[j]+" && "+f.callText(c), conf, "Create the directory %s, then change into it.", t))
	}
	return fd
}

// findTests are find's predicates, for correcting a mistyped one.
var findTests = lazyValue[[]string]{make: func() []string {
	return strings.Fields(`-name -iname -path -ipath -wholename -iwholename -regex -iregex -type
	-size -mtime -mmin -atime -amin -ctime -cmin -newer -user -group -perm -empty -executable
	-readable -writable -maxdepth -mindepth -print -print0 -printf -exec -execdir -ok -delete -prune
	-quit -ls -fprint -links -inum -samefile -lname -ilname -xtype -uid -gid -nouser -nogroup -follow
	-xdev -mount -depth -not -and -or -true -false -daystart -regextype -newermt`)
}}

var (
	grepRegexRe = lazyRegexp(`(?m)^grep: (Unmatched [^\n]*|Invalid (?:regular expression|preceding regular expression|range end|back reference|content of \\\{\\\})|Trailing backslash)`)
	sedUntermRe = lazyRegexp("sed: -e expression #\\d+, char \\d+: unterminated [`']s' command")
	sedErrRe    = lazyRegexp(`sed: -e expression #\d+, char \d+: (.+)`)
)

// ruleGrepSed handles patterns that grep or sed could not parse.
func ruleGrepSed(ctx context.Context, f *Failure) *Finding {
	if m := f.find(grepRegexRe); m != nil {
		if c := f.call("grep", "egrep"); c != nil {
			cmd := f.addShortFlag(c, "F")
			if j := indexOf(c.Args, "-E"); j > 0 {
				cmd = f.replaceWord(c, j, "-F")
			} else if c.Name() == "egrep" {
				cmd = f.replaceWord(c, 0, "grep -F")
			}
			return found(SyntaxError, 0.85, fmt.Sprintf("grep read the pattern as a regular expression and found it malformed (%s).", m[1]),
				fix(cmd, 0.75, "Match the pattern as fixed text with -F."))
		}
	}
	c := f.call("sed")
	if c == nil {
		return nil
	}
	if f.find(sedUntermRe) != nil {
		for j := 1; j < len(c.Args); j++ {
			a := c.Args[j]
			if len(a) < 3 || a[0] != 's' || isLetters(a[1:2]) || a[1] == ' ' || a[1] == '\\' {
				continue
			}
			delim := a[1:2]
			if strings.Count(strings.ReplaceAll(a[2:], "\\"+delim, ""), delim) == 1 {
				fixed := shellwords.QuoteWord(a + delim)
				if raw := c.Raw[j]; len(raw) > 1 && (raw[0] == '\'' || raw[0] == '"') && raw[len(raw)-1] == raw[0] {
					fixed = raw[:len(raw)-1] + delim + raw[len(raw)-1:] // keep the user's quotes
				}
				return found(SyntaxError, 0.88, fmt.Sprintf("The s command needs three %s: s%sold%snew%s.", delim, delim, delim, delim),
					fix(f.replaceWord(c, j, fixed), 0.88, "Close the s command with its last %s.", delim))
			}
		}
	}
	if m := f.find(sedErrRe); m != nil {
		return explain(SyntaxError, 0.75, "sed could not parse its script: %s.", m[1])
	}
	return nil
}

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
		// A path after the expression: move it to the front. findutils 4.9
		// also guesses an unquoted pattern; a directory named is a path.
		if m := f.find(findUnquotedRe); m != nil && (!f.has("possible unquoted pattern") || f.isDir(ctx, m[1])) {
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
				if ms := closest(m[1], findTests.get(), nil); len(ms) > 0 {
					return found(SyntaxError, 0.88, fmt.Sprintf("find has no test %s; did you mean %s?", m[1], ms[0].word),
						fix(f.putWord(c, j, ms[0].word), min(ms[0].score, 0.92), "Did you mean %s?", ms[0].word))
				}
			}
		}
	}
	return nil
}

var fsExplanations = []struct {
	re    lazyRegexp
	typ   string
	cause string
}{
	{lazyRegexp(`(?i)no space left on device`), ConfigurationError, "The disk is full (no space left on device); free some space (df -h shows usage per filesystem)."},
	{lazyRegexp(`(?i)disk quota exceeded`), ConfigurationError, "Your disk quota is exceeded; delete files to get under it."},
	{lazyRegexp(`(?i)read-only file system`), PermissionDenied, "The filesystem is mounted read-only, so nothing on it can be changed."},
	{lazyRegexp(`(?i)argument list too long`), ConfigurationError, "The expanded argument list is too long for one command; use find … -exec … + or xargs."},
	{lazyRegexp(`(?i)too many levels of symbolic links`), FileNotFound, "A symbolic link loops back on itself (too many levels of symbolic links)."},
	{lazyRegexp(`(?i)device or resource busy`), ConfigurationError, "The file or mount is busy (device or resource busy): a process is using it."},
	{lazyRegexp(`(?i)text file busy`), ConfigurationError, "The program file is running (text file busy), so it cannot be overwritten; stop it first."},
	{lazyRegexp(`are the same file`), FileNotFound, "Source and destination are the same file."},
	{lazyRegexp(`to a subdirectory of itself`), FileNotFound, "A directory cannot be moved or copied into itself."},
	{lazyRegexp(`(?i)too many open files`), ConfigurationError, "The process hit its limit of open files (ulimit -n)."},
	{lazyRegexp(`(?i)input/output error`), Unknown, "The device reported an input/output error: a failing disk or a lost network mount."},
	{lazyRegexp(`(?i)stale file handle`), Unknown, "Stale file handle: the file or mount went away underneath; remount or cd again."},
	{lazyRegexp(`(?i)file name too long`), FileNotFound, "The file name is longer than the filesystem allows."},
	{lazyRegexp(`(?i)Directory not empty`), FileNotFound, "The target directory is not empty."},
	{lazyRegexp(`(?i)invalid cross-device link`), FileNotFound, "A hard link cannot cross filesystems; copy the file or make a symbolic link."},
}

func ruleFSExplain(ctx context.Context, f *Failure) *Finding {
	for _, e := range fsExplanations {
		if e.re.MatchString(f.Output) {
			return &Finding{ErrorType: e.typ, Confidence: 0.55, RootCause: e.cause}
		}
	}
	return nil
}

// hasShortFlag reports a short option letter among c's options (-p, -vp).
func hasShortFlag(c *Call, letter byte) bool {
	for _, a := range c.Args[1:] {
		if a == "--" {
			break
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], letter) >= 0 {
			return true
		}
		if a == "--parents" && letter == 'p' {
			return true
		}
	}
	return false
}

// lnSwapped handles ln given its operands in the wrong order: the link to
// create exists as a file and the target does not, so the two were swapped
// (ln -s link target). Forcing would replace the file with a link.
func lnSwapped(ctx context.Context, f *Failure, c *Call) *Finding {
	var ops []int
	for i := 1; i < len(c.Args); i++ {
		if !strings.HasPrefix(c.Args[i], "-") {
			ops = append(ops, i)
		}
	}
	if len(ops) != 2 {
		return nil
	}
	target, link := c.Args[ops[0]], c.Args[ops[1]]
	if f.exists(ctx, target) || !f.isFile(ctx, link) {
		return nil
	}
	// A relative target of a symbolic link is relative to the link's
	// directory: only swap names in the same directory.
	if strings.Contains(target, "/") || strings.Contains(link, "/") {
		return nil
	}
	swapped := f.replaceWords(c, ops[0], ops[1]+1, c.Raw[ops[1]]+" "+c.Raw[ops[0]])
	return found(FileNotFound, 0.92, fmt.Sprintf("%s exists and %s does not: the target comes first, then the link's name (ln -s TARGET LINK).", link, target),
		fix(swapped, 0.92, "Create the link %s pointing to %s.", target, link))
}
