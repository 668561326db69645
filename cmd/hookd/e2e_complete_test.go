package main

import (
	"fmt"
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
		{[]string{"statu"}, "status\tdaemon, database, spool and output capture state: the first thing to run when something is off"},
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

// TestPackagedFishCompletion: the completion file the packages install for
// fish (scripts/completions/hookd.fish, in a completions directory fish
// autoloads from) completes hookd's commands and flags in a fish that never
// ran `hookd init fish`; in one that did, it adds nothing to hookd's own.
func TestPackagedFishCompletion(t *testing.T) {
	shelltest.Need(t, "fish")
	src, err := os.ReadFile(filepath.Join("..", "..", "scripts", "completions", "hookd.fish"))
	if err != nil {
		t.Fatal(err)
	}
	for _, withInit := range []bool{false, true} {
		t.Run(fmt.Sprint("init=", withInit), func(t *testing.T) {
			h := newHome(t)
			dir := h.Path(".config", "fish", "completions")
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "hookd.fish"), src, 0o600); err != nil {
				t.Fatal(err)
			}
			rc := plainPrompt("fish")
			if withInit {
				rc += initLine("fish")
			}
			s := shelltest.Start(t, h, "fish", shelltest.Options{RC: rc})
			for _, c := range []struct{ typed, want string }{
				{"hookd sugg", "hookd suggest "},
				{"hookd suggest --fail", "hookd suggest --failed "},
			} {
				s.Editing()
				s.Type(c.typed + "\t")
				s.WaitForPlain(regexp.MustCompile(regexp.QuoteMeta(c.want)+`$`), 5*time.Second)
				s.Type("\x15") // Ctrl-U
			}
			m := s.Mark()
			s.Run("functions -q __hookd_packaged_complete; and echo packaged-loaded; or echo packaged-absent")
			want := map[bool]string{false: "packaged-loaded", true: "packaged-absent"}[withInit]
			s.WaitPlainSince(m, regexp.MustCompile(`(?m)^`+want), 5*time.Second)
		})
	}
}
