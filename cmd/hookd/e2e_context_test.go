package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/ai/llm/llmtest"
	"github.com/hookd/hookd/internal/shelltest"
)

// TestAskProjectContext: a project's .hookd.yml with a context command
// and a skill. Untrusted, its command does not run (one line says so and
// how to allow it) while its skill still shapes the prompt; after hookd
// allow, `?? …` at the prompt sends the labelled block; edited, it is
// untrusted again; denied, it stays off. In real bash and zsh.
func TestAskProjectContext(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		fake := llmtest.NewOpenAI(t)
		fake.SetKey("test-key")
		fake.SetReply(llmtest.Reply{Text: []string{"Answered."}})
		h := newHome(t)
		proj := filepath.Join(h.Dir, "proj")
		os.MkdirAll(filepath.Join(proj, ".git"), 0o700)
		os.MkdirAll(filepath.Join(proj, "sub"), 0o700)
		yml := "ask:\n  context_commands:\n    - {name: Project Facts, command: 'echo facts-$((6*7)); touch ran-marker'}\n  skills:\n    - {pattern: 'deploy', llm_prepend: 'Deploy with make ship.'}\n"
		file := filepath.Join(proj, ".hookd.yml")
		os.WriteFile(file, []byte(yml), 0o600)
		marker := filepath.Join(proj, "sub", "ran-marker")
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell), Env: llmEnv(fake)})
		s.Run("cd " + filepath.Join(proj, "sub"))

		s.Run("?? how do I deploy")
		s.WaitForPlain(regexp.MustCompile(`(?s)is not trusted: its context commands \(Project Facts\) were not run; .hookd allow [^\n]*\.hookd\.yml. lets them run.*Answered\.`), 10*time.Second)
		if user := userMessage(t, fake); strings.Contains(user, "Context:") {
			t.Errorf("an untrusted command's block was sent:\n%s", user)
		}
		if !strings.Contains(fake.Last().System, "Deploy with make ship.") {
			t.Errorf("the untrusted file's skill is not in the system prompt:\n%s", fake.Last().System)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatal("an untrusted context command ran")
		}

		s.Run("hookd allow")
		s.WaitForPlain(regexp.MustCompile(`allowed [^\n]*\.hookd\.yml \(1 context command`), 10*time.Second)
		s.Run("?? what now")
		s.WaitForPlain(regexp.MustCompile(`(?s)what now.*Answered\.`), 10*time.Second)
		user := userMessage(t, fake)
		if !regexp.MustCompile(`(?s)--- Context: Project Facts ---\n<<<BEGIN OUTPUT \w+>>>\nfacts-42\n<<<END OUTPUT \w+>>>\n--- End Context ---`).MatchString(user) {
			t.Errorf("the server did not see the labelled block:\n%s", user)
		}
		if _, err := os.Stat(marker); err != nil {
			t.Errorf("the command did not run in the invoking directory: %v", err)
		}

		// Edited: untrusted again.
		os.Remove(marker)
		os.WriteFile(file, []byte(yml+"  variables: {X: y}\n"), 0o600)
		s.Run("?? and after the edit")
		// Said as hookd allow --list says it.
		s.WaitForPlain(regexp.MustCompile(`(?s)and after the edit.*\.hookd\.yml changed since it was allowed: its context commands \(Project Facts\) were not run; .hookd allow [^\n]*\.hookd\.yml. trusts what it says now.*Answered\.`), 10*time.Second)
		m := s.Mark()
		s.Run("hookd allow --list")
		s.WaitPlainSince(m, regexp.MustCompile(`changed +[^\n]*\.hookd\.yml +\(changed since it was allowed: `), 10*time.Second)
		if _, err := os.Stat(marker); err == nil {
			t.Error("the edited file's command ran")
		}
		s.Run("hookd allow && hookd deny")
		s.Run("?? and after deny")
		s.WaitForPlain(regexp.MustCompile(`(?s)and after deny.*\.hookd\.yml is denied: its context commands \(Project Facts\) were not run.*Answered\.`), 10*time.Second)
		if _, err := os.Stat(marker); err == nil {
			t.Error("the denied file's command ran")
		}
	})
}

// TestFixAI: fix --ai at the prompt asks the model about the last failure
// and shows its fixes merged with the rules', risk re-rated.
func TestFixAI(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		fake := llmtest.NewOpenAI(t)
		fake.SetKey("test-key")
		fake.SetReply(llmtest.Reply{Text: []string{`{"root_cause":"the script needs the --production flag","error_type":"configuration_error","fixes":[` +
			`{"command":"sh ./deploy.sh --production","explanation":"the flag it wants","risk":"low","confidence":0.9},` +
			`{"command":"rm -rf ~","explanation":"start over","risk":"low","confidence":0.8},` +
			`{"command":"rm -rf ~/.cache && sh ./deploy.sh --production","explanation":"a clean cache","risk":"low","confidence":0.7}]}`}})
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell), Env: append(llmEnv(fake), "HOOKD_CAPTURE=pty")})
		s.Run("printf 'echo \"error: missing --production\" >&2; exit 3\\n' > deploy.sh")
		s.Run("sh ./deploy.sh")
		s.RunAlone("fix --ai")
		// A whole tree deleted in the home is high, whatever the model said.
		s.WaitForPlain(regexp.MustCompile(`(?s)the script needs the --production flag\n.*from the LLM.*1\. sh \./deploy\.sh --production +\(low\).*2\. rm -rf ~ +\(high\).*3\. rm -rf ~/\.cache && sh \./deploy\.sh --production +\(high\)`), 15*time.Second)
		if user := userMessage(t, fake); !strings.Contains(user, "$ sh ./deploy.sh") || !strings.Contains(user, "error: missing --production") {
			t.Errorf("the model did not get the failure:\n%s", user)
		}
	})
}

// TestAIKey: Ctrl-X l at an empty prompt asks the model about the last
// failed command (not the successful one typed since); the analysis shows
// above the prompt, its fixes become the offer (Ctrl-X f puts the model's
// first on the line, Enter runs it). Where the key is already bound, it
// is left alone (bash: in vi mode, vi's insert keymap has it). In real
// bash and zsh.
func TestAIKey(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		fake := llmtest.NewOpenAI(t)
		fake.SetKey("test-key")
		fake.SetReply(llmtest.Reply{Text: []string{`{"root_cause":"the script wants a greeting","error_type":"usage_error","fixes":[` +
			`{"command":"echo ai-fixed","explanation":"greet instead","risk":"low","confidence":0.95}]}`}})
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: "PS1='$ '\nPROMPT='%# '\n" + initLine(shell), Env: append(llmEnv(fake), "HOOKD_CAPTURE=pty")})
		s.Run("printf 'echo \"error: no greeting given\" >&2; exit 3\\n' > greet.sh")
		// Nothing typed ahead while these run: under capture, the echo of
		// keys typed early lands in the output (between its lines).
		s.RunAlone("sh ./greet.sh")
		s.RunAlone("echo in-between")
		s.WaitForPlain(regexp.MustCompile(`\nin-between\n`), 5*time.Second)
		s.Editing()
		s.Type("\x18l")
		s.WaitForPlain(regexp.MustCompile(`(?s)asking the LLM why \(sh \./greet\.sh\) failed \(exit status 3\).*the script wants a greeting\n.*from the LLM.*1\. echo ai-fixed +\(low\)`), 15*time.Second)
		if user := userMessage(t, fake); !strings.Contains(user, "$ sh ./greet.sh") || !strings.Contains(user, "error: no greeting given") || strings.Contains(user, "in-between") {
			t.Errorf("the model did not get the last failure (and only it):\n%s", user)
		}
		s.Editing()
		// The fix on the line, then Enter.
		s.TypeWait("\x18f", regexp.MustCompile(`echo ai-fixed`), 10*time.Second)
		s.Type("\r")
		s.WaitForPlain(regexp.MustCompile(`\nai-fixed\n`), 5*time.Second)
		s.Sync()
		if got := commandsOf(entries(t, h)); got[len(got)-1] != "echo ai-fixed" {
			t.Errorf("history ends with %q; want the model's fix, put there by the fix key", got[len(got)-1])
		}
	})
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		rc := map[string]string{
			"bash": `bind -m emacs '"\C-xl": "mine"'` + "\nset -o vi\n",
			"zsh":  "bindkey -M emacs '^Xl' beep\n",
		}[shell] + initLine(shell)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: rc})
		// Alone: the echo of keys typed while it runs would land between
		// the lines its pattern spans.
		s.RunAlone(map[string]string{
			"bash": `bind -m emacs -s | grep -F '\C-xl'; bind -m emacs -X | grep -c _hookd_ai_key; bind -m vi-insert -X | grep -c _hookd_ai_key`,
			"zsh":  "bindkey -M emacs '^Xl'; bindkey -M viins '^Xl'",
		}[shell])
		s.WaitForPlain(regexp.MustCompile(map[string]string{
			"bash": `\n"\\C-xl": "mine"\n0\n1\n`, // vi-insert's only
			"zsh":  `\n"\^Xl" beep\n"\^Xl" _hookd_ai_key\n`,
		}[shell]), 5*time.Second)
	})
}

// TestAskContextCommandsCLI: the config's commands, a profile chosen by
// the directory (its commands replace the section's), --exec after them
// in order, --no-context-exec, on_failure: fail ending the question before
// anything is sent, --profile naming one, an unknown profile, --skills.
func TestAskContextCommandsCLI(t *testing.T) {
	h := newHome(t)
	fake := llmtest.NewOpenAI(t)
	fake.SetKey("test-key")
	fake.SetReply(llmtest.Reply{Text: []string{"ok"}})
	os.MkdirAll(h.Path(".config", "hookd", "skills"), 0o700)
	os.MkdirAll(h.Path("work", "repo"), 0o700)
	os.WriteFile(h.Path(".config", "hookd", "config.yaml"), []byte(`ask:
  context_commands:
    - {name: Everywhere, command: echo everywhere-out}
  skills:
    - {pattern: 'migrat', llm_prepend: 'Use goose.'}
  profiles:
    work:
      when: {cwd: '`+h.Path("work")+`/**'}
      context_commands:
        - {name: Work, command: 'sleep 0.2; echo work-out'}
        - {name: Quick, command: echo quick-out}
    strict:
      context_commands:
        - {name: Must, command: 'echo half; exit 3', on_failure: fail}
`), 0o600)
	os.WriteFile(h.Path(".config", "hookd", "skills", "sql.md"), []byte("---\npattern: '\\bsql\\b'\ndescription: SQL style\n---\nPrefer CTEs.\n"), 0o600)
	run := func(dir string, args ...string) (string, string, error) {
		cmd := exec.Command(hookdBin, args...)
		cmd.Env = append(append([]string{}, h.Env...), llmEnv(fake)...)
		cmd.Dir = dir
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		return out.String(), errOut.String(), err
	}
	block := func(name string) string {
		return "--- Context: " + name + " ---\n<<<BEGIN OUTPUT "
	}

	if _, errOut, err := run(h.Dir, "ask", "--exec", "echo exec-out", "plain"); err != nil {
		t.Fatalf("%v: %s", err, errOut)
	}
	user := userMessage(t, fake)
	if e, x := strings.Index(user, block("Everywhere")), strings.Index(user, block("echo exec-out")); e < 0 || x < e || !strings.Contains(user, "everywhere-out") {
		t.Errorf("config's command, then --exec, expected:\n%s", user)
	}

	// In ~/work/repo the work profile applies: its commands, declared
	// order kept although Work finishes last.
	if _, errOut, err := run(h.Path("work", "repo"), "ask", "-v", "plan the sql migration"); err != nil || !strings.Contains(errOut, "profile work") ||
		!strings.Contains(errOut, "skill skills[0] matched") || !strings.Contains(errOut, "skill sql matched") {
		t.Fatalf("%v: %s", err, errOut)
	}
	user = userMessage(t, fake)
	if w, q := strings.Index(user, block("Work")), strings.Index(user, block("Quick")); w < 0 || q < w || strings.Contains(user, "everywhere-out") {
		t.Errorf("the work profile's commands in order, and only them:\n%s", user)
	}
	if sys := fake.Last().System; !strings.Contains(sys, "Use goose.\n\nPrefer CTEs.") {
		t.Errorf("skills from the config and a skill file, in order:\n%s", sys)
	}

	n := len(fake.Requests())
	if _, _, err := run(h.Path("work", "repo"), "ask", "--no-context-exec", "nothing runs"); err != nil {
		t.Fatal(err)
	}
	if user = userMessage(t, fake); strings.Contains(user, "Context:") {
		t.Errorf("--no-context-exec ran something:\n%s", user)
	}
	_, errOut, err := run(h.Dir, "ask", "--profile", "strict", "q")
	if err == nil || !strings.Contains(errOut, "Must") || !strings.Contains(errOut, "exit status 3") || len(fake.Requests()) != n+1 {
		t.Errorf("on_failure fail: err %v, %d requests (want %d), stderr %s", err, len(fake.Requests()), n+1, errOut)
	}
	if _, errOut, err := run(h.Dir, "ask", "--profile", "nope", "q"); err == nil || !strings.Contains(errOut, "strict") {
		t.Errorf("unknown profile: %v %s", err, errOut)
	}
	out, _, err := run(h.Dir, "ask", "--skills")
	if err != nil || !strings.Contains(out, "sql") || !strings.Contains(out, "SQL style") || !strings.Contains(out, "skills[0]") {
		t.Errorf("--skills: %v\n%s", err, out)
	}
}

// TestSkillsListBadPattern: hookd ask --skills lists the good skills and
// says, once, which one the config got wrong and where.
func TestSkillsListBadPattern(t *testing.T) {
	h := newHome(t)
	os.MkdirAll(h.Path(".config", "hookd"), 0o700)
	os.WriteFile(h.Path(".config", "hookd", "config.yaml"), []byte("ask:\n  skills:\n    - {pattern: 'a(b', llm_prepend: x}\n    - {pattern: ok, llm_prepend: fine}\n"), 0o600)
	out, errOut, err := hookdRun(h, nil, "ask", "--skills")
	if err != nil || !strings.Contains(out, "/ok/") || strings.Contains(out, "a(b") {
		t.Fatalf("%v\n%s\n%s", err, out, errOut)
	}
	if strings.Count(errOut, "warning:") != 1 || !strings.Contains(errOut, "config.yaml:3:7: ask.skills[0]: pattern: error parsing regexp") {
		t.Errorf("want one warning naming the file, line and pattern:\n%s", errOut)
	}
}
