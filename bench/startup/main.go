//go:build linux

// Command startup measures what hookd adds to starting a shell, the way a
// person feels it: from spawning bash or zsh on a pseudo-terminal to its
// first prompt on the screen, and to the output of the first command typed
// as soon as that prompt appears. bench/startup.sh builds hookd and runs it;
// see that script for the variants and the rc files.
//
// Each run starts the shell in a scratch HOME with the daemon already
// running, types `printf '%s_%s\n' FIRST CMD` the moment the line editor is
// ready (it turns bracketed paste on), waits for FIRST_CMD, then exits.
// Variants of one shell and rc alternate within each round, so that a busy
// machine slows all of them alike; the table gives medians and the cost
// added over the same rc without hookd.
package main

import (
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// Variants: what the rc holds besides the user's lines.
var variants = map[string]struct {
	early, end bool
	capture    string
	desc       string
	base       bool // the -base binary's, not -hookd's
}{
	"none":       {desc: "without hookd"},
	"off":        {end: true, capture: "off", desc: "hookd, capture off"},
	"on":         {end: true, capture: "pty", desc: "hookd, capture on, end line only (rc runs twice)"},
	"early":      {early: true, end: true, capture: "pty", desc: "hookd, capture on, early line + end line"},
	"off-base":   {end: true, capture: "off", desc: "base hookd, capture off", base: true},
	"early-base": {early: true, end: true, capture: "pty", desc: "base hookd, capture on, early line + end line", base: true},
}

// baseDir holds the -base binary as hookd, for the base variants' PATH.
var baseDir string

func main() {
	hookd := flag.String("hookd", "", "the hookd binary (required)")
	shells := flag.String("shells", "bash,zsh,fish", "shells to measure")
	rcs := flag.String("rc", "empty,plugins", "rc files: empty, plugins (Debian's packaged plugins), or a path to your own rc (its hookd lines are dropped)")
	vars := flag.String("variants", "none,off,on,early", "variants: none, off, on (end line only), early (early line + end line)")
	runs := flag.Int("n", 20, "runs of each variant")
	procs := flag.String("hello", "", "a hello-world Go binary: also time hookd version/init/suggest and the agents' hooks against it")
	base := flag.String("base", "", "another hookd binary (main's, say): with -hello its version and agent hooks are timed in the same runs; the variants off-base and early-base are the shell's start with it")
	payloads := flag.String("payloads", "", "with -hello: the agents' hook payloads (internal/recording/agenthook/testdata), each fed to hookd agent-hook")
	flag.Parse()
	if *hookd == "" {
		fmt.Fprintln(os.Stderr, "startup: -hookd is required")
		os.Exit(2)
	}
	// Processes a start leaves behind (under capture, the shell below the
	// proxy) become this process's children, so that their CPU time counts.
	unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	home, err := os.MkdirTemp("", "hookd-startup-")
	check(err)
	defer os.RemoveAll(home)
	env := scratchEnv(home, filepath.Dir(*hookd))
	check(os.MkdirAll(filepath.Join(home, ".run"), 0o700))
	// The daemon runs, as it does in a user's session.
	daemon := exec.Command(*hookd, "daemon", "--detach")
	daemon.Env = env
	check(daemon.Run())
	defer stopAgent(home)

	if *base != "" {
		baseDir = filepath.Join(home, ".base-bin")
		check(os.MkdirAll(baseDir, 0o700))
		b, err := os.ReadFile(*base)
		check(err)
		check(os.WriteFile(filepath.Join(baseDir, "hookd"), b, 0o700))
	}
	if *procs != "" {
		processes(*procs, *hookd, *base, *payloads, env, *runs*3)
	}
	for _, sh := range split(*shells) {
		if _, err := exec.LookPath(sh); err != nil {
			fmt.Printf("%s: not installed, skipped\n", sh)
			continue
		}
		for _, rc := range split(*rcs) {
			user, skip := userRC(sh, rc)
			if skip != "" {
				fmt.Printf("%s %s: %s, skipped\n", sh, rc, skip)
				continue
			}
			measure(sh, rcName(rc), user, split(*vars), *runs, home, env)
		}
	}
}

// sample is one start: the wall times to the first prompt and to the first
// command's output, and the CPU time of every process of the start (the
// shells, hookd init, the proxy; the daemon's is not among them), which a
// busy machine disturbs much less than the wall times.
type sample struct{ prompt, first, cpu time.Duration }

func measure(sh, rcName, user string, vars []string, runs int, home string, env []string) {
	res := map[string][]sample{}
	rcRuns := map[string][]int{}
	for _, v := range vars {
		if _, ok := variants[v]; !ok {
			fmt.Fprintf(os.Stderr, "startup: unknown variant %q\n", v)
			os.Exit(2)
		}
		if variants[v].base && baseDir == "" {
			fmt.Fprintf(os.Stderr, "startup: variant %q needs -base\n", v)
			os.Exit(2)
		}
	}
	// One warm-up round (caches, the daemon's first ingest), then runs
	// rounds, each variant once per round, the order rotating.
	for round := -1; round < runs; round++ {
		order := slices.Clone(vars)
		if round >= 0 {
			k := round % len(order)
			order = append(order[k:], order[:k]...)
		}
		for _, v := range order {
			s, n, err := once(sh, v, user, home, env)
			if err != nil {
				fmt.Fprintf(os.Stderr, "startup: %s %s %s: %v\n", sh, rcName, v, err)
				continue
			}
			if round >= 0 {
				res[v] = append(res[v], s)
				rcRuns[v] = append(rcRuns[v], n)
			}
		}
	}
	fmt.Printf("\n%s, rc %s, %d runs (medians)\n\n", sh, rcName, runs)
	fmt.Println("| variant | first prompt | added | first command's output | added | CPU | added | rc runs |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	base := res["none"]
	for _, v := range vars {
		p, f := medians(res[v])
		added := func(x, b time.Duration) string {
			if len(base) == 0 || v == "none" {
				return "–"
			}
			return fmt.Sprintf("%+.1f ms", ms(x-b))
		}
		bp, bf := medians(base)
		c, bc := cpuMedian(res[v]), cpuMedian(base)
		fmt.Printf("| %s | %.1f ms | %s | %.1f ms | %s | %.1f ms | %s | %s |\n", variants[v].desc, ms(p), added(p, bp), ms(f), added(f, bf),
			ms(c), added(c, bc), runsOf(rcRuns[v]))
	}
}

func runsOf(n []int) string {
	if len(n) == 0 {
		return "–"
	}
	slices.Sort(n)
	if n[0] == n[len(n)-1] {
		return strconv.Itoa(n[0])
	}
	return fmt.Sprintf("%d–%d", n[0], n[len(n)-1])
}

func medians(s []sample) (p, f time.Duration) {
	if len(s) == 0 {
		return 0, 0
	}
	ps := make([]time.Duration, len(s))
	fs := make([]time.Duration, len(s))
	for i, x := range s {
		ps[i], fs[i] = x.prompt, x.first
	}
	return median(ps), median(fs)
}

func cpuMedian(s []sample) time.Duration {
	var d []time.Duration
	for _, x := range s {
		d = append(d, x.cpu)
	}
	if len(d) == 0 {
		return 0
	}
	return median(d)
}

func median(d []time.Duration) time.Duration {
	d = slices.Clone(d)
	slices.Sort(d)
	if len(d)%2 == 1 {
		return d[len(d)/2]
	}
	return (d[len(d)/2-1] + d[len(d)/2]) / 2
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// once starts sh with the variant's rc and returns the times to its first
// prompt and to the first command's output, and how often the rc ran.
func once(sh, variant, user, home string, env []string) (sample, int, error) {
	v := variants[variant]
	counter := filepath.Join(home, "rc-runs")
	os.Remove(counter)
	var rc strings.Builder
	if v.early {
		fmt.Fprint(&rc, initLine(sh, " --early"))
	}
	// The rc counts its runs (a builtin append, in every variant alike).
	fmt.Fprintf(&rc, "echo >>%s\n", counter)
	rc.WriteString(user)
	if v.end {
		fmt.Fprint(&rc, initLine(sh, ""))
	}
	env = append(slices.Clone(env), "HOOKD_CAPTURE="+cmp.Or(v.capture, "off"))
	if v.base {
		for i, kv := range env {
			if rest, ok := strings.CutPrefix(kv, "PATH="); ok {
				env[i] = "PATH=" + baseDir + string(os.PathListSeparator) + rest
			}
		}
	}
	var args []string
	switch sh {
	case "bash":
		p := filepath.Join(home, ".bashrc")
		if err := os.WriteFile(p, []byte(rc.String()), 0o600); err != nil {
			return sample{}, 0, err
		}
		args = []string{"--noprofile", "--rcfile", p, "-i"}
	case "zsh":
		zd := filepath.Join(home, ".zdot")
		os.MkdirAll(zd, 0o700)
		if err := os.WriteFile(filepath.Join(zd, ".zshrc"), []byte(rc.String()), 0o600); err != nil {
			return sample{}, 0, err
		}
		env = append(env, "ZDOTDIR="+zd)
		args = []string{"-i"}
	case "fish":
		// config.fish in the scratch XDG_CONFIG_HOME, past fish's
		// first-start work (completions from man pages, its directories),
		// as a user's fish is.
		fd := filepath.Join(home, ".config", "fish")
		os.MkdirAll(fd, 0o700)
		os.MkdirAll(filepath.Join(home, ".local", "share", "fish", "generated_completions"), 0o700)
		os.WriteFile(filepath.Join(fd, "fish_variables"), []byte("# VERSION: 3.0\nSETUVAR __fish_initialized:3400\n"), 0o600)
		if err := os.WriteFile(filepath.Join(fd, "config.fish"), []byte(rc.String()), 0o600); err != nil {
			return sample{}, 0, err
		}
		args = []string{"-i"}
	}
	bin, _ := exec.LookPath(sh)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(env, "SHELL="+bin)
	cmd.Dir = home
	ptmx, tty, err := pty.Open()
	if err != nil {
		return sample{}, 0, err
	}
	defer ptmx.Close()
	pty.Setsize(ptmx, &pty.Winsize{Cols: 120, Rows: 40})
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	var ru0 unix.Rusage
	unix.Getrusage(unix.RUSAGE_CHILDREN, &ru0)
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		tty.Close()
		return sample{}, 0, err
	}
	tty.Close()
	defer kill(cmd)

	type chunk struct {
		b []byte
		t time.Time
	}
	ch := make(chan chunk, 64)
	go func() {
		buf := make([]byte, 64<<10)
		for {
			n, err := ptmx.Read(buf)
			if n > 0 {
				ch <- chunk{slices.Clone(buf[:n]), time.Now()}
			}
			if err != nil {
				close(ch)
				return
			}
		}
	}()
	var out bytes.Buffer
	deadline := time.After(30 * time.Second)
	wait := func(what []byte) (time.Time, error) {
		for {
			select {
			case c, ok := <-ch:
				if !ok {
					return time.Time{}, fmt.Errorf("the shell ended before %q; output:\n%s", what, out.String())
				}
				out.Write(c.b)
				if bytes.Contains(out.Bytes(), what) {
					return c.t, nil
				}
			case <-deadline:
				return time.Time{}, fmt.Errorf("no %q within 30s; output:\n%s", what, out.String())
			}
		}
	}
	// The line editor is ready: readline and ZLE turn bracketed paste on.
	tp, err := wait([]byte("\x1b[?2004h"))
	if err != nil {
		return sample{}, 0, err
	}
	ptmx.Write([]byte("printf '%s_%s\\n' FIRST CMD\r"))
	tf, err := wait([]byte("FIRST_CMD"))
	if err != nil {
		return sample{}, 0, err
	}
	ptmx.Write([]byte("exit\r"))
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		return sample{}, 0, fmt.Errorf("the shell did not exit")
	}
	// What else of this start ended below us (this process is their
	// subreaper) is reaped, so that its CPU time is counted.
	for {
		var ws unix.WaitStatus
		pid, err := unix.Wait4(-1, &ws, unix.WNOHANG, nil)
		if pid <= 0 || err != nil {
			break
		}
	}
	var ru1 unix.Rusage
	unix.Getrusage(unix.RUSAGE_CHILDREN, &ru1)
	cpu := time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) * time.Nanosecond
	b, _ := os.ReadFile(counter)
	return sample{tp.Sub(t0), tf.Sub(t0), cpu}, bytes.Count(b, []byte("\n")), nil
}

// kill ends the shell and everything below it (under capture, the shell
// runs in a session of its own below the proxy).
func kill(cmd *exec.Cmd) {
	if cmd.ProcessState != nil {
		return
	}
	for _, pid := range descendants(cmd.Process.Pid) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()
}

func descendants(pid int) []int {
	children := map[int][]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) > 1 {
			if pp, err := strconv.Atoi(f[1]); err == nil {
				children[pp] = append(children[pp], p)
			}
		}
	}
	var out []int
	for q := []int{pid}; len(q) > 0; q = q[1:] {
		for _, c := range children[q[0]] {
			if c == 1 {
				continue
			}
			out = append(out, c)
			q = append(q, c)
		}
	}
	return out
}

// userRC returns the user's part of the rc: nothing, Debian's plugins, or
// a file's lines without hookd's. skip says why a shell cannot run it.
func userRC(sh, rc string) (string, string) {
	switch rc {
	case "empty":
		return prompt(sh), ""
	case "plugins":
		return plugins(sh)
	}
	b, err := os.ReadFile(rc)
	if err != nil {
		return "", err.Error()
	}
	var keep []string
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if !strings.Contains(l, "hookd init") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "") + "\n", ""
}

func rcName(rc string) string {
	if rc == "empty" || rc == "plugins" {
		return rc
	}
	return filepath.Base(rc)
}

func prompt(sh string) string {
	switch sh {
	case "bash":
		return "PS1='\\w \\$ '\n"
	case "fish":
		return "function fish_prompt; printf '%s $ ' (prompt_pwd); end\n"
	}
	return "PROMPT='%~ %# '\n"
}

// initLine is the rc line that loads hookd (flags: "" or " --early").
func initLine(sh, flags string) string {
	if sh == "fish" {
		return "hookd init fish" + flags + " | source\n"
	}
	return fmt.Sprintf("eval \"$(hookd init %s%s)\"\n", sh, flags)
}

// plugins is a realistic rc of Debian's packaged plugins, in the order
// their documentation asks for (the syntax highlighter last but hookd).
func plugins(sh string) (string, string) {
	var need []string
	var b strings.Builder
	add := func(file, line string) {
		if _, err := os.Stat(file); err != nil {
			need = append(need, file)
			return
		}
		b.WriteString(line + "\n")
	}
	have := func(cmd, line string) {
		if _, err := exec.LookPath(cmd); err != nil {
			need = append(need, cmd)
			return
		}
		b.WriteString(line + "\n")
	}
	if sh == "fish" {
		// fish's own prompt, fzf's fish bindings (Debian's vendor
		// function), zoxide, direnv.
		add("/usr/share/fish/vendor_functions.d/fzf_key_bindings.fish", "fzf_key_bindings")
		have("zoxide", "zoxide init fish | source")
		have("direnv", "direnv hook fish | source")
	} else if sh == "bash" {
		b.WriteString("HISTSIZE=10000 HISTFILESIZE=20000\nshopt -s histappend checkwinsize\n")
		b.WriteString("PS1='\\[\\e[32m\\]\\u@\\h\\[\\e[0m\\]:\\[\\e[34m\\]\\w\\[\\e[0m\\]\\$ '\n")
		add("/usr/share/bash-completion/bash_completion", ". /usr/share/bash-completion/bash_completion")
		add("/usr/share/doc/fzf/examples/key-bindings.bash", ". /usr/share/doc/fzf/examples/key-bindings.bash")
		have("zoxide", `eval "$(zoxide init bash)"`)
		have("direnv", `eval "$(direnv hook bash)"`)
	} else {
		b.WriteString("HISTFILE=~/.zsh_history HISTSIZE=10000 SAVEHIST=10000\nsetopt share_history\n")
		b.WriteString("autoload -Uz compinit && compinit -d ~/.zcompdump\n")
		add("/usr/share/powerlevel9k/powerlevel9k.zsh-theme", "POWERLEVEL9K_MODE=compatible\nsource /usr/share/powerlevel9k/powerlevel9k.zsh-theme")
		add("/usr/share/zsh-autosuggestions/zsh-autosuggestions.zsh", "source /usr/share/zsh-autosuggestions/zsh-autosuggestions.zsh")
		add("/usr/share/doc/fzf/examples/key-bindings.zsh", "source /usr/share/doc/fzf/examples/key-bindings.zsh")
		have("zoxide", `eval "$(zoxide init zsh)"`)
		have("direnv", `eval "$(direnv hook zsh)"`)
		add("/usr/share/zsh-syntax-highlighting/zsh-syntax-highlighting.zsh", "source /usr/share/zsh-syntax-highlighting/zsh-syntax-highlighting.zsh")
	}
	if len(need) > 0 {
		return "", "missing " + strings.Join(need, ", ")
	}
	return b.String(), ""
}

// hookPayloads are the agents' hook payloads timed (under -payloads):
// agent, fixture.
var hookPayloads = [][2]string{
	{"claude-code", "claude-code/failure.json"}, {"claude-code", "claude-code/user_prompt.json"},
	{"codex", "codex/post_tool_use.json"}, {"gemini", "gemini/after_tool.json"},
	{"opencode", "opencode/after.json"}, {"copilot", "copilot/post_tool_use.json"},
}

// processes times hookd's own start-up against a hello-world Go binary,
// alternating (with base's, when given), and prints medians and ratios.
func processes(hello, hookd, base, payloads string, env []string, runs int) {
	type proc struct {
		name  string
		args  []string
		stdin []byte
	}
	cmds := []proc{
		{"hello world (Go)", []string{hello}, nil},
		{"hookd version", []string{hookd, "version"}, nil},
		{"hookd init zsh", []string{hookd, "init", "zsh"}, nil},
		{"hookd init bash", []string{hookd, "init", "bash"}, nil},
		{"hookd init fish", []string{hookd, "init", "fish"}, nil},
		{"hookd init zsh --early", []string{hookd, "init", "zsh", "--early"}, nil},
		{"hookd suggest --command 'gti status' --exit 127", []string{hookd, "suggest", "--command", "gti status", "--exit", "127"}, nil},
	}
	if base != "" {
		cmds = append(cmds, proc{"base: hookd version", []string{base, "version"}, nil})
	}
	for _, p := range hookPayloads {
		if payloads == "" {
			break
		}
		b, err := os.ReadFile(filepath.Join(payloads, p[1]))
		check(err)
		cmds = append(cmds, proc{"hookd agent-hook " + p[0] + " < " + p[1], []string{hookd, "agent-hook", p[0]}, b})
		if base != "" {
			cmds = append(cmds, proc{"base: hookd agent-hook " + p[0] + " < " + p[1], []string{base, "agent-hook", p[0]}, b})
		}
	}
	times := make([][]time.Duration, len(cmds))
	for r := 0; r < runs+3; r++ {
		for i, c := range cmds {
			x := exec.Command(c.args[0], c.args[1:]...)
			x.Env = append(slices.Clone(env), "HOOKD_CAPTURE=off")
			x.Stdin = bytes.NewReader(c.stdin)
			t := time.Now()
			if err := x.Run(); err != nil && i == 0 {
				fmt.Fprintf(os.Stderr, "startup: %s: %v\n", c.args[0], err)
			}
			if r >= 3 {
				times[i] = append(times[i], time.Since(t))
			}
		}
	}
	fmt.Printf("\nprocess start to exit, %d runs (medians)\n\n| command | time | × hello world |\n|---|---|---|\n", runs)
	h := median(times[0])
	for i, c := range cmds {
		m := median(times[i])
		fmt.Printf("| %s | %.2f ms | %.2f |\n", c.name, ms(m), float64(m)/float64(h))
	}
}

func scratchEnv(home, bin string) []string {
	return []string{
		"HOME=" + home,
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"TERM=xterm-256color",
		"LANG=C.UTF-8",
		"USER=" + cmp.Or(os.Getenv("USER"), "bench"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_RUNTIME_DIR=" + filepath.Join(home, ".run"),
	}
}

func stopAgent(home string) {
	b, err := os.ReadFile(filepath.Join(home, ".local", "state", "hookd", "agent.pid"))
	if err != nil {
		return
	}
	if pid, err := strconv.Atoi(strings.Fields(string(b) + " x")[0]); err == nil {
		syscall.Kill(pid, syscall.SIGTERM)
		for i := 0; i < 300 && syscall.Kill(pid, 0) == nil; i++ {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "startup:", err)
		os.Exit(1)
	}
}
