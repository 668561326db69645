package analyze_test

import (
	"reflect"
	"testing"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/analyzetest"
)

func vocab(tool string, v analyze.Vocab) func(*analyzetest.Facts) {
	return func(f *analyzetest.Facts) {
		if f.Vocabs == nil {
			f.Vocabs = map[string]analyze.Vocab{}
		}
		f.Vocabs[tool] = v
	}
}

// TestParseCompletion: zsh's _arguments specs and _describe arrays, and
// bash-completion's word lists, read as data.
func TestParseCompletion(t *testing.T) {
	zsh := `#compdef timeout
_arguments -S \
  '(-s --signal)'{-s,--signal}'[specify the signal to send on timeout]:signal:_signals' \
  '(-k --kill-after)'{-k,--kill-after}'[followup first signal]:time' \
  '-Wall[warn about everything]' \
  '--preserve-status[exit with the same status as command]'
  local -a cmds=(
    'status:Show current time settings'
    'list-timezones:Show known timezones'
  )
  [[ -n $foo ]] && _describe command cmds
`
	got := analyze.ParseCompletion(zsh)
	want := analyze.Vocab{Options: []string{"--signal", "--kill-after", "--preserve-status", "-Wall"}, Commands: []string{"status", "list-timezones"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("zsh: got %#v\nwant %#v", got, want)
	}
	bash := `_comp_cmd_foo() {
    COMPREPLY=($(compgen -W 'start stop restart --help' -- "$cur"))
    COMPREPLY=($(compgen -W "$(_foo_units)" -- "$cur"))
    [[ $cur == -* ]] && COMPREPLY=($(compgen -W '--verbose --dry-run' -- "$cur"))
}`
	got = analyze.ParseCompletion(bash)
	want = analyze.Vocab{Options: []string{"--help", "--verbose", "--dry-run"}, Commands: []string{"start", "stop", "restart"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("bash: got %#v\nwant %#v", got, want)
	}
	// fish 3.6's own files (rustup.fish, tmux.fish, zstd.fish, gcc.fish, 7z.fish).
	fish := `set -l subcmds \
    show \
    update \
    # "completions" \
    help

set -l attach 'attach-session attach at a'
set -l noopt '__fish_not_contain_opt -s x'
function __rustup_components
    set -l parts (rustup component list)
end
complete -c zstd -s d -l decompress -l uncompress -d Decompress -k -x -a "
complete -c gcc -o Wall -d 'All of the above -W options combined'
complete -f -c 7z -n __fish_use_subcommand -a l -d List
complete -f -c 7z -n __fish_use_subcommand -a rn -d Rename
complete -c 7z -n "__fish_seen_subcommand_from e l t x" -o ai -d "Include archives"
complete -c ps -n __fish_use_subcommand -xa '(__fish_complete_pids)'
`
	got = analyze.ParseCompletion(fish)
	want = analyze.Vocab{Options: []string{"--decompress", "--uncompress", "-Wall", "-ai"}, Commands: []string{"show", "update", "help", "attach-session", "attach", "at", "rn"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fish: got %#v\nwant %#v", got, want)
	}
}

// TestCompletionVocabulary: a typo of an option or a subcommand that only
// the tool's completion files name (no manual page) is corrected; nothing
// is offered without them.
func TestCompletionVocabulary(t *testing.T) {
	tdc := vocab("timedatectl", analyze.Vocab{Commands: []string{"status", "show", "list-timezones", "set-timezone"}})
	runCases(t, []ruleCase{
		{name: "option from zsh", cmd: "frob --singal=KILL 1 true", env: vocab("frob", analyze.Vocab{Options: []string{"--signal", "--kill-after"}}),
			out: "frob: unrecognized option '--singal=KILL'\nTry 'frob --help' for more information.\n", want: "frob --signal=KILL 1 true"},
		{name: "no completion: nothing", cmd: "frob --singal=KILL 1 true",
			out: "frob: unrecognized option '--singal=KILL'\nTry 'frob --help' for more information.\n", want: ""},
		{name: "dpkg's wording", cmd: "dpkg --listfils coreutils", env: vocab("dpkg", analyze.Vocab{Options: []string{"--list", "--listfiles"}}),
			out: "dpkg: error: unknown option --listfils\n\nType dpkg --help for help about installing and deinstalling packages [*];\n", want: "dpkg --listfiles coreutils"},
		{name: "subcommand from zsh", cmd: "timedatectl lsit-timezones", env: tdc,
			out: "Unknown command verb 'lsit-timezones'.\n", want: "timedatectl list-timezones", typ: "syntax_error"},
		{name: "subcommand not near: nothing", cmd: "timedatectl zzzzzz", env: tdc,
			out: "Unknown command verb 'zzzzzz'.\n", want: ""},
	})
}

// TestFarGuessDropped: a name two letters off that is not a swap is a far
// guess; well below the best fix it is noise, not a second fix (`pacman -S
// htop` offered `catman -S htop` after `apt install htop`). Alone, or as
// close as another candidate, it is still offered.
func TestFarGuessDropped(t *testing.T) {
	for _, tc := range []struct {
		cmd, out string
		env      func(*analyzetest.Facts)
		want     []string
	}{
		{"pacman -S htop", "bash: pacman: command not found\n", exes("catman"), []string{"apt install htop"}},
		// A subcommand: set-timezone, far behind list-timezones, is no second.
		{"timedatectl lsit-timezones", "Unknown command verb 'lsit-timezones'.\n",
			vocab("timedatectl", analyze.Vocab{Commands: []string{"status", "list-timezones", "set-timezone"}}), []string{"timedatectl list-timezones"}},
		// The only fix: shown.
		{"cetmon page", "bash: cetmon: command not found\n", exes("catman"), []string{"catman page"}},
	} {
		facts := baseFacts()
		tc.env(facts)
		r := analyze.Analyze(t.Context(), analyze.Input{Command: tc.cmd, ExitCode: 127, Output: tc.out, Cwd: "/w", Shell: "bash", Env: facts})
		var got []string
		for _, f := range r.Fixes {
			got = append(got, f.Command)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: fixes %q; want %q", tc.cmd, got, tc.want)
		}
	}
}

// TestEquivalentAnswersOnce: two answers that are the same command, -f and
// --force as rm's manual page pairs them, or options reordered, are shown
// once, the more confident (or the first, when as confident) (issue 37
// item 5).
func TestEquivalentAnswersOnce(t *testing.T) {
	rules, errs := analyze.CompilePatterns([]analyze.Pattern{
		{Name: "stale", Output: `stale build`, Fixes: []analyze.PatternFix{
			{Command: "rm -rf build"}, {Command: "rm --force -r build"}, {Command: "make clean"}}},
	})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	facts := baseFacts()
	manPageAt("/usr/share/man/man1/rm.1.gz", ".TP\n\\fB\\-f\\fR, \\fB\\-\\-force\\fR\nignore nonexistent files\n.TP\n\\fB\\-r\\fR, \\fB\\-R\\fR, \\fB\\-\\-recursive\\fR\nremove directories\n")(facts)
	a := analyze.Analyzer{Rules: append(analyze.DefaultRules(), rules...)}
	r := a.Analyze(t.Context(), analyze.Input{Command: "make", ExitCode: 2, Output: "make: stale build\n", Cwd: "/w", Shell: "bash", Env: facts})
	var got []string
	for _, f := range r.Fixes {
		got = append(got, f.Command)
	}
	if want := []string{"make clean", "rm --force -r build"}; !reflect.DeepEqual(got, want) {
		t.Errorf("fixes %q; want %q", got, want)
	}
}
