package main

import (
	"fmt"
	"github.com/hookd/hookd/internal/required"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/ai/llm/llmtest"
	"github.com/hookd/hookd/internal/shelltest"
	"github.com/hookd/hookd/internal/shellwords"
)

// TestChainValueNeverCode (issue 20, item 1): the chain, which
// inlined an output into an unquoted here-document, is refused before
// anything runs, naming the step and the line; an output inlined in a
// plain word or inside quotes reaches bash and zsh as data.
func TestChainValueNeverCode(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		sh := shellPath(t, shell)
		h := newHome(t)
		dir := t.TempDir()
		pwned := filepath.Join(dir, "pwned")
		file := writeChain(t, dir, `steps:
  - id: a
    run: printf '%s\n' 'safe $(touch `+pwned+`)'
    outputs: {text: {extract_from: stdout}}
  - id: b
    run: "cat <<X\n${a.text}\nX"
`)
		out, errOut, err := hookdRun(h, []string{"SHELL=" + sh}, "chain", file)
		if code := exitStatus(err); code != 2 || out != "" {
			t.Fatalf("chain: exit %d; want 2\nstdout %q\nstderr %s", code, out, errOut)
		}
		for _, want := range []string{"step 2 (b)", "line 2 of the command", "here-document", "pass_as: {environment"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("stderr lacks %q:\n%s", want, errOut)
			}
		}
		if _, err := os.Stat(pwned); err == nil {
			t.Fatal("the output ran as code")
		}
		if es := entries(t, h); len(es) != 0 {
			t.Errorf("a refused chain ran steps: %+v", es)
		}

		file = writeChain(t, dir, `steps:
  - id: a
    run: printf '%s\n' "x'\"; \$(touch `+pwned+`) \`+"`"+`touch `+pwned+`\`+"`"+`"
    outputs: {text: {extract_from: stdout}}
  - run: printf '[%s]\n' ${a.text} "${a.text}" '${a.text}' "in ${a.text} dq"
`)
		out, errOut, err = hookdRun(h, []string{"SHELL=" + sh}, "chain", file)
		if err != nil {
			t.Fatalf("chain: %v\n%s", err, errOut)
		}
		v := "x'\"; $(touch " + pwned + ") `touch " + pwned + "`"
		want := v + "\n[" + v + "]\n[" + v + "]\n[" + v + "]\n[in " + v + " dq]\n"
		if out != want {
			t.Errorf("stdout\n%q\nwant\n%q", out, want)
		}
		if _, err := os.Stat(pwned); err == nil {
			t.Fatal("the output ran as code")
		}
	})
}

// shellPath is the path of shell (skipped or failed as shelltest.Need
// says when it is missing).
func shellPath(t *testing.T, shell string) string {
	t.Helper()
	shelltest.Need(t, shell)
	p, err := exec.LookPath(shell)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLinkedProjectFile (issue 20, item 2): a .hookd.yml that is a link to
// an allowed file does not make its context commands run in the
// attacker's directory; hookd says why the file is not used.
func TestLinkedProjectFile(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		fake := llmtest.NewOpenAI(t)
		h := newHome(t)
		home, _ := filepath.EvalSymlinks(h.Dir)
		proj, evil := filepath.Join(home, "proj"), filepath.Join(home, "evil")
		for _, d := range []string{filepath.Join(proj, ".git"), filepath.Join(evil, ".git")} {
			os.MkdirAll(d, 0o700)
		}
		file := filepath.Join(proj, ".hookd.yml")
		os.WriteFile(file, []byte("ask:\n  context_commands:\n    - {name: Tool, command: ./tool.sh}\n"), 0o600)
		os.WriteFile(filepath.Join(proj, "tool.sh"), []byte("#!/bin/sh\necho proj-tool\n"), 0o700)
		pwned := filepath.Join(home, "pwned")
		os.WriteFile(filepath.Join(evil, "tool.sh"), []byte("#!/bin/sh\ntouch "+pwned+"\necho evil-tool\n"), 0o700)
		os.Symlink(file, filepath.Join(evil, ".hookd.yml"))
		hookd(t, h, "allow", file)

		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell), Env: llmEnv(fake)})
		s.Run("cd " + evil + " && hookd ask --dry-run hello; echo done-$((6*7))")
		s.WaitForPlain(regexp.MustCompile(`done-42`), 20*time.Second)
		if _, err := os.Stat(pwned); err == nil {
			t.Fatal("the attacker's tool.sh ran")
		}
		if out := s.Plain(); !strings.Contains(out, "a symbolic link to "+file+", outside its own directory") || strings.Contains(out, "evil-tool") {
			t.Errorf("no reason given, or the tool's output was sent:\n%s", out)
		}
		// In the project itself the allowed file still runs.
		s.Run("cd " + proj + " && hookd ask --dry-run hello; echo done-$((6*8))")
		s.WaitForPlain(regexp.MustCompile(`done-48`), 20*time.Second)
		if !strings.Contains(s.Plain(), "proj-tool") {
			t.Errorf("the allowed file's command did not run in its project:\n%s", s.Plain())
		}
	})
}

// TestProjectFilesStayInProject (issue 20, items 4, 5 and 6): a project's
// prompt files cannot bring a file from outside the project into a
// question: not through git diff's implicit --no-index, not as a link;
// project files and folders in a directory anyone may write to, or owned
// by another user, or above a directory outside both a repository and
// home, shape nothing, and hookd says which it ignored. In real bash and
// zsh, through ?? at the prompt.
func TestProjectFilesStayInProject(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		fake := llmtest.NewOpenAI(t)
		fake.SetKey("test-key")
		fake.SetReply(llmtest.Reply{Text: []string{"Answered."}})
		h := newHome(t)
		home, _ := filepath.EvalSymlinks(h.Dir)
		secret := filepath.Join(home, ".netrc")
		os.WriteFile(secret, []byte("machine example.com password hunter2-netrc\n"), 0o600)
		proj := filepath.Join(home, "proj")
		cmds := filepath.Join(proj, ".hookd", "commands")
		for _, d := range []string{filepath.Join(proj, ".git"), cmds, filepath.Join(proj, ".claude", "commands")} {
			os.MkdirAll(d, 0o700)
		}
		os.WriteFile(filepath.Join(cmds, "diffleak.md"), []byte("Review:\n!`git diff "+secret+" /dev/null | cat`\n"), 0o600)
		os.Symlink(secret, filepath.Join(cmds, "leak.md"))
		os.Symlink(secret, filepath.Join(proj, ".claude", "commands", "x.md"))

		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell), Env: llmEnv(fake)})
		s.Run("cd " + proj)
		s.Run("?? /diffleak")
		s.WaitForPlain(regexp.MustCompile(`(?s)outside the project.*Answered\.`), 20*time.Second)
		if user := userMessage(t, fake); strings.Contains(user, "hunter2") {
			t.Fatalf("git diff sent a file from outside the project:\n%s", user)
		}
		for i, name := range []string{"leak", "x"} {
			s.Run("hookd ask /" + name + "; echo done-" + strconv.Itoa(i) + "-$((6*7))")
			s.WaitForPlain(regexp.MustCompile(`done-`+strconv.Itoa(i)+`-42`), 20*time.Second)
		}
		if n := len(fake.Requests()); n != 1 {
			t.Errorf("%d requests; the linked prompt files must not be asked", n)
		}
		if out := s.Plain(); strings.Count(out, "outside its project") < 2 || strings.Contains(out, "hunter2") {
			t.Errorf("the links were not refused with a reason:\n%s", out)
		}

		// A folder anyone may write to, under home: its prompt file and
		// its .hookd.yml are ignored, said once each; the user's own
		// review.md is the one used.
		shared := filepath.Join(home, "shared")
		os.MkdirAll(filepath.Join(shared, "x"), 0o700)
		os.MkdirAll(filepath.Join(shared, ".hookd", "commands"), 0o700)
		os.WriteFile(filepath.Join(shared, ".hookd", "commands", "review.md"), []byte("planted review\n"), 0o600)
		os.WriteFile(filepath.Join(shared, ".hookd.yml"), []byte("ask:\n  template: planted system prompt\n"), 0o600)
		os.Chmod(shared, 0o1777)
		os.MkdirAll(filepath.Join(home, ".config", "hookd", "commands"), 0o700)
		os.WriteFile(filepath.Join(home, ".config", "hookd", "commands", "review.md"), []byte("my own review\n"), 0o600)
		s.Run("cd " + filepath.Join(shared, "x") + " && hookd expand review; echo done-$((6*8))")
		s.WaitForPlain(regexp.MustCompile(`done-48`), 20*time.Second)
		out := s.Plain()
		if !strings.Contains(out, "my own review") || strings.Contains(out, "planted review") ||
			!strings.Contains(out, filepath.Join(shared, ".hookd")+": in "+shared+", which any user may write to; ignored") {
			t.Errorf("the planted prompt file shadowed the user's, or no warning:\n%s", out)
		}
		s.Run("?? hello there")
		s.WaitForPlain(regexp.MustCompile(`(?s)hello there.*Answered\.`), 20*time.Second)
		if sys := fake.Last().System; strings.Contains(sys, "planted") {
			t.Errorf("the planted .hookd.yml set the system prompt:\n%s", sys)
		}
		if !strings.Contains(s.Plain(), filepath.Join(shared, ".hookd.yml")+": in "+shared+", which any user may write to; ignored") {
			t.Errorf("no warning about the ignored .hookd.yml:\n%s", s.Plain())
		}

		// Outside home and any repository (/tmp/x): nothing above the
		// working directory is looked at.
		tmp := t.TempDir()
		os.MkdirAll(filepath.Join(tmp, "x"), 0o700)
		os.MkdirAll(filepath.Join(tmp, ".hookd", "commands"), 0o700)
		os.WriteFile(filepath.Join(tmp, ".hookd", "commands", "review.md"), []byte("planted above\n"), 0o600)
		s.Run("cd " + filepath.Join(tmp, "x") + " && hookd expand review; echo done-$((6*9))")
		s.WaitForPlain(regexp.MustCompile(`done-54`), 20*time.Second)
		if out := s.Plain(); strings.Contains(out, "planted above") {
			t.Errorf("a prompt file above a directory outside home and any repository was used:\n%s", out)
		}

		// A project folder another user owns (as git's safe.directory).
		if os.Geteuid() == 0 {
			other := filepath.Join(home, "other")
			os.MkdirAll(filepath.Join(other, ".git"), 0o755)
			os.MkdirAll(filepath.Join(other, ".hookd", "commands"), 0o755)
			os.WriteFile(filepath.Join(other, ".hookd", "commands", "review.md"), []byte("another's review\n"), 0o644)
			os.Lchown(filepath.Join(other, ".hookd"), 65534, 65534)
			s.Run("cd " + other + " && hookd expand review; echo done-$((7*9))")
			s.WaitForPlain(regexp.MustCompile(`done-63`), 20*time.Second)
			if out := s.Plain(); strings.Contains(out, "another's review") || !strings.Contains(out, "owned by uid 65534, not by you; ignored") {
				t.Errorf("another user's folder was used, or silently:\n%s", out)
			}
		}
	})
}

// TestProviderKeyNeverLeaves (issue 20, item 7): the provider's key, and
// any provider key variable's value, is neither inherited by the commands
// hookd starts nor sent or stored when a command prints it bare.
func TestProviderKeyNeverLeaves(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		const key, other = "hk-live-0123456789abcdefXYZ", "orv-ABCDEFGH0123456789"
		fake := llmtest.NewOpenAI(t)
		fake.SetKey(key)
		fake.SetReply(llmtest.Reply{Text: []string{"Answered."}})
		h := newHome(t)
		env := []string{"HOOKD_LLM_PROVIDER=openai", "HOOKD_LLM_BASE_URL=" + fake.URL, "HOOKD_LLM_API_KEY=" + key,
			"HOOKD_LLM_MODEL=test-model", "OPENROUTER_API_KEY=" + other, "HOOKD_CAPTURE=pty"}
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell), Env: env})
		s.Run(`hookd ask --exec 'printenv HOOKD_LLM_API_KEY; echo "or=$OPENROUTER_API_KEY."' 'what did it print'`)
		s.WaitForPlain(regexp.MustCompile(`(?s)what did it print.*Answered\.`), 20*time.Second)
		user := userMessage(t, fake)
		if strings.Contains(user, key) || strings.Contains(user, other) || !strings.Contains(user, "or=.") {
			t.Errorf("a context command saw a key, or it was sent:\n%s", user)
		}
		// Printed bare in the user's own shell and recorded: redacted in
		// the stored row and in what is sent.
		s.Run(`printf 'k1=%s k2=%s\n' "$HOOKD_LLM_API_KEY" "$OPENROUTER_API_KEY"`)
		s.Run("hookd ask 'and this !!ctx'")
		s.WaitForPlain(regexp.MustCompile(`(?s)and this.*Answered\.`), 20*time.Second)
		user = userMessage(t, fake)
		if strings.Contains(user, key) || strings.Contains(user, other) || !strings.Contains(user, "k1=[REDACTED] k2=[REDACTED]") {
			t.Errorf("the key was sent:\n%s", user)
		}
		var printed int64
		for _, e := range entries(t, h) {
			if strings.HasPrefix(e.Command, "printf 'k1=") {
				printed = e.ID
			}
		}
		out, _, err := hookdRun(h, env, "show", strconv.FormatInt(printed, 10), "--json")
		if err != nil || strings.Contains(out, key) || strings.Contains(out, other) || !strings.Contains(out, "k1=[REDACTED]") {
			t.Errorf("the key was stored: %v\n%s", err, out)
		}
		asks, _, _ := hookdRun(h, env, "ask", "--log", "--json")
		if strings.Contains(asks, key) || strings.Contains(asks, other) {
			t.Errorf("the key was stored with a question:\n%s", asks)
		}
		// A chain's run steps do not inherit it either.
		file := writeChain(t, t.TempDir(), "steps:\n  - run: echo \"k=${HOOKD_LLM_API_KEY:-none} o=${OPENROUTER_API_KEY:-none}\"\n")
		out, errOut, err := hookdRun(h, env, "chain", file)
		if err != nil || out != "k=none o=none\n" {
			t.Errorf("chain: %v %q %s", err, out, errOut)
		}
	})
}

// TestMalformedToolCall (issue 20, item 10): a model's tool call whose
// arguments are not JSON, holding a clipboard write (OSC 52) and a title
// sequence, neither reaches the terminal raw nor ends the question: the
// model gets a tool error and answers.
func TestMalformedToolCall(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		fake := llmtest.NewOpenAI(t)
		fake.SetKey("test-key")
		bad := "\x1b]52;c;cm0gLXJmIH4=\x07\x1b]0;pwned-title\x07 not json"
		fake.Push(llmtest.Step{Reply: &llmtest.Reply{Calls: []llmtest.Call{{Name: "read_file", Arguments: bad}}}},
			llmtest.Step{Reply: &llmtest.Reply{Text: []string{"Recovered after the error."}}})
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell), Env: llmEnv(fake)})
		s.Run("hookd ask 'read the makefile'; echo done-$((6*7))")
		s.WaitForPlain(regexp.MustCompile(`done-42`), 20*time.Second)
		raw := s.Output()
		if strings.Contains(raw, "\x1b]52") || strings.Contains(raw, "\x1b]0;pwned") {
			t.Errorf("a model's escape sequence reached the terminal:\n%q", raw)
		}
		if !strings.Contains(s.Plain(), "Recovered after the error.") {
			t.Errorf("the question ended at the malformed call:\n%s", s.Plain())
		}
		reqs := fake.Requests()
		if len(reqs) != 2 {
			t.Fatalf("%d requests; want 2", len(reqs))
		}
		var tool string
		for _, m := range reqs[1].Messages {
			if m.Role == "tool" {
				tool = m.Content
			}
		}
		if !strings.Contains(tool, "arguments were not a JSON object") {
			t.Errorf("the model was not told: %q", tool)
		}
	})
}

// TestFIFOPromptFile (issue 20, item 11): a FIFO in .hookd/commands hangs
// neither hookd commands nor Tab completion after hookd ask /, in real
// bash and zsh.
func TestFIFOPromptFile(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		dir := promptProject(t, h)
		if err := syscall.Mkfifo(filepath.Join(dir, ".hookd", "commands", "trap.md"), 0o644); err != nil {
			t.Fatal(err)
		}
		rc := "PS1='$ '\nPROMPT='%# '\ncd " + shellwords.Quote(dir) + "\n" + initLine(shell)
		if shell == "zsh" {
			rc += "autoload -Uz compinit && compinit -u -D\n"
		}
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: rc})
		s.Run("hookd commands; echo done-$((6*7))")
		s.WaitForPlain(regexp.MustCompile(`(?s)/review.*trap.md: not a regular file.*done-42`), 20*time.Second)
		s.Editing()
		s.Type("hookd ask /rev\t")
		s.WaitForPlain(regexp.MustCompile(`hookd ask /review $`), 20*time.Second)
	})
}

// TestSignalsEndHookd (issue 20, item 11): whatever hookd is blocked on
// (here: reading a pipe that never ends), a SIGTERM ends it within a
// second, and so does a second Ctrl-C.
func TestSignalsEndHookd(t *testing.T) {
	for _, tc := range []struct {
		name string
		sigs []syscall.Signal
		code int
	}{
		{"SIGTERM", []syscall.Signal{syscall.SIGTERM}, 128 + 15},
		{"two Ctrl-C", []syscall.Signal{syscall.SIGINT, syscall.SIGINT}, 128 + 2},
		{"Ctrl-C then SIGTERM", []syscall.Signal{syscall.SIGINT, syscall.SIGTERM}, 128 + 15},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHome(t)
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			cmd := exec.Command(hookdBin, "ask", "what is this")
			cmd.Env, cmd.Dir, cmd.Stdin = append(h.Env, "HOOKD_LLM_PROVIDER=command", "HOOKD_LLM_COMMAND=cat"), h.Dir, r
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			r.Close()
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// Wait until hookd is blocked reading its stdin.
			if !shelltest.Poll(20*time.Second, func() bool { return readingStdin(cmd.Process.Pid) }) {
				cmd.Process.Kill()
				t.Fatal("hookd never read its stdin")
			}
			for _, sig := range tc.sigs {
				// A signal sent while the same one is pending is lost, as
				// a second Ctrl-C never is: wait until it is taken.
				cmd.Process.Signal(sig)
				for pending(cmd.Process.Pid, sig) {
					time.Sleep(10 * time.Millisecond)
				}
			}
			start := time.Now()
			// Go's runtime also merges a signal that comes before the
			// last one was handed on: a user presses Ctrl-C again after
			// a moment, so the last signal is repeated until hookd ends
			// (before the fix it never did).
			last := tc.sigs[len(tc.sigs)-1]
			again := time.NewTicker(250 * time.Millisecond)
			defer again.Stop()
			giveUp := time.After(10 * time.Second)
			for {
				select {
				case <-again.C:
					if len(tc.sigs) > 1 {
						cmd.Process.Signal(last)
					}
					continue
				case err := <-done:
					if code := exitStatus(err); code != tc.code {
						t.Errorf("exit %d; want %d", code, tc.code)
					}
					t.Logf("ended %v after the signal", time.Since(start).Round(time.Millisecond))
				case <-giveUp:
					cmd.Process.Kill()
					t.Fatal("hookd did not end after the signals")
				}
				break
			}
		})
	}
}

// readingStdin reports whether a thread of process pid is in a read(2)
// of its standard input (/proc/PID/task/TID/syscall: "0 0x0 …").
func readingStdin(pid int) bool {
	tasks, _ := os.ReadDir(filepath.Join("/proc", strconv.Itoa(pid), "task"))
	for _, task := range tasks {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "task", task.Name(), "syscall"))
		if err == nil && strings.HasPrefix(string(b), "0 0x0 ") {
			return true
		}
	}
	return false
}

// pending reports whether sig is pending for process pid (SigPnd or
// ShdPnd in /proc/PID/status).
func pending(pid int, sig syscall.Signal) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, _ := strings.Cut(line, ":")
		if k != "SigPnd" && k != "ShdPnd" {
			continue
		}
		mask, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
		if err == nil && mask&(1<<(uint(sig)-1)) != 0 {
			return true
		}
	}
	return false
}

// mountTmpfs mounts a small tmpfs (0700) at dir for the test, or skips
// the test where mounting is not allowed (not root).
func mountTmpfs(t *testing.T, dir, size string) {
	t.Helper()
	os.MkdirAll(dir, 0o700)
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0700", "tmpfs", dir).CombinedOutput(); err != nil {
		why := fmt.Sprintf("cannot mount a tmpfs here: %v %s", err, out)
		if os.Geteuid() != 0 {
			required.Cannot(t, why+" (mounting needs root: CI runs it as root)")
		}
		required.Skip(t, why, "REQUIRE_SHELLS")
	}
	t.Cleanup(func() { exec.Command("umount", "-l", dir).Run() })
}

// holders lists the processes with a file open under dir (the reason a
// remount says "mount point is busy"), each with its command line and the
// files.
func holders(dir string) string {
	var b strings.Builder
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		fds, err := os.ReadDir(filepath.Join("/proc", p.Name(), "fd"))
		if err != nil {
			continue
		}
		var open []string
		for _, fd := range fds {
			target, err := os.Readlink(filepath.Join("/proc", p.Name(), "fd", fd.Name()))
			if err == nil && strings.HasPrefix(target, dir+"/") {
				open = append(open, fd.Name()+"="+target)
			}
		}
		maps, _ := os.ReadFile(filepath.Join("/proc", p.Name(), "maps"))
		for _, line := range strings.Split(string(maps), "\n") {
			if i := strings.Index(line, dir+"/"); i >= 0 {
				open = append(open, "mapped="+line[i:])
			}
		}
		if len(open) > 0 {
			cmdline, _ := os.ReadFile(filepath.Join("/proc", p.Name(), "cmdline"))
			fmt.Fprintf(&b, "  pid %s %q: %s\n", p.Name(), strings.ReplaceAll(string(cmdline), "\x00", " "), strings.Join(open, " "))
		}
	}
	return b.String()
}

// TestHistoryWhenStorageFails (issue 20, item 13): a history on a
// read-only file system, and then on a full disk, is still read by
// hookd history, which says that recording is stopped, why, and that
// nothing is lost; once writable again, what waited is stored. In real
// bash and zsh.
func TestHistoryWhenStorageFails(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		data := h.Path(".local", "share", "hookd")
		// Room for a new database, its WAL (every migration's pages until
		// the first checkpoint) and shared memory, about 510 KiB at schema
		// 7, so that the disk is full only once the test fills it.
		mountTmpfs(t, data, "1m")
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell)})
		s.Run("echo one-$((6*7))")
		s.Run("hookd history")
		s.WaitForPlain(regexp.MustCompile(`echo one-\$\(\(6\*7\)\)`), 20*time.Second)

		// Read-only from now on: a read-only bind mount over the directory,
		// which new opens go through. (Remounting the tmpfs itself read-only
		// fails with "mount point is busy" while any process, here or in
		// another test's mount namespace, holds a file of it open for
		// writing or a deleted one open; a fresh bind mount has no writers.)
		// The daemon, which holds the database open for writing, is stopped
		// first, once the prompt is back (a prompt that finds it gone starts
		// it again), and again on each try, in case one was starting.
		s.Editing()
		var out []byte
		var err error
		bound := false
		shelltest.Poll(10*time.Second, func() bool {
			h.StopDaemon()
			if !bound {
				if out, err = exec.Command("mount", "--bind", data, data).CombinedOutput(); err != nil {
					return false
				}
				bound = true
				t.Cleanup(func() { exec.Command("umount", "-l", data).Run() })
			}
			out, err = exec.Command("mount", "-o", "remount,bind,ro", data).CombinedOutput()
			return err == nil
		})
		if err != nil {
			t.Fatalf("read-only bind mount: %v %s\nopen under %s:\n%s", err, out, data, holders(data))
		}
		s.Run("echo two-$((6*7))")
		s.Run("hookd history; echo listed-$((6*8))")
		s.WaitForPlain(regexp.MustCompile(`(?s)recording is stopped: \S*history.db cannot be written \(read-only file system\); new commands wait in the spool and nothing is lost.*listed-48`), 20*time.Second)
		if !strings.Contains(s.Plain()[strings.LastIndex(s.Plain(), "hookd history; echo listed"):], "echo one-") {
			t.Errorf("hookd history did not list what is stored:\n%s", s.Plain())
		}
		// Writable again: the bind mount goes (lazily, as files opened
		// through it may still be open), the tmpfs below was never read-only.
		if out, err := exec.Command("umount", "-l", data).CombinedOutput(); err != nil {
			t.Fatalf("umount the read-only bind: %v %s", err, out)
		}

		// Full: a file takes all the room left.
		fill, _ := os.Create(filepath.Join(data, "fill"))
		buf := make([]byte, 4096)
		for {
			if _, err := fill.Write(buf); err != nil {
				break
			}
		}
		fill.Close()
		s.Run("echo three-$((6*7))")
		s.Run("hookd history; echo listed-$((6*9))")
		s.WaitForPlain(regexp.MustCompile(`(?s)recording is paused: the disk holding \S*history.db is full \([^)]*(no space left on device|database or disk is full)\); commands wait in the spool and nothing is lost.*listed-54`), 20*time.Second)
		if !strings.Contains(s.Plain()[strings.LastIndex(s.Plain(), "hookd history; echo listed-$((6*9))"):], "echo one-") {
			t.Errorf("hookd history did not list what is stored:\n%s", s.Plain())
		}
		os.Remove(filepath.Join(data, "fill"))
		got := commandsOf(entries(t, h))
		for _, want := range []string{"echo one-$((6*7))", "echo two-$((6*7))", "echo three-$((6*7))"} {
			if !slices.Contains(got, want) {
				t.Errorf("%q was lost: %q", want, got)
			}
		}
	})
}

// TestStatusRuntimeTaken (issue 20, item 13): when another user owns the
// runtime directory under /tmp, hookd status says why the daemon is down;
// the shell works on.
func TestStatusRuntimeTaken(t *testing.T) {
	if os.Geteuid() != 0 {
		required.Cannot(t, "giving a directory to another user needs root")
	}
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		tmp := t.TempDir()
		taken := filepath.Join(tmp, "hookd-"+strconv.Itoa(os.Getuid()))
		os.Mkdir(taken, 0o777)
		if err := os.Chown(taken, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell), Env: []string{"XDG_RUNTIME_DIR=", "TMPDIR=" + tmp}})
		s.Run("echo still-$((6*7)); hookd status")
		s.WaitForPlain(regexp.MustCompile(`(?s)still-42.*the daemon cannot run: its runtime directory `+regexp.QuoteMeta(taken)+` belongs to \S+ \(uid 65534\), another user.*set XDG_RUNTIME_DIR`), 20*time.Second)
	})
}

// TestInvisibleShownEscaped (issue 20, item 13): a command holding a
// Hangul filler and a variation selector is listed with them escaped.
func TestInvisibleShownEscaped(t *testing.T) {
	forEachShell(t, func(t *testing.T, shell string) {
		h := newHome(t)
		s := shelltest.Start(t, h, shell, shelltest.Options{RC: initLine(shell)})
		s.Run("echo a\u3164b\ufe0fc >/dev/null")
		s.Run("hookd history")
		s.WaitForPlain(regexp.MustCompile(`echo a\\u3164b\\ufe0fc`), 20*time.Second)
	})
}
