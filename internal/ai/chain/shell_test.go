package chain

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShellSites: a reference is inlined only where the parser shows a
// plain word or a quoted string; every other place is refused with why.
func TestShellSites(t *testing.T) {
	for _, tc := range []struct {
		text  string
		quote byte
		why   string // a part of the problem; "" for none
	}{
		{`echo ${a.b}`, 0, ""},
		{`echo x${a.b}y`, 0, ""},
		{`echo "${a.b}"`, '"', ""},
		{`echo "pre ${a.b} post"`, '"', ""},
		{`echo '${a.b}'`, '\'', ""},
		{`X=${a.b} env`, 0, ""},
		{`export X="${a.b}"`, '"', ""},
		{`cat > ${a.b}`, 0, ""},
		{`for f in ${a.b}; do echo "$f"; done`, 0, ""},
		{`echo "$(printf %s ${a.b})"`, 0, ""},
		{`echo "$(printf %s "${a.b}")"`, '"', ""},
		{"cat <<X\n${a.b}\nX", 0, "here-document"},
		{"cat <<'X'\n${a.b}\nX", 0, "here-document"},
		{"cat <<-X\n\t${a.b}\nX", 0, "here-document"},
		{"echo `echo ${a.b}`", 0, "backticks"},
		{"echo \"`echo ${a.b}`\"", 0, "backticks"},
		{`echo $(( ${a.b} + 1 ))`, 0, "arithmetic"},
		{`(( x = ${a.b} ))`, 0, "arithmetic"},
		{`eval ${a.b}`, 0, "eval, which runs"},
		{`eval "echo ${a.b}"`, 0, "eval, which runs"},
		{`sh -c "echo ${a.b}"`, 0, "sh -c, which runs"},
		{`bash -ec 'echo ${a.b}'`, 0, "bash -c, which runs"},
		{`sudo -u x zsh -c "${a.b}"`, 0, "zsh -c, which runs"},
		{`su root -c "${a.b}"`, 0, "su -c, which runs"},
		{`ssh host echo ${a.b}`, 0, "ssh, which runs"},
		{`echo "${x:-${a.b}}"`, 0, "${…}"},
		{`echo ${x:-${a.b}}`, 0, "${…}"},
		{`echo $'${a.b}'`, 0, "$'"},
		{`echo \${a.b}`, 0, "backslash"},
		{`echo $${a.b}`, 0, "${…}"},
		{"echo hi # ${a.b}", 0, "not read it as a word"},
		{`[[ ${a.b} == x ]]`, 0, "[["},
	} {
		sites, err := shellSites(tc.text)
		if err != nil {
			t.Errorf("%q: %v", tc.text, err)
			continue
		}
		if len(sites) != 1 {
			t.Errorf("%q: %d sites", tc.text, len(sites))
			continue
		}
		s := sites[0]
		switch {
		case tc.why == "" && s.problem != "":
			t.Errorf("%q: refused (%s); want it inlined", tc.text, s.problem)
		case tc.why == "" && s.quote != tc.quote:
			t.Errorf("%q: quote %q; want %q", tc.text, s.quote, tc.quote)
		case tc.why != "" && !strings.Contains(s.problem, tc.why):
			t.Errorf("%q: problem %q; want one about %s", tc.text, s.problem, tc.why)
		}
	}
}

// TestHeredocRefused is the chain: an output inlined into an
// unquoted here-document would run its $(…). Check refuses it, with the
// step and the line, and says to pass the value as an input.
func TestHeredocRefused(t *testing.T) {
	dir := t.TempDir()
	pwned := filepath.Join(dir, "pwned")
	src := `steps:
  - id: a
    run: printf '%s\n' 'safe $(touch ` + pwned + `)'
    outputs: {text: {extract_from: stdout}}
  - id: b
    run: "cat <<X\n${a.text}\nX"
`
	c, err := Parse("chain.yml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	err = Check(c, dir)
	if err == nil {
		out, errOut, _, rerr := run(t, dir, c)
		t.Fatalf("Check passed; Run: %v %q %q", rerr, out, errOut)
	}
	msg := err.Error()
	for _, want := range []string{"chain.yml:5: step 2 (b): run: ${a.text} on line 2 of the command", "here-document", "environment", "stdin"} {
		if !strings.Contains(msg, want) {
			t.Errorf("problem %q lacks %q", msg, want)
		}
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Error("the output ran")
	}
}
