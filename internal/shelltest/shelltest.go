// Package shelltest drives real interactive bash and zsh sessions through a
// pseudo-terminal, each in a private HOME, for end-to-end tests.
package shelltest

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

// Shells lists the shells the end-to-end tests run under.
var Shells = []string{"bash", "zsh"}

// Need skips the test when shell is missing, or fails it when the
// environment says shells are required (REQUIRE_SHELLS=1, as CI sets).
func Need(t testing.TB, shell string) string {
	t.Helper()
	p, err := exec.LookPath(shell)
	if err != nil {
		if os.Getenv("REQUIRE_SHELLS") != "" {
			t.Fatalf("%s is required (REQUIRE_SHELLS is set) but not found: %v", shell, err)
		}
		t.Skipf("%s not installed", shell)
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
	dir := t.TempDir()
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
	t.Cleanup(func() { h.StopAgent() })
	return h
}

// Path returns a path inside the home.
func (h *Home) Path(parts ...string) string {
	return filepath.Join(append([]string{h.Dir}, parts...)...)
}

// StopAgent ends every agent running for this home (found through /proc by
// its HOME, so that one still starting is found too) and waits for them to go.
func (h *Home) StopAgent() {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, ent := range ents {
		pid, err := strconv.Atoi(ent.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", ent.Name(), "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte("daemon\x00")) {
			continue
		}
		environ, err := os.ReadFile(filepath.Join("/proc", ent.Name(), "environ"))
		if err != nil || !bytes.Contains(append([]byte{0}, environ...), []byte("\x00HOME="+h.Dir+"\x00")) {
			continue
		}
		pids = append(pids, pid)
		syscall.Kill(pid, syscall.SIGTERM)
	}
	for _, pid := range pids {
		for i := 0; i < 300 && syscall.Kill(pid, 0) == nil; i++ {
			time.Sleep(10 * time.Millisecond)
		}
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// Shell is a running interactive shell.
type Shell struct {
	t    testing.TB
	Name string
	cmd  *exec.Cmd
	pty  *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
	sync int
	// cols and rows are the terminal's size, for Screen.
	cols, rows int
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

// Start starts shell ("bash" or "zsh") interactively under a PTY in home.
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
	s := &Shell{t: t, Name: shell, cmd: cmd, pty: ptmx, done: make(chan struct{}), cols: cols, rows: rows}
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
			s.mu.Lock()
			s.out.Write(buf[:n])
			s.mu.Unlock()
		}
		if err != nil {
			close(s.done)
			return
		}
	}
}

// Output returns everything the shell printed so far.
func (s *Shell) Output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()
}

var escapes = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[=>()][0-9A-Za-z]?|\r`)

// Plain returns the output without terminal control sequences and carriage
// returns.
func (s *Shell) Plain() string { return escapes.ReplaceAllString(s.Output(), "") }

// WaitForPlain waits until the output, without control sequences, matches re.
func (s *Shell) WaitForPlain(re *regexp.Regexp, timeout time.Duration) {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for !re.MatchString(s.Plain()) {
		if time.Now().After(deadline) {
			s.t.Fatalf("%s: no %q within %v; output:\n%s", s.Name, re, timeout, s.Plain())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Type sends raw keystrokes.
func (s *Shell) Type(keys string) {
	if _, err := s.pty.Write([]byte(keys)); err != nil {
		s.t.Fatalf("%s: type %q: %v", s.Name, keys, err)
	}
}

// Run types line and Enter, then waits until the shell is back at a prompt.
func (s *Shell) Run(line string) {
	s.t.Helper()
	s.Type(line + "\r")
	s.Sync()
}

var editorBack = regexp.MustCompile(`\x1b\[\?2004l(?s:.*)\x1b\[\?2004h`)

// RunAlone is Run for a command whose output must hold nothing else: the
// next keys wait until the line editor is back (it turns bracketed paste
// off to run the line and on again at the next prompt), since keys typed
// while a command runs are echoed into its output, as a user's would be.
func (s *Shell) RunAlone(line string) {
	s.t.Helper()
	from := len(s.Output())
	s.Type(line + "\r")
	deadline := time.Now().Add(20 * time.Second)
	for !editorBack.MatchString(s.Output()[from:]) {
		if time.Now().After(deadline) {
			s.t.Fatalf("%s: %q did not end within 20s; output:\n%s", s.Name, line, s.Output()[from:])
		}
		time.Sleep(5 * time.Millisecond)
	}
	s.Sync()
}

// Sync waits until the shell has read and run everything typed so far. The
// marker command starts with a space (never recorded) and prints a token
// that its own echo cannot contain.
func (s *Shell) Sync() {
	s.t.Helper()
	s.sync++
	tok := fmt.Sprintf("SYNC_%d_OK", s.sync)
	s.Type(fmt.Sprintf(" printf '%%s_%%s_OK\\n' SYNC %d\r", s.sync))
	s.WaitFor(regexp.MustCompile(regexp.QuoteMeta(tok)), 20*time.Second)
}

// Editing waits until the line editor (readline or ZLE) has taken the
// terminal again after the last Sync: it turns bracketed paste on when it
// starts reading a line. Keys that the terminal driver would otherwise
// interpret themselves (Ctrl-V, ESC) must wait for it.
func (s *Shell) Editing() {
	s.t.Helper()
	tok := fmt.Sprintf("SYNC_%d_OK", s.sync)
	re := regexp.MustCompile(regexp.QuoteMeta(tok) + `(?s:.*)\x1b\[\?2004h`)
	s.WaitFor(re, 10*time.Second)
}

// WaitFor waits until the output matches re.
func (s *Shell) WaitFor(re *regexp.Regexp, timeout time.Duration) {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if re.MatchString(s.Output()) {
			return
		}
		select {
		case <-s.done:
			if re.MatchString(s.Output()) {
				return
			}
			s.t.Fatalf("%s exited before printing %q; output:\n%s", s.Name, re, s.Output())
		default:
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%s: no %q within %v; output:\n%s", s.Name, re, timeout, s.Output())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Exit types exit and waits for the shell to end, returning its status.
func (s *Shell) Exit() int {
	s.Type("exit\r")
	return s.Wait(20 * time.Second)
}

// Wait waits for the shell to end.
func (s *Shell) Wait(timeout time.Duration) int {
	s.t.Helper()
	select {
	case <-s.done:
	case <-time.After(timeout):
		s.t.Fatalf("%s did not exit; output:\n%s", s.Name, s.Output())
	}
	err := s.cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return 0
}

// Screen returns what a terminal of the shell's size shows now, as text
// (a terminal emulator replays everything the shell printed), trailing
// blanks trimmed: what a program that redraws only what changed leaves on
// the screen. The emulator's answers to queries go nowhere, as on a
// terminal that answers none. Resizing is replayed at the new size.
func (s *Shell) Screen() string {
	e := vt.NewEmulator(s.cols, s.rows)
	defer e.Close()
	go io.Copy(io.Discard, e)
	e.Write([]byte(s.Output()))
	lines := strings.Split(e.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// WaitForScreen waits until the screen (Screen) matches re, and returns it.
func (s *Shell) WaitForScreen(re *regexp.Regexp, timeout time.Duration) string {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		sc := s.Screen()
		if re.MatchString(sc) {
			return sc
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%s: no %q on the screen within %v; screen:\n%s", s.Name, re, timeout, sc)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Resize sets the terminal's size, as a terminal window being resized
// does: the kernel signals the terminal's foreground process group.
func (s *Shell) Resize(cols, rows int) {
	s.cols, s.rows = cols, rows
	if err := pty.Setsize(s.pty, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		s.t.Fatalf("resize: %v", err)
	}
}

// PID is the process started on the terminal (under capture, once the rc
// file has run, the hookd shell proxy: the shell re-executes itself there).
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
			for i := 0; i < 500 && running(pid); i++ {
				time.Sleep(10 * time.Millisecond)
			}
		}
	}
	s.pty.Close()
}

// running reports whether pid is a process that has not ended (a zombie
// has: its parent, maybe a container's init, has yet to reap it).
func running(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	st := string(b)
	f := strings.Fields(st[strings.LastIndexByte(st, ')')+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
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
		b, err := os.ReadFile(filepath.Join("/proc", ent.Name(), "stat"))
		if err != nil {
			continue
		}
		st := string(b)
		f := strings.Fields(st[strings.LastIndexByte(st, ')')+1:])
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
