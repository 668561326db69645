package analyze

import (
	"context"
	"fmt"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

// ruleFunc adapts a function to the Rule interface.
type ruleFunc struct {
	name  string
	check func(ctx context.Context, f *Failure) *Finding
	// progs, when set, are the only programs the rule is about: it finds
	// nothing unless the command line runs one of them, and Analyze does
	// not run it otherwise (nor compile its patterns).
	progs []string
}

func (r ruleFunc) Name() string                                   { return r.name }
func (r ruleFunc) Check(ctx context.Context, f *Failure) *Finding { return r.check(ctx, f) }
func (r ruleFunc) programs() []string                             { return r.progs }

// indexed is a rule that says which programs it is about.
type indexed interface{ programs() []string }

// applies reports whether rule r may find anything in f: a rule indexed by
// program names applies only when one of the commands is one of them.
func applies(r Rule, f *Failure) bool {
	ix, ok := r.(indexed)
	if !ok || len(ix.programs()) == 0 {
		return true
	}
	for _, p := range ix.programs() {
		if f.call(p) != nil {
			return true
		}
	}
	return false
}

// subcommandTools lists the programs whose subcommands are known.
func subcommandTools() []string {
	var out []string
	for k := range subcommands.get() {
		if !strings.Contains(k, " ") {
			out = append(out, k)
		}
	}
	return out
}

func progs(s string) []string { return strings.Fields(s) }

// DefaultRules returns the built-in rules, in a fixed order (on equal
// confidence, an earlier rule's diagnosis wins). Each call returns a new
// slice, which callers may extend.
func DefaultRules() []Rule {
	return []Rule{
		// Shell and commands.
		ruleFunc{"command-not-found", ruleCommandNotFound, nil},
		ruleFunc{"not-executable", ruleNotExecutable, nil},
		ruleFunc{"shell-syntax", ruleShellSyntax, nil},
		ruleFunc{"history", ruleHistory, nil},
		ruleFunc{"tool-suggestion", ruleToolSuggestion, nil},
		ruleFunc{"unknown-option", ruleUnknownOption, nil},
		ruleFunc{"short-option-case", ruleShortOptionCase, nil},
		ruleFunc{"sed-empty-suffix", ruleSedEmptySuffix, progs("sed")},
		ruleFunc{"nameless-option", ruleNamelessOption, nil},
		ruleFunc{"regex-as-text", ruleRegexAsText, progs("grep egrep rg ag zgrep")},
		ruleFunc{"close-brackets", ruleCloseBrackets, progs("jq awk gawk mawk")},
		ruleFunc{"unknown-subcommand", ruleUnknownSubcommand, subcommandTools()},
		ruleFunc{"run-hint", ruleRunHint, nil},
		ruleFunc{"subcommand-manual", ruleSubcommandFromManual, nil},
		ruleFunc{"man-page", ruleManPage, progs("man")},
		ruleFunc{"patch-strip", rulePatchStrip, progs("patch")},
		ruleFunc{"perl-module", rulePerlModule, nil},
		ruleFunc{"grep-matchers", ruleGrepMatchers, progs("grep")},
		ruleFunc{"pasted-url", rulePastedURL, nil},
		ruleFunc{"vocab-subcommand", ruleVocabSubcommand, nil},
		ruleFunc{"kill-by-name", ruleKillByName, progs("kill")},
		ruleFunc{"ssh-option", ruleSSHOption, progs("ssh scp sftp autossh")},
		ruleFunc{"syscall-name", ruleSyscallName, nil},
		ruleFunc{"usage-subcommand", ruleUsageSubcommand, nil},
		ruleFunc{"foreign-package-manager", ruleForeignPackageManager, nil},
		ruleFunc{"virtual-fs", ruleVirtualFS, progs("mkdir touch cp mv ln install tee")},
		ruleFunc{"exit-status", ruleExitStatus, nil},
		// Files.
		ruleFunc{"missing-parent", ruleMissingParent, nil},
		ruleFunc{"missing-file", ruleMissingFile, nil},
		ruleFunc{"missing-operand", ruleMissingOperand, nil},
		ruleFunc{"directory-operand", ruleDirectoryOperand, nil},
		ruleFunc{"file-exists", ruleFileExists, nil},
		ruleFunc{"cd", ruleCd, progs("cd pushd")},
		ruleFunc{"find", ruleFind, progs("find")},
		ruleFunc{"grep-sed", ruleGrepSed, nil},
		ruleFunc{"fs-explain", ruleFSExplain, nil},
		// Permissions and system.
		ruleFunc{"permission", rulePermission, nil},
		ruleFunc{"privileged-port", rulePrivilegedPort, nil},
		ruleFunc{"apt", ruleApt, progs("apt apt-get aptitude dpkg apt-cache add-apt-repository")},
		ruleFunc{"system", ruleSystem, nil},
		// Tools.
		ruleFunc{"git", ruleGit, progs("git")},
		ruleFunc{"python", rulePython, nil},
		ruleFunc{"inactive-venv", ruleInactiveVenv, nil},
		ruleFunc{"alternatives", ruleAlternatives, nil},
		ruleFunc{"node", ruleNode, progs("npm yarn pnpm npx node bun")},
		ruleFunc{"go", ruleGo, progs("go")},
		ruleFunc{"make", ruleMake, progs("make gmake")},
		ruleFunc{"java", ruleJava, progs("mvn mvnw javac java")},
		ruleFunc{"rust", ruleRust, progs("cargo rustc")},
		ruleFunc{"c", ruleC, nil},
		ruleFunc{"docker", ruleDocker, progs("docker docker-compose podman")},
		ruleFunc{"network", ruleNetwork, nil},
		ruleFunc{"port-in-use", rulePortInUse, nil},
		ruleFunc{"archive", ruleArchive, progs("tar unzip gunzip gzip bunzip2 unxz xz 7z unrar zcat")},
		ruleFunc{"tests", ruleTests, nil},
		ruleFunc{"pasted-prompt", rulePastedPrompt, nil},
		ruleFunc{"version-manager", ruleVersionManager, nil},
		ruleFunc{"net-device", ruleNetDevice, nil},
		ruleFunc{"nix", ruleNix, nil},
		ruleFunc{"rails-migrations", ruleRailsMigrations, nil},
		ruleFunc{"task-file", ruleTaskFile, progs("grunt gulp fab invoke inv")},
		ruleFunc{"package-not-found", rulePackageNotFound, progs("dnf yum pacman zypper apk brew choco winget")},
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

// installCommand returns the command that installs Debian packages (or
// Homebrew formulas where apt is absent), with sudo when needed: each name
// one word of it, quoted by shellwords whatever it holds.
func (f *Failure) installCommand(ctx context.Context, pkgs ...string) string {
	words := make([]string, len(pkgs))
	for i, p := range pkgs {
		words[i] = shellwords.QuoteWord(p)
	}
	pkg := strings.Join(words, " ")
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
