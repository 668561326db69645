package analyze_test

import (
	"reflect"
	"testing"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/analyzetest"
)

// TestWrapperOption: an option mistyped for the wrapper in front of a
// program (xargs, timeout, nice, env) is the wrapper's, corrected from the
// wrapper's manual page; the program's words stay as they are.
func TestWrapperOption(t *testing.T) {
	timeoutMan := manPage("timeout", ".TP\n\\fB\\-k\\fR, \\fB\\-\\-kill\\-after\\fR=\\fI\\,DURATION\\/\\fR\n.TP\n\\fB\\-s\\fR, \\fB\\-\\-signal\\fR=\\fI\\,SIGNAL\\/\\fR\n")
	runCases(t, []ruleCase{
		{name: "timeout, value kept", cmd: "timeout --kill-afer=5 10 make test", env: timeoutMan,
			out: "timeout: unrecognized option '--kill-afer=5'\nTry 'timeout --help' for more information.\n", want: "timeout --kill-after=5 10 make test", typ: "syntax_error"},
		{name: "behind another wrapper", cmd: "nohup timeout --singal KILL 1 make", env: timeoutMan,
			out: "timeout: unrecognized option '--singal'\nTry 'timeout --help' for more information.\n", want: "nohup timeout --signal KILL 1 make"},
		{name: "xargs in a pipeline", cmd: "find . -print0 | xargs --nul rm", env: manPage("xargs", ".B \\-0, \\-\\-null\n.TP\n.B \\-\\-no\\-run\\-if\\-empty\n"),
			out: "xargs: unrecognized option '--nul'\nTry 'xargs --help' for more information.\n", want: "find . -print0 | xargs --null rm"},
		{name: "nice, BusyBox-less wording", cmd: "nice --adjustmnt=5 make", env: manPage("nice", "\\fB\\-n\\fR, \\fB\\-\\-adjustment\\fR=\\fI\\,N\\/\\fR\n"),
			out: "nice: unrecognized option '--adjustmnt=5'\n", want: "nice --adjustment=5 make"},
		{name: "no manual page: nothing offered", cmd: "timeout --singal=KILL 1 true",
			out: "timeout: unrecognized option '--singal=KILL'\n", want: ""},
	})
}

// TestParseCompletionVerbs: systemd's bash completions list their verbs in
// an associative array, a list per kind of operand; an array of options
// beside it adds no subcommand.
func TestParseCompletionVerbs(t *testing.T) {
	text := `_loginctl () {
    local -A OPTS=(
        [STANDALONE]='--all -a --help -h --no-pager'
        [ARG]='--host -H --kill-whom'
    )
    local -A VERBS=(
        [SESSIONS]='session-status show-session activate lock-session'
        [USERS]="user-status show-user enable-linger"
        [STANDALONE]='list-sessions lock-sessions list-users'
    )
    local -a extra=( [0]='notaverb' )
}`
	got := analyze.ParseCompletion(text).Commands
	want := []string{"session-status", "show-session", "activate", "lock-session", "user-status", "show-user", "enable-linger", "list-sessions", "lock-sessions", "list-users"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestVocabSubcommand: a subcommand a typo away from one the tool's
// completion data names, when the tool did not say what it rejected (it
// failed first for another reason, or words it its own way).
func TestVocabSubcommand(t *testing.T) {
	td := vocab("timedatectl", analyze.Vocab{Commands: []string{"status", "show", "set-time", "list-timezones", "set-ntp"}})
	lc := vocab("loginctl", analyze.Vocab{Commands: []string{"list-sessions", "list-users", "show-session", "lock-sessions"}})
	ufw := vocab("ufw", analyze.Vocab{Commands: []string{"enable", "disable", "reload", "status", "allow", "deny", "logging"}})
	runCases(t, []ruleCase{
		{name: "no system bus, the verb mistyped", cmd: "timedatectl stauts", env: td,
			out: "System has not been booted with systemd as init system (PID 1). Can't operate.\nFailed to connect to bus: Host is down\n", want: "timedatectl status", typ: "configuration_error"},
		{name: "older systemd's wording, options before the verb", cmd: "loginctl --no-pager lsit-users", env: lc,
			out: "Failed to connect to bus: No such file or directory\n", want: "loginctl --no-pager list-users"},
		{name: "no system bus, the verb right: explained only", cmd: "timedatectl status", env: td,
			out: "System has not been booted with systemd as init system (PID 1). Can't operate.\n", want: "", typ: "configuration_error"},
		{name: "a tool's own wording", cmd: "ufw stauts", env: ufw, exit: 1,
			out: "ERROR: Invalid syntax\n\nUsage: ufw COMMAND\n", want: "ufw status"},
		{name: "a word of the manual page (an alias) is left alone", cmd: "ufw stauts", exit: 1,
			env: both(ufw, manPage("ufw", ".TP\n\\fBstauts\\fR\nShow status.\n")), out: "ERROR: Invalid syntax\n", want: ""},
		{name: "a file of that name is an operand", cmd: "ufw stauts", exit: 1, env: both(ufw, files("/w/stauts")),
			out: "ERROR: Invalid syntax\n", want: ""},
		{name: "two subcommands as near: nothing", cmd: "ufw deby", exit: 1,
			env: vocab("ufw", analyze.Vocab{Commands: []string{"deny", "debt", "status"}}), out: "ERROR: Invalid syntax\n", want: ""},
		{name: "no completion data: nothing", cmd: "ufw stauts", exit: 1, out: "ERROR: Invalid syntax\n", want: ""},
	})
}

// TestVocabSubcommandKnownTools: a tool whose subcommands hookd knows, or
// whose word has a manual page of its own (git-branch(1)), is not
// corrected from a completion file that lists some of its subcommands only.
func TestVocabSubcommandKnownTools(t *testing.T) {
	partial := vocab("git", analyze.Vocab{Commands: []string{"branches", "bisect", "blame", "remote"}})
	runCases(t, []ruleCase{
		{name: "git branch is git's", cmd: "git branch -d main", env: both(partial, repo(analyze.GitInfo{Branch: "main", Branches: []string{"main"}})),
			out: "error: Cannot delete branch 'main' checked out at '/w'\n", want: ""},
		{name: "a subcommand's own manual page", cmd: "ufw stauts", exit: 1,
			env: both(vocab("ufw", analyze.Vocab{Commands: []string{"enable", "disable", "status"}}), manPageAt("/usr/share/man/man1/ufw-stauts.1.gz", ".TH UFW-STAUTS 1\n")),
			out: "ERROR: Invalid syntax\n", want: ""},
	})
}

// TestPullWithoutRemote: git pull in a repository with no remote at all
// has nothing to track: explained, no origin/main made up.
func TestPullWithoutRemote(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "no remote", cmd: "git pull", env: repo(analyze.GitInfo{Branch: "trunk", Branches: []string{"trunk"}}),
			out: "There is no tracking information for the current branch.\nPlease specify which branch you want to merge with.\n", want: "", cause: "no remote"},
		{name: "a remote: tracked", cmd: "git pull", env: repo(analyze.GitInfo{Branch: "trunk", Branches: []string{"trunk"}, Remotes: []string{"upstream"}}),
			out: "There is no tracking information for the current branch.\n", want: "git branch --set-upstream-to=upstream/trunk trunk && git pull"},
	})
}

// TestPathOperandForms: a mistyped path operand echoed back in the form
// the tool prints it (make's "*** " mark, without "./", a Go package
// pattern without its "/...") is corrected to the path nearby.
func TestPathOperandForms(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "make -C, make's mark", cmd: "make -C buidl install", env: files("/w/build/Makefile"), exit: 2,
			out: "make: *** buidl: No such file or directory.  Stop.\n", want: "make -C build install", typ: "file_not_found"},
		{name: "make -f", cmd: "make -f Makefiel", env: files("/w/Makefile"), exit: 2,
			out: "make: Makefiel: No such file or directory\nmake: *** No rule to make target 'Makefiel'.  Stop.\n", want: "make -f Makefile"},
		{name: "go vet, an absolute path echoed", cmd: "go vet ./hanlder.go", env: files("/w/handler.go"),
			out: "stat /w/hanlder.go: directory not found\n", want: "go vet ./handler.go"},
		{name: "go build, a package pattern", cmd: "go build ./cmdd/...", env: files("/w/cmd/app/main.go"),
			out: "pattern ./cmdd/...: lstat ./cmdd/: no such file or directory\n", want: "go build ./cmd/..."},
		{name: "a glob only the output shows is no glob of the command", cmd: "make -C nothere", exit: 2,
			out: "make: *** nothere: No such file or directory.  Stop.\n", want: "", cause: "nothere"},
	})
}

// TestKillByName: kill given a process's name, in each shell's and
// kill(1)'s wording, is pkill with the same signal.
func TestKillByName(t *testing.T) {
	pk := exes("pkill")
	runCases(t, []ruleCase{
		{name: "bash", cmd: "kill -TERM gunicorn", env: pk, out: "bash: kill: gunicorn: arguments must be process or job IDs\n", want: "pkill -TERM gunicorn", typ: "syntax_error"},
		{name: "zsh", cmd: "kill -9 Xvfb", env: pk, shell: "zsh", out: "kill: illegal pid: Xvfb\n", want: "pkill -9 Xvfb"},
		{name: "dash", cmd: "kill -s HUP nginx", env: pk, out: "sh: 1: kill: Illegal number: nginx\n", want: "pkill -s HUP nginx"},
		{name: "util-linux kill(1), through sudo", cmd: "sudo kill redis-server", env: pk, out: "kill: cannot find process \"redis-server\".\n", want: "sudo pkill redis-server"},
		{name: "procps kill(1)", cmd: "/bin/kill -HUP sshd", env: pk, out: "kill: failed to parse argument: 'sshd'\n", want: "pkill -HUP sshd"},
		{name: "a pid that is gone: no pkill", cmd: "kill 4242", env: pk, out: "bash: kill: (4242) - No such process\n", want: ""},
	})
}

// TestFindPathAfterExpression: findutils 4.9 says both that the paths
// must come first and that a pattern may be unquoted; a directory named
// is a path to move first, a file (an expanded pattern) is not.
func TestFindPathAfterExpression(t *testing.T) {
	out := "find: paths must precede expression: `lib'\nfind: possible unquoted pattern after predicate `-name'?\n"
	runCases(t, []ruleCase{
		{name: "a directory", cmd: "find -type f -name '*.go' lib", env: files("/w/lib/a.go"), out: out, want: "find lib -type f -name '*.go'"},
		{name: "a file: left to the quoting rule", cmd: "find -type f -name '*.go' lib", env: files("/w/lib"), out: out, want: ""},
	})
}

// TestModuleTypo: a module name mistyped in the command line itself is
// corrected to the one a typo away among the modules the system knows
// (Debian's python3-*/node-* packages, the standard library, the project's
// node_modules), never installed under the typo.
func TestModuleTypo(t *testing.T) {
	apt := func(f *analyzetest.Facts) {
		f.AptNames = []string{"python3-numpy", "python3-numpydoc", "python3-requests", "python3-requests-oauthlib", "node-express", "node-chalk"}
	}
	stdlib := files("/usr/lib/python3.11/collections/__init__.py", "/usr/lib/python3.11/json/__init__.py", "/usr/lib/python3.11/argparse.py")
	runCases(t, []ruleCase{
		{name: "import, Debian's package", cmd: "python3 -c 'import numpyy as np; print(np.pi)'", env: apt,
			out: "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nModuleNotFoundError: No module named 'numpyy'\n", want: "python3 -c 'import numpy as np; print(np.pi)'", typ: "missing_dependency"},
		{name: "python -m, the standard library", cmd: "python3 -m argprase --help", env: both(apt, stdlib),
			out: "/usr/bin/python3: No module named argprase\n", want: "python3 -m argparse --help"},
		{name: "from … import, Python 2's wording", cmd: "python -c 'from colections import OrderedDict'", env: both(apt, stdlib),
			out: "ImportError: No module named colections\n", want: "python -c 'from collections import OrderedDict'"},
		{name: "node, the project's node_modules", cmd: "node -e \"require('expresss')\"", env: both(apt, files("/w/node_modules/express/index.js")),
			out: "Error: Cannot find module 'expresss'\nRequire stack:\n- /w/[eval]\n", want: "node -e \"require('express')\""},
		{name: "in a script, not the command line: no rewrite", cmd: "python3 app.py", env: apt,
			out: "ModuleNotFoundError: No module named 'requets'\n", want: "pip install requets"},
		{name: "a Debian name with a hyphen is the module's with an underscore", cmd: "python3 -c 'import requests_oauthlb'", env: apt,
			out: "ModuleNotFoundError: No module named 'requests_oauthlb'\n", want: "python3 -c 'import requests_oauthlib'"},
		{name: "two edits away: maybe another package, installed as named", cmd: "python3 -c 'import numpie'", env: apt,
			out: "ModuleNotFoundError: No module named 'numpie'\n", want: "pip install numpie"},
		{name: "a dotted name is left alone", cmd: "python3 -m http.sever", env: both(apt, stdlib),
			out: "/usr/bin/python3: No module named http.sever\n", want: "pip install http"},
	})
}

// TestSSHOption: a mistyped ssh_config keyword given with -o, corrected
// from ssh_config(5) (mdoc's .It Cm), for ssh, scp and sftp alike.
func TestSSHOption(t *testing.T) {
	man := manPageAt("/usr/share/man/man5/ssh_config.5.gz", ".It Cm ServerAliveInterval\nSets a timeout.\n.It Cm StrictHostKeyChecking\nIf this flag\n.It Cm UserKnownHostsFile\n")
	runCases(t, []ruleCase{
		{name: "ssh -o NAME=VALUE", cmd: "ssh -o ServerAliveIntervall=30 host", env: man, exit: 255,
			out: "command-line: line 0: Bad configuration option: serveraliveintervall\n", want: "ssh -o ServerAliveInterval=30 host", typ: "syntax_error"},
		{name: "scp -oNAME=VALUE", cmd: "scp -oUserKnownHostFile=/dev/null a.txt host:", env: man, exit: 255,
			out: "command-line line 0: Bad configuration option: userknownhostfile\n", want: "scp -oUserKnownHostsFile=/dev/null a.txt host:"},
		{name: "no manual page: nothing", cmd: "ssh -o ServerAliveIntervall=30 host", exit: 255,
			out: "command-line: line 0: Bad configuration option: serveraliveintervall\n", want: ""},
	})
}

// TestMdocOptions: a manual page written in mdoc (node(1)) names its
// options with the Fl macro; they count as the options they print.
func TestMdocOptions(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "node", cmd: "node --inpsect app.js", env: manPage("node", ".It Fl v , Fl -version\nPrint node's version.\n.It Fl -inspect Ns = Ns Ar [host:]port\n.Pp\nAs with \\-\\-help, see the docs.\n"), exit: 9,
			out: "node: bad option: --inpsect\n", want: "node --inspect app.js"},
	})
}

// TestGitUsageIsNoConflict: git's usage text after a mistyped option
// mentions unmerged entries; that is no merge conflict, and the option is
// corrected from the usage.
func TestGitUsageIsNoConflict(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "git checkout", cmd: "git checkout --ourss a.txt", env: repo(analyze.GitInfo{Branch: "main", Branches: []string{"main"}}), exit: 129,
			out:  "error: unknown option `ourss'\nusage: git checkout [<options>] <branch>\n\n    -q, --quiet           suppress progress reporting\n    -2, --ours            checkout our version for unmerged files\n    -3, --theirs          checkout their version for unmerged files\n    --ignore-unmerged     ignore unmerged entries\n",
			want: "git checkout --ours a.txt", typ: "syntax_error"},
	})
}

// TestSyscallName: a mistyped system call is corrected from the names of
// the manual's section 2, in a list of several or alone.
func TestSyscallName(t *testing.T) {
	man2 := files("/usr/share/man/man2/openat.2.gz", "/usr/share/man/man2/open.2.gz", "/usr/share/man/man2/close.2.gz", "/usr/share/man/man2/execve.2.gz")
	runCases(t, []ruleCase{
		{name: "in a list", cmd: "strace -f -e trace=openat,clsoe make", env: man2,
			out: "strace: invalid system call 'clsoe'\n", want: "strace -f -e trace=openat,close make", typ: "syntax_error"},
		{name: "alone, -e NAME", cmd: "strace -e exceve make", env: man2, out: "strace: invalid system call 'exceve'\n", want: "strace -e execve make"},
		{name: "no manual: nothing", cmd: "strace -e exceve make", out: "strace: invalid system call 'exceve'\n", want: ""},
	})
}

// TestUsageSubcommand: the usage a tool printed, one form a line, names
// its subcommands; a typo of one is corrected (git's, iproute2's wording).
func TestUsageSubcommand(t *testing.T) {
	stash := "usage: git stash list [<log-options>]\n   or: git stash show [-u | --include-untracked | --only-untracked] [<diff-options>] [<stash>]\n   or: git stash drop [-q | --quiet] [<stash>]\n   or: git stash pop [--index] [-q | --quiet] [<stash>]\n   or: git stash apply [--index] [-q | --quiet] [<stash>]\n"
	runCases(t, []ruleCase{
		{name: "git stash", cmd: "git stash aplly --index", env: repo(analyze.GitInfo{Branch: "main", Branches: []string{"main"}}), exit: 129,
			out: stash, want: "git stash apply --index", typ: "syntax_error"},
		{name: "git remote, options before", cmd: "git remote -v shwo origin", env: repo(analyze.GitInfo{Branch: "main", Branches: []string{"main"}}), exit: 129,
			out:  "usage: git remote [-v | --verbose]\n   or: git remote add [-t <branch>] [-m <master>] [-f] [--tags | --no-tags] [--mirror=<fetch|push>] <name> <url>\n   or: git remote rename [--[no-]progress] <old> <new>\n   or: git remote remove <name>\n   or: git remote [-v | --verbose] show [-n] <name>\n   or: git remote prune [-n | --dry-run] <name>\n",
			want: "git remote -v show origin"},
		{name: "a word that is one of them: nothing", cmd: "git stash drop stash@{9}", env: repo(analyze.GitInfo{Branch: "main"}), out: stash, want: ""},
		{name: "nothing near: nothing", cmd: "git stash zzzzz", env: repo(analyze.GitInfo{Branch: "main"}), out: stash, want: ""},
	})
}

// TestTopUsageSubcommand: a tool that printed its top-level usage (cobra's
// "Usage:  docker [OPTIONS] COMMAND") after complaining about a flag never
// took the word for a subcommand; of two as near, the less risky first.
func TestTopUsageSubcommand(t *testing.T) {
	usage := "\n\nUsage:  docker [OPTIONS] COMMAND [ARG...]\n\nRun 'docker --help' for more information\n"
	runCases(t, []ruleCase{
		{name: "docker biuld", cmd: "docker biuld -t app .", exit: 125, out: "unknown shorthand flag: 't' in -t" + usage, want: "docker build -t app ."},
		{name: "docker rn: run before rm", cmd: "docker rn -d nginx", exit: 125, out: "unknown shorthand flag: 'd' in -d" + usage, want: "docker run -d nginx", also: "docker rm -d nginx"},
		{name: "a subcommand's own usage says nothing of the word", cmd: "docker rn --rmm", exit: 125,
			out: "unknown flag: --rmm\n\nUsage:  docker rn [OPTIONS]\n", want: ""},
	})
}

// TestFarProposals: a tool that proposes several commands, none a typo of
// (nor a longer form of) the word typed, matched on something else: the
// proposals are named, none is run.
func TestFarProposals(t *testing.T) {
	hg := exes("hg")
	runCases(t, []ruleCase{
		{name: "hg, none near", cmd: "hg upd8", env: hg, exit: 255, out: "hg: unknown command 'upd8'\n(did you mean one of diff, grep?)\n", want: "", cause: "diff, grep"},
		{name: "hg, one near", cmd: "hg comit -m x", env: hg, exit: 255, out: "hg: unknown command 'comit'\n(did you mean one of commit, incoming?)\n", want: "hg commit -m x"},
		{name: "git, a longer form", cmd: "git stat", env: repo(analyze.GitInfo{Branch: "main"}), exit: 1,
			out: "git: 'stat' is not a git command. See 'git --help'.\n\nThe most similar commands are\n\tstatus\n\tstage\n\tstash\n", want: "git status"},
	})
}
