package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
	"github.com/hookd/hookd/internal/shellwords"
)

// TestCompleteCLI: what hookd __complete says for each kind of word.
func TestCompleteCLI(t *testing.T) {
	h := newHome(t)
	dir := promptProject(t, h)
	os.WriteFile(h.Path("proj", ".hookd.yml"), []byte("ask:\n  profiles:\n    strict: {}\n"), 0o600)
	os.WriteFile(h.Path(".config", "hookd", "config.yaml"), []byte("ask:\n  profiles:\n    work: {}\n"), 0o600)
	for _, c := range []struct {
		words []string
		want  string // the lines, joined by |
	}{
		{[]string{"st"}, "status\tagent, database, spool and output capture state: the first thing to run when something is off"},
		{[]string{"ask", "/"}, "/mine\tmine|/review\tFILE  Review a file"},
		{[]string{"ask", ""}, "/mine\tmine|/review\tFILE  Review a file"},
		{[]string{"ask", "what", "is", ""}, ":files"},
		{[]string{"ask", "--profile", "strict", "/r"}, "/review\tFILE  Review a file"},
		{[]string{"expand", "m"}, "mine\tmine"},
		{[]string{"ask", "--prof"}, "--profile\tuse the ask profile NAME of the config or the project's .hookd.yml (default: the first whose when.cwd matches here)"},
		{[]string{"ask", "--profile", ""}, "strict|work"},
		{[]string{"ask", "--profile", "=", "w"}, "work"},
		{[]string{"ask", "--profile=s"}, "--profile=strict"},
		{[]string{"init", ""}, "bash|zsh|fish"},
		{[]string{"import", ""}, "bash|zsh|fish"},
		{[]string{"init", "--capture=o"}, "--capture=off"},
		{[]string{"out", "--stream", ""}, "stdout|stderr"},
		{[]string{"chain", ""}, ":files"},
		{[]string{"suggest", "--fail"}, "--failed\tthe last command that failed in this shell (the one fix offers fixes for), instead of a REF"},
		{[]string{"help", "expa"}, "expand\texpand a prompt file: arguments, @file (the project's files) and !cmd (allowlisted commands, 5 s each)"},
		{[]string{"nosuch", ""}, ""},
	} {
		out, errOut, err := hookdIn(h, dir, nil, append([]string{"__complete", "--"}, c.words...)...)
		if err != nil {
			t.Fatalf("%q: %v %s", c.words, err, errOut)
		}
		if got := strings.ReplaceAll(strings.TrimSuffix(out, "\n"), "\n", "|"); got != c.want {
			t.Errorf("__complete %q:\n got %q\nwant %q", c.words, got, c.want)
		}
	}
}

// TestCompletion: Tab completes prompt-file names after hookd ask /,
// hookd expand and the ask prefix, and subcommands, in real bash and zsh
// (zsh's compinit run after hookd's init line, as rc files often do).
func TestCompletion(t *testing.T) {
	forAllShells(t, func(t *testing.T, shell string) {
		h := newHome(t)
		dir := promptProject(t, h)
		rc := plainPrompt(shell) + "cd " + shellwords.Quote(dir) + "\n" + initLine(shell)
		if shell == "zsh" {
			rc += "autoload -Uz compinit && compinit -u -D\n"
		}
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: rc})
		for _, c := range []struct{ typed, want string }{
			{"hookd ask /rev", "hookd ask /review "},
			{"?? /mi", "?? /mine "},
			{"hookd expand rev", "hookd expand review "},
			{"hookd sugg", "hookd suggest "},
			{"hookd suggest --fail", "hookd suggest --failed "},
		} {
			if shell == "fish" && strings.HasPrefix(c.typed, "??") {
				continue // (in fish, ?? is rewritten by Enter, not completed)
			}
			s.Editing()
			s.Type(c.typed + "\t")
			s.WaitForPlain(regexp.MustCompile(regexp.QuoteMeta(c.want)+`$`), 5*time.Second)
			s.Type("\x15") // Ctrl-U
		}
	})
}

// TestPackagedCompletionFish: the fish completion the packages install
// (scripts/completions/hookd.fish, in a vendor_completions.d of
// XDG_DATA_DIRS as /usr/share is) completes hookd's command line in a fish
// that has not loaded hookd.
func TestPackagedCompletionFish(t *testing.T) {
	t.Parallel()
	shelltest.Need(t, "fish")
	src, err := os.ReadFile(filepath.Join("..", "..", "scripts", "completions", "hookd.fish"))
	if err != nil {
		t.Fatal(err)
	}
	h := newHome(t)
	share := t.TempDir()
	vendor := filepath.Join(share, "fish", "vendor_completions.d")
	if err := os.MkdirAll(vendor, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(vendor, "hookd.fish"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	s := shelltest.Start(t, h, "fish", shelltest.Options{
		RC:  "function fish_prompt; printf '$ '; end\n",
		Env: []string{"XDG_DATA_DIRS=" + share + ":/usr/share"},
	})
	for _, c := range []struct{ typed, want string }{
		{"hookd sugg", "hookd suggest "},
		{"hookd suggest --fail", "hookd suggest --failed "},
	} {
		s.Editing()
		s.Type(c.typed + "\t")
		s.WaitForPlain(regexp.MustCompile(regexp.QuoteMeta(c.want)+`$`), 5*time.Second)
		s.Type("\x15") // Ctrl-U
	}
}
