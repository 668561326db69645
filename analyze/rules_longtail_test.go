package analyze_test

import (
	"bytes"
	"compress/gzip"
	"testing"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/analyzetest"
)

// manPageAt adds a gzipped manual page at a path of its own (section 8,
// OpenSSL's 1ssl).
func manPageAt(path, groff string) func(*analyzetest.Facts) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(groff))
	zw.Close()
	return func(f *analyzetest.Facts) { f.Files[path] = b.String() }
}

// TestLongTail: failures of tools no rule names, recorded on this machine
// (bench/corpus/longtail.jsonl, the fit part), corrected from each tool's
// manual page, from the file names nearby, or from what the command line is.
func TestLongTail(t *testing.T) {
	tmuxMan := manPage("tmux", ".It Xo Ic kill-session\n.Op Fl a\n.Xc\n.It Xo Ic list-sessions\n.Op Fl F Ar format\n.Xc\n.It Ic list-clients\n")
	runCases(t, []ruleCase{
		// Subcommands from the manual page, each tool's wording.
		{name: "tmux, mdoc", cmd: "tmux lsit-sessions", env: tmuxMan,
			out: "unknown command: lsit-sessions\n", want: "tmux list-sessions", typ: "syntax_error"},
		{name: "openssl, pod2man", cmd: "openssl genrsaa -out k.pem 2048",
			env: manPageAt("/usr/share/man/man1/openssl.1ssl.gz", ".IP \"\\fBgendsa\\fR\" 4\n.IX Item \"gendsa\"\n.IP \"\\fBgenrsa\\fR\" 4\n.IX Item \"genrsa\"\n"),
			out: "Invalid command 'genrsaa'; type \"help\" for a list.\n", want: "openssl genrsa -out k.pem 2048"},
		{name: "apt-cache, docbook", cmd: "apt-cache serach ripgrep",
			env: manPageAt("/usr/share/man/man8/apt-cache.8.gz", "\\fBsearch\\fR \\fB\\fIregex\\fR\\fR\\fB\\&...\\fR\n.RS 4\n\\fBshow\\fR \\fB\\fIpkg\\fR\\fR\n"),
			out: "E: Invalid operation serach\n", want: "apt-cache search ripgrep"},
		// mdoc's aliases (tmux(1): attach-session, alias attach) and a
		// listing's dotted commands (Debian's sqlite3(1) writes them %tables).
		// clap's wording in rustup; its subcommands from its fish completion.
		{name: "rustup, fish's completion", cmd: "rustup updte",
			env:  vocab("rustup", analyze.Vocab{Commands: []string{"show", "update", "default", "toolchain", "target"}}),
			out:  "error: invalid value 'updte' for '[+toolchain]': error: \"updte\" is not a valid subcommand, so it was interpreted as a toolchain name, but it is also invalid. To override the toolchain using the 'rustup +toolchain' syntax, make sure to prefix the toolchain override with a '+'\n\nFor more information, try '--help'.\n",
			want: "rustup update"},
		// gcc's wording (its quotes) and its proposals; one matching the
		// start of an option that takes a joined value (-Wa,) is passed
		// over for the options its completion files name.
		{name: "gcc, its proposal, the value kept", cmd: "gcc -fsanitise=address -o app app.c",
			out: "gcc: error: unrecognized command-line option ‘-fsanitise=address’; did you mean ‘-fsanitize=address’?\n", want: "gcc -fsanitize=address -o app app.c"},
		{name: "gcc, a joined-value proposal passed over", cmd: "gcc -Wal -o app app.c",
			env: vocab("gcc", analyze.Vocab{Options: []string{"-Wall", "-Wextra", "-Wa,"}}),
			out: "gcc: error: unrecognized command-line option ‘-Wal’; did you mean ‘-Wa,’?\n", want: "gcc -Wall -o app app.c"},
		{name: "tmux, an alias", cmd: "tmux attahc -t work",
			env: manPage("tmux", ".It Xo Ic attach-session\n.Op Fl dErx\n.Op Fl t Ar target-session\n.Xc\n.D1 Pq alias: Ic attach\nIf run from outside\n"),
			out: "unknown command: attahc\n", want: "tmux attach -t work"},
		{name: "sqlite3, a listing's meta-commands", cmd: "sqlite3 app.db .schmea",
			env: manPage("sqlite3", ".SS SQLITE META-COMMANDS\n.nf\n%schema ?PATTERN?      Show the CREATE statements matching PATTERN\n%tables ?TABLE?        List names of tables\n.fi\n"),
			out: "Error: unknown command or invalid arguments:  \"schmea\". Enter \".help\" for help\n", want: "sqlite3 app.db .schema"},
		{name: "sqlite3, a filled paragraph's percent is text", cmd: "sqlite3 app.db .schmea",
			env: manPage("sqlite3", ".SH DESCRIPTION\n%schema is not a listing here\n"),
			out: "Error: unknown command or invalid arguments:  \"schmea\". Enter \".help\" for help\n", want: ""},
		{name: "no manual page: nothing offered", cmd: "tmux lsit-sessions", out: "unknown command: lsit-sessions\n", want: ""},
		{name: "no word of the manual near", cmd: "tmux zzzzzz", env: tmuxMan, out: "unknown command: zzzzzz\n", want: ""},
		// Options, in wordings rules_options.go did not know.
		{name: "jq", cmd: "jq --slrup . data.json", env: manPage("jq", ".IP \"\\(bu\" 4\n\\fB\\-\\-slurp\\fR/\\fB\\-s\\fR:\n"),
			out: "jq: Unknown option --slrup\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://jqlang.github.io/jq\n", want: "jq --slurp . data.json"},
		{name: "bzip2", cmd: "bzip2 --decomprss notes.txt.bz2", env: manPage("bzip2", ".TP\n.B \\-d \\-\\-decompress\nForce decompression.\n"),
			out: "bzip2: Bad flag `--decomprss'\nbzip2, a block-sorting file compressor.  Version 1.0.8, 13-Jul-2019.\n", want: "bzip2 --decompress notes.txt.bz2"},
		{name: "gpg", cmd: "gpg --verfiy notes.txt.sig", env: manPage("gpg", ".B \\-\\-verify\nAssume that the first argument is a signed file\n"),
			out: "gpg: invalid option \"--verfiy\"\n", want: "gpg --verify notes.txt.sig"},
		{name: "rsync, the value kept", cmd: "rsync -a --exlude=src ./ ../bk/", env: manPage("rsync", "0.  \\fB\\-\\-exclude\\fP=PATTERN\n"),
			out: "rsync: --exlude=src: unknown option\nrsync error: syntax or usage error (code 1) at main.c(1795) [client=3.2.7]\n", want: "rsync -a --exclude=src ./ ../bk/"},
		{name: "clap 2, ripgrep", cmd: "rg --hiden alpha", exit: 2,
			out: "error: Found argument '--hiden' which wasn't expected, or isn't valid in this context\n\tDid you mean --hidden?\n\nUSAGE:\n    \n    rg [OPTIONS] PATTERN [PATH ...]\n", want: "rg --hidden alpha"},
		{name: "clap 2, fd", cmd: "fdfind --tpye f notes", exit: 2,
			out: "error: Found argument '--tpye' which wasn't expected, or isn't valid in this context\n\n  Did you mean '--type'?\n\nUsage: fdfind --type <filetype> [pattern] [path]...\n", want: "fdfind --type f notes"},
		// A file named in the output that is a typo away from one here.
		{name: "perl's wording", cmd: "perl scirpt.pl", env: files("/w/script.pl"),
			out: "Can't open perl script \"scirpt.pl\": No such file or directory\n", want: "perl script.pl", typ: "file_not_found"},
		{name: "zsh's wording", cmd: "zsh scipt.sh", env: files("/w/script.sh"),
			out: "zsh: can't open input file: scipt.sh\n", want: "zsh script.sh"},
		{name: "input redirection", cmd: "sort < nots.txt", env: files("/w/notes.txt"),
			out: "bash: line 1: nots.txt: No such file or directory\n", want: "sort < notes.txt"},
		{name: "nothing near: nothing offered", cmd: "perl scirpt.pl", env: files("/w/other.txt"),
			out: "Can't open perl script \"scirpt.pl\": No such file or directory\n", want: ""},
		// A URL pasted without its command.
		{name: "git URL", cmd: "https://github.com/hookd-example/app.git",
			out: "bash: line 1: https://github.com/hookd-example/app.git: No such file or directory\n", want: "git clone https://github.com/hookd-example/app.git"},
		{name: "scp-like git URL", cmd: "git@github.com:hookd-example/app.git",
			out: "bash: line 1: git@github.com:hookd-example/app.git: No such file or directory\n", want: "git clone git@github.com:hookd-example/app.git"},
		{name: "a file's URL", cmd: "https://example.com/install.sh",
			out: "bash: line 1: https://example.com/install.sh: No such file or directory\n", want: "curl -fsSLO https://example.com/install.sh"},
		{name: "a URL with words after it is not pasted alone", cmd: "https://example.com/x.git foo",
			out: "bash: line 1: https://example.com/x.git: No such file or directory\n", want: ""},
		// Another system's package manager; yarn where only npm is.
		{name: "yum on Debian", cmd: "yum install jq", out: "bash: line 1: yum: command not found\n", want: "apt install jq", typ: "command_not_found"},
		{name: "pacman on Debian", cmd: "pacman -S jq", out: "bash: line 1: pacman: command not found\n", want: "apt install jq"},
		{name: "choco on Debian", cmd: "choco install jq", out: "bash: line 1: choco: command not found\n", want: "apt install jq"},
		// Hostile package names stay one word each (installCommand quotes).
		{name: "yum, hostile names", cmd: `yum install '$(id)' 'a;b' "$(printf 'x\ny')"`, out: "bash: line 1: yum: command not found\n",
			// a substitution the analysis cannot resolve goes in as its text,
			// never run
			want: `apt install '$(id)' 'a;b' '"$(printf '\''x\ny'\'')"'`},
		{name: "yarn where npm is", cmd: "yarn install", out: "bash: line 1: yarn: command not found\n", want: "npm install -g yarn", also: "npm install"},
		// /proc and /sys: no mkdir -p, no sudo.
		{name: "mkdir in /sys", cmd: "mkdir /sys/hookd-x", out: "mkdir: cannot create directory '/sys/hookd-x': Read-only file system\n", want: "", typ: "file_not_found"},
		{name: "mkdir in /proc", cmd: "mkdir /proc/x", out: "mkdir: cannot create directory '/proc/x': No such file or directory\n", want: "", typ: "file_not_found"},
	})
}

// TestLongTailMore: more of the long tail's failures (issue 37), each from
// the tool's own words, with the facts the fix rests on and without them.
func TestLongTailMore(t *testing.T) {
	manPages := files("/usr/share/man/man1/tmux.1.gz", "/usr/share/man/man8/iptables.8.gz", "/usr/share/man/man3/printf.3.gz")
	runCases(t, []ruleCase{
		// man: the nearest program whose page is installed.
		{name: "man, a program's page", cmd: "man tmx", exit: 16, env: both(manPages, exes("tmux", "tmx2")),
			out: "No manual entry for tmx\n", want: "man tmux", typ: "file_not_found"},
		{name: "man, section 8", cmd: "man iptable", exit: 16, env: both(manPages, exes("iptables")),
			out: "No manual entry for iptable\n", want: "man iptables"},
		{name: "man, the section asked", cmd: "man 3 prinf", exit: 16, env: both(manPages, exes("printf")),
			out: "No manual entry for prinf in section 3\n", want: "man 3 printf"},
		{name: "man, a hostile program name", cmd: "man tmx", exit: 16,
			env: both(files("/usr/share/man/man1/t;mx.1.gz"), exes("t;mx", "-tmx")),
			out: "No manual entry for tmx\n", want: "man 't;mx'"},
		{name: "man, a program without a page", cmd: "man tmx", exit: 16, env: exes("tmux"),
			out: "No manual entry for tmx\n", want: "", cause: "no manual page is installed for tmx"},
		// patch: the -p that finds the patch's files here.
		{name: "patch, -p1 on a plain diff", cmd: "patch -p1 < fix.patch", exit: 1, env: files("/w/old.txt"),
			out:  "can't find file to patch at input line 3\nPerhaps you used the wrong -p or --strip option?\nThe text leading up to this was:\n--------------------------\n|--- old.txt\t2026-11-28 15:09:14 +0000\n|+++ new.txt\t2026-11-28 15:09:14 +0000\n--------------------------\n",
			want: "patch -p0 < fix.patch"},
		{name: "patch, git's a/ and b/", cmd: "patch < fix.patch", exit: 1, env: files("/w/src/main.c"),
			out:  "can't find file to patch at input line 5\nPerhaps you used the wrong -p or --strip option?\n|diff --git a/src/main.c b/src/main.c\n|--- a/src/main.c\n|+++ b/src/main.c\n",
			want: "patch -p1 < fix.patch"},
		{name: "patch, no level finds the file", cmd: "patch -p1 < fix.patch", exit: 1,
			out:  "can't find file to patch at input line 3\nPerhaps you used the wrong -p or --strip option?\n|--- a/gone.c\n|+++ b/gone.c\n",
			want: ""},
		// rm -d, gzip on a directory.
		{name: "rm -d, not empty", cmd: "rm -d src", exit: 1,
			out: "rm: cannot remove 'src': Directory not empty\n", want: "rm -r src"},
		{name: "rm --dir -v, not empty", cmd: "rm -v --dir src", exit: 1,
			out: "rm: cannot remove 'src': Directory not empty\n", want: "rm -v -r src"},
		{name: "gzip, a directory", cmd: "gzip src", exit: 2,
			out: "gzip: src is a directory -- ignored\n", want: "tar -czf src.tar.gz src", also: "gzip -r src"},
		// zip names a file it did not find: the nearest here.
		{name: "zip, a name not matched", cmd: "zip -r out.zip scr", exit: 12, env: files("/w/src/", "/w/src/a.c"),
			out:  "\tzip warning: name not matched: scr\n\nzip error: Nothing to do! (try: zip -r out.zip . -i scr)\n",
			want: "zip -r out.zip src"},
		// perl: Debian's package of the module where apt has it, CPAN else.
		{name: "perl module, from Debian", cmd: "perl -MText::CSV -e 1", exit: 2,
			env:  both(exes("cpan"), func(f *analyzetest.Facts) { f.AptNames = []string{"libtext-csv-perl", "libtext-csv-xs-perl"} }),
			out:  "Can't locate Text/CSV.pm in @INC (you may need to install the Text::CSV module) (@INC contains: /etc/perl) at -e line 0.\n",
			want: "apt install libtext-csv-perl", also: "cpan Text::CSV", typ: "missing_dependency"},
		{name: "perl module, CPAN", cmd: "perl script.pl", exit: 2, env: exes("cpan"),
			out:  "Can't locate JSON/XS.pm in @INC (you may need to install the JSON::XS module) (@INC contains: /etc/perl) at script.pl line 3.\n",
			want: "cpan JSON::XS"},
		{name: "perl module, a hostile name", cmd: "perl x.pl", exit: 2,
			out:  "Can't locate X.pm in @INC (you may need to install the X;rm:: module)\n",
			want: ""},
		// grep with two matchers keeps one.
		{name: "grep, two matchers", cmd: "grep -P -E alpha notes.txt", exit: 2,
			out: "grep: conflicting matchers specified\n", want: "grep -P alpha notes.txt", also: "grep -E alpha notes.txt"},
	})
}
