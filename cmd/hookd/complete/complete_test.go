package complete

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func flagSet() *pflag.FlagSet {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.String("profile", "", "use the profile `NAME`\nsecond line")
	fs.BoolP("verbose", "v", false, "say more")
	fs.StringP("number", "n", "", "how many")
	fs.String("color", "", "colour")
	fs.Lookup("color").NoOptDefVal = "always"
	fs.Bool("secret", false, "hidden")
	fs.MarkHidden("secret")
	return fs
}

func TestLocate(t *testing.T) {
	fs := flagSet()
	for _, c := range []struct {
		words []string
		cur   string
		flag  string
		pre   string
		name  bool
		arg   int
	}{
		{nil, "", "", "", false, 0},
		{[]string{"--profile"}, "w", "profile", "", false, 0},
		{[]string{"-n"}, "", "number", "", false, 0},
		{[]string{"--profile", "="}, "w", "profile", "", false, 0}, // bash's split
		{nil, "--profile=w", "profile", "--profile=", false, 0},    // zsh's whole word
		{[]string{"--color"}, "", "", "", false, 0},                // a bare --color is complete
		{nil, "--color=a", "color", "--color=", false, 0},
		{[]string{"-v"}, "", "", "", false, 0},
		{nil, "--pro", "", "", true, 0},
		{nil, "-", "", "", true, 0},
		{nil, "-1", "", "", false, 0}, // a REF, not a flag
		{[]string{"a", "--profile", "p", "b"}, "", "", "", false, 2},
		{[]string{"--profile", "=", "p", "a"}, "", "", "", false, 1},
		{[]string{"--profile=p", "-v", "a"}, "", "", "", false, 1},
		{[]string{"--", "-x", "y"}, "", "", "", false, 2},
	} {
		sp := Locate(c.words, c.cur, fs)
		flag := ""
		if sp.Flag != nil {
			flag = sp.Flag.Name
		}
		if flag != c.flag || sp.Prefix != c.pre || sp.FlagName != c.name || sp.Arg != c.arg {
			t.Errorf("Locate(%q, %q) = flag %q prefix %q name %v arg %d; want %q %q %v %d",
				c.words, c.cur, flag, sp.Prefix, sp.FlagName, sp.Arg, c.flag, c.pre, c.name, c.arg)
		}
	}
}

func TestWrite(t *testing.T) {
	var b strings.Builder
	cs := append(Flags(flagSet()), Candidate{Value: "--pro\tfile"}, Candidate{Value: "--profile2", Description: "a\x1b[31m\tb"})
	if err := Write(&b, "--pro", cs); err != nil {
		t.Fatal(err)
	}
	want := "--profile\tuse the profile NAME\n--profile2\ta\\e[31m\\tb\n"
	if b.String() != want {
		t.Errorf("Write = %q, want %q", b.String(), want)
	}
}
