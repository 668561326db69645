package analyze

import (
	"context"
	"fmt"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

var (
	npmMissingScriptRe = lazyRegexp(`(?:[Mm]issing script:? "?([^"\s]+)"?|error Command "([^"]+)" not found|ERR_PNPM_NO_SCRIPT\s+Missing script: (\S+))`)
	nodeNoModuleRe     = lazyRegexp(`Cannot find (?:module|package) '([^']+)'`)
	npmShNotFoundRe    = lazyRegexp(`(?m)^sh: (?:\d+: )?([^\s:]+):? (?:command )?not found`)
	npmNoPackageJSON   = lazyRegexp(`(?i)enoent.*package\.json|could not read package\.json|no such file or directory, open '[^']*package\.json'`)
	jsonParseRe        = lazyRegexp(`JSON\.parse|Unexpected token`)
	// An uncaught exception (real, Node.js 20): the throwing file:line on
	// the first line, then the source and a caret, then "ReferenceError: x is
	// not defined" and the stack.
	nodeThrownRe = lazyRegexp(`(?m)^(\S+?:\d+)\n[\s\S]*?^((?:[A-Z]\w*)?(?:Error|Exception))(?: \[[\w-]+\])?: (.+)$`)
	npm404Re     = lazyRegexp(`404 Not Found - GET https?://\S+/(@?[^\s/]+(?:%2[fF][^\s/]+)?) - Not found|'([^']+)' is not in (?:the npm|this) registry`)
)

// nodeBuiltins are Node.js's own modules, which are never installed.
var nodeBuiltins = lazyValue[map[string]bool]{make: func() map[string]bool {
	return map[string]bool{
		"fs": true, "path": true, "http": true, "https": true, "os": true, "url": true, "util": true, "events": true,
		"stream": true, "crypto": true, "child_process": true, "net": true, "dns": true, "zlib": true, "buffer": true,
		"assert": true, "readline": true, "tty": true, "cluster": true, "worker_threads": true, "querystring": true,
	}
}}

func ruleNode(ctx context.Context, f *Failure) *Finding {
	c := f.call("npm", "yarn", "pnpm", "npx", "node", "bun")
	if c == nil {
		return nil
	}
	if m := f.find(npmMissingScriptRe); m != nil && c.Name() != "node" {
		return npmMissingScript(ctx, f, c, m[1]+m[2]+m[3])
	}
	if m := f.find(npmShNotFoundRe); m != nil && c.Name() != "node" {
		if !f.isDir(ctx, "node_modules") {
			return found(MissingDependency, 0.9, fmt.Sprintf("%s is not installed: the project's dependencies are not installed yet (no node_modules).", m[1]),
				fix(c.Name()+" install && "+strings.TrimSpace(f.Command), 0.9, "Install the dependencies, then run the script."),
				fix(c.Name()+" install", 0.85, "Install the project's dependencies."))
		}
		return found(MissingDependency, 0.8, fmt.Sprintf("%s is not installed in node_modules/.bin; add it as a dependency.", m[1]),
			fix(c.Name()+" install --save-dev "+m[1], 0.7, "Install %s as a development dependency.", m[1]))
	}
	if m := f.find(nodeNoModuleRe); m != nil {
		mod := m[1]
		if strings.HasPrefix(mod, ".") || strings.HasPrefix(mod, "/") {
			return nil // a file: the near-name search of rules_files.go
		}
		mod = strings.TrimPrefix(mod, "node:")
		parts := strings.Split(mod, "/")
		pkg := parts[0]
		if strings.HasPrefix(mod, "@") && len(parts) > 1 {
			pkg = parts[0] + "/" + parts[1]
		}
		if nodeBuiltins.get()[pkg] {
			return explain(MissingDependency, 0.8, "%s is a Node.js built-in module that this Node.js version does not have.", pkg)
		}
		if fd := moduleTypoFinding(ctx, f, "Node.js", pkg, "node-", "node_modules"); fd != nil && !strings.HasPrefix(pkg, "@") {
			return fd
		}
		fd := found(MissingDependency, 0.9, fmt.Sprintf("The package %s is not installed.", pkg))
		if f.exists(ctx, "package.json") && !f.isDir(ctx, "node_modules") {
			fd.RootCause = "The project's dependencies are not installed (no node_modules)."
			fd.Fixes = append(fd.Fixes, fix("npm install", 0.88, "Install the dependencies listed in package.json."))
			fd.Fixes = append(fd.Fixes, fix("npm install "+pkg, 0.8, "Install %s.", pkg))
		} else {
			fd.Fixes = append(fd.Fixes, fix("npm install "+pkg, 0.9, "Install %s.", pkg))
		}
		return fd
	}
	if npmNoPackageJSON.MatchString(f.Output) && c.Name() != "node" {
		return noProjectFile(ctx, f, "package.json", "npm init -y")
	}
	if f.has("EJSONPARSE") {
		return explain(ConfigurationError, 0.88, "package.json is not valid JSON (a trailing comma or a missing quote); %s", strings.TrimPrefix(f.keyLineMatching(jsonParseRe), "npm error "))
	}
	if f.has("ERESOLVE") {
		return found(MissingDependency, 0.85, "npm cannot satisfy the packages' peer dependencies together (ERESOLVE).",
			fix(f.replaceWords(c, len(c.Args), len(c.Args), "--legacy-peer-deps"), 0.8, "Install ignoring peer-dependency conflicts, as npm 6 did."))
	}
	if m := f.find(npm404Re); m != nil {
		return explain(MissingDependency, 0.85, "The npm registry has no package %s: check its name.", strings.ReplaceAll(m[1]+m[2], "%2f", "/"))
	}
	if f.has("cannot use import statement outside a module") {
		return explain(SyntaxError, 0.88, "The file uses ES module import syntax but Node.js loads it as CommonJS; add \"type\": \"module\" to package.json or name the file .mjs.")
	}
	if f.has("ERR_REQUIRE_ESM") {
		return explain(MissingDependency, 0.85, "require() cannot load an ES-module-only package; use import, or an older CommonJS version of the package.")
	}
	// Any other uncaught exception of a script: say which, and where.
	if c.Name() == "node" || c.Name() == "bun" {
		if m := f.find(nodeThrownRe); m != nil && strings.Contains(f.Output, "\n    at ") {
			return &Finding{ErrorType: Unknown, Confidence: 0.6,
				RootCause: fmt.Sprintf("The script threw %s (%s): %s", m[2], f.shortPath(m[1]), m[3])}
		}
	}
	return nil
}

// npmMissingScript corrects a script name from package.json.
func npmMissingScript(ctx context.Context, f *Failure, c *Call, script string) *Finding {
	scripts, err := f.Env.PackageScripts(ctx, f.Cwd)
	if err != nil || len(scripts) == 0 {
		if err != nil && !f.exists(ctx, "package.json") {
			return noProjectFile(ctx, f, "package.json", "npm init -y")
		}
		return explain(ConfigurationError, 0.85, "package.json defines no script %q (it has no scripts at all).", script)
	}
	fd := found(ConfigurationError, 0.9, fmt.Sprintf("package.json has no script %q; it has %s.", script, strings.Join(scripts, ", ")))
	j := -1
	for i := 1; i < len(c.Args); i++ {
		if c.Args[i] == script {
			j = i
		}
	}
	ms := closest(script, scripts, nil)
	for k, m := range ms {
		if k == MaxFixes || j < 0 {
			break
		}
		fd.Fixes = append(fd.Fixes, fix(f.putWord(c, j, m.word), min(m.score, 0.93)-0.01*float64(k), "Run the script %s.", m.word))
	}
	if len(ms) > 0 {
		fd.RootCause = fmt.Sprintf("package.json has no script %q; did you mean %q?", script, ms[0].word)
		return fd
	}
	// Nothing close: when a server was meant to start, offer the scripts
	// that start one.
	switch script {
	case "start", "dev", "serve", "develop", "server", "run":
	default:
		return fd
	}
	run := c.Name() + " run "
	prefer := []string{"dev", "start", "serve", "develop", "watch"}
	n := 0
	for _, p := range prefer {
		if contains(scripts, p) && n < 2 {
			fd.Fixes = append(fd.Fixes, fix(run+p, 0.4-0.05*float64(n), "Run the script %s.", p))
			n++
		}
	}
	return fd
}

// noProjectFile explains a build tool run outside its project.
func noProjectFile(ctx context.Context, f *Failure, file, create string) *Finding {
	es, err := f.Env.ReadDir(ctx, f.path("."))
	var dirs []string
	if err == nil {
		for _, e := range es {
			if e.Dir && f.exists(ctx, e.Name+"/"+file) {
				dirs = append(dirs, e.Name)
			}
		}
	}
	if len(dirs) > 0 {
		fd := found(ConfigurationError, 0.85, fmt.Sprintf("There is no %s here, but %s/ has one.", file, dirs[0]))
		for i, d := range dirs {
			if i == 2 {
				break
			}
			fd.Fixes = append(fd.Fixes, fix("cd "+shellwords.QuotePath(d)+" && "+strings.TrimSpace(f.Command), 0.8-0.05*float64(i), "Run it in %s, the project directory.", d))
		}
		return fd
	}
	return explain(ConfigurationError, 0.85, "There is no %s here: run this in the project's directory, or create a project with %s.", file, create)
}
