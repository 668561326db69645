package analyze_test

import (
	"testing"

	"github.com/hookd/hookd/analyze"
)

func TestRulesFiles(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "mkdir-p", cmd: "mkdir a/b/c", out: "mkdir: cannot create directory ‘a/b/c’: No such file or directory\n", want: "mkdir -p a/b/c"},
		{name: "mkdir-p-merged", cmd: "mkdir -v a/b", out: "mkdir: cannot create directory 'a/b': No such file or directory\n", want: "mkdir -pv a/b"},
		{name: "mkdir-p-no-output", cmd: "mkdir a/b/c", out: "", env: files("/w/x.txt"), want: "mkdir -p a/b/c"},
		{name: "mkdir-no-output-parent-there", cmd: "mkdir a/b/c", out: "", env: files("/w/a/b/"), want: ""},
		{name: "mkdir-no-output-already-p", cmd: "mkdir -p a/b/c", out: "", env: files("/w/x.txt"), want: ""},
		{name: "mkdir-exists", cmd: "mkdir build", out: "mkdir: cannot create directory ‘build’: File exists\n", env: files("/w/build/"), want: "", cause: "already exists"},
		{name: "mv-missing-dir", cmd: "mv notes.txt archive/notes.txt", out: "mv: cannot move 'notes.txt' to 'archive/notes.txt': No such file or directory\n", env: files("/w/notes.txt"), want: "mkdir -p archive && mv notes.txt archive/notes.txt"},
		{name: "mv-missing-source", cmd: "mv ntoes.txt archive/", out: "mv: cannot stat 'ntoes.txt': No such file or directory\n", env: files("/w/notes.txt", "/w/archive/"), want: "mv notes.txt archive/"},
		{name: "cp-missing-dir", cmd: "cp notes.txt backup/notes.txt", out: "cp: cannot create regular file 'backup/notes.txt': No such file or directory\n", env: files("/w/notes.txt"), want: "mkdir -p backup && cp notes.txt backup/notes.txt"},
		{name: "touch-missing-dir", cmd: "touch logs/app.log", out: "touch: cannot touch 'logs/app.log': No such file or directory\n", want: "mkdir -p logs && touch logs/app.log"},
		{name: "redirect-missing-dir", cmd: "echo hi > out/log.txt", out: "bash: out/log.txt: No such file or directory\n", want: "mkdir -p out && echo hi > out/log.txt"},
		{name: "near-name", cmd: "wc -l notes.tx", out: "wc: notes.tx: No such file or directory\n", env: files("/w/notes.txt", "/w/other.md"), want: "wc -l notes.txt", typ: analyze.FileNotFound},
		{name: "near-name-absolute-in-output", cmd: "python3 mian.py", exit: 2, out: "python3: can't open file '/w/mian.py': [Errno 2] No such file or directory\n", env: files("/w/main.py"), want: "python3 main.py"},
		{name: "near-dir", cmd: "du -sh node_modles", out: "du: cannot access 'node_modles': No such file or directory\n", env: files("/w/node_modules/x/index.js"), want: "du -sh node_modules"},
		{name: "near-path-components", cmd: "source venv/bin/activate", out: "bash: venv/bin/activate: No such file or directory\n", env: files("/w/.venv/bin/activate"), want: "source .venv/bin/activate"},
		{name: "near-name-none", cmd: "cat zzz.txt", out: "cat: zzz.txt: No such file or directory\n", env: files("/w/notes.txt"), want: "", typ: analyze.FileNotFound},
		{name: "cd-typo", cmd: "cd scr", out: "bash: cd: scr: No such file or directory\n", env: files("/w/src/"), want: "cd src"},
		{name: "cd-typo-zsh", cmd: "cd scr", out: "cd: no such file or directory: scr\n", shell: "zsh", env: files("/w/src/"), want: "cd src"},
		{name: "cd-file", cmd: "cd src/main.go", out: "bash: cd: src/main.go: Not a directory\n", env: files("/w/src/main.go"), want: "cd src"},
		{name: "cd-spaces", cmd: "cd My Docs", out: "bash: cd: too many arguments\n", env: files("/w/My Docs/"), want: "cd 'My Docs'"},
		{name: "cp-dir", cmd: "cp src backup", out: "cp: -r not specified; omitting directory 'src'\n", env: files("/w/src/a"), want: "cp -r src backup"},
		{name: "rm-dir", cmd: "rm build", out: "rm: cannot remove 'build': Is a directory\n", env: files("/w/build/a"), want: "rm -r build"},
		{name: "rmdir-not-empty", cmd: "rmdir build", out: "rmdir: failed to remove 'build': Directory not empty\n", want: "rm -r build"},
		{name: "grep-dir", cmd: "grep -n TODO src", exit: 2, out: "grep: src: Is a directory\n", want: "grep -rn TODO src"},
		{name: "ln-exists", cmd: "ln -s a.conf current.conf", out: "ln: failed to create symbolic link 'current.conf': File exists\n", want: "ln -sf a.conf current.conf"},
		{name: "ln-dir", cmd: "ln src src-link", out: "ln: src: hard link not allowed for directory\n", want: "ln -s src src-link"},
		{name: "find-glob", cmd: "find . -name *.txt", out: "find: paths must precede expression: `b.txt'\nfind: possible unquoted pattern after predicate `-name'?\n", want: "find . -name '*.txt'"},
		{name: "find-exec", cmd: "find . -name '*.tmp' -exec rm {}", out: "find: missing argument to `-exec'\n", want: `find . -name '*.tmp' -exec rm {} \;`},
		{name: "find-predicate", cmd: "find . -nmae x", out: "find: unknown predicate `-nmae'\n", want: "find . -name x"},
		{name: "disk-full", cmd: "cp big /mnt/", out: "cp: error writing '/mnt/big': No space left on device\n", want: "", cause: "disk is full"},
		{name: "negative-exists", cmd: "cat notes.txt", out: "cat: notes.txt: Permission denied\n", env: both(files("/w/notes.txt"), user), want: "sudo cat notes.txt", typ: analyze.PermissionDenied},
	})
}

// TestCdAfterCd: a later cd of the line is analysed in the directory the
// earlier one left (issue 32: cd ~; cd srcc typed in ~/src/app).
func TestCdAfterCd(t *testing.T) {
	for _, tc := range []struct{ cmd, out, want string }{
		{"cd ~; cd srcc", "bash: cd: srcc: No such file or directory\n", "cd src"},
		{"cd && cd srcc", "bash: cd: srcc: No such file or directory\n", "cd src"},
		{"cd /home/u/src; cd ap", "bash: cd: ap: No such file or directory\n", "cd app"},
		{"cd ~/src && cd ../srcc", "bash: cd: ../srcc: No such file or directory\n", "cd ../src"},
		// Where the first cd went is unknown: no guess in the wrong place.
		{"cd -; cd srcc", "bash: cd: srcc: No such file or directory\n", ""},
		{"cd $OLDPWD; cd srcc", "bash: cd: srcc: No such file or directory\n", ""},
	} {
		facts := baseFacts()
		files("/home/u/src/app/", "/home/u/src/app/srv/", "/home/u/notes/")(facts)
		r := analyze.Analyze(t.Context(), analyze.Input{Command: tc.cmd, ExitCode: 1, Output: tc.out, Cwd: "/home/u/src/app", Home: "/home/u", Shell: "bash", Env: facts})
		got := ""
		if len(r.Fixes) > 0 {
			got = r.Fixes[0].Command
		}
		if got != tc.want {
			t.Errorf("%s: first fix %q; want %q (fixes %+v)", tc.cmd, got, tc.want, r.Fixes)
		}
	}
}
