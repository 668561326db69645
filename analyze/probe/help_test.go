package probe

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestHelp: a tool's help is what it prints for its name, subcommands and
// --help, run from the PATH's absolute directories only, kept under the
// program's stamp and asked again when the program changes; anything but
// a name and subcommands is not run.
func TestHelp(t *testing.T) {
	dir := t.TempDir()
	bin, cache, log := filepath.Join(dir, "bin"), filepath.Join(dir, "vocab"), filepath.Join(dir, "ran")
	write(t, filepath.Join(bin, "frob"), "#!/bin/sh\necho \"$(basename \"$0\") $*\" >> "+log+"\necho '  --rm   remove'\necho '  --tty  a tty' >&2\nexit 2\n", 0o755)
	p := New(Options{Path: "relative:" + bin, VocabDir: cache})
	got := p.Help(t.Context(), []string{"frob", "run", "--help"})
	if !strings.Contains(got, "--rm") || !strings.Contains(got, "--tty") {
		t.Fatalf("Help = %q; want both streams", got)
	}
	if b, _ := os.ReadFile(log); string(b) != "frob run --help\n" {
		t.Errorf("the program ran as %q; want its name, the words and --help", b)
	}
	// Another process: from the cache, not run again.
	if got2 := New(Options{Path: bin, VocabDir: cache}).Help(t.Context(), []string{"frob", "run", "--help"}); got2 != got {
		t.Errorf("cached Help = %q; want %q", got2, got)
	}
	if b, _ := os.ReadFile(log); strings.Count(string(b), "\n") != 1 {
		t.Errorf("the program ran again: %q", b)
	}
	ents, _ := os.ReadDir(cache)
	for _, e := range ents {
		if fi, _ := e.Info(); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s is %v; want 0600", e.Name(), fi.Mode().Perm())
		}
	}
	for _, argv := range [][]string{
		{"frob", "--help", "x"},                // not last
		{"frob", "-rf", "--help"},              // an option
		{"frob", "../x", "--help"},             // a path
		{"frob", "$(id)", "--help"},            // shell text
		{"./frob", "--help"},                   // a path to a program
		{"frob"},                               // no help asked
		{"nope", "--help"},                     // not on the PATH
		{"frob", "a", "b", "c", "d", "--help"}, // more words than subcommands have
	} {
		if got := p.Help(t.Context(), argv); got != "" {
			t.Errorf("Help(%q) = %q; want nothing run", argv, got)
		}
	}
	// A program in a relative directory of the PATH is never run.
	cwd := t.TempDir()
	write(t, filepath.Join(cwd, "rel", "frob2"), "#!/bin/sh\necho --rm\n", 0o755)
	t.Chdir(cwd)
	if got := New(Options{Path: "rel:" + bin}).Help(t.Context(), []string{"frob2", "--help"}); got != "" {
		t.Errorf("Help ran a program of a relative PATH directory: %q", got)
	}
}

// TestHelpBounded: a program that prints without end is cut at maxHelp and
// one that never ends is killed, its children with it.
func TestHelpBounded(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "bin")
	write(t, filepath.Join(bin, "yes2"), "#!/bin/sh\nexec yes -- --all\n", 0o755)
	start := time.Now()
	if got := New(Options{Path: bin}).Help(t.Context(), []string{"yes2", "--help"}); got != "--all\n" {
		t.Errorf("Help of an endless printer = %.100q; want its one option from its first %d bytes", got, maxHelp)
	}
	if d := time.Since(start); d >= helpTimeout {
		t.Errorf("Help of an endless printer took %v: stopped by its time, not by its size", d)
	}
}

// TestHelpKeepsOptionsOnly: of a help's text only the option words are
// returned and written to the cache (a default shown from the environment
// is not kept).
func TestHelpKeepsOptionsOnly(t *testing.T) {
	dir := t.TempDir()
	bin, cache := filepath.Join(dir, "bin"), filepath.Join(dir, "vocab")
	write(t, filepath.Join(bin, "tok"), "#!/bin/sh\necho '  -t, --token=TOKEN   the token (default \"s3cr3t-value\")'\necho '      --format string  [--all|-a]'\n", 0o755)
	got := New(Options{Path: bin, VocabDir: cache}).Help(t.Context(), []string{"tok", "--help"})
	if want := "-t\n--token\n--format\n--all\n-a\n"; got != want {
		t.Errorf("Help = %q; want %q", got, want)
	}
	ents, _ := os.ReadDir(cache)
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(cache, e.Name()))
		if strings.Contains(string(b), "s3cr3t") {
			t.Errorf("%s keeps the help's text: %q", e.Name(), b)
		}
	}
}

// TestHelpEnvironment: a tool asked for its help sees no display, browser
// or secret of the user's, a pager that is cat, and git's help as a
// manual page (help.format=web would open a browser).
func TestHelpEnvironment(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "bin")
	write(t, filepath.Join(bin, "envy"), "#!/bin/sh\n/usr/bin/env | /bin/sed 's/^/--v-/; s/=/ /'\n", 0o755)
	env := []string{"PATH=" + bin, "HOME=/home/u", "DISPLAY=:0", "WAYLAND_DISPLAY=wayland-0", "BROWSER=firefox",
		"ANTHROPIC_API_KEY=sk-secret", "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.pager", "GIT_CONFIG_VALUE_0=evil", "LANG=C.UTF-8"}
	got := New(Options{Path: bin, Environ: env}).Help(t.Context(), []string{"envy", "--help"})
	for _, want := range []string{"--v-HOME", "--v-LANG", "--v-PAGER", "--v-MANPAGER", "--v-GIT_CONFIG_VALUE_0"} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("the help's environment lacks %s: %q", strings.TrimPrefix(want, "--v-"), got)
		}
	}
	for _, not := range []string{"DISPLAY", "WAYLAND_DISPLAY", "BROWSER", "ANTHROPIC_API_KEY", "GIT_CONFIG_KEY_0\n--v-GIT_CONFIG_KEY_0"} {
		if strings.Contains(got, "--v-"+not+"\n") {
			t.Errorf("the help's environment has %s: %q", not, got)
		}
	}
	if fmt := helpEnviron(env); !slices.Contains(fmt, "GIT_CONFIG_VALUE_0=man") || slices.Contains(fmt, "GIT_CONFIG_VALUE_0=evil") {
		t.Errorf("helpEnviron = %q; want git's help as a manual page, not the user's git config", fmt)
	}
}
