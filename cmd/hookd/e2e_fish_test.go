package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

// fishLine is config.fish's line that loads hookd.
const fishLine = "hookd init fish | source\n"

// startFish starts fish with hookd loaded from config.fish (rc before the
// line, if any).
func startFish(t *testing.T, h *shelltest.Home, rc string, env ...string) *shelltest.Shell {
	t.Helper()
	shelltest.Need(t, "fish")
	return shelltest.Start(t, h, "fish", shelltest.Options{RC: rc + fishLine, Env: env})
}

// TestFishRecords: fish's hooks record each command as typed (a
// multi-line one too), its status and pipestatus, its duration and the
// directory it started in, in one session; an empty line, a line with a
// leading space is not recorded.
func TestFishRecords(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	sub := h.Path("sub dir")
	os.MkdirAll(sub, 0o755)
	s := startFish(t, h, "")
	lines := []string{
		"echo hello",
		"false",
		"false | true",
		`echo "double quoted" 'single quoted' it\'s`,
		"echo 日本語 ✓",
		"cd 'sub dir'",
		"pwd",
		"sleep 0.2",
	}
	for _, l := range lines {
		s.Run(l)
	}
	s.Type("\r") // an empty line: nothing recorded
	s.Sync()
	s.Run(" echo private")
	// A command of two lines, typed as such (the first line open).
	s.Type("begin\recho two\rend\r")
	s.Sync()
	s.Run("cd ..")
	es := entries(t, h)
	want := append(append([]string{}, lines...), "begin\necho two\nend", "cd ..")
	if got := commandsOf(es); !equal(got, want) {
		t.Fatalf("recorded %q; want %q", got, want)
	}
	byCmd := map[string]rec{}
	for _, e := range es {
		byCmd[e.Command] = e
	}
	if e := byCmd["false"]; e.ExitCode != 1 || !equal(intsToStrings(e.Pipestatus), []string{"1"}) {
		t.Errorf("false: exit %d pipestatus %v; want 1 [1]", e.ExitCode, e.Pipestatus)
	}
	if e := byCmd["false | true"]; !equal(intsToStrings(e.Pipestatus), []string{"1", "0"}) || e.ExitCode != 0 {
		t.Errorf("pipeline: exit %d pipestatus %v; want 0 [1 0]", e.ExitCode, e.Pipestatus)
	}
	if e := byCmd["cd 'sub dir'"]; e.Cwd != h.Dir {
		t.Errorf("cd: cwd %q; want the directory it started in, %q", e.Cwd, h.Dir)
	}
	if e := byCmd["pwd"]; e.Cwd != sub {
		t.Errorf("pwd: cwd %q; want %q", e.Cwd, sub)
	}
	if e := byCmd["sleep 0.2"]; e.DurationMS < 200 || e.DurationMS > 5000 {
		t.Errorf("sleep 0.2: duration %.1f ms", e.DurationMS)
	}
	e := byCmd["echo hello"]
	if e.DurationMS > 1000 || e.Shell != "fish" || e.Session == "" {
		t.Errorf("echo hello: %+v", e)
	}
	// The start times are the wall clock's, within the test's time.
	if st, err := time.Parse(time.RFC3339Nano, e.StartedAt); err != nil || time.Since(st) > time.Minute || time.Until(st) > 5*time.Second {
		t.Errorf("echo hello started at %q (%v); want about now", e.StartedAt, err)
	}
	for i := 1; i < len(es); i++ {
		if es[i].Seq <= es[i-1].Seq || es[i].Session != es[0].Session {
			t.Errorf("entry %d: session %s seq %d after %s seq %d", i, es[i].Session, es[i].Seq, es[i-1].Session, es[i-1].Seq)
		}
	}
}

// TestFishStatusKept: the prompt and the next command see the command's
// own $status and $pipestatus, after hookd's handlers (a failure's too,
// which starts hookd suggest).
func TestFishStatusKept(t *testing.T) {
	t.Parallel()
	h := newHome(t)
	s := startFish(t, h, "function fish_prompt; printf 'st=%s ps=%s> ' $status \"$pipestatus\"; end\n")
	m := s.Mark()
	s.Run("true | false")
	s.WaitPlainSince(m, regexp.MustCompile(`st=1 ps=0 1> `), 20*time.Second)
	m = s.Mark()
	s.Run("sh -c 'exit 3'")
	s.WaitPlainSince(m, regexp.MustCompile(`st=3 ps=3> `), 20*time.Second)
	m = s.Mark()
	s.Run("false | true; echo got=$status/\"$pipestatus\"")
	s.WaitPlainSince(m, regexp.MustCompile(`got=0/1 0`), 20*time.Second)
	if got := commandsOf(entries(t, h)); len(got) != 3 || !strings.HasPrefix(got[1], "sh -c") {
		t.Errorf("recorded %q", got)
	}
}
