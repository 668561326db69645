package analyze

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/hookd/hookd/internal/shellwords"
	"mvdan.cc/sh/v3/syntax"
)

// Risk rates a command line by what it could destroy or run, parsing it
// with a real shell parser: "high" for anything destructive aimed at / or at
// all of the home directory, for deleting a whole tree in the home (rm -r
// ~/.cache), for anything piped into a shell or an
// interpreter (curl … | sh), for downloads run through a substitution
// (bash <(curl …)), and for configuration that makes a tool run a program
// (git -c core.pager=…, GIT_SSH_COMMAND=…, npm's script-shell); "medium"
// for privilege (sudo), deletion and overwriting (rm -r/-f, dd, mkfs,
// recursive chmod/chown, git push --force, git reset --hard, git clean,
// overwriting redirections, killing processes, …), for code run from a
// string (sh -c, eval, exec, trap, python3 -c, perl -e, …; rated by that
// code when it is worse) or from a substitution ($(…), `…`, <(…): what
// runs is not what the line shows), for
// changing where packages come from (npm config set registry, pip
// --index-url, gem sources --add) and for publishing (npm publish, cargo
// publish, twine upload, gem push, docker push); and "low" otherwise. A
// command that does not parse is "medium", since nobody can tell what it
// does.
func Risk(cmd string) string {
	return riskDepth(cmd, 0)
}

func riskDepth(cmd string, depth int) string {
	return riskNoted(cmd, depth, nil)
}

// riskNoted is riskDepth telling note (when not nil) each part of cmd
// that raised its rating above low, and why (Assess).
func riskNoted(cmd string, depth int, note func(Reason)) string {
	if strings.TrimSpace(cmd) == "" {
		return RiskLow
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		if note != nil {
			note(Reason{Level: RiskMedium, Part: cmd, Why: "it does not parse as a shell command, so nobody can tell what it does"})
		}
		return RiskMedium
	}
	risk := RiskLow
	raise := func(r string, n syntax.Node, why func() string) {
		risk = MaxRisk(risk, r)
		if note != nil && r != RiskLow {
			note(Reason{Level: r, Part: nodeText(n, cmd), Why: why()})
		}
	}
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			for _, r := range n.Redirs {
				raise(redirRisk(r, cmd), r, func() string { return redirWhy(r, cmd) })
			}
		case *syntax.CallExpr:
			ws, _ := shellwords.CallWords(n, cmd)
			args := shellwords.Values(ws)
			r := callRisk(args, depth)
			raise(r, n, func() string { return callWhy(args, r, depth) })
			if code, ok := payloadOf(args); ok && note != nil && r != RiskLow && depth+1 < maxPayloadDepth {
				riskNoted(code, depth+1, note)
			}
			if runsDownload(n, cmd) {
				raise(RiskHigh, n, func() string { return "it runs code downloaded from the network (curl, wget) through a substitution" })
			}
		case *syntax.Assign:
			if n.Name != nil {
				value := ""
				if n.Value != nil {
					value = shellwords.Eval(n.Value, cmd).Value
				}
				r := assignRisk(n.Name.Value, value)
				raise(r, n, func() string { return assignWhy(n.Name.Value, r) })
			}
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				raise(pipeRisk(n, cmd), n, func() string { return pipeWhy(n, cmd) })
			}
		case *syntax.CmdSubst, *syntax.ProcSubst:
			// $(…), `…`, <(…): code that runs to make a word of the
			// command, not a word one reads on the line.
			raise(RiskMedium, n, func() string {
				return "it runs a substitution ($(…), `…` or <(…)): the code that runs is not a word one reads on the line"
			})
		}
		return true
	})
	return risk
}

// MaxRisk returns the higher of two risk levels.
func MaxRisk(a, b string) string {
	rank := func(r string) int {
		switch r {
		case RiskHigh:
			return 2
		case RiskMedium:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	if a == "" {
		return RiskLow
	}
	return a
}

func redirRisk(r *syntax.Redirect, src string) string {
	switch r.Op {
	case syntax.RdrOut, syntax.RdrAll, syntax.RdrClob, syntax.RdrAllClob:
	default:
		return RiskLow
	}
	if r.Word == nil {
		return RiskLow
	}
	target := shellwords.Eval(r.Word, src).Value
	switch {
	case target == "/dev/null" || target == "/dev/stdout" || target == "/dev/stderr" || target == "/dev/tty":
		return RiskLow
	case strings.HasPrefix(target, "/dev/"), isSystemPath(target):
		return RiskHigh
	}
	return RiskMedium
}

// wholeTarget reports whether an argument names / or all of the home
// directory (~, $HOME: a word's value writes it ~).
func wholeTarget(a string) bool {
	if a == "" {
		return false
	}
	switch strings.TrimRight(a, "/") {
	case "", "/*", "~", "~/*", "$HOME", "$HOME/*":
		return true
	}
	return false
}

// inHome reports whether an argument names something under the home
// directory (~/x, $HOME/x).
func inHome(a string) bool {
	for _, home := range []string{"~/", "$HOME/"} {
		if rest, ok := strings.CutPrefix(a, home); ok && strings.Trim(rest, "/.") != "" {
			return true
		}
	}
	return false
}

// isSystemPath reports a path under the directories the system lives in.
func isSystemPath(p string) bool {
	for _, d := range []string{"/bin", "/boot", "/etc", "/lib", "/lib64", "/sbin", "/usr", "/var", "/sys", "/proc"} {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// callRisk rates a simple command, given the values of its words: its
// wrappers (sudo and exec are medium, env's assignments are rated as
// such), then its program by the rule for its name (programRisk).
func callRisk(args []string, depth int) string {
	if len(args) == 0 {
		return RiskLow
	}
	u := shellwords.Unwrap(args)
	risk := RiskLow
	if u.Privileged || u.Replaces {
		risk = RiskMedium
	}
	for _, a := range u.Assigns {
		k, v, _ := strings.Cut(a, "=")
		risk = MaxRisk(risk, assignRisk(k, v))
	}
	name := filepath.Base(args[u.Prog])
	if fromStdin(args, u.Prog) && stdinOperands[name] {
		// xargs rm: what it deletes is read from standard input, not
		// shown on the line.
		risk = MaxRisk(risk, RiskMedium)
	}
	return MaxRisk(risk, programRisk(name, args[u.Prog+1:], depth))
}

// A riskRule rates what a program does with its words: name is the
// program's name, args the words after it.
type riskRule func(name string, args []string, depth int) string

// programRisk rates a program by the rule for its name, if there is one.
func programRisk(name string, args []string, depth int) string {
	if r := riskRuleFor(name); r != nil {
		return r(name, args, depth)
	}
	switch {
	case isInterpreter(name) && len(args) > 1 && args[0] == "-m":
		// python3 -m pip …, python3 -m twine upload …
		return callRisk(args[1:], depth)
	case strings.HasPrefix(name, "mkfs"):
		return RiskHigh
	case isInterpreter(name) && inlineCode(args):
		// python3 -c …, perl -e …, node -e …: code from a string.
		return RiskMedium
	}
	return RiskLow
}

// riskRules are the rules by program name, made on first use (not a
// lazyValue: the rules call callRisk, which looks them up).
var riskRules struct {
	once sync.Once
	m    map[string]riskRule
}

func riskRuleFor(name string) riskRule {
	riskRules.once.Do(func() { riskRules.m = makeRiskRules() })
	return riskRules.m[name]
}

func makeRiskRules() map[string]riskRule {
	m := map[string]riskRule{}
	add := func(r riskRule, names ...string) {
		for _, n := range names {
			m[n] = r
		}
	}
	// Privilege, and the shell replaced (with a program to rate, the
	// wrappers are set apart by unwrap; these are them alone).
	add(always(RiskMedium), "sudo", "doas", "su", "pkexec", "exec")
	// Deletion and overwriting.
	add(rmRisk, "rm")
	add(destructive(RiskMedium), "rmdir", "shred", "wipefs", "truncate", "unlink")
	add(ddRisk, "dd")
	add(always(RiskHigh), "fdisk", "sfdisk", "parted", "gdisk", "mkswap", "cryptsetup", "lvremove", "vgremove", "pvremove")
	add(ownerRisk, "chmod", "chown", "chgrp", "setfacl")
	add(copyRisk, "mv", "cp", "ln", "rsync", "install")
	add(killRisk, "kill", "pkill", "killall", "fuser", "reboot", "shutdown", "poweroff", "halt", "init")
	add(findRisk, "find")
	add(gitRisk, "git")
	add(containerRisk, "docker", "podman")
	// Package managers: publishing, registries, what they run.
	add(packageRisk, "npm", "pnpm", "yarn", "bun", "bunx", "npx", "cargo", "gem", "twine", "flit", "poetry", "hatch", "uv", "pdm",
		"go", "add-apt-repository", "apt-key", "helm", "mvn", "gradle", "dotnet")
	add(pipRisk, "pip", "pip3")
	add(removeRisk, "apt", "apt-get", "dpkg", "yum", "dnf", "pacman", "zypper", "snap")
	// The system.
	add(serviceRisk, "systemctl", "service")
	add(always(RiskMedium), "usermod", "userdel", "groupdel", "passwd", "visudo", "iptables", "nft", "ufw", "mount", "umount", "chattr")
	add(withFlag("R", RiskMedium), "ssh-keygen")
	add(withFlag("r", RiskMedium), "crontab")
	// Code run from a string.
	add(shellRisk, "eval", "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "busybox")
	add(trapRisk, "trap")
	add(sourceRisk, "source", ".")
	return m
}

// always rates a program the same whatever its words.
func always(risk string) riskRule {
	return func(string, []string, int) string { return risk }
}

// withFlag rates a program risk with the short flag, low without.
func withFlag(short, risk string) riskRule {
	return func(_ string, args []string, _ int) string {
		if hasFlag(args, short, "") {
			return risk
		}
		return RiskLow
	}
}

// destructive rates a program that destroys its operands: risk, or high
// when one of them is / or the whole home directory.
func destructive(risk string) riskRule {
	return func(_ string, args []string, _ int) string {
		for _, a := range args {
			if !strings.HasPrefix(a, "-") && wholeTarget(a) {
				return RiskHigh
			}
		}
		return risk
	}
}

func rmRisk(name string, args []string, depth int) string {
	risk := RiskLow
	recursive := hasFlag(args, "r", "recursive") || hasFlag(args, "R", "")
	if recursive || hasFlag(args, "f", "force") {
		risk = RiskMedium
	}
	// A whole tree in the home (rm -rf ~/.cache): the user's files.
	for _, a := range args {
		if recursive && !strings.HasPrefix(a, "-") && inHome(a) {
			return RiskHigh
		}
	}
	return destructive(risk)(name, args, depth)
}

func ddRisk(_ string, args []string, _ int) string {
	for _, a := range args {
		if strings.HasPrefix(a, "of=/dev/") {
			return RiskHigh
		}
	}
	return RiskMedium
}

// ownerRisk rates chmod, chown, chgrp and setfacl: recursive, or on the
// system's files, is medium.
func ownerRisk(name string, args []string, depth int) string {
	risk := RiskLow
	if hasFlag(args, "R", "recursive") {
		risk = RiskMedium
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && isSystemPath(a) {
			risk = MaxRisk(risk, RiskMedium)
		}
	}
	return destructive(risk)(name, args, depth)
}

// copyRisk rates mv, cp, ln, rsync and install: what they overwrite or
// delete.
func copyRisk(name string, args []string, _ int) string {
	risk := RiskLow
	if name == "ln" && hasFlag(args, "f", "force") || name == "rsync" && hasLong(args, "delete") {
		risk = RiskMedium
	}
	if name == "mv" || name == "cp" && hasFlag(args, "r", "recursive") {
		for _, a := range args {
			if !strings.HasPrefix(a, "-") && wholeTarget(a) {
				return RiskHigh
			}
		}
	}
	return risk
}

func killRisk(name string, args []string, _ int) string {
	if name != "fuser" || hasFlag(args, "k", "kill") {
		return RiskMedium
	}
	return RiskLow
}

func findRisk(_ string, args []string, _ int) string {
	risk := RiskLow
	for _, a := range args {
		if a == "-delete" || a == "-exec" || a == "-execdir" {
			risk = RiskMedium
		}
	}
	if risk == RiskMedium && len(args) > 0 && wholeTarget(args[0]) {
		return RiskHigh
	}
	return risk
}

func containerRisk(_ string, args []string, _ int) string {
	for i, a := range args {
		if a == "rm" || a == "rmi" || a == "prune" || a == "kill" || (a == "down" && i > 0) || a == "push" {
			return RiskMedium
		}
	}
	return RiskLow
}

func pipRisk(name string, args []string, depth int) string {
	for _, a := range args {
		if a == "uninstall" || a == "--break-system-packages" {
			return RiskMedium
		}
	}
	return packageRisk(name, args, depth)
}

// removeRisk rates the system's package managers: removing is medium.
func removeRisk(_ string, args []string, _ int) string {
	for _, a := range args {
		switch a {
		case "remove", "purge", "autoremove", "-r", "-P", "--purge", "--remove", "-R", "-Rs", "-Rns", "erase":
			return RiskMedium
		}
	}
	return RiskLow
}

func serviceRisk(_ string, args []string, _ int) string {
	for _, a := range args {
		switch a {
		case "stop", "restart", "disable", "mask", "kill", "poweroff", "reboot", "isolate":
			return RiskMedium
		}
	}
	return RiskLow
}

func gitRisk(_ string, args []string, depth int) string {
	sub := ""
	risk := RiskLow
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			sub = a
			break
		}
		switch {
		case a == "-c" && i+1 < len(args):
			risk = MaxRisk(risk, gitConfigArg(args[i+1]))
		case strings.HasPrefix(a, "--config-env="):
			risk = MaxRisk(risk, gitConfigArg(strings.TrimPrefix(a, "--config-env=")))
		case a == "--config-env" && i+1 < len(args):
			risk = MaxRisk(risk, gitConfigArg(args[i+1]))
		case a == "--exec-path" || strings.HasPrefix(a, "--exec-path="):
			if a != "--exec-path" || i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				risk = RiskHigh
			}
		}
		if a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--config-env" {
			i++
		}
	}
	rest := []string{}
	if i < len(args) {
		rest = args[i+1:]
	}
	risk = MaxRisk(risk, gitSubRisk(sub, rest, depth))
	return MaxRisk(risk, gitCommandRisk(sub, rest))
}

// gitCommandRisk rates what a git subcommand destroys.
func gitCommandRisk(sub string, rest []string) string {
	switch sub {
	case "push":
		if hasFlag(rest, "f", "force") || hasLong(rest, "force-with-lease") || hasLong(rest, "mirror") || hasLong(rest, "delete") || hasFlag(rest, "d", "") {
			return RiskMedium
		}
		for _, a := range rest {
			if strings.HasPrefix(a, "+") || strings.HasPrefix(a, ":") {
				return RiskMedium
			}
		}
	case "reset":
		if hasLong(rest, "hard") || hasLong(rest, "merge") || hasLong(rest, "keep") {
			return RiskMedium
		}
	case "clean":
		return RiskMedium
	case "checkout", "restore":
		for _, a := range rest {
			if a == "--" || a == "." || a == "-f" || a == "--force" {
				return RiskMedium
			}
		}
	case "switch":
		if hasFlag(rest, "f", "force") || hasLong(rest, "discard-changes") {
			return RiskMedium
		}
	case "branch":
		if hasFlag(rest, "D", "") || hasLong(rest, "force") || hasFlag(rest, "f", "") {
			return RiskMedium
		}
	case "stash":
		if len(rest) > 0 && (rest[0] == "drop" || rest[0] == "clear") {
			return RiskMedium
		}
	case "rm":
		if hasFlag(rest, "f", "force") || hasFlag(rest, "r", "") {
			return RiskMedium
		}
	case "tag":
		if hasFlag(rest, "f", "force") || hasFlag(rest, "d", "delete") {
			return RiskMedium
		}
	case "filter-branch", "filter-repo", "gc", "prune", "reflog", "update-ref":
		return RiskMedium
	case "rebase":
		return RiskLow
	}
	return RiskLow
}

// hasFlag reports whether args hold the short flag (alone or in a group such
// as -rf) or the long flag.
func hasFlag(args []string, short, long string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if long != "" && (a == "--"+long || strings.HasPrefix(a, "--"+long+"=")) {
			return true
		}
		if short != "" && len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(a[1:], short) {
			return true
		}
	}
	return false
}

func hasLong(args []string, long string) bool { return hasFlag(args, "", long) }
