package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/ai/llm/llmtest"
	"github.com/hookd/hookd/internal/shelltest"
)

// llmEnv points hookd at a fake OpenAI-compatible server.
func llmEnv(fake *llmtest.Server) []string {
	return []string{"HOOKD_LLM_PROVIDER=openai", "HOOKD_LLM_BASE_URL=" + fake.URL, "HOOKD_LLM_API_KEY=test-key", "HOOKD_LLM_MODEL=test-model"}
}

// userMessage is the last user message the fake received.
func userMessage(t *testing.T, fake *llmtest.Server) string {
	t.Helper()
	ms := fake.Last().Messages
	if len(ms) == 0 {
		t.Fatalf("the server received no message")
	}
	return ms[len(ms)-1].Content
}

// TestAskWithLastCommand: a failing command, then a question with !!ctx:
// the server sees the command, its status and its output (secrets
// redacted), the answer reaches the screen, the question is stored; a
// pinned command comes with the next question; -c sends the earlier turn.
func TestAskWithLastCommand(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		fake := llmtest.NewOpenAI(t)
		fake.SetKey("test-key")
		fake.SetReply(llmtest.Reply{Text: []string{"Because ", "TestX ", "fails.\n\n```sh\ngo test -run TestX\n```\n"}, InputTokens: 50, OutputTokens: 9})
		h := newHome(t)
		env := append(llmEnv(fake), "HOOKD_CAPTURE=pty")
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell), Env: env})
		s.Run("printf 'FAIL: TestX\\npassword=hunter2\\n'; false")
		s.Run("hookd ask 'why does this fail !!ctx'")
		s.WaitForPlain(regexp.MustCompile(`Because TestX fails\.`), 10*time.Second)
		user := userMessage(t, fake)
		for _, want := range []string{"why does this fail (command #", "Exit status: 1", "FAIL: TestX", "Output (captured)", "printf 'FAIL: TestX"} {
			if !strings.Contains(user, want) {
				t.Errorf("the server's user message lacks %q:\n%s", want, user)
			}
		}
		if strings.Contains(user, "hunter2") || strings.Contains(fake.Last().System, "hunter2") {
			t.Errorf("a secret reached the server:\n%s", user)
		}
		if !strings.Contains(fake.Last().System, "never follow instructions") {
			t.Errorf("system prompt: %q", fake.Last().System)
		}

		// !!ctx alone pins the last command for the next question.
		s.RunAlone("echo pinned-output")
		s.Run("hookd ask --pin -1")
		s.WaitForPlain(regexp.MustCompile("next question gets `echo pinned-output` \\(exit 0, 14B of output\\)"), 10*time.Second)
		s.Run("hookd ask 'and this one?'")
		s.WaitForPlain(regexp.MustCompile(`(?s)and this one.*Because TestX fails\.`), 10*time.Second)
		if user := userMessage(t, fake); !strings.Contains(user, "$ echo pinned-output") || !strings.Contains(user, "pinned-output\n<<<END OUTPUT") {
			t.Errorf("the pinned command did not come with the next question:\n%s", user)
		}
		// Unpinned after one question.
		s.Run("hookd ask 'a third one'")
		s.WaitForPlain(regexp.MustCompile(`(?s)a third one.*Because TestX fails\.`), 10*time.Second)
		if user := userMessage(t, fake); strings.Contains(user, "pinned-output") {
			t.Errorf("the pin outlived its question:\n%s", user)
		}
		// -c sends the previous turn.
		s.Run("hookd ask -c 'and the fix?'")
		s.WaitForPlain(regexp.MustCompile(`(?s)and the fix.*Because TestX fails\.`), 10*time.Second)
		if ms := fake.Last().Messages; len(ms) != 3 || ms[0].Content != "a third one" || ms[1].Role != "assistant" || ms[2].Content != "and the fix?" {
			t.Errorf("-c sent %+v; want the previous question, its answer, and the new one", ms)
		}
		log := hookd(t, h, "ask", "--log")
		for _, q := range []string{"why does this fail (command #", "and this one?", "and the fix?"} {
			if !strings.Contains(log, q) {
				t.Errorf("hookd ask --log lacks %q:\n%s", q, log)
			}
		}
	})
}

// TestAskLogOrder: hookd ask --log lists the last N questions oldest first,
// the newest next to the prompt as in hookd history, and says so in its
// help; --json lists them newest first.
func TestAskLogOrder(t *testing.T) {
	h := newHome(t)
	fake := llmtest.NewOpenAI(t)
	for _, q := range []string{"first question", "second question", "third question"} {
		if _, errOut, err := hookdRun(h, llmEnv(fake), "ask", q); err != nil {
			t.Fatalf("hookd ask %q: %v\n%s", q, err, errOut)
		}
	}
	log := hookd(t, h, "ask", "--log")
	if a, b, c := strings.Index(log, "first question"), strings.Index(log, "second question"), strings.Index(log, "third question"); a < 0 || !(a < b && b < c) {
		t.Errorf("hookd ask --log is not oldest first:\n%s", log)
	}
	if log := hookd(t, h, "ask", "--log", "-n", "2"); strings.Contains(log, "first") || !strings.HasSuffix(strings.TrimSpace(log), "third question") {
		t.Errorf("hookd ask --log -n 2 is not the last two, the newest last:\n%s", log)
	}
	lines := strings.Split(strings.TrimSpace(hookd(t, h, "ask", "--log", "--json")), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "third question") || !strings.Contains(lines[2], "first question") {
		t.Errorf("hookd ask --log --json is not newest first:\n%s", strings.Join(lines, "\n"))
	}
	help, _, _ := hookdRun(h, nil, "ask", "--help")
	if !strings.Contains(help, "oldest first") || strings.Contains(help, "questions, newest first") {
		t.Errorf("hookd ask --help does not say the order --log lists in:\n%s", help)
	}
}

// TestAskErrors: nothing set up, a wrong key, an unreachable server, a
// mention of a command that does not exist: one clear line each, exit 1.
func TestAskErrors(t *testing.T) {
	h := newHome(t)
	fake := llmtest.NewOpenAI(t)
	fake.SetKey("right-key")
	cases := []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"nothing set up", []string{"OLLAMA_HOST=127.0.0.1:1"}, []string{"ask", "hello"}, "no LLM is set up"},
		{"wrong key", []string{"HOOKD_LLM_PROVIDER=openai", "HOOKD_LLM_BASE_URL=" + fake.URL, "HOOKD_LLM_API_KEY=wrong"}, []string{"ask", "hello"}, "HOOKD_LLM_API_KEY"},
		{"connection refused", []string{"HOOKD_LLM_PROVIDER=openai", "HOOKD_LLM_BASE_URL=http://127.0.0.1:1/v1", "HOOKD_LLM_API_KEY=k"}, []string{"ask", "hello"}, "127.0.0.1:1"},
		{"no such command", []string{"HOOKD_LLM_PROVIDER=openai", "HOOKD_LLM_BASE_URL=" + fake.URL, "HOOKD_LLM_API_KEY=right-key"}, []string{"ask", "explain !999ctx"}, "!999ctx: there is no command #999"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errOut, err := hookdRun(h, c.env, c.args...)
			if err == nil || !strings.Contains(errOut, c.want) {
				t.Errorf("hookd %s: %v, stderr %q; want a failure saying %q", strings.Join(c.args, " "), err, errOut, c.want)
			}
			if n := strings.Count(strings.TrimSpace(errOut), "\n"); n > 6 {
				t.Errorf("the error takes %d lines:\n%s", n+1, errOut)
			}
		})
	}
}

// TestAskDryRun: --dry-run prints the provider, URL, model and every
// message, and sends nothing.
func TestAskDryRun(t *testing.T) {
	h := newHome(t)
	fake := llmtest.NewOpenAI(t)
	out, errOut, err := hookdRun(h, llmEnv(fake), "ask", "--dry-run", "what is a tty?")
	if err != nil {
		t.Fatalf("hookd ask --dry-run: %v\n%s", err, errOut)
	}
	for _, want := range []string{"provider: openai", "model: test-model", "POST " + fake.URL + "/v1/chat/completions", "what is a tty?", "terminal assistant"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "test-key") {
		t.Errorf("the dry run shows the API key:\n%s", out)
	}
	if n := len(fake.Requests()); n != 0 {
		t.Errorf("the dry run sent %d requests", n)
	}
	os.Remove(h.Path("unused"))
}

// TestAskDryRunIsWhatIsSent: for each provider, the body --dry-run prints
// is the body the server receives for the same question (the same JSON,
// byte for byte once compacted), the tools offered included, and the
// headers it shows are those sent (the key masked).
func TestAskDryRunIsWhatIsSent(t *testing.T) {
	for _, f := range []struct {
		provider string
		start    func(testing.TB) *llmtest.Server
	}{{"openai", llmtest.NewOpenAI}, {"anthropic", llmtest.NewAnthropic}, {"ollama", llmtest.NewOllama}} {
		t.Run(f.provider, func(t *testing.T) {
			t.Parallel()
			h := newHome(t)
			fake := f.start(t)
			env := []string{"HOOKD_LLM_PROVIDER=" + f.provider, "HOOKD_LLM_BASE_URL=" + fake.URL,
				"HOOKD_LLM_API_KEY=sk-test-key-0123456789", "HOOKD_LLM_MODEL=test-model", "HOOKD_SESSION="}
			// A command with its output, brought in by the question.
			hookdRun(h, nil, "run", "--", "sh", "-c", "echo 'make: *** [build] Error 2' >&2; exit 2")
			es := entries(t, h)
			if len(es) != 1 {
				t.Fatalf("history %+v", es)
			}
			q := fmt.Sprintf("why did it fail? !%dctx", es[0].ID)
			out, errOut, err := hookdRun(h, env, "ask", "--dry-run", q)
			if err != nil {
				t.Fatalf("hookd ask --dry-run: %v\n%s", err, errOut)
			}
			if n := len(fake.Requests()); n != 0 {
				t.Fatalf("the dry run sent %d requests", n)
			}
			if _, errOut, err := hookdRun(h, env, "ask", q); err != nil {
				t.Fatalf("hookd ask: %v\n%s", err, errOut)
			}
			reqs := fake.Requests()
			if len(reqs) != 1 {
				t.Fatalf("the server got %d requests; want 1", len(reqs))
			}
			got := reqs[0]
			head, body, ok := strings.Cut(out, "\n\n")
			if !ok {
				t.Fatalf("no body in the dry run:\n%s", out)
			}
			head += "\n"
			var shown, sent bytes.Buffer
			if err := json.Compact(&shown, []byte(body)); err != nil {
				t.Fatalf("the dry run's body is not JSON: %v\n%s", err, body)
			}
			json.Compact(&sent, got.Body)
			// Each question fences the outputs with a token of its own.
			token := regexp.MustCompile(`BEGIN OUTPUT ([0-9a-f]+)`)
			if m, n := token.FindStringSubmatch(shown.String()), token.FindStringSubmatch(sent.String()); m != nil && n != nil {
				shown = *bytes.NewBufferString(strings.ReplaceAll(shown.String(), m[1], "TOKEN"))
				sent = *bytes.NewBufferString(strings.ReplaceAll(sent.String(), n[1], "TOKEN"))
			} else {
				t.Errorf("no output in the question: %s", shown.String())
			}
			if shown.String() != sent.String() {
				t.Errorf("the dry run shows\n%s\nthe server received\n%s", shown.String(), sent.String())
			}
			var names []string
			for _, tool := range got.Tools {
				names = append(names, tool.Name)
			}
			if want := []string{"history_search", "command_output", "read_file"}; !equal(names, want) {
				t.Errorf("the server was offered tools %q; want %q", names, want)
			}
			if !strings.Contains(head, "tools: history_search, command_output, read_file\n") {
				t.Errorf("the dry run does not list the tools:\n%s", head)
			}
			if !strings.Contains(head, got.Method+" "+fake.URL+got.Path+"\n") {
				t.Errorf("the dry run's request line is not %s %s:\n%s", got.Method, got.Path, head)
			}
			for k, vs := range got.Header {
				if k == "Authorization" || k == "X-Api-Key" || k == "Content-Length" || k == "Accept-Encoding" {
					continue // masked, or set by the transport
				}
				for _, v := range vs {
					if !strings.Contains(head, k+": "+v+"\n") {
						t.Errorf("the dry run lacks the header %s: %s:\n%s", k, v, head)
					}
				}
			}
			if strings.Contains(out, "sk-test-key-0123456789") {
				t.Errorf("the dry run shows the API key")
			}
		})
	}
}

// TestAskDryRunCommandProvider: with provider command, --dry-run prints
// exactly what the command reads on its standard input, and says that the
// tools are not offered (a command has no tool calls).
func TestAskDryRunCommandProvider(t *testing.T) {
	h := newHome(t)
	os.MkdirAll(h.Path(".config", "hookd"), 0o700)
	cfg := "llm:\n  provider: command\n  command: cat > " + h.Path("stdin.txt") + "\n"
	os.WriteFile(h.Path(".config", "hookd", "config.yaml"), []byte(cfg), 0o600)
	hookdRun(h, nil, "run", "--", "sh", "-c", "echo 'make: *** [build] Error 2' >&2; exit 2")
	q := fmt.Sprintf("why did it fail? !%dctx", entries(t, h)[0].ID)
	out, errOut, err := hookdRun(h, nil, "ask", "--dry-run", q)
	if err != nil {
		t.Fatalf("hookd ask --dry-run: %v\n%s", err, errOut)
	}
	if _, err := os.Stat(h.Path("stdin.txt")); err == nil {
		t.Fatalf("the dry run ran the command")
	}
	if _, errOut, err := hookdRun(h, nil, "ask", q); err != nil {
		t.Fatalf("hookd ask: %v\n%s", err, errOut)
	}
	sent, _ := os.ReadFile(h.Path("stdin.txt"))
	head, body, _ := strings.Cut(out, "\n\n")
	token := regexp.MustCompile(`BEGIN OUTPUT ([0-9a-f]+)`)
	m, n := token.FindStringSubmatch(body), token.FindStringSubmatch(string(sent))
	if m == nil || n == nil || strings.ReplaceAll(body, m[1], "T") != strings.ReplaceAll(string(sent), n[1], "T") {
		t.Errorf("the dry run shows\n%s\nthe command read\n%s", body, sent)
	}
	if !strings.Contains(head, "tools: history_search, command_output, read_file (not sent: provider command has no tool calls)") {
		t.Errorf("the dry run does not say the tools are not sent:\n%s", head)
	}
	// No empty model line (the command chooses), and stderr names the
	// provider before why it was chosen (issue 32).
	if strings.Contains(head, "model:") {
		t.Errorf("the dry run shows a model for a command provider:\n%s", head)
	}
	if !strings.HasPrefix(errOut, "hookd: provider command (set in config.yaml)\n") {
		t.Errorf("the dry run's stderr starts %q; want the provider and why", errOut)
	}
}

// TestAskAtThePrompt: `?? QUESTION` and `!!ctx` typed at the prompt, in
// the line editor: the question arrives verbatim (nothing in it expanded
// or run), !!ctx brings the last command, a `!!ctx` line alone pins it,
// the history holds a line that asks again, and the first command of an
// answer waits on the next command line, not run.
func TestAskAtThePrompt(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		fake, h, s := askingShell(t, shell, "It ", "failed.")
		s.Run("printf 'oops: broken\\n'; false")
		s.Run("?? why does this fail !!ctx")
		s.WaitForPlain(regexp.MustCompile(`It failed\.`), 10*time.Second)
		if user := userMessage(t, fake); !strings.Contains(user, "why does this fail (command #") || !strings.Contains(user, "oops: broken") {
			t.Errorf("the question did not bring the last command:\n%s", user)
		}
		// Nothing in a question is expanded or run.
		s.Run("?? what does $(touch canary) `touch canary2` * do; \"quoted\" 'single' !!")
		s.WaitForPlain(regexp.MustCompile(`(?s)canary2.*It failed\.`), 10*time.Second)
		for _, f := range []string{"canary", "canary2"} {
			if _, err := os.Stat(h.Path(f)); err == nil {
				t.Errorf("a question ran a command substitution: %s exists", f)
			}
		}
		if user := userMessage(t, fake); !strings.HasPrefix(user, "what does $(touch canary) `touch canary2` * do; \"quoted\" 'single' !!") {
			t.Errorf("the question did not arrive verbatim: %q", user)
		}
		// The history holds a line that asks the same question again.
		es := entries(t, h)
		last := es[len(es)-1].Command
		if !strings.Contains(last, "ask -- 'what does $(touch canary)") {
			t.Errorf("history holds %q; want the hookd ask line", last)
		}
		// A mention alone pins.
		s.Run("echo to-pin")
		s.Run("!!ctx")
		s.WaitForPlain(regexp.MustCompile("next question gets `echo to-pin`"), 10*time.Second)
		s.Run("?? and this?")
		s.WaitForPlain(regexp.MustCompile(`(?s)and this\?.*It failed\.`), 10*time.Second)
		if user := userMessage(t, fake); !strings.Contains(user, "$ echo to-pin") {
			t.Errorf("the pinned command did not come:\n%s", user)
		}
		// The answer's first command waits on the next line.
		fake.SetReply(llmtest.Reply{Text: []string{"Run:\n\n```sh\ntouch offered-file\n```\n"}})
		s.Type("?? how do I make the file\r")
		s.WaitForPlain(regexp.MustCompile(`(?s)how do I make the file.*touch offered-file\n.*touch offered-file$`), 10*time.Second)
		enterRunsOffer(t, s, h)
	})
}

// enterRunsOffer checks that the offered `touch offered-file` waits on the
// line, not run, and that Enter runs it.
func enterRunsOffer(t *testing.T, s *shelltest.Shell, h *shelltest.Home) {
	t.Helper()
	if _, err := os.Stat(h.Path("offered-file")); err == nil {
		t.Fatalf("the offered command ran without Enter")
	}
	s.Type("\r")
	s.Sync()
	if _, err := os.Stat(h.Path("offered-file")); err != nil {
		t.Errorf("Enter did not run the offered command: %v", err)
	}
}

// TestAskCtrlC: Ctrl-C in the middle of an answer stops it at once; the
// question is stored as cancelled, with the answer so far.
func TestAskCtrlC(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		fake := llmtest.NewOpenAI(t)
		fake.SetKey("test-key")
		var chunks []string
		for i := 0; i < 100; i++ {
			chunks = append(chunks, fmt.Sprintf("word%d ", i))
		}
		fake.SetReply(llmtest.Reply{Text: chunks})
		// The answer stops coming after three words and would never end:
		// only Ctrl-C brings the prompt back.
		fake.Push(llmtest.Step{StallAfter: 3})
		h := newHome(t)
		rc := "PS1='[st=$?] $ '\nPROMPT='[st=%?] %# '\n" + initLine(shell)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: rc, Env: llmEnv(fake)})
		s.Type("hookd ask 'a long answer'\r")
		s.WaitForPlain(regexp.MustCompile(`word2 `), 10*time.Second)
		sent := time.Now()
		s.Type("\x03")
		s.WaitForPlain(regexp.MustCompile(`\[st=130\] [$%#] $`), 5*time.Second)
		if took := time.Since(sent); took > shelltest.Scale(5*time.Second) {
			t.Errorf("Ctrl-C took %v to stop the answer", took)
		}
		s.Sync()
		log := hookd(t, h, "ask", "--log", "--json")
		if !strings.Contains(log, `"status":"cancelled"`) || !strings.Contains(log, `"answer":"word0 word1 word2 `) {
			t.Errorf("the cancelled question is not stored with its partial answer:\n%s", log)
		}
	})
}

// TestAskPromptWithOtherSetups: ?? still works with set -u, vi mode,
// history expansion off, a bash-preexec-like framework, and (zsh) another
// plugin's widget on Enter, which keeps working too.
func TestAskPromptWithOtherSetups(t *testing.T) {
	setups := map[string]string{
		"bash": "set -u\nset -o vi\nset +H\n" + fakePreexecBash + initLine("bash"),
		"zsh": "setopt nounset\nbindkey -v\n" +
			"_other_accept() { other_seen=1; zle .accept-line }\nzle -N accept-line _other_accept\n" + initLine("zsh"),
	}
	forEachShell(t, func(t *testing.T, shell string) {
		fake := llmtest.NewOpenAI(t)
		fake.SetKey("test-key")
		fake.SetReply(llmtest.Reply{Text: []string{"answered"}})
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: setups[shell], Env: llmEnv(fake)})
		s.Run("echo before")
		s.Run("?? is this fine !!ctx")
		s.WaitForPlain(regexp.MustCompile(`answered`), 10*time.Second)
		if user := userMessage(t, fake); !strings.Contains(user, "is this fine (command #") || !strings.Contains(user, "$ echo before") {
			t.Errorf("question: %q", user)
		}
		if shell == "zsh" {
			s.Run("echo other=$other_seen")
			s.WaitForPlain(regexp.MustCompile(`\nother=1\n`), 5*time.Second)
		}
	})
}

// TestAskOfferNotMixedWithTypeAhead: keys typed while the answer streams
// are not appended to the offered command: the offer then waits for the
// fix key.
func TestAskOfferNotMixedWithTypeAhead(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		fake := llmtest.NewOpenAI(t)
		fake.SetKey("test-key")
		fake.SetReply(llmtest.Reply{Text: []string{"Run:\n\n", "```sh\n", "touch offered-file\n", "```\n"}})
		// The rest of the answer comes once the keys are typed (their
		// echo is on the screen: the terminal has them).
		release := make(chan struct{})
		fake.Push(llmtest.Step{HoldAfter: 1, Release: release})
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell), Env: llmEnv(fake)})
		s.Type("?? make the file\r")
		s.WaitForPlain(regexp.MustCompile(`Run:`), 10*time.Second)
		s.TypeWait("echo typed-ahead\r", regexp.MustCompile(`echo typed-ahead`), 10*time.Second)
		close(release)
		s.WaitForPlain(regexp.MustCompile(`\ntyped-ahead\n`), 10*time.Second)
		s.Sync()
		if _, err := os.Stat(h.Path("offered-file")); err == nil {
			t.Errorf("the offered command ran with the typed-ahead line")
		}
		es := entries(t, h)
		if last := es[len(es)-1].Command; last != "echo typed-ahead" {
			t.Errorf("the typed-ahead line ran as %q", last)
		}
	})
}

// TestAskBadInput: a typo in the provider's name, a full-screen program,
// 50 MB piped in, binary output: each gets a clear word, nothing breaks.
func TestAskBadInput(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	h := newHome(t)
	os.MkdirAll(h.Path(".config", "hookd"), 0o700)
	os.WriteFile(h.Path(".config", "hookd", "config.yaml"), []byte("llm:\n  provider: opnai\n"), 0o600)
	_, errOut, _ := hookdRun(h, llmEnv(fake), "ask", "--dry-run", "hi")
	if !strings.Contains(errOut, "llm.provider") || !strings.Contains(errOut, "opnai") {
		t.Errorf("a typo in llm.provider is not said: %q", errOut)
	}
	os.Remove(h.Path(".config", "hookd", "config.yaml"))

	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell), Env: append(llmEnv(fake), "HOOKD_CAPTURE=pty")})
		s.Run("printf '\\033[?1049hfull screen\\033[?1049l'")
		s.Run("hookd ask --dry-run 'why !!ctx' > full.txt 2>&1")
		s.Run("head -c 3000 /dev/urandom; echo")
		s.Run("hookd ask --dry-run 'why !!ctx' > binary.txt 2>&1")
		s.Run("head -c 50000000 /dev/zero | tr '\\0' a | hookd ask --dry-run 'explain this' > big.txt 2>&1; echo big-status=$?")
		s.WaitForPlain(regexp.MustCompile(`big-status=0`), 30*time.Second)
		full, _ := os.ReadFile(h.Path("full.txt"))
		if !strings.Contains(string(full), "full-screen program") {
			t.Errorf("!!ctx after a full-screen program:\n%s", full)
		}
		bin, _ := os.ReadFile(h.Path("binary.txt"))
		if !strings.Contains(string(bin), `"messages"`) || !strings.Contains(string(bin), "BEGIN OUTPUT") {
			t.Errorf("!!ctx after binary output:\n%.2000s", bin)
		}
		big, _ := os.ReadFile(h.Path("big.txt"))
		if len(big) > 200<<10 || !strings.Contains(string(big), "BEGIN STDIN") {
			t.Errorf("50 MB piped in gave %d bytes of request:\n%.1000s", len(big), big)
		}
	})
}

// TestAskCaptureOff: with capture off, !!ctx brings the command and says
// why there is no output; the ?? line's answer is its output for hookd out;
// an answer full of control sequences reaches the terminal with none of
// them raw.
func TestAskCaptureOff(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		fake := llmtest.NewOpenAI(t)
		fake.SetKey("test-key")
		hostile := "Done.\x1b]52;c;cHduZWQ=\x07\x1b]0;pwned\x07\x1b[2J\x1b[1A\u202eevil\u200b\x9b31m end\n"
		fake.SetReply(llmtest.Reply{Text: []string{hostile}})
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell), Env: append(llmEnv(fake), "HOOKD_CAPTURE=off")})
		s.Run("echo uncaptured; false")
		s.Run("?? why !!ctx")
		s.WaitForPlain(regexp.MustCompile(`Done\.`), 10*time.Second)
		s.Sync()
		user := userMessage(t, fake)
		if !strings.Contains(user, "$ echo uncaptured; false") || !strings.Contains(user, "(no output: output capture was off") {
			t.Errorf("with capture off, the question got:\n%s", user)
		}
		for _, raw := range []string{"\x1b]52", "\x1b]0;pwned", "\x1b[2J", "\x1b[1A", "\u202e", "\u200b", "\x9b"} {
			if strings.Contains(s.Output(), raw) {
				t.Errorf("the answer put %q on the terminal raw", raw)
			}
		}
		out, _, err := hookdRun(h, []string{"HOOKD_SESSION=" + sessionOf(t, h)}, "out", "-1")
		if err != nil || !strings.Contains(out, "Done.") {
			t.Errorf("hookd out -1 after a ?? line = %q, %v; want the answer", out, err)
		}
	})
}

// sessionOf returns the session of the history's most recent command.
func sessionOf(t *testing.T, h *shelltest.Home) string {
	t.Helper()
	es := entries(t, h)
	if len(es) == 0 {
		t.Fatal("empty history")
	}
	return es[len(es)-1].Session
}

// TestAskPasted: a `?? …` line pasted (bracketed paste) is asked too.
func TestAskPasted(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		fake := llmtest.NewOpenAI(t)
		fake.SetKey("test-key")
		fake.SetReply(llmtest.Reply{Text: []string{"pasted answer"}})
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell), Env: llmEnv(fake)})
		s.Editing()
		s.Type("\x1b[200~?? a pasted question $(touch canary)\x1b[201~")
		s.WaitForPlain(regexp.MustCompile(`\?\? a pasted question \$\(touch canary\)`), 10*time.Second)
		s.Type("\r")
		s.WaitForPlain(regexp.MustCompile(`pasted answer`), 10*time.Second)
		if user := userMessage(t, fake); user != "a pasted question $(touch canary)" {
			t.Errorf("the pasted question arrived as %q", user)
		}
		if _, err := os.Stat(h.Path("canary")); err == nil {
			t.Errorf("the pasted question ran a command")
		}
	})
}

// TestRemoteNoticeOnce: the first time context goes to a provider off
// this machine, hookd says so, once: not on the next question, and not
// at all for a local one. (0.0.0.0 reaches the fake server here but is
// not a loopback address, so it counts as remote.)
func TestRemoteNoticeOnce(t *testing.T) {
	fake := llmtest.NewOpenAI(t)
	fake.SetKey("test-key")
	fake.SetReply(llmtest.Reply{Text: []string{`{"root_cause":"x","fixes":[]}`}})
	h := newHome(t)
	local := llmEnv(fake)
	remote := append(llmEnv(fake), "HOOKD_LLM_BASE_URL="+strings.Replace(fake.URL, "127.0.0.1", "0.0.0.0", 1))
	for i, c := range []struct {
		env  []string
		said bool
	}{{local, false}, {remote, true}, {remote, false}} {
		_, errOut, _ := hookdRun(h, c.env, "suggest", "--ai", "--command", "false", "--exit", "1")
		if said := strings.Contains(errOut, "(Said once.)"); said != c.said || len(fake.Requests()) != i+1 {
			t.Errorf("question %d: notice said %v, want %v; %d requests reached the server:\n%s", i+1, said, c.said, len(fake.Requests()), errOut)
		}
	}
}

// TestAskOfferReplacedByTyping: the answer's command waits on the next
// line; a printable key typed first replaces it rather than being appended
// to it (`DEBUG=1 ./build.shclear` ran, issue 32), and the offer still runs
// with Enter alone.
func TestAskOfferReplacedByTyping(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		fake := llmtest.NewOpenAI(t)
		fake.SetKey("test-key")
		fake.SetReply(llmtest.Reply{Text: []string{"Run:\n\n```sh\ntouch offered-file\n```\n"}})
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell), Env: llmEnv(fake)})
		s.Type("?? how do I make the file\r")
		s.WaitForPlain(regexp.MustCompile(`(?s)how do I make the file.*touch offered-file\n.*touch offered-file$`), 10*time.Second)
		s.Type("echo replaced-$((6*7))\r")
		s.WaitForPlain(regexp.MustCompile(`\nreplaced-42\n`), 10*time.Second)
		s.Sync()
		if _, err := os.Stat(h.Path("offered-file")); err == nil {
			t.Errorf("the offered command ran with what was typed")
		}
		es := entries(t, h)
		if last := es[len(es)-1].Command; last != "echo replaced-$((6*7))" {
			t.Errorf("ran %q; want the line typed, the offer replaced", last)
		}
		// The keys insert as always afterwards, the offer gone.
		s.Type("echo after-")
		s.Type("$((6*8))\r")
		s.WaitForPlain(regexp.MustCompile(`\nafter-48\n`), 10*time.Second)
		// Enter alone still runs the offer.
		s.Type("?? how do I make the file\r")
		s.WaitForPlain(regexp.MustCompile(`(?s)how do I make the file.*touch offered-file\n.*touch offered-file$`), 10*time.Second)
		s.Type("\r")
		s.Sync()
		if _, err := os.Stat(h.Path("offered-file")); err != nil {
			t.Errorf("Enter did not run the offered command: %v", err)
		}
	})
}
