package analyze

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

var notFoundRes = []lazyRegexp{
	lazyRegexp(`(?m)zsh: command not found: (\S+)`),
	// fish 3: "fish: Unknown command: gti"; fish 4 quotes the name.
	lazyRegexp(`(?m)^fish: Unknown command: '?([^\s']+)'?`),
	lazyRegexp(`(?m)^(?:[^\s:]*: )?(?:line \d+: )?([^\s:]+): command not found`),
	lazyRegexp(`(?m)^(?:/bin/)?(?:sh|dash): \d+: ([^\s:]+): not found`),
	lazyRegexp(`(?m)^Command '([^']+)' not found`),
	lazyRegexp(`(?m)^sudo: ([^\s:]+): command not found`),
}

// missingCommand returns the name of the command the shell could not find,
// and whether the output says so (as opposed to a guess from exit 127).
func (f *Failure) missingCommand(ctx context.Context) (string, bool) {
	for _, re := range notFoundRes {
		if m := f.find(re); m != nil {
			return m[1], true
		}
	}
	if f.ExitCode != 127 || strings.TrimSpace(f.Output) != "" {
		return "", false
	}
	for i := range f.Calls {
		c := &f.Calls[i]
		if !f.knownName(ctx, c.Args[0]) {
			return c.Args[0], false
		}
	}
	return "", false
}

// knownName reports whether the shell could run name.
func (f *Failure) knownName(ctx context.Context, name string) bool {
	if strings.Contains(name, "/") {
		return f.exists(ctx, name)
	}
	if f.Env.LookPath(ctx, name) {
		return true
	}
	for _, list := range [][]string{f.Env.Builtins(ctx), f.Env.Aliases(ctx), f.Env.Functions(ctx)} {
		for _, n := range list {
			if n == name {
				return true
			}
		}
	}
	return false
}

// callByName returns the command whose name (as typed) is name; a name
// the shell reports expanded (/root/run.sh) is that of the command typed
// with ~ (~/run.sh).
func (f *Failure) callByName(name string) *Call {
	for i := len(f.Calls) - 1; i >= 0; i-- {
		c := &f.Calls[i]
		if c.Args[0] == name || c.Raw[0] == name || tildeExpands(c.Raw[0], name) {
			return c
		}
	}
	return nil
}

// tildeExpands reports whether the word typed, ~/rest, may be the absolute
// path said, which the shell expanded it to (home/rest).
func tildeExpands(typed, said string) bool {
	rest, ok := strings.CutPrefix(typed, "~/")
	return ok && rest != "" && strings.HasPrefix(said, "/") && strings.HasSuffix(said, "/"+rest)
}

func ruleCommandNotFound(ctx context.Context, f *Failure) *Finding {
	name, said := f.missingCommand(ctx)
	if name == "" || f.has("$'\\r'") {
		return nil
	}
	c := f.callByName(name)
	if name == "sudo" {
		return sudoMissing(ctx, f)
	}
	if c == nil {
		// Not typed by the user: a script, make recipe or npm script ran it.
		if f.call("npm", "yarn", "pnpm", "npx") != nil {
			return nil // rules_node.go knows this case
		}
		fd := found(CommandNotFound, 0.6, fmt.Sprintf("%s is not installed: the command ran it, but it is not on the PATH.", name))
		if pkg, ok := debianPackages.get()[name]; ok {
			fd.Fixes = append(fd.Fixes, fix(f.installCommand(ctx, pkg), 0.6, "Install %s, which provides %s.", pkg, name))
		}
		return fd
	}
	conf := 0.9
	if !said {
		conf = 0.6
	}
	fd := found(CommandNotFound, conf, fmt.Sprintf("%s: command not found.", name))
	add := func(fx ...Fix) { fd.Fixes = append(fd.Fixes, fx...) }
	switch {
	case strings.Contains(name, "/"):
		return nil // a path: rules_files.go looks for a near name
	case f.isDir(ctx, name):
		fd.RootCause = fmt.Sprintf("%s is a directory, not a command.", name)
		add(fix(f.replaceWords(c, 0, len(c.Args), "cd "+shellwords.QuotePath(name)), 0.85, "Change into the directory."))
		return fd
	case f.isFile(ctx, name):
		fd.RootCause = fmt.Sprintf("%s is a file in this directory, but the shell only runs commands from the PATH unless given a path.", name)
		if e, err := f.Env.Stat(ctx, f.path(name)); err == nil && e.Exec {
			add(fix(f.replaceWord(c, 0, "./"+c.Raw[0]), 0.9, "Run the file in the current directory by its path."))
		} else {
			add(fix("chmod +x "+shellwords.QuotePath(name)+" && "+f.replaceWord(c, 0, "./"+c.Raw[0]), 0.75, "Make the file executable, then run it by its path."))
		}
		if interp := interpreterFor(ctx, f, name); interp != "" {
			add(fix(f.replaceWord(c, 0, interp+" "+c.Raw[0]), 0.8, "Run the script with %s.", interp))
		}
		return fd
	}
	add(assignmentSpacing(f, c)...)
	add(gluedArgument(ctx, f, c, name)...)
	add(otherName(ctx, f, c, name)...)
	add(ubuntuSuggestions(ctx, f, c)...)
	typos := typoFixes(ctx, f, c, name)
	if pkg, ok := nodeTools.get()[name]; ok {
		if f.exists(ctx, "node_modules/.bin/"+name) {
			add(fix(f.replaceWord(c, 0, "npx "+c.Raw[0]), 0.88, "%s is installed in the project: run it through npx.", name))
		}
		add(fix("npm install -g "+pkg, 0.78, "Install %s globally with npm.", pkg))
	}
	if dist, ok := pythonTools.get()[name]; ok {
		pip, _ := pipCommand(ctx, f)
		add(fix(pip+" install "+dist, 0.82, "Install %s, which provides %s, with pip.", dist, name))
	}
	if pkg, ok := debianPackages.get()[name]; ok {
		fd.RootCause = fmt.Sprintf("%s is not installed (Debian package %s).", name, pkg)
		fd.ErrorType = MissingDependency
		conf := 0.8
		for _, fx := range fd.Fixes {
			conf = min(conf, fx.Confidence-0.05)
		}
		add(fix(f.installCommand(ctx, pkg), conf, "Install %s, which provides %s.", pkg, name))
		for i := range typos {
			typos[i].Confidence = min(typos[i].Confidence, 0.55-0.01*float64(i))
		}
		if len(name) <= 2 {
			// A known two-letter tool (nc, rg, ps) is one letter from many
			// others: `wc -z localhost 1` or `rm foo` would be noise, or worse.
			typos = nil
		}
	}
	add(typos...)
	if len(fd.Fixes) > 0 && fd.ErrorType == CommandNotFound {
		best := fd.Fixes[0]
		for _, fx := range fd.Fixes[1:] {
			if fx.Confidence > best.Confidence {
				best = fx
			}
		}
		fd.RootCause = fmt.Sprintf("%s: command not found. %s", name, best.Explanation)
	}
	return fd
}

// sudoMissing handles "sudo: command not found", usual in containers where
// the user is root already.
func sudoMissing(ctx context.Context, f *Failure) *Finding {
	for i := range f.Calls {
		c := &f.Calls[i]
		if !c.Sudo {
			continue
		}
		cmd := f.Input.Command
		stripped := cmd[:c.span[0]] + cmd[c.start[0]:]
		fd := found(CommandNotFound, 0.85, "sudo is not installed; as root you do not need it.")
		if asRoot, _ := f.root(ctx); asRoot {
			fd.Fixes = append(fd.Fixes, fix(stripped, 0.9, "You are root already: run the command without sudo."))
		} else {
			fd.RootCause = "sudo is not installed; run the command as root (su -c) or install sudo as root."
			fd.Fixes = append(fd.Fixes, fix("su -c "+shellwords.QuoteWord(stripped), 0.6, "Run the command as root through su."))
		}
		return fd
	}
	return nil
}

// assignmentSpacing handles "FOO = bar" (bash: FOO: command not found).
func assignmentSpacing(f *Failure, c *Call) []Fix {
	if len(c.Args) < 2 || !isIdentifier(c.Args[0]) {
		return nil
	}
	switch {
	case c.Args[1] == "=" && len(c.Args) >= 3:
		return []Fix{fix(f.replaceWords(c, 0, 3, c.Raw[0]+"="+c.Raw[2]), 0.9, "Shell assignments take no spaces around =.")}
	case c.Args[1] == "=":
		return []Fix{fix(f.replaceWords(c, 0, 2, c.Raw[0]+"="), 0.85, "Shell assignments take no spaces around =.")}
	case strings.HasPrefix(c.Args[1], "=") && len(c.Args[1]) > 1:
		return []Fix{fix(f.replaceWords(c, 0, 2, c.Raw[0]+c.Raw[1]), 0.9, "Shell assignments take no spaces around =.")}
	}
	return nil
}

func isIdentifier(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// gluedArgument handles a command glued to its first argument: "cd..",
// "ls-la", "[-f".
func gluedArgument(ctx context.Context, f *Failure, c *Call, name string) []Fix {
	if strings.HasPrefix(name, "[[") || strings.HasPrefix(name, "[") {
		op := "["
		if strings.HasPrefix(name, "[[") {
			op = "[["
		}
		return []Fix{fix(f.replaceWord(c, 0, op+" "+c.Raw[0][len(op):]), 0.9, "%s is a command: it needs a space after it.", op)}
	}
	for i := 2; i < len(name) && i <= 8; i++ {
		head, tail := name[:i], name[i:]
		if tail[0] != '.' && tail[0] != '/' && tail[0] != '~' && !(tail[0] == '-' && len(tail) <= 4 && isLetters(tail[1:])) {
			continue
		}
		if popular.get()[head] > 0 || f.knownName(ctx, head) {
			return []Fix{fix(f.replaceWord(c, 0, head+" "+c.Raw[0][i:]), 0.9, "Put a space between %s and its argument.", head)}
		}
	}
	return nil
}

// alternative is another name under which a missing command exists.
type alternative struct {
	cmd  string // the replacement for the command word (may be several words)
	args bool   // keep the original arguments
	why  string
}

var alternatives = lazyValue[map[string][]alternative]{make: func() map[string][]alternative {
	return map[string][]alternative{
		"python":         {{"python3", true, "Debian and Ubuntu ship Python 3 as python3; there is no python command unless python-is-python3 is installed."}},
		"python2":        {{"python3", true, "Python 2 is gone; python3 runs most scripts (Python 2 syntax aside)."}},
		"pip":            {{"pip3", true, "pip for Python 3 is called pip3 here."}, {"python3 -m pip", true, "Run pip through the Python 3 interpreter."}},
		"pip2":           {{"pip3", true, "Python 2's pip is gone; use pip3."}},
		"pydoc":          {{"pydoc3", true, "The Python 3 pydoc is pydoc3."}},
		"ipython":        {{"ipython3", true, "The Python 3 IPython is ipython3."}},
		"nodejs":         {{"node", true, "Node.js is called node."}},
		"node":           {{"nodejs", true, "Node.js is called nodejs here."}},
		"fd":             {{"fdfind", true, "Debian installs fd as fdfind."}},
		"bat":            {{"batcat", true, "Debian installs bat as batcat."}},
		"yarn":           {{"yarnpkg", true, "Debian installs yarn as yarnpkg."}},
		"docker-compose": {{"docker compose", true, "Compose v2 is a docker plugin: docker compose."}},
		"vim":            {{"vi", true, "vim is not installed, vi is."}},
		"vi":             {{"vim", true, "vi is not installed, vim is."}, {"nano", true, "vi is not installed, nano is."}},
		"nvim":           {{"vim", true, "Neovim is not installed, vim is."}},
		"gmake":          {{"make", true, "GNU make is plain make here."}},
		"gsed":           {{"sed", true, "GNU sed is plain sed here."}},
		"gtar":           {{"tar", true, "GNU tar is plain tar here."}},
		"ggrep":          {{"grep", true, "GNU grep is plain grep here."}},
		"gawk":           {{"awk", true, "awk is installed, gawk is not."}},
		"md5":            {{"md5sum", true, "On Linux the tool is md5sum."}},
		"sha256":         {{"sha256sum", true, "On Linux the tool is sha256sum."}},
		"shasum":         {{"sha256sum", true, "On Linux the tool is sha256sum."}},
		"open":           {{"xdg-open", true, "On Linux, xdg-open opens files with their default application."}},
		"pbcopy":         {{"xclip -selection clipboard", true, "On Linux, xclip copies to the clipboard."}},
		"pbpaste":        {{"xclip -selection clipboard -o", true, "On Linux, xclip pastes from the clipboard."}},
		"cls":            {{"clear", false, "cls is the Windows command; the shell's is clear."}},
		"ipconfig":       {{"ip addr", false, "ipconfig is the Windows command; on Linux, ip addr shows the addresses."}},
		"ifconfig":       {{"ip addr", false, "ifconfig (net-tools) is not installed; ip addr shows the addresses."}},
		"netstat":        {{"ss", true, "netstat (net-tools) is not installed; ss takes mostly the same options."}},
		"route":          {{"ip route", false, "route (net-tools) is not installed; ip route shows the routes."}},
		"arp":            {{"ip neigh", false, "arp (net-tools) is not installed; ip neigh shows the neighbours."}},
		"dir":            {{"ls", true, "dir is the Windows command; the shell's is ls."}},
		"copy":           {{"cp", true, "copy is the Windows command; the shell's is cp."}},
		"move":           {{"mv", true, "move is the Windows command; the shell's is mv."}},
		"del":            {{"rm", true, "del is the Windows command; the shell's is rm."}},
		"md":             {{"mkdir", true, "md is the Windows command; the shell's is mkdir."}},
		"rd":             {{"rmdir", true, "rd is the Windows command; the shell's is rmdir."}},
		"tracert":        {{"traceroute", true, "tracert is the Windows command; the shell's is traceroute."}, {"tracepath", true, "tracepath traces the route without root."}},
		"youtube-dl":     {{"yt-dlp", true, "youtube-dl is succeeded by yt-dlp."}},
		"ll":             {{"ls -l", true, "ll is a common alias for ls -l, not defined in this shell."}},
		"la":             {{"ls -A", true, "la is a common alias for ls -A, not defined in this shell."}},
		"l":              {{"ls -CF", true, "l is a common alias for ls -CF, not defined in this shell."}},
		"service":        {{"systemctl", false, "service is not installed; systemctl manages services."}},
		"ack":            {{"ack-grep", true, "Older Debian releases install ack as ack-grep."}},
	}
}}

// otherName proposes the name under which a missing command exists here.
func otherName(ctx context.Context, f *Failure, c *Call, name string) []Fix {
	var fixes []Fix
	for i, alt := range alternatives.get()[name] {
		first := strings.Fields(alt.cmd)[0]
		if name == "docker-compose" {
			if !f.Env.LookPath(ctx, "docker") || !composePlugin(ctx, f) {
				continue
			}
		} else if !f.Env.LookPath(ctx, first) {
			continue
		}
		conf := 0.9 - 0.05*float64(i)
		if name == "service" {
			// service NAME ACTION becomes systemctl ACTION NAME.
			if len(c.Args) >= 3 {
				fixes = append(fixes, fix(f.replaceWords(c, 0, 3, "systemctl "+c.Raw[2]+" "+c.Raw[1]), conf, "%s", alt.why))
			}
			continue
		}
		if alt.args {
			fixes = append(fixes, fix(f.replaceWord(c, 0, alt.cmd), conf, "%s", alt.why))
		} else {
			fixes = append(fixes, fix(f.replaceWords(c, 0, len(c.Args), alt.cmd), conf, "%s", alt.why))
		}
	}
	return fixes
}

// composePlugin reports whether the docker compose plugin is installed in
// one of the system-wide plugin directories.
func composePlugin(ctx context.Context, f *Failure) bool {
	for _, d := range []string{"/usr/libexec/docker/cli-plugins", "/usr/lib/docker/cli-plugins", "/usr/local/lib/docker/cli-plugins", "/usr/local/libexec/docker/cli-plugins"} {
		if _, err := f.Env.Stat(ctx, d+"/docker-compose"); err == nil {
			return true
		}
	}
	return false
}

var (
	ubuntuAptRe     = lazyRegexp(`(?m)^\s*(?:sudo )?(apt|apt-get|snap) install ([a-z0-9][a-z0-9.+-]*)\s*(?:#.*)?$`)
	ubuntuCommandRe = lazyRegexp(`(?m)^\s*command '([^']+)' from (?:deb|snap) `)
)

// ubuntuSuggestions reads what Ubuntu's command-not-found handler printed.
func ubuntuSuggestions(ctx context.Context, f *Failure, c *Call) []Fix {
	var fixes []Fix
	for i, m := range ubuntuCommandRe.FindAllStringSubmatch(f.Output, 3) {
		if f.Env.LookPath(ctx, m[1]) {
			fixes = append(fixes, fix(f.putWord(c, 0, m[1]), 0.88-0.02*float64(i), "The system suggests %s.", m[1]))
		}
	}
	for i, m := range ubuntuAptRe.FindAllStringSubmatch(f.Output, 3) {
		fixes = append(fixes, fix(f.sudo(ctx)+m[1]+" install "+m[2], 0.8-0.02*float64(i), "Install %s, as the system suggests.", m[2]))
	}
	return fixes
}

// interpreterFor picks the interpreter of a script from its #! line or its
// extension.
func interpreterFor(ctx context.Context, f *Failure, file string) string {
	if head, err := f.Env.ReadHead(ctx, f.path(file), 128); err == nil && strings.HasPrefix(string(head), "#!") {
		line := strings.TrimSpace(strings.SplitN(string(head[2:]), "\n", 2)[0])
		fields := strings.Fields(line)
		if len(fields) > 0 {
			interp := path.Base(fields[0])
			if interp == "env" && len(fields) > 1 {
				interp = fields[len(fields)-1]
			}
			switch interp {
			case "sh", "bash", "zsh", "dash", "ksh", "python3", "python", "perl", "ruby", "node", "php":
				if interp == "python" {
					interp = "python3"
				}
				return interp
			}
		}
	}
	switch filepath.Ext(file) {
	case ".sh", ".bash":
		return "bash"
	case ".zsh":
		return "zsh"
	case ".py":
		return "python3"
	case ".js", ".mjs", ".cjs":
		return "node"
	case ".pl":
		return "perl"
	case ".rb":
		return "ruby"
	case ".php":
		return "php"
	}
	return ""
}

// popular ranks the commands people type most; a typo is more likely to be
// one of these than an obscure name at the same distance.
var popular = lazyValue[map[string]int]{make: func() map[string]int {
	list := strings.Fields(`ls cd git cat grep python3 sudo docker npm make vim cp mv rm mkdir
		ssh curl pip go node find less tail head touch echo chmod chown kubectl cargo ps kill
		tar unzip sed awk sort wc diff man top htop df du apt apt-get systemctl journalctl nano
		python pip3 which export source clear history ping ip ss scp rsync wget yarn npx
		java javac mvn gradle gcc g++ clang cmake rustc rustup code tmux screen ln pwd date env
		xargs tee jq bash zsh sh exit alias zip gzip gunzip free watch uniq cut tr file stat
		terraform helm brew dnf yum pacman pnpm deno bun ruby gem perl php composer dotnet
		docker-compose podman systemd service crontab kubectx ansible vagrant nc telnet dig
		nslookup host traceroute openssl gpg base64 md5sum sha256sum xdg-open open lsof
		killall pkill pgrep nohup time test printf read set unset type command eval exec`)
	m := make(map[string]int, len(list))
	for i, n := range list {
		m[n] = len(list) - i
	}
	return m
}}

// typoMargin is how far behind the best correction another may score and
// still be shown.
const typoMargin = 0.1

// typoFixes proposes the known command names nearest to a mistyped one.
func typoFixes(ctx context.Context, f *Failure, c *Call, name string) []Fix {
	if len(name) < 2 || strings.ContainsAny(name, "/=$`") {
		return nil
	}
	hist := historyNames(f)
	var cands []string
	cands = append(cands, f.Env.Executables(ctx)...)
	cands = append(cands, f.Env.Builtins(ctx)...)
	cands = append(cands, f.Env.Aliases(ctx)...)
	cands = append(cands, f.Env.Functions(ctx)...)
	for n := range hist {
		cands = append(cands, n)
	}
	bonus := func(n string) float64 {
		b := 0.0
		if p := popular.get()[n]; p > 0 {
			b += 0.03 + 0.03*float64(p)/float64(len(popular.get()))
		}
		b += hist[n]
		return b
	}
	ms := closest(name, cands, bonus)
	var fixes []Fix
	for _, m := range ms {
		// Far behind the best guess, a candidate is noise.
		if m.score < ms[0].score-typoMargin {
			break
		}
		// Two-letter names have many neighbours: keep swaps and familiar names.
		if len(name) <= 2 && !isTransposition(name, m.word) && popular.get()[m.word] == 0 && hist[m.word] == 0 {
			continue
		}
		// A system administrator's tool the user never ran is no guess at
		// a command that is more than one letter off (blkdeactivate for
		// deactivate), and a dangerous one; one letter off (ifconfig for
		// ipconfig) it is offered, rated medium.
		admin := hist[m.word] == 0 && systemTool(ctx, f, m.word)
		if admin && distance(name, m.word) > 1 {
			continue
		}
		conf := min(m.score, 0.95)
		fx := fix(f.putWord(c, 0, m.word), conf, "Did you mean %s?", m.word)
		fx.guess = m.dist >= 2
		if admin {
			fx.Risk = RiskMedium
		}
		fixes = append(fixes, fx)
		// python is python3 on most systems: offer that spelling too.
		if alts := alternatives.get()[m.word]; len(alts) > 0 && (m.word == "python" || m.word == "pip") && f.Env.LookPath(ctx, alts[0].cmd) {
			fixes = append(fixes, fix(f.replaceWord(c, 0, alts[0].cmd), conf-0.01, "Did you mean %s?", alts[0].cmd))
		}
		if len(fixes) >= MaxFixes {
			break
		}
	}
	return fixes
}

// systemTool reports a program that is only in a system administrator's
// directory (/usr/sbin, /sbin, /usr/local/sbin: where the tools of manual
// section 8 go, blkdeactivate, wipefs, mkfs.*), not in a user's.
func systemTool(ctx context.Context, f *Failure, name string) bool {
	is := func(dirs ...string) bool {
		for _, d := range dirs {
			if e, err := f.Env.Stat(ctx, d+"/"+name); err == nil && !e.Dir {
				return true
			}
		}
		return false
	}
	return is("/usr/sbin", "/sbin", "/usr/local/sbin") && !is("/usr/bin", "/bin", "/usr/local/bin")
}

// historyNames returns the command names the user ran successfully, with a
// preference weight: more for frequent use, more again in this directory.
func historyNames(f *Failure) map[string]float64 {
	w := map[string]float64{}
	for _, p := range f.History {
		if p.ExitCode != 0 {
			continue
		}
		calls := parseCalls(p.Command, f.Shell)
		for i := range calls {
			n := calls[i].Args[0]
			if strings.Contains(n, "/") {
				continue
			}
			add := 0.02
			if p.Cwd != "" && p.Cwd == f.Cwd {
				add = 0.04
			}
			w[n] = min(w[n]+add, 0.1)
		}
	}
	return w
}
