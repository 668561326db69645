package analyze

import (
	"context"
	"fmt"
	"strings"
)

// ruleFunc adapts a function to the Rule interface.
type ruleFunc struct {
	name  string
	check func(ctx context.Context, f *Failure) *Finding
}

func (r ruleFunc) Name() string                                   { return r.name }
func (r ruleFunc) Check(ctx context.Context, f *Failure) *Finding { return r.check(ctx, f) }

// DefaultRules returns the built-in rules, in a fixed order (on equal
// confidence, an earlier rule's diagnosis wins). Each call returns a new
// slice, which callers may extend.
func DefaultRules() []Rule {
	return []Rule{
		// Shell and commands.
		ruleFunc{"command-not-found", ruleCommandNotFound},
		ruleFunc{"not-executable", ruleNotExecutable},
		ruleFunc{"shell-syntax", ruleShellSyntax},
		ruleFunc{"history", ruleHistory},
		ruleFunc{"tool-suggestion", ruleToolSuggestion},
		ruleFunc{"unknown-subcommand", ruleUnknownSubcommand},
		ruleFunc{"run-hint", ruleRunHint},
		ruleFunc{"exit-status", ruleExitStatus},
		// Files.
		ruleFunc{"missing-parent", ruleMissingParent},
		ruleFunc{"missing-file", ruleMissingFile},
		ruleFunc{"directory-operand", ruleDirectoryOperand},
		ruleFunc{"file-exists", ruleFileExists},
		ruleFunc{"cd", ruleCd},
		ruleFunc{"find", ruleFind},
		ruleFunc{"grep-sed", ruleGrepSed},
		ruleFunc{"fs-explain", ruleFSExplain},
		// Permissions and system.
		ruleFunc{"permission", rulePermission},
		ruleFunc{"privileged-port", rulePrivilegedPort},
		ruleFunc{"apt", ruleApt},
		ruleFunc{"system", ruleSystem},
		// Tools.
		ruleFunc{"git", ruleGit},
		ruleFunc{"python", rulePython},
		ruleFunc{"node", ruleNode},
		ruleFunc{"go", ruleGo},
		ruleFunc{"make", ruleMake},
		ruleFunc{"java", ruleJava},
		ruleFunc{"rust", ruleRust},
		ruleFunc{"c", ruleC},
		ruleFunc{"docker", ruleDocker},
		ruleFunc{"network", ruleNetwork},
		ruleFunc{"port-in-use", rulePortInUse},
		ruleFunc{"archive", ruleArchive},
		ruleFunc{"tests", ruleTests},
		ruleFunc{"pasted-prompt", rulePastedPrompt},
		ruleFunc{"version-manager", ruleVersionManager},
		ruleFunc{"net-device", ruleNetDevice},
		ruleFunc{"nix", ruleNix},
		ruleFunc{"rails-migrations", ruleRailsMigrations},
		ruleFunc{"package-not-found", rulePackageNotFound},
	}
}

// fix builds a Fix; the risk is filled in from the command when combined.
func fix(cmd string, conf float64, format string, args ...any) Fix {
	return Fix{Command: cmd, Confidence: conf, Explanation: fmt.Sprintf(format, args...)}
}

// explain builds a finding that has no command fix: the honest answer is an
// explanation, and no other rule may add commands.
func explain(typ string, conf float64, format string, args ...any) *Finding {
	return &Finding{ErrorType: typ, Confidence: conf, RootCause: fmt.Sprintf(format, args...), Exclusive: true}
}

// found builds a finding with fixes.
func found(typ string, conf float64, cause string, fixes ...Fix) *Finding {
	var kept []Fix
	for _, fx := range fixes {
		if strings.TrimSpace(fx.Command) != "" {
			kept = append(kept, fx)
		}
	}
	return &Finding{ErrorType: typ, Confidence: conf, RootCause: cause, Fixes: kept}
}

// installCommand returns the command that installs a Debian package (or a
// Homebrew formula where apt is absent), with sudo when needed.
func (f *Failure) installCommand(ctx context.Context, pkg string) string {
	if f.Env.LookPath(ctx, "brew") && !f.Env.LookPath(ctx, "apt-get") {
		return "brew install " + pkg
	}
	if f.Env.LookPath(ctx, "dnf") && !f.Env.LookPath(ctx, "apt-get") {
		return f.sudo(ctx) + "dnf install " + pkg
	}
	return f.sudo(ctx) + "apt install " + pkg
}

// shortPath trims the failure's directory from an absolute path in a
// message, so that explanations read as the user typed.
func (f *Failure) shortPath(p string) string {
	if f.Cwd != "" && strings.HasPrefix(p, strings.TrimRight(f.Cwd, "/")+"/") {
		return p[len(strings.TrimRight(f.Cwd, "/"))+1:]
	}
	return p
}
