package shellwords

import (
	"reflect"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestEval: a word's value has its quotes and escapes removed, with
// markers for what only the shell can expand; the rules take the text as
// typed for a word that is not literal.
func TestEval(t *testing.T) {
	for _, c := range []struct {
		src, value string
		literal    bool
	}{
		{`plain`, "plain", true},
		{`'single quoted'`, "single quoted", true},
		{`"double \"quoted\" \$x"`, `double "quoted" $x`, true},
		{`\*.txt`, "*.txt", true},
		{`a\ b`, "a b", true},
		{`~/notes`, "~/notes", true},
		{`$'tab\there\x41\101\u00e9\cA'`, "tab\there" + "AA" + "é" + "\x01", true},
		{`--name="my file"`, "--name=my file", true},
		{`$HOME`, "$HOME", false},
		{`"$HOME"/x`, "$HOME/x", false},
		{`${HOME}`, "$HOME", false},
		{`"$(date)"`, CmdSubstMark, false},
		{`<(curl -s x)`, ProcSubstMark, false},
		{`$((1+2))`, "$?", false},
	} {
		f, err := syntax.NewParser().Parse(strings.NewReader("echo "+c.src), "")
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		src := "echo " + c.src
		w := Eval(f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1], src)
		if w.Value != c.value || w.Literal != c.literal || w.Raw != c.src {
			t.Errorf("Eval(%s) = %q literal %v raw %q; want %q literal %v", c.src, w.Value, w.Literal, w.Raw, c.value, c.literal)
		}
		if want := map[bool]string{true: c.value, false: c.src}[c.literal]; w.Arg() != want {
			t.Errorf("Eval(%s).arg() = %q; want %q", c.src, w.Arg(), want)
		}
	}
}

// TestUnwrap: the wrappers, their options and operands are passed over
// to the program they run.
func TestUnwrap(t *testing.T) {
	for _, c := range []struct {
		cmd, prog  string
		privileged bool
		assigns    string
	}{
		{"rm -rf x", "rm", false, ""},
		{"sudo -u bob -E apt-get install jq", "apt-get", true, ""},
		{"sudo --user bob make", "make", true, ""},
		{"doas -u bob make", "make", true, ""},
		{"pkexec --user root make", "make", true, ""},
		{"env -u HOME X=1 Y=2 make", "make", false, "X=1 Y=2"},
		{"timeout 5 rm -rf x", "rm", false, ""},
		{"timeout -s KILL -k 10 5m make test", "make", false, ""},
		{"nice -n 5 ionice -c3 make", "make", false, ""},
		{"nice -n5 make", "make", false, ""},
		{"xargs -n 1 -I{} rm {}", "rm", false, ""},
		{"xargs -0 -P 4 grep foo", "grep", false, ""},
		{"stdbuf -oL tail -f log", "tail", false, ""},
		{"watch -n 1 ls", "ls", false, ""},
		{"nohup time -p command make", "make", false, ""},
		{"exec -a name zsh", "zsh", false, ""},
		{"sudo env PATH=/x timeout 5 nice make", "make", true, "PATH=/x"},
		{"/usr/bin/sudo make", "make", true, ""},
		// A wrapper that names no program is the program; command -v
		// looks it up rather than running it.
		{"sudo -i", "sudo", true, ""},
		{"env", "env", false, ""},
		{"timeout 5", "timeout", false, ""},
		{"command -v rm", "command", false, ""},
		{"command -p rm x", "rm", false, ""},
	} {
		args := strings.Fields(c.cmd)
		u := Unwrap(args)
		if args[u.Prog] != c.prog || u.Privileged != c.privileged || strings.Join(u.Assigns, " ") != c.assigns {
			t.Errorf("Unwrap(%q) = program %q privileged %v assigns %q; want %q %v %q", c.cmd, args[u.Prog], u.Privileged, u.Assigns, c.prog, c.privileged, c.assigns)
		}
	}
}

// TestEscaped: a word whose value decoded a backslash or a $'…' string
// says so (analyze/learn refuses such words).
func TestEscaped(t *testing.T) {
	for src, escaped := range map[string]bool{`plain`: false, `'a b'`: false, `"a b"`: false, `a\ b`: true,
		`"a\"b"`: true, `$'a\tb'`: true, `$'ab'`: true, `"$HOME"`: false} {
		f, err := syntax.NewParser().Parse(strings.NewReader("echo "+src), "")
		if err != nil {
			t.Fatal(err)
		}
		if w := Eval(f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1], "echo "+src); w.Escaped != escaped {
			t.Errorf("Eval(%s).Escaped = %v; want %v", src, w.Escaped, escaped)
		}
	}
}

// TestLine: a line's words as its command gets them, and whether the line
// is one simple command.
func TestLine(t *testing.T) {
	for _, c := range []struct {
		line   string
		words  []string
		simple bool
	}{
		{"make test", []string{"make", "test"}, true},
		{`API_URL=http://x sudo -E ./deploy.sh "a b"`, []string{"API_URL=http://x", "sudo", "-E", "./deploy.sh", "a b"}, true},
		{"make test > log 2>&1", []string{"make", "test"}, true},
		{"cat <in.txt", []string{"cat"}, true},
		{"sleep 10 &", []string{"sleep", "10"}, true},
		{"make test;", []string{"make", "test"}, true},
		{`echo a\ b $'c\td'`, []string{"echo", "a b", "c\td"}, true},
		{"export A='x y' B", []string{"export", "A=x y", "B"}, true},
		{"[[ -f x ]]", []string{"[[", "x", "]]"}, true},
		{"make && ./run.sh", []string{"make"}, false},
		{"ls | wc -l", []string{"ls"}, false},
		{"echo $(date)", []string{"echo", CmdSubstMark}, false},
		{"echo `date`", []string{"echo", CmdSubstMark}, false},
		{"(cd x; make)", []string{"cd", "x"}, false},
		{"! make", []string{"make"}, false},
		{"echo 'open", nil, false},
		{"", nil, true},
	} {
		ws, simple := Line(c.line)
		if got := Values(ws); !reflect.DeepEqual(got, c.words) && len(got)+len(c.words) > 0 || simple != c.simple {
			t.Errorf("Line(%q) = %q, %v; want %q, %v", c.line, got, simple, c.words, c.simple)
		}
	}
}

// TestProgram: the program behind assignments and wrappers, the wrappers'
// options with a value included (sudo -u root, nice -n 10, env -u HOME,
// timeout -s KILL 30s): the key of "it worked before" is built on it.
func TestProgram(t *testing.T) {
	for line, want := range map[string]string{
		"make test":                        "make",
		"sudo -u root make test":           "make",
		"sudo -E make":                     "make",
		"nice -n 10 make":                  "make",
		"env -u HOME make test":            "make",
		"env A=B make test":                "make",
		"timeout -s KILL 30s make test":    "make",
		"ionice -c3 make":                  "make",
		"xargs -n 1 rm":                    "rm",
		"A=1 B=2 nice make":                "make",
		"doas -u bob ./deploy.sh":          "./deploy.sh",
		"stdbuf -oL nohup time make check": "make",
		"sudo -i":                          "sudo",
		"A=1":                              "",
	} {
		ws := Values(must(Line(line)))
		got := ""
		if p := Program(ws); p >= 0 {
			got = ws[p]
		}
		if got != want {
			t.Errorf("Program(%q) = %q; want %q", line, got, want)
		}
	}
}

func must(ws []Word, _ bool) []Word { return ws }

// TestFields: text typed as arguments is split into words the way a shell
// would, without any other syntax.
func TestFields(t *testing.T) {
	for s, want := range map[string][]string{
		"":                        nil,
		"one two":                 {"one", "two"},
		`"a b" 'c d' e\ f`:        {"a b", "c d", "e f"},
		`"x \"y\" \$z \n"`:        {`x "y" $z \n`},
		"a;b | c > d $(e)":        {"a;b", "|", "c", ">", "d", "$(e)"},
		"'open quote":             {"open quote"},
		"  tabs\tand\nnewlines  ": {"tabs", "and", "newlines"},
		`''`:                      {""},
		`  "hello world"  x `:     {"hello world", "x"},
		`'it''s' "a\"b" c\ d`:     {"its", `a"b`, "c d"},
		`"$HOME" '$x'`:            {"$HOME", "$x"},
	} {
		if got := Fields(s); !reflect.DeepEqual(got, want) {
			t.Errorf("Fields(%q) = %q; want %q", s, got, want)
		}
	}
}

// TestCommands: each simple command of a line, not those inside a
// substitution; a line that does not parse is one command.
func TestCommands(t *testing.T) {
	for line, want := range map[string][][]string{
		"git stash && git pull | tee x; A=1 make": {{"git", "stash"}, {"git", "pull"}, {"tee", "x"}, {"A=1", "make"}},
		`echo "$(date; id)" || true`:              {{"echo", CmdSubstMark}, {"true"}},
		"(cd x && make)":                          {{"cd", "x"}, {"make"}},
		"export A=1":                              {{"export", "A=1"}},
		"git checkout <branch>":                   {{"git", "checkout", "<branch>"}},
		"":                                        nil,
	} {
		if got := Commands(line, "bash"); !reflect.DeepEqual(got, want) {
			t.Errorf("Commands(%q) = %q; want %q", line, got, want)
		}
	}
}
