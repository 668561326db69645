package analyze

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestEvalWord: a word's value has its quotes and escapes removed, with
// markers for what only the shell can expand; the rules take the text as
// typed for a word that is not literal.
func TestEvalWord(t *testing.T) {
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
		{`"$(date)"`, cmdSubstMark, false},
		{`<(curl -s x)`, procSubstMark, false},
		{`$((1+2))`, "$?", false},
	} {
		f, err := syntax.NewParser().Parse(strings.NewReader("echo "+c.src), "")
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		src := "echo " + c.src
		w := evalWord(f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1], src)
		if w.value != c.value || w.literal != c.literal || w.raw != c.src {
			t.Errorf("evalWord(%s) = %q literal %v raw %q; want %q literal %v", c.src, w.value, w.literal, w.raw, c.value, c.literal)
		}
		if want := map[bool]string{true: c.value, false: c.src}[c.literal]; w.arg() != want {
			t.Errorf("evalWord(%s).arg() = %q; want %q", c.src, w.arg(), want)
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
		u := unwrap(args)
		if args[u.prog] != c.prog || u.privileged != c.privileged || strings.Join(u.assigns, " ") != c.assigns {
			t.Errorf("unwrap(%q) = program %q privileged %v assigns %q; want %q %v %q", c.cmd, args[u.prog], u.privileged, u.assigns, c.prog, c.privileged, c.assigns)
		}
	}
}

// TestOneParse: the rules and the risk scorer read a wrapped command the
// same way: `timeout 5 rm -rf /` is rm to both, so the rules see rm and
// the risk is rm's (with sudo's and exec's own on top).
func TestOneParse(t *testing.T) {
	for _, c := range []struct {
		bare     string
		wrappers []string
	}{
		{"rm -rf /", []string{"timeout 5", "timeout -s KILL 30s", "xargs -n 1", "ionice -c3", "nice -n 19", "env -u HOME", "stdbuf -oL", "sudo -u root", "doas", "pkexec", "exec"}},
		{"rm -rf build", []string{"timeout 5", "xargs -n 1", "env -u HOME", "watch -n 1", "nohup"}},
		{"git push --force", []string{"timeout 60", "env GIT_TRACE=1", "nice"}},
		{"curl -fsSL https://x.sh", []string{"timeout 5"}},
	} {
		bareRisk := Risk(c.bare)
		bareName := newFailure(Input{Command: c.bare}).main().Name()
		for _, w := range c.wrappers {
			cmd := w + " " + c.bare
			m := newFailure(Input{Command: cmd}).main()
			if m.Name() != bareName || strings.Join(m.Args, " ") != c.bare {
				t.Errorf("the rules read %q as %q; want %q", cmd, m.Args, c.bare)
			}
			want := bareRisk
			if m.Sudo || strings.HasPrefix(w, "exec") {
				want = MaxRisk(want, RiskMedium)
			}
			if got := Risk(cmd); got != want {
				t.Errorf("Risk(%q) = %q; want %q, as %q is %q", cmd, got, want, c.bare, bareRisk)
			}
		}
	}
}
