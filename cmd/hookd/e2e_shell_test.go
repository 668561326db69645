package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

// A bash stand-in for bash-preexec (which cannot be fetched here): a DEBUG
// trap and a PROMPT_COMMAND wrapper with its habits (it saves $? first and
// restores it, and reads the command with `history 1`).
const fakePreexecBash = `
__fp_last=
__fp_precmd() { __fp_ret=$?; __fp_last=precmd; return $__fp_ret; }
__fp_debug() { [[ $BASH_COMMAND == __fp_precmd* ]] && return; __fp_seen=$(HISTTIMEFORMAT= builtin history 1); }
trap '__fp_debug' DEBUG
PROMPT_COMMAND="__fp_precmd${PROMPT_COMMAND:+;$PROMPT_COMMAND}"
`

func TestPromptKeepsStatus(t *testing.T) {
	cases := []struct {
		name, shell, rc string
		line            string
		want            *regexp.Regexp // what the prompt after line must show
	}{
		{"bash/$?", "bash", "set -u\nPS1='[st=$?] $ '\n" + initLine("bash"), "false", regexp.MustCompile(`\[st=1\] \$ `)},
		{"bash/PIPESTATUS", "bash", "set -u\nPS1='[ps=${PIPESTATUS[*]}] $ '\n" + initLine("bash"), "true | false | true", regexp.MustCompile(`\[ps=0 1 0\] \$ `)},
		{"bash/PROMPT_COMMAND string", "bash",
			"PROMPT_COMMAND='__st=$?'\nPS1='[st=$__st] $ '\n" + initLine("bash"), "(exit 3)", regexp.MustCompile(`\[st=3\] \$ `)},
		{"bash/PROMPT_COMMAND array and DEBUG trap", "bash",
			"trap '__dbg=1' DEBUG\nPROMPT_COMMAND=('__st=$?' '__two=ok')\nPS1='[st=$__st $__two dbg=$__dbg] $ '\n" + initLine("bash"),
			"(exit 4)", regexp.MustCompile(`\[st=4 ok dbg=1\] \$ `)},
		{"bash/preexec framework first", "bash", fakePreexecBash + "PS1='[st=$?] $ '\n" + initLine("bash"), "(exit 5)", regexp.MustCompile(`\[st=5\] \$ `)},
		{"bash/preexec framework last", "bash", initLine("bash") + fakePreexecBash + "PS1='[st=$?] $ '\n", "(exit 6)", regexp.MustCompile(`\[st=6\] \$ `)},
		{"bash/sourced twice", "bash", initLine("bash") + initLine("bash") + "PS1='[st=$?] $ '\n", "(exit 7)", regexp.MustCompile(`\[st=7\] \$ `)},
		{"zsh/%?", "zsh", "setopt nounset\nPROMPT='[st=%?] %# '\n" + initLine("zsh"), "false", regexp.MustCompile(`\[st=1\] [#%] `)},
		{"zsh/pipestatus", "zsh", "setopt nounset promptsubst\nPROMPT='[ps=${pipestatus[*]}] %# '\n" + initLine("zsh"), "true | false | true", regexp.MustCompile(`\[ps=0 1 0\] [#%] `)},
		{"zsh/hooks before", "zsh", "precmd_functions=(__mine)\n__mine() { __st=$? }\nsetopt promptsubst\nPROMPT='[st=$__st] %# '\n" + initLine("zsh"), "(exit 3)", regexp.MustCompile(`\[st=3\] [#%] `)},
		{"zsh/hooks after", "zsh", initLine("zsh") + "precmd_functions+=(__mine)\n__mine() { __st=$? }\nsetopt promptsubst\nPROMPT='[st=$__st] %# '\n", "(exit 4)", regexp.MustCompile(`\[st=4\] [#%] `)},
		{"zsh/sourced twice", "zsh", initLine("zsh") + initLine("zsh") + "PROMPT='[st=%?] %# '\n", "(exit 7)", regexp.MustCompile(`\[st=7\] [#%] `)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHome(t)
			s := shelltest.Start(t, h, tc.shell, shelltest.Options{RC: tc.rc})
			s.Type(tc.line + "\r")
			s.WaitForPlain(regexp.MustCompile(`(?s)`+regexp.QuoteMeta(tc.line)+`\n.*`+tc.want.String()), 10*time.Second)
			s.Run("echo after")
			got := commandsOf(entries(t, h))
			if !equal(got, []string{tc.line, "echo after"}) {
				t.Errorf("recorded %q; want %q and %q once each", got, tc.line, "echo after")
			}
		})
	}
}

func TestQuietAndNoForkAtInit(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		rc := "PS1='READY> '\nPROMPT='READY> '\n" + initLine(shell)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: rc, FirstPrompt: "READY> "})
		out := s.Output()
		first := strings.Index(out, "READY> ")
		if first < 0 {
			t.Fatalf("no prompt: %q", out)
		}
		// Before the first prompt: nothing at all (zsh may draw its
		// PROMPT_SP marker, which is all escapes and spaces; under
		// capture, an OSC 133 prompt mark, which no terminal shows).
		before := regexp.MustCompile(`\x1b\[[0-9;?]*[a-zA-Z]|\x1b\]133;[A-D][^\a]*\a|[ \r\n%#]`).ReplaceAllString(out[:first], "")
		if before != "" {
			t.Errorf("hookd init printed %q before the first prompt", before)
		}
	})
}

func TestSpecialBytes(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell)})
		// Ctrl-V makes both line editors insert the next byte as it is;
		// the rest is typed once the editor shows the escape (as ^[), so
		// that it cannot be read as part of a key sequence.
		s.Editing()
		s.Type("echo esc:\x16\x1b")
		s.WaitForPlain(regexp.MustCompile(`esc:\^\[`), 5*time.Second)
		s.Run("[31m:end")
		s.Editing()
		s.Run("echo 'tab:\x16\t:end'")
		got := commandsOf(entries(t, h))
		want := []string{"echo esc:\x1b[31m:end", "echo 'tab:\t:end'"}
		if !equal(got, want) {
			t.Fatalf("recorded %q; want %q", got, want)
		}
		// On a terminal the listing shows the escape, never the raw byte.
		out := hookd(t, h, "history")
		if strings.Contains(out, "\x1b") || !strings.Contains(out, `esc:\e[31m:end`) {
			t.Errorf("history printed %q", out)
		}
	})
}

func TestMultiLine(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		rc := initLine(shell)
		if shell == "bash" {
			rc = "shopt -s cmdhist lithist\n" + rc // bash keeps newlines only with lithist
		}
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: rc})
		s.Type("for i in 1 2; do\r")
		s.Type("echo \"line $i\"\r")
		s.Type("done\r")
		s.Sync()
		got := commandsOf(entries(t, h))
		want := []string{"for i in 1 2; do\necho \"line $i\"\ndone"}
		if !equal(got, want) {
			t.Fatalf("recorded %q; want %q", got, want)
		}
	})
}

func TestHistoryOffRecordsNothing(t *testing.T) {
	shelltest.Need(t, "bash")
	h := newHome(t)
	s := shelltest.Start(t, h, "bash", shelltest.Options{RC: "HISTCONTROL=ignoreboth\n" + initLine("bash")})
	s.Run("echo one")
	s.Run("echo one") // a repeat bash does not keep: hookd cannot tell it from an ignored line
	s.Run("set +o history")
	s.Run("echo while off")
	s.Run("set -o history")
	s.Run("echo two")
	got := commandsOf(entries(t, h))
	want := []string{"echo one", "set +o history", "echo two"}
	if !equal(got, want) {
		t.Fatalf("recorded %q; want %q", got, want)
	}
}

func TestNestedShellIsNewSession(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell)})
		s.Run("echo outer")
		// The child reads the same rc file (ZDOTDIR / --rcfile).
		child := "bash --noprofile --rcfile ~/.bashrc -i"
		if shell == "zsh" {
			child = "zsh -d -i"
		}
		s.Run(child)
		s.Run("echo inner")
		s.Type("exit\r")
		s.Sync()
		s.Run("echo outer again")
		es := entries(t, h)
		sessions := map[string]string{}
		for _, e := range es {
			sessions[e.Command] = e.Session
		}
		if sessions["echo inner"] == "" || sessions["echo inner"] == sessions["echo outer"] {
			t.Errorf("inner shell's session %q; outer %q: want a new one", sessions["echo inner"], sessions["echo outer"])
		}
		if sessions["echo outer again"] != sessions["echo outer"] {
			t.Errorf("outer session changed after the child exited: %q vs %q", sessions["echo outer again"], sessions["echo outer"])
		}
	})
}

func TestBinaryRemovedMidSession(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		dir := filepath.Join(h.Dir, "opt")
		os.MkdirAll(dir, 0o755)
		tmpBin := filepath.Join(dir, "hookd")
		// cp, not a write from this process: a parallel test forking while
		// the file is open for writing would make its exec fail (ETXTBSY).
		if out, err := exec.Command("cp", hookdBin, tmpBin).CombinedOutput(); err != nil {
			t.Fatalf("cp: %v %s", err, out)
		}
		rc := "PS1='P> '\nPROMPT='P> '\neval \"$('" + tmpBin + "' init " + shell + ")\"\n"
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: rc})
		h.StopDaemon()
		os.Remove(tmpBin)
		mark := len(s.Output())
		s.Run("echo still works")
		s.Run("false")
		if out := s.Output()[mark:]; strings.Contains(out, "hookd") || strings.Contains(out, "not found") {
			t.Errorf("the shell complained after the binary went away: %q", out)
		}
		// The records waited in the spool; another hookd reads them.
		got := commandsOf(entries(t, h))
		if !equal(got, []string{"echo still works", "false"}) {
			t.Errorf("recorded %q", got)
		}
	})
}

func TestInitErrors(t *testing.T) {
	h := newHome(t)
	_, errOut, err := hookdRun(h, nil, "init", "nu")
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(errOut, "bash, fish, zsh") {
		t.Errorf("init nu: %v, %q; want exit 2 naming the supported shells", err, errOut)
	}
	_, errOut, err = hookdRun(h, nil, "history", "--bogus")
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(errOut, "usage: hookd history") {
		t.Errorf("history --bogus: %v, %q; want usage and exit 2", err, errOut)
	}
	_, errOut, err = hookdRun(h, nil, "frobnicate")
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(errOut, "unknown command") {
		t.Errorf("frobnicate: %v, %q", err, errOut)
	}
}

// TestSpoolDirRemoved removes the spool directory under a running shell:
// the shell stays quiet, and records again once the daemon has made the
// directory again.
func TestSpoolDirRemoved(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell)})
		s.Run("echo before")
		entries(t, h) // ingested: the spool may go
		spool := h.Path(".local", "state", "hookd", "spool")
		if err := os.RemoveAll(spool); err != nil {
			t.Fatal(err)
		}
		mark := len(s.Output())
		s.Run("echo while gone")
		if out := s.Output()[mark:]; strings.Contains(out, "No such file") || strings.Contains(out, "spool") {
			t.Errorf("the shell complained: %q", out)
		}
		// The daemon (or any hookd command) makes the directory again.
		hookd(t, h, "history")
		s.Run("echo after")
		got := commandsOf(entries(t, h))
		if len(got) < 2 || got[0] != "echo before" || got[len(got)-1] != "echo after" {
			t.Errorf("recorded %q; want echo before … echo after", got)
		}
	})
}
