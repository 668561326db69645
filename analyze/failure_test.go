package analyze

import (
	"reflect"
	"testing"
)

func TestParseCalls(t *testing.T) {
	tests := []struct {
		cmd    string
		names  []string
		args   []string // of the main command
		sudo   bool
		nested int // how many commands are inside substitutions
	}{
		{"git push", []string{"git"}, []string{"git", "push"}, false, 0},
		{"cd app && git push -u origin 'my branch'", []string{"cd", "git"}, []string{"git", "push", "-u", "origin", "my branch"}, false, 0},
		{"ls -l | grep txt", []string{"ls", "grep"}, []string{"grep", "txt"}, false, 0},
		{"sudo -u bob -E apt-get install -y jq", []string{"apt-get"}, []string{"apt-get", "install", "-y", "jq"}, true, 0},
		{"env -u HOME X=1 nice -n 5 time make test", []string{"make"}, []string{"make", "test"}, false, 0},
		{`git commit -m "$(date)"`, []string{"git", "date"}, []string{"git", "commit", "-m", `"$(date)"`}, false, 1},
		{"export FOO = bar", []string{"export"}, []string{"export", "FOO", "=", "bar"}, false, 0},
		{`find . -name \*.txt`, []string{"find"}, []string{"find", ".", "-name", "*.txt"}, false, 0},
		{"echo 'unbalanced", []string{"echo"}, []string{"echo", "'unbalanced"}, false, 0},
		{"", nil, nil, false, 0},
	}
	for _, tt := range tests {
		calls := parseCalls(tt.cmd, "bash")
		var names []string
		nested := 0
		for i := range calls {
			names = append(names, calls[i].Name())
			if calls[i].Nested {
				nested++
			}
		}
		if !reflect.DeepEqual(names, tt.names) {
			t.Errorf("parseCalls(%q) names = %q; want %q", tt.cmd, names, tt.names)
			continue
		}
		f := &Failure{Input: Input{Command: tt.cmd}, Calls: calls}
		m := f.main()
		if m == nil {
			if tt.args != nil {
				t.Errorf("parseCalls(%q) has no main command", tt.cmd)
			}
			continue
		}
		if !reflect.DeepEqual(m.Args, tt.args) || m.Sudo != tt.sudo || nested != tt.nested {
			t.Errorf("parseCalls(%q) main = %q sudo %v, %d nested; want %q sudo %v, %d nested", tt.cmd, m.Args, m.Sudo, nested, tt.args, tt.sudo, tt.nested)
		}
	}
}

func TestReplaceWords(t *testing.T) {
	f := &Failure{Input: Input{Command: `sudo gti  commit -m "a b" | tee log`}}
	f.Calls = parseCalls(f.Command, "bash")
	c := f.call("gti")
	g := &Failure{Input: Input{Command: "grep -n TODO src"}}
	g.Calls = parseCalls(g.Command, "bash")
	tests := []struct{ got, want string }{
		{f.replaceWord(c, 0, "git"), `sudo git  commit -m "a b" | tee log`},
		{f.replaceWords(c, 2, 2, "-a"), `sudo gti  commit -a -m "a b" | tee log`},
		{f.replaceWords(c, len(c.Args), len(c.Args), "--amend"), `sudo gti  commit -m "a b" --amend | tee log`},
		{f.replaceWords(c, 2, 4, ""), `sudo gti  commit | tee log`},
		{f.prefixed(f.call("tee"), "sudo"), `sudo gti  commit -m "a b" | sudo tee log`},
		{f.addShortFlag(c, "a"), `sudo gti  -a commit -m "a b" | tee log`},
		{g.addShortFlag(g.call("grep"), "r"), `grep -rn TODO src`},
		{g.addShortFlag(g.call("grep"), "f"), `grep -nf TODO src`},
		{g.addShortFlag(g.call("grep"), "n"), ``},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%d: got %q; want %q", i, tt.got, tt.want)
		}
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"git", "git", 0}, {"gti", "git", 1}, {"sl", "ls", 1}, {"grpe", "grep", 1},
		{"pytohn3", "python3", 1}, {"nmp", "npm", 1}, {"mkdri", "mkdir", 1}, {"kitten", "sitting", 3},
		{"", "abc", 3}, {"ca", "abc", 3},
	}
	for _, tt := range tests {
		if d := distance(tt.a, tt.b); d != tt.d {
			t.Errorf("distance(%q, %q) = %d; want %d", tt.a, tt.b, d, tt.d)
		}
		if d := distance(tt.b, tt.a); d != tt.d {
			t.Errorf("distance(%q, %q) = %d; want %d", tt.b, tt.a, d, tt.d)
		}
	}
	// Ties are broken lexically, and a swap beats another edit.
	got := closest("sl", []string{"su", "sh", "ls", "s"}, nil)
	if len(got) == 0 || got[0].word != "ls" {
		t.Errorf("closest(sl) = %+v; want ls first", got)
	}
}

func TestCleanOutput(t *testing.T) {
	in := "\x1b[1;31mERROR\x1b[m done\n  0%\r 50%\r100%\r\nok\x1b]0;title\x07\n"
	want := "ERROR done\n100%\nok\n"
	if got := cleanOutput(in); got != want {
		t.Errorf("cleanOutput = %q; want %q", got, want)
	}
}
