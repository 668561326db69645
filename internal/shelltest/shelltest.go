// Package shelltest drives real interactive bash and zsh sessions through a
// pseudo-terminal, each in a private HOME, for end-to-end tests.
package shelltest

import (
	"bytes"
	"cmp"
	"fmt"
	"github.com/hookd/hookd/internal/required"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// Shells lists the shells the end-to-end tests run under.
var Shells = []string{"bash", "zsh"}

// AllShells is Shells and fish, for the tests of what fish has too.
var AllShells = []string{"bash", "zsh", "fish"}

// Need skips the test when shell is missing, or fails it when the
// environment says shells are required (REQUIRE_SHELLS=1, as CI sets).
func Need(t testing.TB, shell string) string {
	t.Helper()
	p, err := exec.LookPath(shell)
	if err != nil {
		required.Skip(t, fmt.Sprintf("%s is not installed: %v", shell, err), "REQUIRE_SHELLS")
	}
	return p
}

// Home is an isolated home directory with its XDG tree.
type Home struct {
	Dir string
	Env []string // HOME, XDG_* and the rest of a minimal environment
}

// NewHome makes a home under t.TempDir. binDir, when set, is put first on PATH.
func NewHome(t testing.TB, binDir string) *Home {
	t.Helper()
	// Not t.TempDir: a process of the home's (the daemon, started in the
	// background; a cache written by a detached hookd) can still be
	// writing into it when the test ends. The cleanup ends them all, then
	// removes the home, again while something still writes.
	dir, err := os.MkdirTemp("", "hookd-home-")
	if err != nil {
		t.Fatal(err)
	}
	h := &Home{Dir: dir}
	path := os.Getenv("PATH")
	if binDir != "" {
		path = binDir + string(os.PathListSeparator) + path
	}
	h.Env = []string{
		"HOME=" + dir,
		"PATH=" + path,
		"TERM=xterm-256color",
		"LANG=C.UTF-8",
		"USER=tester",
		"XDG_CONFIG_HOME=" + filepath.Join(dir, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(dir, ".local", "share"),
		"XDG_STATE_HOME=" + filepath.Join(dir, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(dir, ".cache"),
		"XDG_RUNTIME_DIR=" + filepath.Join(dir, ".run"),
		// Shells run without the output-capturing proxy unless the test
		// asks for it (HOOKD_CAPTURE=pty in Options.Env), or the whole
		// run does: HOOKD_TEST_CAPTURE=pty runs every shell test under
		// the proxy, as a user with the default settings has it.
		"HOOKD_CAPTURE=" + cmp.Or(os.Getenv("HOOKD_TEST_CAPTURE"), "off"),
	}
	if err := os.MkdirAll(filepath.Join(dir, ".run"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		h.stopAll()
		deadline := time.Now().Add(Scale(10 * time.Second))
		for {
			err := os.RemoveAll(dir)
			if err == nil {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("remove the test's home: %v", err)
				return
			}
			h.stopAll()
			time.Sleep(20 * time.Millisecond)
		}
	})
	return h
}

// stopAll ends every process still running for this home, the daemon and
// anything on its way to starting one (the shell code starts the daemon
// in the background, so it may come after the shell is gone), so that
// the home can be removed: it scans until a scan finds none.
func (h *Home) stopAll() {
	for range 50 {
		pids := h.processes(func([]byte) bool { return true })
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGTERM)
		}
		for _, pid := range pids {
			if !waitGone(pid, Scale(10*time.Second)) {
				syscall.Kill(pid, syscall.SIGKILL)
				waitGone(pid, Scale(10*time.Second))
			}
		}
	}
}

// processes lists the processes whose environment has this home's HOME
// and whose command line satisfies match (this process excluded).
func (h *Home) processes(match func(cmdline []byte) bool) []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, ent := range ents {
		pid, err := strconv.Atoi(ent.Name())
		if err != nil || pid == os.Getpid() || !running(pid) {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", ent.Name(), "cmdline"))
		if err != nil || !match(cmdline) {
			continue
		}
		environ, err := os.ReadFile(filepath.Join("/proc", ent.Name(), "environ"))
		if err != nil || !bytes.Contains(append([]byte{0}, environ...), []byte("\x00HOME="+h.Dir+"\x00")) {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// Path returns a path inside the home.
func (h *Home) Path(parts ...string) string {
	return filepath.Join(append([]string{h.Dir}, parts...)...)
}

// StopDaemon ends every daemon running for this home (found through /proc by
// its HOME, so that one still starting is found too) and waits for them to go.
func (h *Home) StopDaemon() {
	pids := h.processes(func(cmdline []byte) bool { return bytes.Contains(cmdline, []byte("daemon\x00")) })
	for _, pid := range pids {
		syscall.Kill(pid, syscall.SIGTERM)
	}
	for _, pid := range pids {
		// A daemon ends its pass first; past the grace, it is killed.
		waitGone(pid, Scale(10*time.Second))
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// waitGone waits up to d for pid to end (or be a zombie), polling /proc.
func waitGone(pid int, d time.Duration) bool {
	end := time.Now().Add(d)
	for pause := time.Millisecond; running(pid); pause = min(2*pause, 50*time.Millisecond) {
		if time.Now().After(end) {
			return false
		}
		time.Sleep(pause)
	}
	return true
}

// Shell is a running interactive shell.
//
// Every wait watches the output as it arrives (no polling): it wakes when
// bytes come, and searches only what arrived since its mark (for a pattern
// of bounded length, only the new bytes and a few before them), so that a
// command printing megabytes costs each wait time linear in them. Deadlines
// are at least MinWait and scale with HOOKD_TEST_SLOW: they only bound how
// long a broken test hangs.
type Shell struct {
	t    testing.TB
	Name string
	cmd  *exec.Cmd
	pty  *os.File
	out  *output
	done chan struct{}
	sync int
	// syncMark is where the output stood when the last Sync typed its
	// marker command.
	syncMark Mark
	// screen replays the output on a terminal emulator (screen.go).
	screen screen
}

// Options adjust a shell.
type Options struct {
	RC   string   // rc file content (before nothing: this is the whole rc)
	Env  []string // added to the home's environment
	Dir  string   // working directory (default: the home)
	Cols int
	Rows int
	// Wrap, when set, is a command line the shell is started through:
	// the shell's path and arguments are appended to it.
	Wrap []string
	// FirstPrompt, when set, is waited for before anything is typed, so
	// that the output up to it is the shell's alone.
	FirstPrompt string
}

// Start starts shell ("bash", "zsh" or "fish") interactively under a PTY in home.
func Start(t testing.TB, home *Home, shell string, o Options) *Shell {
	t.Helper()
	bin := Need(t, shell)
	env := append(append([]string{}, home.Env...), o.Env...)
	var args []string
	switch shell {
	case "bash":
		rc := filepath.Join(home.Dir, ".bashrc")
		if err := os.WriteFile(rc, []byte(o.RC), 0o600); err != nil {
			t.Fatal(err)
		}
		args = []string{"--noprofile", "--rcfile", rc, "-i"}
	case "zsh":
		zd := filepath.Join(home.Dir, ".zdot")
		os.MkdirAll(zd, 0o700)
		if err := os.WriteFile(filepath.Join(zd, ".zshrc"), []byte(o.RC), 0o600); err != nil {
			t.Fatal(err)
		}
		env = append(env, "ZDOTDIR="+zd)
		args = []string{"-d", "-i"}
	case "fish":
		// config.fish in the home's XDG_CONFIG_HOME, as a user has it;
		// fish's history goes to its XDG_DATA_HOME.
		fd := filepath.Join(home.Dir, ".config", "fish")
		os.MkdirAll(fd, 0o700)
		if err := os.WriteFile(filepath.Join(fd, "config.fish"), []byte(o.RC), 0o600); err != nil {
			t.Fatal(err)
		}
		// fish generates completions from the man pages in the background
		// at its first start in a home (python, for seconds): as a user's
		// fish has them already.
		os.MkdirAll(filepath.Join(home.Dir, ".local", "share", "fish", "generated_completions"), 0o700)
		// Nor is it fish's first start, which makes fish's directories
		// with mkdir.
		if _, err := os.Stat(filepath.Join(fd, "fish_variables")); err != nil {
			os.WriteFile(filepath.Join(fd, "fish_variables"), []byte("# VERSION: 3.0\nSETUVAR __fish_initialized:3400\n"), 0o600)
		}
		args = []string{"-i"}
	default:
		t.Fatalf("unknown shell %q", shell)
	}
	env = append(env, "SHELL="+bin)
	cmd := exec.Command(bin, args...)
	if len(o.Wrap) > 0 {
		cmd = exec.Command(o.Wrap[0], append(append(o.Wrap[1:len(o.Wrap):len(o.Wrap)], bin), args...)...)
	}
	cmd.Env = env
	cmd.Dir = home.Dir
	if o.Dir != "" {
		cmd.Dir = o.Dir
	}
	cols, rows := o.Cols, o.Rows
	if cols == 0 {
		cols, rows = 200, 50
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("open pty: %v", err)
	}
	pty.Setsize(ptmx, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", shell, err)
	}
	tty.Close()
	s := &Shell{t: t, Name: shell, cmd: cmd, pty: ptmx, out: newOutput(), done: make(chan struct{}),
		screen: screen{cols: cols, rows: rows}}
	go s.read()
	t.Cleanup(s.Close)
	if o.FirstPrompt != "" {
		s.WaitFor(regexp.MustCompile(regexp.QuoteMeta(o.FirstPrompt)), 20*time.Second)
	}
	s.Sync()
	return s
}

func (s *Shell) read() {
	buf := make([]byte, 32<<10)
	for {
		n, err := s.pty.Read(buf)
		if n > 0 {
			s.out.write(buf[:n])
		}
		if err != nil {
			s.out.close()
			close(s.done)
			return
		}
	}
}

// Mark is a position in a shell's output: a wait or a read from a mark only
// sees what the shell printed after it.
type Mark struct{ raw, plain int }

// Mark returns the position the output has reached.
func (s *Shell) Mark() Mark {
	s.out.mu.Lock()
	defer s.out.mu.Unlock()
	return Mark{raw: len(s.out.raw), plain: len(s.out.plain)}
}

// Output returns everything the shell printed so far.
func (s *Shell) Output() string {
	b, _, _ := s.out.view(false)
	return string(b)
}

// OutputSince returns what the shell printed after m.
func (s *Shell) OutputSince(m Mark) string {
	b, _, _ := s.out.view(false)
	return string(b[m.raw:])
}

// Plain returns the output without terminal control sequences and carriage
// returns.
func (s *Shell) Plain() string { return s.out.plainString() }

// PlainSince returns the plain output after m.
func (s *Shell) PlainSince(m Mark) string { return s.out.plainString()[m.plain:] }

// Prompts returns how many prompt marks (OSC 133;A, which the hooks print
// where each prompt starts) the shell has printed so far.
func (s *Shell) Prompts() int {
	s.out.mu.Lock()
	defer s.out.mu.Unlock()
	return s.out.prompts
}

// WaitPrompts waits until the shell has printed at least n prompt marks.
func (s *Shell) WaitPrompts(n int, timeout time.Duration) {
	s.t.Helper()
	d := deadline(timeout)
	end := time.Now().Add(d)
	for {
		s.out.mu.Lock()
		got, changed, closed := s.out.prompts, s.out.changed, s.out.closed
		s.out.mu.Unlock()
		if got >= n {
			return
		}
		if closed {
			s.t.Fatalf("%s exited after %d prompts, before the %dth; output:\n%s", s.Name, got, n, tail(s.Plain()))
		}
		select {
		case <-changed:
		case <-time.After(time.Until(end)):
			s.t.Fatalf("%s: %d prompts, not %d, within %v; output:\n%s", s.Name, got, n, d, tail(s.Plain()))
		}
	}
}

// WaitForPlain waits until the output, without control sequences, matches re.
func (s *Shell) WaitForPlain(re *regexp.Regexp, timeout time.Duration) {
	s.t.Helper()
	s.wait(Mark{}, true, re, timeout)
}

// WaitPlainSince waits until the plain output after m matches re, and
// returns the match and its submatches.
func (s *Shell) WaitPlainSince(m Mark, re *regexp.Regexp, timeout time.Duration) []string {
	s.t.Helper()
	return s.wait(m, true, re, timeout)
}

// WaitSince waits until the output after m matches re, and returns the
// match and its submatches.
func (s *Shell) WaitSince(m Mark, re *regexp.Regexp, timeout time.Duration) []string {
	s.t.Helper()
	return s.wait(m, false, re, timeout)
}

// WaitFor waits until the output matches re.
func (s *Shell) WaitFor(re *regexp.Regexp, timeout time.Duration) {
	s.t.Helper()
	s.wait(Mark{}, false, re, timeout)
}

func (s *Shell) wait(m Mark, plain bool, re *regexp.Regexp, timeout time.Duration) []string {
	s.t.Helper()
	from := m.raw
	if plain {
		from = m.plain
	}
	d := deadline(timeout)
	b, loc := s.out.search(from, plain, re, d)
	if loc != nil {
		return submatches(b, loc)
	}
	what := "output"
	if plain {
		what = "plain output"
	}
	select {
	case <-s.done:
		s.t.Fatalf("%s exited before printing %q; %s since the mark:\n%s", s.Name, re, what, tail(string(b[from:])))
	default:
		s.t.Fatalf("%s: no %q within %v; %s since the mark:\n%s", s.Name, re, d, what, tail(string(b[from:])))
	}
	return nil
}

func submatches(b []byte, loc []int) []string {
	m := make([]string, len(loc)/2)
	for i := range m {
		if loc[2*i] >= 0 {
			m[i] = string(b[loc[2*i]:loc[2*i+1]])
		}
	}
	return m
}

// tail shortens what a failure prints to the last 64 KiB.
func tail(s string) string {
	const keep = 64 << 10
	if len(s) <= keep {
		return s
	}
	return fmt.Sprintf("[%d bytes before]\n%s", len(s)-keep, s[len(s)-keep:])
}

// Type sends raw keystrokes.
func (s *Shell) Type(keys string) {
	if _, err := s.pty.Write([]byte(keys)); err != nil {
		s.t.Fatalf("%s: type %q: %v", s.Name, keys, err)
	}
}

// TypeWait types keys and waits until the plain output they bring matches
// re (a key binding's effect on the command line, say, before Enter), and
// returns the match and its submatches.
func (s *Shell) TypeWait(keys string, re *regexp.Regexp, timeout time.Duration) []string {
	s.t.Helper()
	m := s.Mark()
	s.Type(keys)
	return s.WaitPlainSince(m, re, timeout)
}

// Run types line and Enter, then waits until the shell is back at a prompt.
func (s *Shell) Run(line string) {
	s.t.Helper()
	s.Type(line + "\r")
	s.Sync()
}

var (
	editorOff = regexp.MustCompile(`\x1b\[\?2004l`)
	editorOn  = regexp.MustCompile(`\x1b\[\?2004h`)
)

// RunAlone is Run for a command whose output must hold nothing else: the
// next keys wait until the line editor is back (it turns bracketed paste
// off to run the line and on again at the next prompt), since keys typed
// while a command runs are echoed into its output, as a user's would be.
func (s *Shell) RunAlone(line string) {
	s.t.Helper()
	s.TypeAlone(line)
	s.Sync()
}

// TypeAlone types line and Enter and waits until the line editor has read
// it and is back reading the next one (see RunAlone), without a Sync after.
func (s *Shell) TypeAlone(line string) {
	s.t.Helper()
	m := s.Mark()
	s.Type(line + "\r")
	s.editorBack(m)
}

// editorBack waits for the line editor to stop reading after m, and to
// start again after that.
func (s *Shell) editorBack(m Mark) {
	s.t.Helper()
	s.WaitSince(m, editorOff, 20*time.Second)
	off := s.after(m, editorOff)
	s.WaitSince(off, editorOn, 20*time.Second)
}

// after returns the mark just after the first match of re after m (re has
// matched there already); its plain offset stays m's.
func (s *Shell) after(m Mark, re *regexp.Regexp) Mark {
	b, _, _ := s.out.view(false)
	loc := re.FindIndex(b[m.raw:])
	if loc == nil {
		return m
	}
	return Mark{raw: m.raw + loc[1], plain: m.plain}
}

// Sync waits until the shell has read and run everything typed so far. The
// marker command starts with a space (never recorded) and prints a token
// that its own echo cannot contain. The prompt after the marker may still
// be on its way when Sync returns: WaitPrompts or Editing wait for it.
func (s *Shell) Sync() {
	s.t.Helper()
	s.sync++
	tok := fmt.Sprintf("SYNC_%d_OK", s.sync)
	s.syncMark = s.Mark()
	s.Type(fmt.Sprintf(" printf '%%s_%%s_OK\\n' SYNC %d\r", s.sync))
	s.WaitSince(s.syncMark, regexp.MustCompile(regexp.QuoteMeta(tok)), 20*time.Second)
}

// Editing waits until the line editor (readline or ZLE) has taken the
// terminal again after the last Sync: it turns bracketed paste on when it
// starts reading a line. Keys that the terminal driver would otherwise
// interpret themselves (Ctrl-V, ESC) must wait for it.
func (s *Shell) Editing() {
	s.t.Helper()
	tok := regexp.MustCompile(regexp.QuoteMeta(fmt.Sprintf("SYNC_%d_OK", s.sync)))
	s.WaitSince(s.syncMark, tok, 20*time.Second)
	s.WaitSince(s.after(s.syncMark, tok), editorOn, 10*time.Second)
}

// Exit types exit and waits for the shell to end, returning its status.
func (s *Shell) Exit() int {
	s.Type("exit\r")
	return s.Wait(20 * time.Second)
}

// Wait waits for the shell to end.
func (s *Shell) Wait(timeout time.Duration) int {
	s.t.Helper()
	d := deadline(timeout)
	select {
	case <-s.done:
	case <-time.After(d):
		s.t.Fatalf("%s did not exit within %v; output:\n%s", s.Name, d, tail(s.Output()))
	}
	err := s.cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return 0
}

// WaitForeground waits until a process below the shell whose command line
// is exactly argv runs in the foreground of its terminal, and returns its
// pid: from then on a key the terminal turns into a signal (Ctrl-C, Ctrl-Z)
// reaches it, and not the shell about to start it.
func (s *Shell) WaitForeground(argv ...string) int {
	s.t.Helper()
	want := strings.Join(argv, "\x00") + "\x00"
	var pid int
	Eventually(s.t, 20*time.Second, func() bool {
		for _, p := range Descendants(s.cmd.Process.Pid) {
			cmdline, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p), "cmdline"))
			if err != nil || string(cmdline) != want {
				continue
			}
			if f := statFields(p); len(f) > 5 && f[2] == f[5] && f[0] != "Z" { // pgrp == tpgid
				pid = p
				return true
			}
		}
		return false
	}, func() string {
		return fmt.Sprintf("%s: no %q in the foreground; output:\n%s", s.Name, argv, tail(s.Plain()))
	})
	return pid
}

// statFields returns the fields of /proc/pid/stat after the command name:
// the state, ppid, pgrp, session, tty_nr, tpgid, …
func statFields(pid int) []string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return nil
	}
	st := string(b)
	return strings.Fields(st[strings.LastIndexByte(st, ')')+1:])
}

// Resize sets the terminal's size, as a terminal window being resized
// does: the kernel signals the terminal's foreground process group.
func (s *Shell) Resize(cols, rows int) {
	s.screen.resize(s.Mark().raw, cols, rows)
	if err := pty.Setsize(s.pty, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		s.t.Fatalf("resize: %v", err)
	}
}

// PID is the process started on the terminal (under capture, once the rc
// file has run, the hookd shell proxy: bash and zsh re-execute themselves
// there; in fish, the first fish, below which its early line's hookd
// became the proxy).
func (s *Shell) PID() int { return s.cmd.Process.Pid }

// Close kills the shell if it still runs, and every process below it:
// under capture the shell runs in a session of its own below the proxy, out
// of reach of a signal to the proxy's group, and would otherwise still be
// writing (its history file, say) while the test's home is removed.
func (s *Shell) Close() {
	if s.cmd.ProcessState == nil {
		below := Descendants(s.cmd.Process.Pid)
		syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		for _, pid := range below {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		s.cmd.Wait()
		for _, pid := range below {
			waitGone(pid, Scale(10*time.Second))
		}
	}
	s.pty.Close()
	s.screen.close()
}

// Alive reports whether pid is a process that has not ended. A zombie has
// ended (its parent, maybe a container's init that never reaps, has yet to
// collect it), though signalling it still succeeds.
func Alive(pid int) bool { return running(pid) }

// running reports whether pid is a process that has not ended (a zombie
// has: its parent, maybe a container's init, has yet to reap it).
func running(pid int) bool {
	f := statFields(pid)
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// Children returns the pids of pid's children, found by their parent pid
// (the kernel's list of a thread's children misses those a Go program
// starts from another of its threads).
func Children(pid int) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	for _, ent := range ents {
		p, err := strconv.Atoi(ent.Name())
		if err != nil {
			continue
		}
		if f := statFields(p); len(f) > 1 && f[1] == strconv.Itoa(pid) {
			out = append(out, p)
		}
	}
	return out
}

// Descendants returns the processes below pid, found through /proc,
// nearest first.
func Descendants(pid int) []int {
	children := map[int][]int{}
	ents, _ := os.ReadDir("/proc")
	for _, ent := range ents {
		p, err := strconv.Atoi(ent.Name())
		if err != nil {
			continue
		}
		f := statFields(p)
		if len(f) < 2 {
			continue
		}
		if pp, err := strconv.Atoi(f[1]); err == nil {
			children[pp] = append(children[pp], p)
		}
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}
