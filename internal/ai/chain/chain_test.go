package chain

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookd/hookd/internal/recording/runrecord"

	"github.com/hookd/hookd/internal/required"
)

// example is the chain, which must work as written.
func example(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "example.yml"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// load parses and checks, failing the test on a problem.
func load(t *testing.T, dir, src string) *Chain {
	t.Helper()
	c, err := Parse("chain.yml", []byte(src))
	if err == nil {
		err = Check(c, dir)
	}
	if err != nil {
		t.Fatalf("problems:\n%v", err)
	}
	return c
}

func run(t *testing.T, dir string, c *Chain) (string, string, []runrecord.Command, error) {
	t.Helper()
	var out, errOut strings.Builder
	var recorded []runrecord.Command
	err := Run(context.Background(), c, Options{Dir: dir, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut,
		Shell: "/bin/sh", Limit: 1 << 20, Record: func(c runrecord.Command) { recorded = append(recorded, c) }})
	return out.String(), errOut.String(), recorded, err
}

func TestExample(t *testing.T) {
	dir := t.TempDir()
	out, errOut, recorded, err := run(t, dir, load(t, dir, example(t)))
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, errOut)
	}
	if out != "hello-chain\nHELLO-CHAIN\nHELLO-CHAIN\nused-default\n" {
		t.Errorf("stdout = %q", out)
	}
	if len(recorded) != 4 || recorded[0].Text != "echo hello-chain" || recorded[3].Status != 0 {
		t.Errorf("recorded %+v", recorded)
	}
	if !strings.Contains(errOut, "==> [2/4] step 2 (shout): run tr a-z A-Z") {
		t.Errorf("no header in stderr %q", errOut)
	}
}

func TestPlainSteps(t *testing.T) {
	dir := t.TempDir()
	out, _, recorded, err := run(t, dir, load(t, dir, "steps:\n  - run: echo one\n  - run: echo two\n"))
	if err != nil || out != "one\ntwo\n" || len(recorded) != 2 {
		t.Errorf("out %q, %d recorded, err %v", out, len(recorded), err)
	}
}

// TestProblemsAtOnce: everything wrong is reported, with step, field and
// line, in one error.
func TestProblemsAtOnce(t *testing.T) {
	src := `steps:
  - id: a
    run: echo a
    ask: both
  - id: a
    run: echo dup
  - id: b
    frobnicate: x
  - id: c
    run: echo ${a.nope} ${ghost.x} ${d.out}
    inputs:
      in: {from: "${zzz.y}", pass_as: stdin}
      nopass: {from: "${a.x}"}
  - id: d
    run: echo ${c.out}
    outputs:
      out: {extract_from: stdout}
      g: {extract_from: {git_commit: {file_pattern: "*.md"}}}
      bad: {extract_from: {socket: {path: x}}}
`
	_, err := Load("chain.yml", []byte(src), t.TempDir())
	var ps Problems
	if !errors.As(err, &ps) || len(ps) != 13 {
		t.Errorf("%d problems; want 13", len(ps))
	}
	msg := err.Error()
	for _, want := range []string{
		"chain.yml:2:7: step 1 (a): 2 actions (run, ask)",
		"chain.yml:5: step 2 (a): id: duplicate id \"a\"",
		"step 3 (b): frobnicate: unknown field",
		"step 3 (b): no action",
		"chain.yml:9: step 4 (c): run: ${a.nope}: step 1 (a) has no output \"nope\" (it declares none)",
		"step 4 (c): run: ${ghost.x}: no step has the id \"ghost\"",
		"step 4 (c): run: ${d.out}: cycle c → d → c",
		"step 4 (c): inputs.in.from: ${zzz.y}: no step has the id \"zzz\"",
		"step 4 (c): inputs.nopass.pass_as: missing",
		"step 5 (d): run: ${c.out}: step 4 (c) has no output",
		"step 5 (d): outputs.g.extract_from.git_commit: ",
		"is not in a git repository",
		"step 5 (d): outputs.bad.extract_from: unknown source \"socket\"",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("problems lack %q:\n%s", want, msg)
		}
	}
}

func TestForwardReference(t *testing.T) {
	_, err := Parse("f.yml", nil)
	if err == nil {
		t.Error("an empty file is accepted")
	}
	c, _ := Parse("f.yml", []byte("steps:\n  - run: echo ${later.x}\n  - id: later\n    run: echo\n    outputs:\n      x: {extract_from: stdout}\n"))
	if err := Check(c, "."); err == nil || !strings.Contains(err.Error(), "forward reference: step 2 (later) runs after this step") {
		t.Errorf("forward reference: %v", err)
	}
}

func TestYAMLError(t *testing.T) {
	_, err := Parse("bad.yml", []byte("steps:\n  - run: echo a\n    id: [unclosed\n"))
	var ps Problems
	if !errors.As(err, &ps) || len(ps) != 1 || ps[0].Line == 0 || ps[0].Column == 0 {
		t.Fatalf("YAML error = %#v", err)
	}
	if !strings.HasPrefix(ps[0].String(), "bad.yml:3:") {
		t.Errorf("YAML error without its line: %s", ps[0])
	}
}

// TestPassAs: stdin, arguments in the order of their positions, and
// the environment; defaults when the reference has no value.
func TestPassAs(t *testing.T) {
	dir := t.TempDir()
	c := load(t, dir, `steps:
  - id: src
    run: printf 'one two'
    outputs:
      all: {extract_from: stdout}
      first: {extract_from: stdout, pattern: "^(\\w+)"}
      fixed: {extract_from: {variable: {value: "a value"}}}
  - run: printf '[%s]'
    inputs:
      second: {from: "${src.fixed}", pass_as: {argument: {position: 1}}}
      zeroth: {from: "${src.first}", pass_as: {argument: {position: 0}}}
      third: {default: "it's", pass_as: {argument: {position: 2}}}
  - run: printf '<%s>' "$X"; cat
    inputs:
      env: {from: "${src.all}", pass_as: {environment: {name: X}}}
      in: {from: "${nobody.x}", default: fallback-in, pass_as: stdin}
`)
	out, errOut, _, err := run(t, dir, c)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if want := "one two[one][a value][it's]<one two>fallback-in\n"; out != want {
		t.Errorf("stdout = %q; want %q", out, want)
	}
}

// TestInjection: an output substituted into a command line is data, in
// or out of quotes.
func TestInjection(t *testing.T) {
	dir := t.TempDir()
	c := load(t, dir, strings.ReplaceAll(`steps:
  - id: evil
    run: printf '%s\n' "x'; touch pwned1; echo '\"; touch pwned2; \"\$(touch pwned3)BQtouch pwned4BQ"
    outputs:
      v: {extract_from: stdout}
  - run: echo ${evil.v}; echo "${evil.v}"; echo '${evil.v}'
`, "BQ", "\\`"))
	out, errOut, _, err := run(t, dir, c)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	for i := 1; i <= 4; i++ {
		if _, err := os.Stat(filepath.Join(dir, "pwned"+string(rune('0'+i)))); err == nil {
			t.Errorf("pwned%d was created: the output ran as shell code", i)
		}
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || lines[1] != lines[2] || lines[2] != lines[3] {
		t.Errorf("the value did not come through intact: %q", out)
	}
}

func TestStopAndContinue(t *testing.T) {
	dir := t.TempDir()
	out, _, recorded, err := run(t, dir, load(t, dir, "steps:\n  - run: echo a\n  - run: exit 3\n  - run: echo never\n"))
	var se *StepError
	if !errors.As(err, &se) || se.Status != 3 || se.Step.N != 2 || out != "a\n" || len(recorded) != 2 {
		t.Errorf("stop: err %v, out %q, %d recorded", err, out, len(recorded))
	}
	c := load(t, dir, `steps:
  - id: f
    run: echo x; exit 4
    continue_on_error: true
    outputs:
      o: {extract_from: stdout}
  - run: echo "${f.o:-f-failed}"
`)
	out, errOut, _, err := run(t, dir, c)
	if err != nil || out != "x\nf-failed\n" || !strings.Contains(errOut, "continuing") {
		t.Errorf("continue: err %v, out %q, stderr %q", err, out, errOut)
	}
	// Without a default, the missing value fails the step that needs it.
	c = load(t, dir, "steps:\n  - id: f\n    run: exit 4\n    continue_on_error: true\n    outputs:\n      o: {extract_from: stdout}\n  - run: echo ${f.o}\n")
	if _, errOut, _, err = run(t, dir, c); !errors.As(err, &se) || se.Step.N != 2 || !strings.Contains(err.Error(), "step 1 (f) failed") {
		t.Errorf("missing value: %v (%s)", err, errOut)
	}
}

func TestGitCommit(t *testing.T) {
	required.Tool(t, "git")
	dir := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("commit", "-q", "--allow-empty", "-m", "first")
	os.WriteFile(filepath.Join(dir, "old.md"), []byte("old"), 0o644)
	git("add", "old.md")
	git("commit", "-q", "-m", "old")
	t.Setenv("GIT_AUTHOR_NAME", "t")
	t.Setenv("GIT_AUTHOR_EMAIL", "t@t")
	t.Setenv("GIT_COMMITTER_NAME", "t")
	t.Setenv("GIT_COMMITTER_EMAIL", "t@t")
	c := load(t, dir, `steps:
  - id: write
    run: mkdir -p specs && echo spec > specs/new.md && echo x > other.txt && git add . && git commit -q -m new
    outputs:
      spec: {extract_from: {git_commit: {file_pattern: "specs/*.md"}}}
  - run: cat
    inputs:
      s: {from: "${write.spec}", pass_as: stdin}
`)
	out, errOut, _, err := run(t, dir, c)
	if err != nil || out != "specs/new.md\n" {
		t.Errorf("git_commit output: %q, %v\n%s", out, err, errOut)
	}
}

func TestPlan(t *testing.T) {
	plan := Plan(load(t, ".", example(t)))
	if len(plan) != 4 || plan[3].Command != `echo ""'used-default'""` || plan[1].Inputs[0] != "stdin ← ${greet.text}" ||
		plan[2].Inputs[0] != "$LOUD ← ${shout.loud}" || plan[0].Outputs[0] != "text ← stdout" {
		t.Errorf("plan %+v", plan)
	}
}

// TestAskExpand: ask and expand steps are checked and planned (they run
// as `hookd ask` and `hookd expand` subprocesses).
func TestAskExpand(t *testing.T) {
	plan := Plan(load(t, ".", "steps:\n  - id: e\n    expand: review\n    outputs:\n      text: {extract_from: stdout}\n  - ask: \"summarise ${e.text}\"\n"))
	if len(plan) != 2 || plan[0].Step.Action != ActExpand || plan[1].Command != "summarise ${e.text}" {
		t.Errorf("plan %+v", plan)
	}
	if _, err := Load("c.yml", []byte("steps:\n  - expand: x\n    run: y\n  - {}\n"), "."); err == nil ||
		!strings.Contains(err.Error(), "2 actions (expand, run)") || !strings.Contains(err.Error(), "step 2: no action") {
		t.Errorf("two actions / none: %v", err)
	}
}
