package analyze

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
	"mvdan.cc/sh/v3/syntax"
)

// An Assessment is Risk's rating of a command line with the reasons for
// it: what `hookd check` and the MCP tool assess_command tell a coding
// agent before it runs a command.
type Assessment struct {
	// Level is Risk(cmd): RiskLow, RiskMedium or RiskHigh.
	Level string `json:"level"`
	// Reasons are the parts of the command that raised the rating above
	// low, the highest first (none for a low command).
	Reasons []Reason `json:"reasons"`
}

// A Reason is one part of a command and why it is risky.
type Reason struct {
	Level string `json:"level"`
	// Part is the command's text that is rated (a simple command, a
	// pipeline, a redirection, an assignment), as written.
	Part string `json:"part"`
	Why  string `json:"why"`
}

// maxPart bounds a reason's Part, in bytes.
const maxPart = 200

// Assess rates cmd as Risk does, by the same rules, and says why: the
// command is parsed by a real shell parser and judged by its words'
// values (rm spelled with empty quotes inside it, or as $'\x72m', is rm),
// and code run from a string (sh -c, eval, trap) is rated as that code,
// with its own parts among the reasons.
func Assess(cmd string) Assessment {
	a := Assessment{Reasons: []Reason{}}
	seen := map[Reason]bool{}
	a.Level = riskNoted(cmd, 0, func(r Reason) {
		if !seen[r] {
			seen[r] = true
			a.Reasons = append(a.Reasons, r)
		}
	})
	rank := map[string]int{RiskHigh: 0, RiskMedium: 1}
	slices.SortStableFunc(a.Reasons, func(x, y Reason) int { return rank[x.Level] - rank[y.Level] })
	return a
}

// nodeText is the source of n in src, on one line, cut to maxPart.
func nodeText(n syntax.Node, src string) string {
	from, to := int(n.Pos().Offset()), int(n.End().Offset())
	if from < 0 || to > len(src) || from >= to {
		return ""
	}
	s := strings.Join(strings.Fields(src[from:to]), " ")
	if len(s) > maxPart {
		i := maxPart
		for i > 0 && s[i]&0xC0 == 0x80 {
			i--
		}
		s = s[:i] + "…"
	}
	return s
}

func redirWhy(r *syntax.Redirect, src string) string {
	target := shellwords.Eval(r.Word, src).Value
	switch {
	case strings.HasPrefix(target, "/dev/"):
		return fmt.Sprintf("it writes over a device (%s): the data on it is lost", target)
	case isSystemPath(target):
		return fmt.Sprintf("it overwrites a file of the system (%s)", target)
	}
	return fmt.Sprintf("it overwrites a file (%s)", target)
}

func assignWhy(name, risk string) string {
	if risk == RiskHigh {
		return fmt.Sprintf("setting %s makes programs run another program or load code", name)
	}
	return fmt.Sprintf("setting %s changes where packages come from", name)
}

func pipeWhy(b *syntax.BinaryCmd, src string) string {
	right := edgeArgs(b.Y, src, false)
	name := ""
	if len(right) > 0 {
		name = filepath.Base(right[0])
	}
	return fmt.Sprintf("it pipes into %s, which runs what it reads as a program: what runs is whatever the left side prints (a download, a decoded string)", name)
}

// fromStdin reports whether a wrapper before the program at prog is
// xargs, which gives it operands read from standard input.
func fromStdin(args []string, prog int) bool {
	for _, a := range args[:prog] {
		if filepath.Base(a) == "xargs" {
			return true
		}
	}
	return false
}

// callWhy says why a simple command (its words' values) is rated risk.
func callWhy(args []string, risk string, depth int) string {
	u := shellwords.Unwrap(args)
	name := filepath.Base(args[u.Prog])
	rest := args[u.Prog+1:]
	var why []string
	if u.Privileged {
		why = append(why, fmt.Sprintf("it runs %s with another user's privileges, root's by default (%s)", name, filepath.Base(args[0])))
	}
	if u.Replaces {
		why = append(why, "it replaces the shell with "+name+" (exec)")
	}
	for _, a := range u.Assigns {
		k, v, _ := strings.Cut(a, "=")
		if r := assignRisk(k, v); r != RiskLow {
			why = append(why, assignWhy(k, r))
		}
	}
	if fromStdin(args, u.Prog) && stdinOperands[name] {
		why = append(why, fmt.Sprintf("xargs gives %s operands read from standard input: what it acts on is not on the line", name))
	}
	if pr := programRisk(name, rest, depth); pr != RiskLow {
		why = append(why, programWhy(name, rest, pr, depth))
	}
	if len(why) == 0 {
		return fmt.Sprintf("%s is rated %s", name, risk)
	}
	return strings.Join(why, "; ")
}

// stdinOperands are the programs that destroy or change their operands:
// given them by xargs, from standard input, they are at least medium.
var stdinOperands = map[string]bool{"rm": true, "rmdir": true, "shred": true, "unlink": true, "truncate": true,
	"chmod": true, "chown": true, "chgrp": true, "kill": true, "mv": true, "cp": true, "dd": true}

// programWhy says why a program with its words is rated risk (not low).
func programWhy(name string, args []string, risk string, depth int) string {
	high := risk == RiskHigh
	whole := func() string {
		for _, a := range args {
			if !strings.HasPrefix(a, "-") && wholeTarget(a) {
				return a
			}
		}
		return ""
	}
	switch name {
	case "rm":
		if w := whole(); w != "" {
			return fmt.Sprintf("it deletes %s: the whole system or home directory", w)
		}
		if high {
			return "it deletes a whole tree in the home directory (the user's files)"
		}
		return "it deletes files recursively or without asking (-r, -f)"
	case "rmdir", "shred", "wipefs", "truncate", "unlink":
		if high {
			return fmt.Sprintf("%s destroys %s: the whole system or home directory", name, whole())
		}
		return fmt.Sprintf("%s deletes or destroys data", name)
	case "dd":
		if high {
			return "it writes raw data over a device (of=/dev/…): what the device held is lost"
		}
		return "dd writes raw data over its output"
	case "fdisk", "sfdisk", "parted", "gdisk", "mkswap", "cryptsetup", "lvremove", "vgremove", "pvremove":
		return fmt.Sprintf("%s changes disks and partitions: their data can be lost", name)
	case "chmod", "chown", "chgrp", "setfacl":
		if high {
			return fmt.Sprintf("it changes the permissions or owner of %s: the whole system or home directory", whole())
		}
		return "it changes permissions or owners recursively, or of the system's files"
	case "mv", "cp", "ln", "rsync", "install":
		if high {
			return fmt.Sprintf("it moves or overwrites %s: the whole system or home directory", whole())
		}
		return fmt.Sprintf("%s overwrites or deletes files (ln -f, rsync --delete)", name)
	case "kill", "pkill", "killall", "fuser", "reboot", "shutdown", "poweroff", "halt", "init":
		return fmt.Sprintf("%s stops processes or the machine", name)
	case "find":
		if high {
			return "it deletes, or runs a command on, every file under / or the home directory"
		}
		return "it deletes the files it finds, or runs a command on each (-delete, -exec)"
	case "git":
		return gitWhy(args, risk)
	case "docker", "podman":
		return fmt.Sprintf("%s removes, stops or publishes containers or images", name)
	case "apt", "apt-get", "dpkg", "yum", "dnf", "pacman", "zypper", "snap":
		return "it removes packages from the system"
	case "systemctl", "service":
		return "it stops, restarts or disables services"
	case "sudo", "doas", "su", "pkexec":
		return "it gives root's privileges"
	case "exec":
		return "it replaces the shell"
	case "ssh-keygen":
		return "it removes a host from known_hosts (-R)"
	case "crontab":
		return "it deletes the crontab (-r)"
	case "usermod", "userdel", "groupdel", "passwd", "visudo", "iptables", "nft", "ufw", "mount", "umount", "chattr":
		return fmt.Sprintf("%s changes users, the firewall, mounts or file attributes", name)
	case "eval", "trap":
		return payloadWhy(name, risk, depth)
	case "source", ".":
		return "it runs code read from standard input or a descriptor, not from a file one can read"
	}
	switch {
	case isShellName(name):
		return payloadWhy(name+" -c", risk, depth)
	case isInterpreter(name) && len(args) > 1 && args[0] == "-m":
		return callWhy(args[1:], risk, depth)
	case strings.HasPrefix(name, "mkfs"):
		return "it makes a new file system, erasing what the device held"
	case isInterpreter(name) && inlineCode(args):
		return fmt.Sprintf("%s runs code from a string (-c, -e): what runs is not a command one reads on the line", name)
	case name == "pip" || name == "pip3" || riskRuleFor(name) != nil:
		if high {
			return fmt.Sprintf("%s is configured to run a program (a script shell, node options)", name)
		}
		return fmt.Sprintf("%s publishes a package, removes packages or changes where packages come from", name)
	}
	return fmt.Sprintf("%s is rated %s", name, risk)
}

// payloadWhy says why code run from a string (sh -c, eval, trap) is rated
// risk: its own parts are given as reasons of their own.
func payloadWhy(how, risk string, depth int) string {
	if risk == RiskHigh && depth+1 >= maxPayloadDepth {
		return fmt.Sprintf("it runs code from a string (%s) nested in code from a string, too deep to follow: only obfuscation needs that", how)
	}
	if risk == RiskHigh {
		return fmt.Sprintf("it runs code from a string (%s), and that code is high risk", how)
	}
	return fmt.Sprintf("it runs code from a string (%s): what runs is not a command one reads on the line", how)
}

func gitWhy(args []string, risk string) string {
	sub := ""
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			sub = a
			break
		}
	}
	if risk == RiskHigh {
		return "git is told to run a program (-c core.pager=…, core.sshCommand, --upload-pack, --exec-path, an alias with !, …)"
	}
	switch sub {
	case "push":
		return "git push rewrites or deletes the remote's branches (--force, --delete, +ref)"
	case "rebase", "bisect", "submodule":
		return fmt.Sprintf("git %s runs commands from a string", sub)
	}
	return fmt.Sprintf("git %s discards work or history that may not be recoverable", sub)
}

// payloadOf returns the code a call runs from a string (eval's words, a
// shell's -c argument, trap's first word), past its wrappers.
func payloadOf(args []string) (string, bool) {
	if len(args) == 0 {
		return "", false
	}
	u := shellwords.Unwrap(args)
	name, rest := filepath.Base(args[u.Prog]), args[u.Prog+1:]
	switch {
	case name == "eval" && len(rest) > 0:
		return strings.Join(rest, " "), true
	case name == "trap" && len(rest) > 1 && rest[0] != "" && !strings.HasPrefix(rest[0], "-"):
		return rest[0], true
	case isShellName(name):
		for i, a := range rest {
			if a == "--" || !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+") {
				return "", false
			}
			if a[0] == '-' && !strings.HasPrefix(a, "--") && strings.Contains(a[1:], "c") {
				for _, p := range rest[i+1:] {
					if !strings.HasPrefix(p, "-") {
						return p, true
					}
				}
				return "", false
			}
		}
	}
	return "", false
}
