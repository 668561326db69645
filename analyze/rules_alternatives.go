package analyze

import (
	"context"

	"strings"
)

// ruleAlternatives adds, to failures whose usual fix is well known, a fix
// from another family of cause, for when the usual one is not the answer
// (see shown): its confidence stays below the usual fix's, so it never
// comes first.
//   - git refuses to pull, rebase, merge or switch over uncommitted
//     changes: commit them as work in progress, instead of stashing.
//   - a Python module is missing outside a virtualenv: Debian's package
//     of it, instead of pip (which Debian 12 refuses outside a
//     virtualenv).
func ruleAlternatives(ctx context.Context, f *Failure) *Finding {
	if c := f.call("git"); c != nil && f.has("would be overwritten by", "please commit or stash them",
		"cannot pull with rebase: you have unstaged changes", "cannot rebase: you have unstaged changes") {
		sub := c.sub()
		switch sub {
		case "pull", "rebase", "merge", "checkout", "switch", "cherry-pick":
			fx := fix("git commit -am WIP && "+f.callText(c), 0.6,
				"Commit your changes as work in progress instead, then %s (git reset HEAD~ takes the commit back later).", sub)
			fx.alternative = true
			return &Finding{ErrorType: ConfigurationError, Confidence: 0.3, Fixes: []Fix{fx}}
		}
	}
	if m := f.find(pyNoModuleRe); m != nil && f.Env.PythonVenv(ctx) == "" {
		top, _, _ := strings.Cut(m[1]+m[2], ".")
		if _, known := aptPythonModules.get()[top]; known || top == "" {
			return nil // apt's package is the usual fix already
		}
		dist := top
		if d, ok := pipPackages.get()[top]; ok {
			dist = d
		}
		pkg := "python3-" + strings.ToLower(strings.ReplaceAll(dist, "_", "-"))
		for _, p := range f.Env.AptPackages(ctx, pkg) {
			if p == pkg {
				fx := fix(f.installCommand(ctx, pkg), 0.55, "Install Debian's package of %s instead (pip refuses to install outside a virtualenv on Debian 12 and later).", top)
				fx.alternative = true
				return &Finding{ErrorType: MissingDependency, Confidence: 0.3, Fixes: []Fix{fx}}
			}
		}
	}
	return nil
}
