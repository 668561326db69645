package ingest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/internal/recording/ingest"
	"github.com/hookd/hookd/internal/recording/runrecord"
)

// TestAgentCommands: a coding agent's commands, each written in a spool
// file of its own by a process that has ended, land in one session with
// the agent as its author, marked as an agent's, with their outputs; the
// files are removed once read.
func TestAgentCommands(t *testing.T) {
	e := newEnv(t)
	outDir := filepath.Join(filepath.Dir(e.dir), "outputs")
	start := time.Unix(1_800_000_000, 0)
	session := runrecord.AgentSession("claude-code", "sess-1")
	for i, text := range []string{"make", "make test"} {
		out := capture.NewBuffer(1 << 20)
		fmt.Fprintf(out, "output %d\n", i)
		c := runrecord.Command{Text: text, Cwd: "/src", Status: i, Start: start.Add(time.Duration(i) * time.Second),
			End: start.Add(time.Duration(i)*time.Second + time.Millisecond), Output: out}
		// A pid that no longer runs: the hook process has ended.
		w := runrecord.Writer{Shell: "agent", PID: 999999999, Author: "claude-code"}
		if err := runrecord.SaveAgent(e.dir, outDir, w, c, session, int64(10+i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ingest.Pass(t.Context(), e.store, e.dir, outDir, e.rules, time.Now()); err != nil {
		t.Fatal(err)
	}
	es := e.entries()
	if len(es) != 2 {
		t.Fatalf("%d entries; want 2", len(es))
	}
	for i, en := range es {
		if en.Session != session || en.Seq != int64(10+i) || en.Author != "claude-code" || en.Source != "agent" || en.Shell != "agent" || en.ExitCode != i {
			t.Errorf("entry %d = %+v; want session %s, seq %d, author claude-code, source agent", i, en, session, 10+i)
		}
		o, err := e.store.Output(t.Context(), en.Session, en.Seq, "")
		if want := fmt.Sprintf("output %d\n", i); err != nil || string(o.Text) != want {
			t.Errorf("output of %q = %q, %v; want %q", en.Command, o.Text, err, want)
		}
	}
	if files, _ := os.ReadDir(e.dir); len(files) != 0 {
		t.Errorf("spool dir still holds %d files after the pass", len(files))
	}
	se, err := e.store.Session(t.Context(), session)
	if err != nil || se.Author != "claude-code" || se.Capture != "agent" {
		t.Errorf("session = %+v, %v", se, err)
	}
}

// TestAgentWhy: an agent's intents and prompts are stored redacted; the
// intent of a command history.ignore leaves out is not; with
// DropPrompts (agents.keep_prompts: false) no prompt is, even one already
// in a spool.
func TestAgentWhy(t *testing.T) {
	for _, drop := range []bool{false, true} {
		e := newEnv(t)
		e.rules = &ingest.Rules{Ignore: []*regexp.Regexp{regexp.MustCompile(`^secret-tool`)}, DropPrompts: drop}
		outDir := filepath.Join(filepath.Dir(e.dir), "outputs")
		start := time.Unix(1_800_000_000, 0)
		session := runrecord.AgentSession("claude-code", "sess-1")
		w := runrecord.Writer{Shell: "agent", PID: 999999999, Author: "claude-code"}
		if err := runrecord.SavePrompt(e.dir, w, session, 1, start, "deploy with ghp_0123456789abcdefghijABCDEFGHIJ012345"); err != nil {
			t.Fatal(err)
		}
		for i, c := range []runrecord.Command{{Text: "make", Intent: "Build it"}, {Text: "secret-tool --x", Intent: "Do the secret thing"}} {
			c.Cwd, c.Start, c.End = "/src", start.Add(time.Second), start.Add(2*time.Second)
			if err := runrecord.SaveAgent(e.dir, outDir, w, c, session, int64(2+i)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := ingest.Pass(t.Context(), e.store, e.dir, outDir, e.rules, time.Now()); err != nil {
			t.Fatal(err)
		}
		why, err := e.store.Why(t.Context(), session, 2)
		wantPrompt := "deploy with [REDACTED]"
		if drop {
			wantPrompt = ""
		}
		if err != nil || why.Intent != "Build it" || why.Prompt != wantPrompt {
			t.Errorf("drop %v: Why(make) = %+v, %v; want intent Build it, prompt %q", drop, why, err, wantPrompt)
		}
		if why, _ := e.store.Why(t.Context(), session, 3); why.Intent != "" {
			t.Errorf("an ignored command's intent was kept: %+v", why)
		}
	}
}
