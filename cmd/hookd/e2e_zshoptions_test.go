package main

import (
	"regexp"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

// hostileZshOptions are options a user's .zshrc may set that change how
// zsh reads a function's code: arrays from 0, words split and globbed on
// expansion, unset names an error, a failure returning from the function,
// a global assignment warned about. hookd's functions run under
// emulate -L zsh (or are written for any options), so none of them counts.
const hostileZshOptions = "setopt ksh_arrays sh_word_split no_unset rc_expand_param glob_subst no_function_argzero " +
	"warn_create_global err_return ksh_glob sh_glob null_glob no_equals magic_equal_subst no_short_loops " +
	"octal_zeroes no_clobber rc_quotes posix_identifiers typeset_silent ignore_braces posix_builtins\n"

// TestZshHostileOptions: with those options set before and after hookd's
// line, zsh starts quietly, records a command, offers the fix after a
// failure and puts it on the line with the fix key, opens Ctrl-R and puts
// its choice on the line, and completes hookd's command line.
func TestZshHostileOptions(t *testing.T) {
	t.Parallel()
	shelltest.Need(t, "zsh")
	rc := "PROMPT='P> '\n" + hostileZshOptions + initLine("zsh") + "autoload -Uz compinit && compinit -u -D\n" + hostileZshOptions
	h, s := searchShell(t, "zsh", 200, 50, rc)
	s.Run("echo hostile-one")
	s.Sync()
	if got := lastEntry(t, h).Command; got != "echo hostile-one" {
		t.Errorf("recorded %q; want %q", got, "echo hostile-one")
	}
	// A fix offered after the failure, and the fix key puts it on the line.
	s.Type("ech fixed-it\r")
	s.WaitForPlain(regexp.MustCompile(`↳ echo fixed-it\s+fix`), 10*time.Second)
	s.Sync()
	s.Editing()
	s.TypeWait("\x18f", regexp.MustCompile(`^echo fixed-it$`), 10*time.Second)
	s.Type("\r")
	s.WaitForPlain(regexp.MustCompile(`\nfixed-it\n`), 5*time.Second)
	s.Sync()
	if got := lastEntry(t, h).Command; got != "echo fixed-it" {
		t.Errorf("after the fix key, recorded %q; want %q", got, "echo fixed-it")
	}
	// Ctrl-R: the search, its choice on the line.
	s.Editing()
	openSearch(s)
	typeQuery(s, "hostile-one", `echo hostile-one`)
	s.Type("\t")
	waitLine(t, s, "echo hostile-one")
	s.Type("\x15")
	s.Sync()
	// Completion of hookd's command line.
	for _, c := range []struct{ typed, want string }{
		{"hookd sugg", "hookd suggest "},
		{"hookd suggest --fail", "hookd suggest --failed "},
	} {
		s.Editing()
		s.Type(c.typed + "\t")
		s.WaitForPlain(regexp.MustCompile(regexp.QuoteMeta(c.want)+`$`), 10*time.Second)
		s.Type("\x15")
	}
	s.Sync()
	if out := s.Plain(); regexp.MustCompile(`_hookd\w*:\d|\(eval\):|compinit:|hookd: |parameter not set|bad (substitution|pattern|math|output|set of key)|parse error|condition expected`).MatchString(out) {
		t.Errorf("an error under the user's options:\n%s", out)
	}
}

// TestZshLeavesNoGlobals: hookd's line leaves no global parameter in the
// user's zsh but its own (_hookd_*, HOOKD_*), the hooks' arrays and what
// zsh/datetime and the line editor bring; REPLY, which its start-up has
// always set, aside.
// A start-up leftover is not only clutter: zsh scans every parameter when
// a function returns, so each costs at every prompt (benchmarks.md §29:
// reply, left by the key checks, cost about 300 instructions a command).
func TestZshLeavesNoGlobals(t *testing.T) {
	t.Parallel()
	shelltest.Need(t, "zsh")
	h := newHome(t)
	rc := "typeset -ga _t_before; _t_before=(${(k)parameters} _t_before _t_p)\n" + initLine("zsh")
	s := shelltest.Start(t, h, "zsh", shelltest.Options{RC: rc})
	m := s.Mark()
	// (The quotes split the marker, so that the echoed line does not match.)
	s.Run(`for _t_p in ${(k)parameters}; do (( ${_t_before[(Ie)$_t_p]} )) || print -r -- "NEW""PARAM[$_t_p]"; done; print "END""LIST"`)
	s.WaitSince(m, regexp.MustCompile(`ENDLIST`), 10*time.Second)
	own := regexp.MustCompile(`^(_hookd_\w+|HOOKD_\w+|precmd_functions|preexec_functions|EPOCHREALTIME|EPOCHSECONDS|epochtime|zle_bracketed_paste|REPLY)$`)
	for _, got := range regexp.MustCompile(`NEWPARAM\[([^\]\s]*)\]`).FindAllStringSubmatch(s.OutputSince(m), -1) {
		if !own.MatchString(got[1]) {
			t.Errorf("hookd's line left the global parameter %s in the user's shell", got[1])
		}
	}
}
