package analyze

import (
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Risk rates a command line by what it could destroy, parsing it with a real
// shell parser: "high" for anything destructive aimed at / or at all of the
// home directory (and for downloads piped into a shell), "medium" for
// privilege (sudo), deletion and overwriting (rm -r/-f, dd, mkfs, recursive
// chmod/chown, git push --force, git reset --hard, git clean, overwriting
// redirections, killing processes, …), and "low" otherwise. A command that
// does not parse is "medium", since nobody can tell what it does.
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
	raise := func(r string) { risk = maxRisk(risk, r) }
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
					b.WriteString(q.Value)
				case *syntax.ParamExp:
					b.WriteString("$" + q.Param.Value)
				default:
					b.WriteString("$?")
				}
			}
		case *syntax.ParamExp:
			if p.Param != nil {
				b.WriteString("$" + p.Param.Value)
			}
		default:
			b.WriteString("$?")
		}
	}
	return b.String()
}

func maxRisk(a, b string) string {
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
			risk = maxRisk(risk, callRisk(args[n:], depth))
		}
		return risk
	case "env", "nohup", "time", "nice", "command", "exec", "xargs", "timeout", "stdbuf", "watch":
		for i := 1; i < len(args); i++ {
			if !strings.HasPrefix(args[i], "-") && !strings.Contains(args[i], "=") && (name != "timeout" || i > 1 && !isNumberish(args[i])) {
				return callRisk(args[i:], depth)
			}
		}
	case "rm":
		if hasFlag(rest, "r", "recursive") || hasFlag(rest, "R", "") || hasFlag(rest, "f", "force") {
			risk = RiskMedium
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
				risk = maxRisk(risk, RiskMedium)
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
		return gitRisk(rest)
	case "docker", "podman":
		for i, a := range rest {
			if a == "rm" || a == "rmi" || a == "prune" || a == "kill" || (a == "down" && i > 0) {
				return RiskMedium
			}
		}
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
	case "bash", "sh", "zsh", "dash", "ksh", "eval":
		if depth < 3 {
			for i, a := range rest {
				if name == "eval" || i > 0 && rest[i-1] == "-c" {
					return riskDepth(a, depth+1)
				}
			}
		}
	}
	if strings.HasPrefix(name, "mkfs") {
		return RiskHigh
	}
	return risk
}

func isNumberish(s string) bool {
	return s != "" && strings.Trim(s, "0123456789.smhd") == ""
}

func gitRisk(args []string) string {
	sub := ""
	i := 0
	for ; i < len(args); i++ {
		if !strings.HasPrefix(args[i], "-") {
			sub = args[i]
			break
		}
		if args[i] == "-C" || args[i] == "-c" {
			i++
		}
	}
	rest := []string{}
	if i < len(args) {
		rest = args[i+1:]
	}
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

// pipeRisk flags downloads piped into a shell.
func pipeRisk(b *syntax.BinaryCmd) string {
	left, right := edgeCallName(b.X, true), edgeCallName(b.Y, false)
	if (left == "curl" || left == "wget" || left == "fetch") && isShell(right) {
		return RiskHigh
	}
	return RiskLow
}

func isShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "python", "python3", "perl", "ruby", "node":
		return true
	}
	return false
}

// edgeCallName returns the command name at one end of a statement (the last
// command of a pipeline when last is set, the first otherwise), looking
// through sudo and env.
func edgeCallName(s *syntax.Stmt, last bool) string {
	if s == nil {
		return ""
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		for i, w := range c.Args {
			n := filepath.Base(riskWord(w))
			if n == "sudo" || n == "doas" || n == "env" || i > 0 && (strings.HasPrefix(n, "-") || strings.Contains(n, "=")) {
				continue
			}
			return n
		}
	case *syntax.BinaryCmd:
		if last {
			return edgeCallName(c.Y, true)
		}
		return edgeCallName(c.X, false)
	}
	return ""
}
