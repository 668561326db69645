package analyze

import (
	"path/filepath"
	"strings"

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
// string (sh -c, eval, exec; rated by that code when it is worse), for
// changing where packages come from (npm config set registry, pip
// --index-url, gem sources --add) and for publishing (npm publish, cargo
// publish, twine upload, gem push, docker push); and "low" otherwise. A
// command that does not parse is "medium", since nobody can tell what it
// does.
func Risk(cmd string) string {
	return riskDepth(cmd, 0)
}

func riskDepth(cmd string, depth int) string {
	if strings.TrimSpace(cmd) == "" {
		return RiskLow
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		return RiskMedium
	}
	risk := RiskLow
	raise := func(r string) { risk = MaxRisk(risk, r) }
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			for _, r := range n.Redirs {
				raise(redirRisk(r))
			}
		case *syntax.CallExpr:
			args := make([]string, 0, len(n.Args))
			for _, w := range n.Args {
				args = append(args, riskWord(w))
			}
			raise(callRisk(args, depth))
			if runsDownload(n) {
				raise(RiskHigh)
			}
		case *syntax.Assign:
			if n.Name != nil {
				value := ""
				if n.Value != nil {
					value = riskWord(n.Value)
				}
				raise(assignRisk(n.Name.Value, value))
			}
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				raise(pipeRisk(n))
			}
		}
		return true
	})
	return risk
}

// riskWord returns a word's literal value, or a marker for an expansion,
// keeping $HOME recognisable.
func riskWord(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(p.Value))
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					b.WriteString(dqUnescape(q.Value))
				case *syntax.ParamExp:
					b.WriteString("$" + q.Param.Value)
				case *syntax.CmdSubst:
					b.WriteString(cmdSubstMark)
				default:
					b.WriteString("$?")
				}
			}
		case *syntax.ParamExp:
			if p.Param != nil {
				b.WriteString("$" + p.Param.Value)
			}
		case *syntax.CmdSubst:
			b.WriteString(cmdSubstMark)
		case *syntax.ProcSubst:
			b.WriteString(procSubstMark)
		default:
			b.WriteString("$?")
		}
	}
	return b.String()
}

// dqUnescape removes the backslashes that quote a character inside double
// quotes.
func dqUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
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

func redirRisk(r *syntax.Redirect) string {
	switch r.Op {
	case syntax.RdrOut, syntax.RdrAll, syntax.RdrClob, syntax.RdrAllClob:
	default:
		return RiskLow
	}
	if r.Word == nil {
		return RiskLow
	}
	target := riskWord(r.Word)
	switch {
	case target == "/dev/null" || target == "/dev/stdout" || target == "/dev/stderr" || target == "/dev/tty":
		return RiskLow
	case strings.HasPrefix(target, "/dev/"), isSystemPath(target):
		return RiskHigh
	}
	return RiskMedium
}

// wholeTarget reports whether an argument names / or all of $HOME.
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

func callRisk(args []string, depth int) string {
	if len(args) == 0 {
		return RiskLow
	}
	risk := RiskLow
	name := filepath.Base(args[0])
	rest := args[1:]
	destructive := func(r string) string {
		for _, a := range rest {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if wholeTarget(a) {
				return RiskHigh
			}
		}
		return r
	}
	switch name {
	case "sudo", "doas", "su", "pkexec":
		risk = RiskMedium
		if n := 1 + optionWords(rest, "ugpChDrtUT"); n < len(args) && name != "su" {
			risk = MaxRisk(risk, callRisk(args[n:], depth))
		}
		return risk
	case "exec":
		// exec replaces the shell itself with the command.
		for i := 1; i < len(args); i++ {
			if !strings.HasPrefix(args[i], "-") {
				return MaxRisk(RiskMedium, callRisk(args[i:], depth))
			}
		}
		return RiskMedium
	case "env", "nohup", "time", "nice", "command", "xargs", "timeout", "stdbuf", "watch":
		for i := 1; i < len(args); i++ {
			if name == "env" && strings.Contains(args[i], "=") && !strings.HasPrefix(args[i], "-") {
				k, v, _ := strings.Cut(args[i], "=")
				risk = MaxRisk(risk, assignRisk(k, v))
			}
			if !strings.HasPrefix(args[i], "-") && !strings.Contains(args[i], "=") && (name != "timeout" || i > 1 && !isNumberish(args[i])) {
				return MaxRisk(risk, callRisk(args[i:], depth))
			}
		}
		return risk
	case "rm":
		recursive := hasFlag(rest, "r", "recursive") || hasFlag(rest, "R", "")
		if recursive || hasFlag(rest, "f", "force") {
			risk = RiskMedium
		}
		// A whole tree in the home (rm -rf ~/.cache): the user's files.
		for _, a := range rest {
			if recursive && !strings.HasPrefix(a, "-") && inHome(a) {
				return RiskHigh
			}
		}
		return destructive(risk)
	case "rmdir", "shred", "wipefs", "truncate", "unlink":
		return destructive(RiskMedium)
	case "dd":
		for _, a := range rest {
			if strings.HasPrefix(a, "of=/dev/") {
				return RiskHigh
			}
		}
		return RiskMedium
	case "fdisk", "sfdisk", "parted", "gdisk", "mkswap", "cryptsetup", "lvremove", "vgremove", "pvremove":
		return RiskHigh
	case "chmod", "chown", "chgrp", "setfacl":
		if hasFlag(rest, "R", "recursive") {
			risk = RiskMedium
		}
		for _, a := range rest {
			if !strings.HasPrefix(a, "-") && isSystemPath(a) {
				risk = MaxRisk(risk, RiskMedium)
			}
		}
		return destructive(risk)
	case "mv", "cp", "ln", "rsync", "install":
		if name == "ln" && hasFlag(rest, "f", "force") || name == "rsync" && hasLong(rest, "delete") {
			risk = RiskMedium
		}
		if name == "mv" || name == "cp" && hasFlag(rest, "r", "recursive") {
			for _, a := range rest {
				if !strings.HasPrefix(a, "-") && wholeTarget(a) {
					return RiskHigh
				}
			}
		}
		return risk
	case "kill", "pkill", "killall", "fuser", "reboot", "shutdown", "poweroff", "halt", "init":
		if name != "fuser" || hasFlag(rest, "k", "kill") {
			return RiskMedium
		}
	case "find":
		for _, a := range rest {
			if a == "-delete" || a == "-exec" || a == "-execdir" {
				risk = RiskMedium
			}
		}
		if risk == RiskMedium && len(rest) > 0 && wholeTarget(rest[0]) {
			return RiskHigh
		}
		return risk
	case "git":
		return gitRisk(rest, depth)
	case "docker", "podman":
		for i, a := range rest {
			if a == "rm" || a == "rmi" || a == "prune" || a == "kill" || (a == "down" && i > 0) || a == "push" {
				return RiskMedium
			}
		}
	case "npm", "pnpm", "yarn", "bun", "bunx", "npx", "cargo", "gem", "twine", "flit", "poetry", "hatch", "uv", "pdm",
		"go", "add-apt-repository", "apt-key", "helm", "mvn", "gradle", "dotnet":
		return packageRisk(name, rest, depth)
	case "systemctl", "service":
		for _, a := range rest {
			switch a {
			case "stop", "restart", "disable", "mask", "kill", "poweroff", "reboot", "isolate":
				return RiskMedium
			}
		}
	case "usermod", "userdel", "groupdel", "passwd", "visudo", "crontab", "iptables", "nft", "ufw", "mount", "umount", "chattr", "ssh-keygen":
		if name == "ssh-keygen" && !hasFlag(rest, "R", "") {
			return RiskLow
		}
		if name == "crontab" && !hasFlag(rest, "r", "") {
			return RiskLow
		}
		return RiskMedium
	case "apt", "apt-get", "dpkg", "yum", "dnf", "pacman", "zypper", "snap":
		for _, a := range rest {
			switch a {
			case "remove", "purge", "autoremove", "-r", "-P", "--purge", "--remove", "-R", "-Rs", "-Rns", "erase":
				return RiskMedium
			}
		}
	case "pip", "pip3":
		for _, a := range rest {
			if a == "uninstall" || a == "--break-system-packages" {
				return RiskMedium
			}
		}
		return packageRisk(name, rest, depth)
	case "eval":
		return shellRisk(name, rest, depth)
	}
	if isShellName(name) {
		return shellRisk(name, rest, depth)
	}
	if isInterpreter(name) && len(rest) > 1 && rest[0] == "-m" {
		// python3 -m pip …, python3 -m twine upload …
		return callRisk(rest[1:], depth)
	}
	if strings.HasPrefix(name, "mkfs") {
		return RiskHigh
	}
	return risk
}

func isNumberish(s string) bool {
	return s != "" && strings.Trim(s, "0123456789.smhd") == ""
}

func gitRisk(args []string, depth int) string {
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
