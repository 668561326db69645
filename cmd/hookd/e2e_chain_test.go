package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/ai/llm/llmtest"
	"github.com/hookd/hookd/internal/shelltest"
)

// chainExample is the chain (package chain's test data).
var chainExample = func() string {
	b, err := os.ReadFile(filepath.Join("..", "..", "internal", "ai", "chain", "testdata", "example.yml"))
	if err != nil {
		panic(err)
	}
	return string(b)
}()

func writeChain(t *testing.T, dir, src string) string {
	t.Helper()
	p := filepath.Join(dir, "chain.yml")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestChainExample: the example runs as written, each run step
// recorded in history with its output; --dry-run prints the plan and runs
// nothing.
func TestChainExample(t *testing.T) {
	h := newHome(t)
	file := writeChain(t, t.TempDir(), chainExample)
	out, errOut, err := hookdRun(h, []string{"SHELL=/bin/sh"}, "chain", "--dry-run", file)
	if err != nil || !strings.Contains(out, "step 4 (fallback): run: echo \"\"'used-default'\"\"") ||
		!strings.Contains(out, "input  $LOUD ← ${shout.loud}") || strings.Contains(out, "HELLO") {
		t.Fatalf("dry run: %v\n%s%s", err, out, errOut)
	}
	if es := entries(t, h); len(es) != 0 {
		t.Fatalf("--dry-run recorded %+v", es)
	}
	out, errOut, err = hookdRun(h, []string{"SHELL=/bin/sh"}, "chain", file)
	if err != nil || out != "hello-chain\nHELLO-CHAIN\nHELLO-CHAIN\nused-default\n" {
		t.Fatalf("chain: %v\nstdout %q\nstderr %s", err, out, errOut)
	}
	if !strings.Contains(errOut, "==> [3/4] step 3 (show): run printenv LOUD") {
		t.Errorf("no step header: %s", errOut)
	}
	es := entries(t, h)
	want := []string{"echo hello-chain", "tr a-z A-Z", "printenv LOUD", `echo ""'used-default'""`}
	if len(es) != len(want) {
		t.Fatalf("recorded %+v", es)
	}
	for i, w := range want {
		if es[i].Command != w || es[i].ExitCode != 0 {
			t.Errorf("entry %d = %q (%d); want %q", i, es[i].Command, es[i].ExitCode, w)
		}
	}
	if got := hookd(t, h, "out", strconv.FormatInt(es[2].ID, 10)); got != "HELLO-CHAIN\n" {
		t.Errorf("show's recorded output = %q", got)
	}
}

// TestChainProblems: a bad file is reported whole, nothing run, exit 2.
func TestChainProblems(t *testing.T) {
	h := newHome(t)
	dir := t.TempDir()
	file := writeChain(t, dir, `steps:
  - id: a
    run: touch ran
    ask: two actions
  - run: echo ${a.missing}
  - explode: now
`)
	_, errOut, err := hookdRun(h, nil, "chain", file)
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Fatalf("exit %v; want 2\n%s", err, errOut)
	}
	for _, want := range []string{file + ":2:7: step 1 (a): 2 actions", "step 2: run: ${a.missing}: step 1 (a) has no output", "step 3: explode: unknown field", "4 problems"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	file = writeChain(t, dir, "steps:\n  - run: [oops\n")
	if _, errOut, _ = hookdRun(h, nil, "chain", file); !strings.Contains(errOut, file+":2:") {
		t.Errorf("YAML error without line: %s", errOut)
	}
	if _, err := os.Stat(filepath.Join(h.Dir, "ran")); err == nil {
		t.Error("a step ran")
	}
}

// TestChainFailure: hookd chain exits with the failing step's status.
func TestChainFailure(t *testing.T) {
	h := newHome(t)
	file := writeChain(t, t.TempDir(), "steps:\n  - run: exit 5\n    continue_on_error: true\n  - run: exit 7\n  - run: echo never\n")
	out, errOut, err := hookdRun(h, []string{"SHELL=/bin/sh"}, "chain", file)
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 7 || strings.Contains(out, "never") {
		t.Errorf("exit %v, stdout %q, stderr %s", err, out, errOut)
	}
}

// TestChainHistory: ${hist.ID.output} is a recorded command's output,
// quoted into the command line; an unknown one takes its default.
func TestChainHistory(t *testing.T) {
	h := newHome(t)
	hookd(t, h, "run", "--", "echo", "remembered; touch pwned")
	id := strconv.FormatInt(entries(t, h)[0].ID, 10)
	file := writeChain(t, t.TempDir(), "steps:\n  - run: echo got ${hist."+id+".output}\n  - run: echo ${hist.99999.output:-none}\n")
	out, errOut, err := hookdRun(h, []string{"SHELL=/bin/sh"}, "chain", file)
	if err != nil || out != "got remembered; touch pwned\nnone\n" {
		t.Errorf("chain: %v, stdout %q\n%s", err, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(h.Dir, "pwned")); err == nil {
		t.Error("a recorded output ran as shell code")
	}
}

// TestChainHistoryRelative: in a hooked shell with capture on,
// ${hist.-1.output} is the output of the command before `hookd chain`, and
// ${hist.-2.output} the one before it. In real bash and zsh.
func TestChainHistoryRelative(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		file := writeChain(t, t.TempDir(), "steps:\n  - run: echo last=${hist.-1.output} before=${hist.-2.output}\n")
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell), Env: []string{"HOOKD_CAPTURE=pty"}})
		s.RunAlone("echo older-output")
		s.RunAlone("echo newest-output")
		s.Run("hookd chain " + file)
		s.WaitForPlain(regexp.MustCompile(`\nlast=newest-output before=older-output\n`), 10*time.Second)
	})
}

// TestChainAsk: an ask step is a question to the model (here the local
// fake server), with an earlier step's output in it; its answer is an
// output the next step uses.
func TestChainAsk(t *testing.T) {
	h := newHome(t)
	fake := llmtest.NewOpenAI(t)
	fake.SetKey("test-key")
	fake.SetReply(llmtest.Reply{Text: []string{"Use ", "tabs."}})
	file := writeChain(t, t.TempDir(), `steps:
  - id: facts
    run: echo indent-style-unknown
    outputs: {text: {extract_from: stdout}}
  - id: advice
    ask: "which indentation? facts: ${facts.text}"
    outputs: {answer: {extract_from: stdout}}
  - run: echo "model said ${advice.answer}"
`)
	out, errOut, err := hookdRun(h, append([]string{"SHELL=/bin/sh"}, llmEnv(fake)...), "chain", file)
	if err != nil || !strings.Contains(out, "model said Use tabs.") {
		t.Fatalf("chain: %v, stdout %q\n%s", err, out, errOut)
	}
	if user := userMessage(t, fake); !strings.Contains(user, "which indentation? facts: indent-style-unknown") {
		t.Errorf("the question the model got:\n%s", user)
	}
}
