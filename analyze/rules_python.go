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
	pyNoModuleRe    = lazyRegexp(`(?:ModuleNotFoundError|ImportError): No module named '?([A-Za-z0-9_.]+)'?|(?m)^\S*python[0-9.]*: No module named ([A-Za-z0-9_.]+)`)
	pyPrintRe       = lazyRegexp(`Missing parentheses in call to '(print|exec)'`)
	pyFrameRe       = lazyRegexp(`(?m)^\s*File "([^"]+)", line (\d+)`)
	pyExceptionRe   = lazyRegexp(`(?m)^([A-Za-z_][A-Za-z0-9_.]*(?:Error|Exception|Exit|Interrupt|Warning)|KeyError|StopIteration)(?:: (.*))?$`)
	pipNoDistRe     = lazyRegexp(`No matching distribution found for ([A-Za-z0-9_.\-\[\]]+)`)
	pyMScriptRe     = lazyRegexp(`Error while finding module specification for '([^']+)\.py'`)
	pyEnsurepipRe   = lazyRegexp(`ensurepip is not\s+available|apt install (python3(?:\.\d+)?-venv)`)
	pyCannotImport  = lazyRegexp(`ImportError: cannot import name '([^']+)' from '([^']+)'`)
	pySyntaxErrorRe = lazyRegexp(`(?m)^(SyntaxError|IndentationError|TabError): (.*)$`)
)

// pipCommand returns how to run pip for the failing interpreter: inside an
// active virtual environment its python, otherwise pip itself.
func pipCommand(ctx context.Context, f *Failure) (string, string) {
	if venv := f.Env.PythonVenv(ctx); venv != "" && (f.Env.LookPath(ctx, "python") || f.call("python") != nil) {
		return "python -m pip", "the active virtual environment " + filepath.Base(venv)
	}
	if f.Env.LookPath(ctx, "pip") || !f.Env.LookPath(ctx, "pip3") {
		return "pip", ""
	}
	return "pip3", ""
}

func rulePython(ctx context.Context, f *Failure) *Finding {
	c := f.main()
	if m := f.find(pyNoModuleRe); m != nil {
		return pythonMissingModule(ctx, f, m[1]+m[2])
	}
	if m := f.find(pyPrintRe); m != nil {
		return explain(SyntaxError, 0.93, "This is Python 2 code: in Python 3 %s is a function and needs parentheses, as in %s(...).", m[1], m[1])
	}
	if pc := f.call("pip", "pip3"); pc != nil || f.has("externally-managed-environment") {
		if fd := pipFailure(ctx, f, pc); fd != nil {
			return fd
		}
	}
	if m := f.find(pyEnsurepipRe); m != nil && f.has("venv") {
		pkg := "python3-venv"
		if m[1] != "" {
			pkg = m[1]
		}
		fd := found(MissingDependency, 0.9, "Python's venv module is missing its ensurepip part, which Debian packages separately.",
			fix(f.installCommand(ctx, pkg), 0.9, "Install %s.", pkg))
		return fd
	}
	if m := f.find(pyMScriptRe); m != nil && c != nil {
		for j := 1; j < len(c.Args); j++ {
			if c.Args[j] == m[1]+".py" && c.Args[j-1] == "-m" {
				return found(SyntaxError, 0.9, "python -m takes a module name, without .py.",
					fix(f.replaceWords(c, j-1, j+1, shellwords.QuoteWord(m[1]+".py")), 0.88, "Run the file as a script."),
					fix(f.putWord(c, j, m[1]), 0.86, "Run it as a module."))
			}
		}
	}
	if m := f.find(pyCannotImport); m != nil {
		return explain(MissingDependency, 0.8, "%s has no %s: the installed version differs from what the code expects (or a local file shadows the module).", m[2], m[1])
	}
	if !f.has("traceback (most recent call last)") && f.find(pySyntaxErrorRe) == nil {
		return nil
	}
	// Any other Python error: say which exception, where.
	where := ""
	if frames := pyFrameRe.FindAllStringSubmatch(f.Output, -1); len(frames) > 0 {
		fr := frames[len(frames)-1]
		where = fmt.Sprintf(" (%s, line %s)", f.shortPath(fr[1]), fr[2])
	}
	if m := f.find(pySyntaxErrorRe); m != nil {
		return explain(SyntaxError, 0.75, "Python %s%s: %s", m[1], where, m[2])
	}
	var exc, msg string
	for _, m := range pyExceptionRe.FindAllStringSubmatch(f.Output, -1) {
		exc, msg = m[1], m[2]
	}
	if exc == "" {
		return nil
	}
	typ := Unknown
	switch {
	case strings.Contains(exc, "FileNotFound"):
		typ = FileNotFound
	case strings.Contains(exc, "Permission"):
		typ = PermissionDenied
	case strings.Contains(exc, "Connection") || strings.Contains(exc, "Timeout") || strings.Contains(exc, "gaierror"):
		typ = NetworkError
	}
	cause := fmt.Sprintf("The script raised %s%s", exc, where)
	if msg != "" {
		cause += ": " + msg
	}
	return &Finding{ErrorType: typ, Confidence: 0.6, RootCause: cause}
}

// pythonMissingModule proposes installing the distribution that provides
// an imported module.
func pythonMissingModule(ctx context.Context, f *Failure, mod string) *Finding {
	top, _, _ := strings.Cut(mod, ".")
	if fd := moduleTypoFinding(ctx, f, "Python", mod, "python3-"); fd != nil {
		return fd
	}
	if pkg, ok := aptPythonModules.get()[top]; ok {
		return found(MissingDependency, 0.9, fmt.Sprintf("The Python module %s is missing; Debian ships it in %s.", top, pkg),
			fix(f.installCommand(ctx, pkg), 0.9, "Install %s.", pkg))
	}
	// A module of the project itself, run from the wrong directory?
	if f.exists(ctx, top+".py") || f.isDir(ctx, top) {
		return explain(MissingDependency, 0.7, "No module named %s, although %s is here: run from the project root, or check PYTHONPATH and __init__.py files.", mod, top)
	}
	dist, ok := pipPackages.get()[mod]
	if !ok {
		dist, ok = pipPackages.get()[top]
	}
	if !ok {
		dist = top
	}
	pip, where := pipCommand(ctx, f)
	cause := fmt.Sprintf("The Python module %s is not installed", top)
	if dist != top {
		cause += fmt.Sprintf("; it comes from the package %s", dist)
	}
	if where != "" {
		cause += " (in " + where + ")"
	}
	fd := found(MissingDependency, 0.9, cause+".")
	// A name not in the table is the output's text, and on PyPI anyone
	// may publish under it: never low risk.
	fx := fix(pip+" install "+shellwords.QuoteWord(dist), 0.9, "Install %s with pip.", dist)
	fx.Untrusted = !ok
	fd.Fixes = append(fd.Fixes, fx)
	if interp := f.call("python3", "python"); interp != nil && pip != "python -m pip" {
		fx := fix(interp.Name()+" -m pip install "+shellwords.QuoteWord(dist), 0.85, "Install it for exactly this interpreter.")
		fx.Untrusted = !ok
		fd.Fixes = append(fd.Fixes, fx)
	}
	return fd
}

// pipFailure handles pip's own errors.
func pipFailure(ctx context.Context, f *Failure, c *Call) *Finding {
	pkgs := []string{}
	if c != nil && c.sub() == "install" {
		for _, a := range c.Args[c.subIndex()+1:] {
			if !strings.HasPrefix(a, "-") {
				pkgs = append(pkgs, a)
			}
		}
	}
	what := strings.Join(pkgs, " ")
	switch {
	case f.has("externally-managed-environment"):
		fd := found(ConfigurationError, 0.9, "This Python belongs to the system (PEP 668: externally managed); pip may not install into it. Use a virtual environment, pipx for applications, or apt.")
		if what == "" {
			return fd
		}
		fd.Fixes = append(fd.Fixes, fix("python3 -m venv .venv && . .venv/bin/activate && pip install "+what, 0.85, "Create a virtual environment for the project and install there."))
		if len(pkgs) == 1 && f.Env.LookPath(ctx, "pipx") {
			fd.Fixes = append(fd.Fixes, fix("pipx install "+what, 0.75, "Install the application in its own environment with pipx."))
		}
		if len(pkgs) == 1 && !strings.ContainsAny(what, "=<>[") {
			if deb, stem := debianPython(ctx, f, what); deb != "" {
				fd.Fixes = append(fd.Fixes, fix(f.installCommand(ctx, deb), 0.7, "Install Debian's packaged version, %s.", deb))
			} else {
				fd.RootCause = fmt.Sprintf("This Python belongs to the system (PEP 668): pip may not install into it. Use a virtual environment, pipx, or Debian's package, if any: python3-%s (apt search %s).", stem, stem)
			}
		}
		return fd
	case f.has("[errno 13] permission denied") && c != nil && f.Env.PythonVenv(ctx) == "":
		return found(PermissionDenied, 0.85, "pip may not write to the system's site-packages.",
			fix(f.replaceWords(c, c.subIndex()+1, c.subIndex()+1, "--user"), 0.85, "Install into your home directory instead."))
	}
	if m := f.find(pipNoDistRe); m != nil && c != nil {
		name := m[1]
		fd := found(MissingDependency, 0.85, fmt.Sprintf("PyPI has no package %s (or none for this Python version).", name))
		if dist, ok := pipPackages.get()[name]; ok && dist != name {
			for j := 1; j < len(c.Args); j++ {
				if c.Args[j] == name {
					fd.RootCause = fmt.Sprintf("%s is the module's import name; its package on PyPI is %s.", name, dist)
					fd.Fixes = append(fd.Fixes, fix(f.putWord(c, j, dist), 0.9, "Install %s, which provides the module %s.", dist, name))
				}
			}
		}
		return fd
	}
	return nil
}

// debianPython returns the Debian package of the PyPI package pkg when
// apt's package lists know it: python3- and the name in lower case, without
// a py prefix or -python suffix (pyyaml is python3-yaml, PyJWT python3-jwt).
// Else "" and the stem to search for.
func debianPython(ctx context.Context, f *Failure, pkg string) (deb, stem string) {
	name := strings.ReplaceAll(strings.ToLower(pkg), "_", "-")
	stem = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(name, "python-"), "py"), "-python")
	if stem == "" || len(stem) < 2 {
		stem = name
	}
	known := f.Env.AptPackages(ctx, "python3-")
	for _, want := range []string{"python3-" + name, "python3-" + stem, "python3-" + strings.TrimPrefix(name, "python-")} {
		if slices.Contains(known, want) {
			return want, stem
		}
	}
	return "", stem
}
