package analyze

import (
	"context"
	"fmt"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

// Families of failures across tools that the general "did you mean" rule
// cannot cover: a pasted prompt, version managers, package managers that
// find no package, unknown network devices, Nix's and Rails's own advice.

var (
	versionMissingRe = lazyRegexp("(pyenv|rbenv|goenv|nodenv|jenv|plenv|phpenv|tfenv|swiftenv)(?::| ERROR:)? version [`'\"]?([\\w.+-]{1,40})['\"`]? (?:is )?not installed")
	versionWordRe    = lazyRegexp(`^[\w.+-]{1,40}$`)
	netDeviceRe      = lazyRegexp(`(?:Device "([^"]+)" does not exist|Cannot find device "([^"]+)"|(\S+): error fetching interface information: Device not found|SIOC\w+: No such device)`)
	nixOfferRe       = lazyRegexp(`(?m)^[ \t]+((?:nix-shell -p|nix-env -iA|nix shell|nix profile install) [\w.#+-]+)[ \t]*$`)
	railsPendingRe   = lazyRegexp(`Migrations are pending\.[\s\S]*?((?:bin/)?rails) db:migrate(?: RAILS_ENV=(\w+))?`)
	pkgNotFoundRes   = []struct {
		tool   string
		re     lazyRegexp
		search string
	}{
		{"dnf", lazyRegexp(`(?:No match for argument|Unable to find a match): ([\w.+-]+)`), "dnf search"},
		{"yum", lazyRegexp(`No package ([\w.+-]+) available`), "yum search"},
		{"pacman", lazyRegexp(`error: target not found: ([\w.+-]+)`), "pacman -Ss"},
		{"zypper", lazyRegexp(`No provider of '([\w.+-]+)' found`), "zypper search"},
		{"apk", lazyRegexp(`ERROR: unable to select packages:\s*\n\s*([\w.+-]+) \(no such package\)`), "apk search"},
		{"brew", lazyRegexp(`No available formula(?: or cask)? with the name "([\w.@+-]+)"`), "brew search"},
		{"choco", lazyRegexp(`([\w.+-]+) not installed\. The package was not found with the source\(s\) listed`), "choco search"},
		{"winget", lazyRegexp(`No package found matching input criteria`), "winget search"},
	}
)

// rulePastedPrompt drops a prompt copied along with a command ("$ ls").
func rulePastedPrompt(ctx context.Context, f *Failure) *Finding {
	if len(f.Calls) == 0 {
		return nil
	}
	c := &f.Calls[0]
	if len(c.Raw) < 2 || c.Raw[0] != "$" && c.Raw[0] != "%" {
		return nil
	}
	if !f.has(c.Raw[0]+": command not found", "command not found: "+c.Raw[0]) && strings.TrimSpace(f.Output) != "" {
		return nil
	}
	rest := strings.TrimSpace(f.Input.Command[c.start[1]:])
	return found(CommandNotFound, 0.95, fmt.Sprintf("The line starts with a prompt, %q, copied with the command.", c.Raw[0]),
		fix(rest, 0.95, "Run the command without the prompt."))
}

// ruleVersionManager handles a version manager (pyenv, rbenv, goenv,
// nodenv, …) asked for a version it has not installed.
func ruleVersionManager(ctx context.Context, f *Failure) *Finding {
	m := f.find(versionMissingRe)
	if m == nil || !versionWordRe.MatchString(m[2]) {
		return nil
	}
	mgr, ver := m[1], m[2]
	fd := found(MissingDependency, 0.92, fmt.Sprintf("%s has no version %s installed.", mgr, ver))
	inst := fix(mgr+" install "+shellwords.QuoteWord(ver), 0.92, "Install %s %s.", mgr, ver)
	// The version is the output's text unless the user typed it.
	c := f.call(mgr)
	inst.Untrusted = c == nil || !contains(c.Args, ver)
	fd.Fixes = append(fd.Fixes, inst)
	if c != nil && (c.sub() == "local" || c.sub() == "global" || c.sub() == "shell") {
		again := fix(inst.Command+" && "+strings.TrimSpace(f.Command), 0.85, "Install %s, then select it.", ver)
		again.Untrusted = inst.Untrusted
		fd.Fixes = append(fd.Fixes, again)
	}
	if c == nil {
		fd.RootCause += fmt.Sprintf(" A .%s-version file or %s_VERSION selects it.", strings.TrimSuffix(mgr, "env"), strings.ToUpper(mgr))
	}
	return fd
}

// ruleNetDevice corrects a network interface name from those the machine
// has (/sys/class/net).
func ruleNetDevice(ctx context.Context, f *Failure) *Finding {
	m := f.find(netDeviceRe)
	if m == nil {
		return nil
	}
	dev := m[1] + m[2] + m[3]
	es, err := f.Env.ReadDir(ctx, "/sys/class/net")
	var names []string
	if err == nil {
		for _, e := range es {
			names = append(names, e.Name)
		}
	}
	if dev == "" {
		return explain(ConfigurationError, 0.8, "There is no such network device; the devices are %s (ip link lists them).", strings.Join(names, ", "))
	}
	fd := found(ConfigurationError, 0.9, fmt.Sprintf("There is no network device %s.", dev))
	if len(names) > 0 {
		fd.RootCause = fmt.Sprintf("There is no network device %s; the devices are %s.", dev, strings.Join(names, ", "))
	}
	for i := len(f.Calls) - 1; i >= 0; i-- {
		c := &f.Calls[i]
		j := indexOf(c.Args, dev)
		if j < 1 {
			continue
		}
		for k, mm := range closest(dev, names, nil) {
			if k == MaxFixes {
				break
			}
			fd.Fixes = append(fd.Fixes, fix(f.putWord(c, j, mm.word), min(mm.score, 0.92)-0.01*float64(k), "The device %s exists.", mm.word))
		}
		break
	}
	if len(fd.Fixes) == 0 {
		fd.Exclusive = true
	}
	return fd
}

// ruleNix takes up the packages Nix's command-not-found handler offers.
func ruleNix(ctx context.Context, f *Failure) *Finding {
	if !f.has("nix-shell -p", "nix-env -iA", "nix shell nixpkgs#", "nix profile install") {
		return nil
	}
	var fixes []Fix
	for i, m := range nixOfferRe.FindAllStringSubmatch(f.Output, MaxFixes) {
		fx := fix(m[1], 0.88-0.03*float64(i), "Nix provides the command in this package.")
		fx.Untrusted = true // the package name is the output's text
		fixes = append(fixes, fx)
	}
	if len(fixes) == 0 {
		return nil
	}
	return found(CommandNotFound, 0.9, "The command is not installed; Nix names the package that provides it.", fixes...)
}

// ruleRailsMigrations runs pending Rails migrations.
func ruleRailsMigrations(ctx context.Context, f *Failure) *Finding {
	m := f.find(railsPendingRe)
	if m == nil {
		return nil
	}
	rails := "rails"
	if m[1] == "bin/rails" || f.exists(ctx, "bin/rails") {
		rails = "bin/rails"
	}
	cmd := rails + " db:migrate"
	if m[2] != "" {
		cmd += " RAILS_ENV=" + m[2]
	}
	return found(ConfigurationError, 0.92, "The database schema is behind: migrations are pending.",
		fix(cmd, 0.9, "Run the pending migrations."),
		fix(cmd+" && "+strings.TrimSpace(f.Command), 0.8, "Run the pending migrations, then the command again."))
}

// rulePackageNotFound handles a package manager that knows no such
// package: search for the name.
func rulePackageNotFound(ctx context.Context, f *Failure) *Finding {
	if f.has("did you mean", "similarly named") {
		return nil // the tool proposes a name: ruleToolSuggestion takes it up
	}
	for _, p := range pkgNotFoundRes {
		c := f.call(p.tool)
		if c == nil {
			continue
		}
		m := f.find(p.re)
		if m == nil {
			continue
		}
		name := ""
		if len(m) > 1 {
			name = m[1]
		}
		if name == "" || !contains(c.Args, name) {
			// Search only for what the user typed.
			for _, a := range c.Args[1:] {
				if !strings.HasPrefix(a, "-") && a != c.sub() {
					name = a
				}
			}
		}
		if name == "" || !versionWordRe.MatchString(strings.ReplaceAll(name, "@", ".")) {
			return explain(MissingDependency, 0.8, "%s found no such package; search for the right name with %s.", p.tool, p.search)
		}
		return found(MissingDependency, 0.85, fmt.Sprintf("%s has no package named %s; search for the right name.", p.tool, name),
			fix(p.search+" "+shellwords.QuoteWord(name), 0.7, "Search the package index for %s.", name))
	}
	return nil
}

// taskFiles are tools whose tasks are defined in a file of the project: the
// message that names an unknown task, the files, and the patterns that
// declare a task in them.
var taskFiles = []struct {
	tool  string
	re    lazyRegexp
	files []string
	decls []lazyRegexp
}{
	// grunt (doc): Warning: Task "biuld" not found. Use --force to continue.
	{"grunt", lazyRegexp(`Task "([^"]+)" not found`), []string{"Gruntfile.js", "Gruntfile.coffee", "gruntfile.js"}, []lazyRegexp{
		lazyRegexp(`register(?:Multi)?Task\(\s*['"]([\w:-]+)['"]`), lazyRegexp(`loadNpmTasks\(\s*['"]grunt-(?:contrib-)?([\w-]+)['"]`)}},
	// gulp (doc): Task 'biuld' is not in your gulpfile / Task never defined: biuld
	{"gulp", lazyRegexp(`Task '([^']+)' is not in your gulpfile|Task never defined: (\S+)`), []string{"gulpfile.js", "gulpfile.mjs", "gulpfile.ts"}, []lazyRegexp{
		lazyRegexp(`task\(\s*['"]([\w:-]+)['"]`), lazyRegexp(`exports\.(\w+)\s*=`), lazyRegexp(`export\s+(?:const|function|async function)\s+(\w+)`)}},
	// fabric 2 and invoke (doc): No idea what 'deplyo' is!
	{"fab", lazyRegexp(`No idea what '([^']+)' is!`), []string{"fabfile.py"}, []lazyRegexp{lazyRegexp(`(?m)^def (\w+)\(`)}},
	{"invoke", lazyRegexp(`No idea what '([^']+)' is!`), []string{"tasks.py"}, []lazyRegexp{lazyRegexp(`(?m)^def (\w+)\(`)}},
	{"inv", lazyRegexp(`No idea what '([^']+)' is!`), []string{"tasks.py"}, []lazyRegexp{lazyRegexp(`(?m)^def (\w+)\(`)}},
}

// ruleTaskFile corrects an unknown task from the tasks the project's task
// file declares.
func ruleTaskFile(ctx context.Context, f *Failure) *Finding {
	for _, tf := range taskFiles {
		c := f.call(tf.tool)
		if c == nil {
			continue
		}
		m := f.find(tf.re)
		if m == nil {
			continue
		}
		task := strings.Join(m[1:], "")
		j := indexOf(c.Args, task)
		var tasks []string
		for _, name := range tf.files {
			b, err := f.Env.ReadHead(ctx, f.path(name), 64<<10)
			if err != nil {
				continue
			}
			for _, d := range tf.decls {
				for _, dm := range d.FindAllStringSubmatch(string(b), 200) {
					tasks = append(tasks, strings.ReplaceAll(dm[1], "_", "-"), dm[1])
				}
			}
			break
		}
		fd := found(CommandNotFound, 0.88, fmt.Sprintf("%s has no task %s.", tf.tool, task))
		if len(tasks) > 0 {
			fd.RootCause = fmt.Sprintf("%s has no task %s; the tasks are %s.", tf.tool, task, strings.Join(dedupe(tasks), ", "))
		}
		if j > 0 {
			for k, mm := range closest(task, tasks, nil) {
				if k == MaxFixes {
					break
				}
				fd.Fixes = append(fd.Fixes, fix(f.putWord(c, j, mm.word), min(mm.score, 0.92)-0.01*float64(k), "The task %s exists.", mm.word))
			}
		}
		if len(fd.Fixes) == 0 {
			fd.Exclusive = true
		}
		return fd
	}
	return nil
}

func dedupe(ws []string) []string {
	var out []string
	for _, w := range ws {
		if !contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}
