package analyze

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

// venvDirs are the names projects give their virtualenv.
var venvDirs = []string{".venv", "venv", "env", ".env"}

// ruleInactiveVenv: a Python module or tool is missing, no virtualenv is
// active, and the project has one (here or up to two directories above,
// with its bin/activate): the cause may be that it is not active, another
// family of cause than "not installed". When the virtualenv holds the
// module or the tool, that is the likelier cause; otherwise its fix comes
// after installing.
func ruleInactiveVenv(ctx context.Context, f *Failure) *Finding {
	mod := ""
	if m := f.find(pyNoModuleRe); m != nil {
		mod, _, _ = strings.Cut(m[1]+m[2], ".")
	}
	tool, said := f.missingCommand(ctx)
	if mod == "" && (tool == "" || !said || strings.Contains(tool, "/")) {
		return nil
	}
	if f.Env.PythonVenv(ctx) != "" {
		return nil
	}
	venv := f.findVenv(ctx)
	if venv == "" {
		return nil
	}
	activate := "source " + shellwords.QuoteWord(filepath.Join(venv, "bin", ActivateScript(f.Input.Shell)))
	switch {
	case mod != "" && f.venvHasModule(ctx, venv, mod):
		return found(MissingDependency, 0.92, fmt.Sprintf("The module %s is installed in the virtualenv %s, which is not active.", mod, venv),
			fix(activate, 0.93, "Activate the project's virtualenv, where %s is installed.", mod))
	case mod == "" && f.isFile(ctx, filepath.Join(venv, "bin", tool)):
		return found(CommandNotFound, 0.92, fmt.Sprintf("%s is in the virtualenv %s, which is not active.", tool, venv),
			fix(activate, 0.93, "Activate the project's virtualenv, where %s is.", tool))
	case mod != "":
		fx := fix(activate, 0.6, "Activate the project's virtualenv first: it may have %s.", mod)
		fx.alternative = true
		return found(MissingDependency, 0.5, fmt.Sprintf("The module %s is missing; the project's virtualenv %s is not active.", mod, venv), fx)
	}
	return nil
}

// findVenv returns the project's virtualenv, relative to the directory the
// command ran in (".venv", "../venv"), or "".
func (f *Failure) findVenv(ctx context.Context) string {
	up := ""
	for range 3 {
		for _, d := range venvDirs {
			p := filepath.Join(up, d)
			if f.isFile(ctx, filepath.Join(p, "bin", "activate")) && f.isFile(ctx, filepath.Join(p, "pyvenv.cfg")) {
				return p
			}
		}
		up = filepath.Join(up, "..")
	}
	return ""
}

// venvHasModule reports whether the virtualenv's site-packages hold mod.
func (f *Failure) venvHasModule(ctx context.Context, venv, mod string) bool {
	libs, err := f.Env.ReadDir(ctx, f.path(filepath.Join(venv, "lib")))
	if err != nil {
		return false
	}
	for _, l := range libs {
		if !l.Dir || !strings.HasPrefix(l.Name, "python") {
			continue
		}
		site := filepath.Join(venv, "lib", l.Name, "site-packages")
		if f.isDir(ctx, filepath.Join(site, mod)) || f.isFile(ctx, filepath.Join(site, mod+".py")) {
			return true
		}
	}
	return false
}

// ActivateScript is the name of the script in a virtualenv's bin that
// activates it in shell: activate.fish for fish, activate for the others.
func ActivateScript(shell string) string {
	if shell == "fish" {
		return "activate.fish"
	}
	return "activate"
}
