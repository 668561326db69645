package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

// The search alongside what a shell already has: search.enter: run, vi
// mode, fzf's Ctrl-R, zsh's plugins, NO_COLOR.

func writeConfig(t *testing.T, h *shelltest.Home, yaml string) {
	t.Helper()
	os.MkdirAll(h.Path(".config", "hookd"), 0o700)
	if err := os.WriteFile(h.Path(".config", "hookd", "config.yaml"), []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestSearchEnterRuns: with search.enter: run, Enter runs the command at
// once, and it is recorded as itself.
func TestSearchEnterRuns(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		writeConfig(t, h, "search:\n  enter: run\n")
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: searchPrompt[shell] + initLine(shell)})
		s.Run("echo runword_$((6*7))")
		s.Editing()
		openSearch(s)
		typeQuery(s, "runword", `echo runword_`)
		s.Type("\r")
		// Printed a second time: Enter ran it.
		s.WaitFor(regexp.MustCompile(`(?s)runword_42.*runword_42`), 20*time.Second)
		waitLine(t, s, "")
		s.Sync()
		es := entries(t, h)
		if n := len(es); n < 2 || es[n-1].Command != "echo runword_$((6*7))" || es[n-2].Command != "echo runword_$((6*7))" {
			t.Errorf("history = %q; want the command run again by Enter, recorded as typed", commandsOf(es))
		}
	})
}

// TestSearchViMode: in vi insert mode Ctrl-R opens the search too, and the
// command chosen goes on the line.
func TestSearchViMode(t *testing.T) {
	vi := map[string]string{"bash": "set -o vi\n", "zsh": "bindkey -v\n"}
	forEachShell(t, func(t *testing.T, shell string) {
		_, s := searchShell(t, shell, 200, 40, vi[shell])
		s.Run("echo viword1")
		s.Editing()
		openSearch(s)
		typeQuery(s, "viword", `echo viword1`)
		s.Type("\t")
		waitLine(t, s, "echo viword1")
		s.Type("\r")
		s.Sync()
		if !strings.Contains(s.Plain(), "viword1\n") && !strings.Contains(s.Plain(), "viword1\r\n") {
			t.Errorf("the command put on the line in vi mode did not run; output:\n%s", s.Plain())
		}
	})
}

var fzfBindings = map[string]string{"bash": "/usr/share/doc/fzf/examples/key-bindings.bash", "zsh": "/usr/share/doc/fzf/examples/key-bindings.zsh"}

// showCtrlR prints what Ctrl-R is bound to in the emacs keymap.
var showCtrlR = map[string]string{
	"bash": ` { bind -s; bind -X; } | grep -F '"\C-r"'`,
	"zsh":  ` bindkey -M emacs '^R'`,
}

// TestSearchLeavesFzfKey: where fzf (loaded first) holds Ctrl-R, hookd
// leaves it alone; search.replace: true takes it.
func TestSearchLeavesFzfKey(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		needFile(t, fzfBindings[shell], "fzf")
		for _, replace := range []bool{false, true} {
			h := newHome(t)
			if replace {
				writeConfig(t, h, "search:\n  replace: true\n")
			}
			s := shelltest.Start(t, h, shell, shelltest.Options{RC: searchPrompt[shell] + "source " + fzfBindings[shell] + "\n" + initLine(shell)})
			from := s.Mark()
			s.Run(showCtrlR[shell])
			got := s.OutputSince(from)
			fzf := strings.Contains(got, "fzf")
			hookd := strings.Contains(got, `\C-x\C-h6`) || strings.Contains(got, "_hookd_search")
			if replace && (fzf || !hookd) {
				t.Errorf("search.replace: true: Ctrl-R is not hookd's: %q", got)
			}
			if !replace && (!fzf || hookd) {
				t.Errorf("Ctrl-R was taken from fzf without search.replace: %q", got)
			}
		}
	})
}

// TestSearchZshPlugins: with zsh-syntax-highlighting and
// zsh-autosuggestions loaded, the command the search puts on the line is
// drawn highlighted, and Enter runs it.
func TestSearchZshPlugins(t *testing.T) {
	shelltest.Need(t, "zsh")
	const zsh, auto = "/usr/share/zsh-syntax-highlighting/zsh-syntax-highlighting.zsh", "/usr/share/zsh-autosuggestions/zsh-autosuggestions.zsh"
	needFile(t, zsh, "zsh-syntax-highlighting")
	needFile(t, auto, "zsh-autosuggestions")
	h, s := searchShell(t, "zsh", 200, 40, "source "+auto+"\nsource "+zsh+"\n")
	_ = h
	s.Run("echo plugword7")
	s.Editing()
	openSearch(s)
	typeQuery(s, "plugword", `echo plugword7`)
	from := s.Mark()
	s.Type("\t")
	waitLine(t, s, "echo plugword7")
	// zsh-syntax-highlighting colours a known command (echo: green).
	s.WaitSince(from, regexp.MustCompile(`\x1b\[[0-9;]*3[0-9]m[^\x1b]*echo`), 10*time.Second)
	s.Type("\r")
	s.Sync()
	if got := lastEntry(t, h).Command; got != "echo plugword7" {
		t.Errorf("recorded %q; want echo plugword7", got)
	}
}

// colours finds SGR parameters that set a colour.
func colours(raw string) []string {
	var found []string
	for _, m := range regexp.MustCompile(`\x1b\[([0-9;:]*)m`).FindAllStringSubmatch(raw, -1) {
		for _, p := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ';' || r == ':' }) {
			n, _ := strconv.Atoi(p)
			if (n >= 30 && n <= 38) || (n >= 40 && n <= 48) || (n >= 90 && n <= 97) || (n >= 100 && n <= 107) {
				found = append(found, m[0])
			}
		}
	}
	return found
}

// TestSearchNoColor: under NO_COLOR the search uses no colour (bold, faint
// and reverse video only); without it, it does.
func TestSearchNoColor(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		for _, noColor := range []bool{true, false} {
			h := newHome(t)
			var env []string
			if noColor {
				env = []string{"NO_COLOR=1"}
			}
			s := shelltest.Start(t, h, shell, shelltest.Options{RC: searchPrompt[shell] + initLine(shell), Env: env})
			s.Run("false colourword")
			s.Editing()
			from := s.Mark()
			openSearch(s)
			typeQuery(s, "colourword", `false colourword`)
			s.WaitForScreen(regexp.MustCompile(`✗ 1`), 20*time.Second)
			s.Type(esc)
			waitLine(t, s, "")
			c := colours(s.OutputSince(from))
			if noColor && len(c) > 0 {
				t.Errorf("NO_COLOR: the search printed colours %q", c)
			}
			if !noColor && len(c) == 0 {
				t.Errorf("without NO_COLOR the search printed no colour at all (the test would prove nothing)")
			}
		}
	})
}

// TestSearchFullScreen: search.full_screen takes the alternate screen and
// gives the screen back as it was.
func TestSearchFullScreen(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		writeConfig(t, h, "search:\n  full_screen: true\n")
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: searchPrompt[shell] + initLine(shell), Cols: 100, Rows: 30})
		s.Run("echo fullword1")
		s.Editing()
		before := s.WaitForScreen(regexp.MustCompile(`(?m)^P>$`), 20*time.Second) // the prompt drawn
		from := s.Mark()
		openSearch(s)
		typeQuery(s, "fullword", `echo fullword1`)
		s.Type(esc)
		waitLine(t, s, "")
		raw := s.OutputSince(from)
		if !strings.Contains(raw, "\x1b[?1049h") || !strings.Contains(raw, "\x1b[?1049l") {
			t.Errorf("full screen: the alternate screen was not used: %q", raw)
		}
		trim := func(sc string) string { return strings.TrimRight(sc, "\n ") }
		if after := s.Screen(); trim(after) != trim(before) {
			t.Errorf("the screen was not given back as it was:\nbefore:\n%q\nafter:\n%q", before, after)
		}
	})
}

// TestSearchUpArrow: the Up arrow stays the shell's unless search.up_key
// asks for it.
func TestSearchUpArrow(t *testing.T) {
	show := map[string]string{
		"bash": ` { bind -p; bind -s; } | grep -F '"\e[A"'`,
		"zsh":  ` bindkey -M emacs '^[[A'`,
		"fish": ` bind \e\[A`,
	}
	forAllShells(t, func(t *testing.T, shell string) {
		for _, asked := range []bool{false, true} {
			h := newHome(t)
			if asked {
				writeConfig(t, h, "search:\n  up_key: '^[[A'\n")
			}
			s := shelltest.Start(t, h, shell, shelltest.Options{RC: searchPrompt[shell] + initLine(shell)})
			from := s.Mark()
			s.Run(show[shell])
			got := s.OutputSince(from)
			hookd := strings.Contains(got, `\C-x\C-h6`) || strings.Contains(got, "_hookd_search")
			if hookd != asked {
				t.Errorf("search.up_key set: %v; the Up arrow is hookd's: %v (%q)", asked, hookd, got)
			}
		}
	})
}

// TestSearchPager: Ctrl-O shows the whole output in $PAGER (sanitized), and
// the search goes on after it.
func TestSearchPager(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		paged := h.Path("paged.txt")
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: searchPrompt[shell] + initLine(shell),
			Env: []string{"PAGER=cat > " + paged}})
		recordOutput(t, s, `printf 'pagerword line1\nline2 \033[31mred\n'`)
		waitSearchable(t, h, "pagerword")
		s.Editing()
		openSearch(s)
		typeQuery(s, "pagerword", `pagerword`)
		s.Type("\x0f")
		got := shelltest.WaitFile(t, paged, 20*time.Second, func(b []byte) bool { return strings.Contains(string(b), "line2") })
		if !strings.HasPrefix(string(got), "pagerword line1\nline2 ") || strings.Contains(string(got), "\x1b") {
			t.Errorf("the pager got %q; want the whole output, with no escape sequence", got)
		}
		s.WaitForScreen(regexp.MustCompile(`(?m)^› pagerword`), 20*time.Second)
		s.Type(esc)
		waitLine(t, s, "")
	})
}

// TestSearchKeyOff: an empty search.key leaves Ctrl-R to the shell.
func TestSearchKeyOff(t *testing.T) {
	own := map[string]string{"bash": ` bind -p | grep -F '"\C-r"'`, "zsh": ` bindkey -M emacs '^R'`}
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		writeConfig(t, h, "search:\n  key: ''\n")
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: searchPrompt[shell] + initLine(shell)})
		from := s.Mark()
		s.Run(own[shell])
		got := s.OutputSince(from)
		if !strings.Contains(got, "reverse-search-history") && !strings.Contains(got, "history-incremental-search-backward") {
			t.Errorf("search.key '': Ctrl-R is not the shell's own search: %q", got)
		}
	})
}

// TestSearchKeyHeldByAnotherFunction: Ctrl-R bound (before hookd's line)
// to another of the shell's functions stays so; bound to one of the
// shell's history searches, it becomes hookd's. (In bash the first is
// found by bind -p, the second by bind -q or bind -p: both paths.)
func TestSearchKeyHeldByAnotherFunction(t *testing.T) {
	bindings := map[string][2]string{
		"bash": {`bind '"\C-r": redraw-current-line'`, `bind '"\C-r": history-search-backward'`},
		"zsh":  {`bindkey -M emacs '^R' clear-screen`, `bindkey -M emacs '^R' history-incremental-pattern-search-backward`},
	}
	forEachShell(t, func(t *testing.T, shell string) {
		for i, taken := range []bool{false, true} {
			h := newHome(t)
			s := shelltest.Start(t, h, shell, shelltest.Options{RC: searchPrompt[shell] + bindings[shell][i] + "\n" + initLine(shell)})
			from := s.Mark()
			s.Run(showCtrlR[shell] + map[string]string{"bash": `; bind -p | grep -F '"\C-r"'`, "zsh": ""}[shell])
			got := s.OutputSince(from)
			hookd := strings.Contains(got, `\C-x\C-h6`) || strings.Contains(got, "_hookd_search")
			if hookd != taken {
				t.Errorf("Ctrl-R bound with %q: hookd's %v, want %v (%q)", bindings[shell][i], hookd, taken, got)
			}
		}
	})
}
