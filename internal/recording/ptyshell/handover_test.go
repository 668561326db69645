package ptyshell

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/required"
)

// fishSide plays fish's part of a handover in dir: it writes answer on go,
// with st opened before (as _hookd_handover's block redirection does), and
// returns what it then reads on st (the first line), or an error.
func fishSide(dir, answer string) (string, error) {
	st, err := os.Open(filepath.Join(dir, handoverOut))
	if err != nil {
		return "", err
	}
	defer st.Close()
	if err := os.WriteFile(filepath.Join(dir, handoverIn), []byte(answer), 0); err != nil {
		return "", err
	}
	line, err := bufio.NewReader(st).ReadString('\n')
	return line, err
}

// TestHandover: the directory and its FIFOs are the user's alone; fish's
// "go" gives its pid, login, path and data directory; the proxy's status
// reaches fish on st, and "off" where it could not start; the directory is
// gone once fish answered.
func TestHandover(t *testing.T) {
	parent := t.TempDir()
	h, err := NewHandover(parent)
	if err != nil {
		t.Fatal(err)
	}
	di, err := os.Stat(h.Dir)
	if err != nil || di.Mode().Perm() != 0o700 || filepath.Dir(h.Dir) != parent {
		t.Fatalf("handover directory %s: %v, %v; want 0700 in %s", h.Dir, di, err, parent)
	}
	for _, name := range []string{handoverIn, handoverOut} {
		fi, err := os.Stat(filepath.Join(h.Dir, name))
		if err != nil || fi.Mode()&os.ModeNamedPipe == 0 || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v, %v; want a FIFO, 0600", name, fi, err)
		}
	}
	got := make(chan string, 1)
	go func() {
		line, err := fishSide(h.Dir, "go\n4242\n1\n/usr/bin/fish\n/usr/share/fish\nend\n")
		if err != nil {
			line = "error: " + err.Error()
		}
		got <- line
	}()
	ans, err := h.Wait(context.Background(), 10*time.Second)
	want := FishAnswer{Go: true, PID: 4242, Login: true, Path: "/usr/bin/fish", DataDir: "/usr/share/fish"}
	if err != nil || ans != want {
		t.Fatalf("Wait = %+v, %v; want %+v", ans, err, want)
	}
	if _, err := os.Stat(h.Dir); !os.IsNotExist(err) {
		t.Errorf("the directory is still there once fish answered: %v", err)
	}
	h.Finish(3)
	if line := <-got; line != "3\n" {
		t.Errorf("fish read %q on st; want the status, 3", line)
	}

	// The proxy could not start: fish reads "off".
	h, err = NewHandover(parent)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		line, _ := fishSide(h.Dir, "go\n7\n0\n/bin/fish\n\nend\n")
		got <- line
	}()
	if ans, err := h.Wait(context.Background(), 10*time.Second); err != nil || !ans.Go || ans.Login || ans.DataDir != "" {
		t.Fatalf("Wait = %+v, %v", ans, err)
	}
	h.Finish(-1)
	if line := <-got; line != "off\n" {
		t.Errorf("fish read %q on st; want off", line)
	}
}

// TestHandoverNo: a fish that keeps its terminal says no; hookd just ends.
func TestHandoverNo(t *testing.T) {
	h, err := NewHandover(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	go os.WriteFile(filepath.Join(h.Dir, handoverIn), []byte("no\n"), 0)
	if ans, err := h.Wait(context.Background(), 10*time.Second); err != nil || ans.Go {
		t.Errorf("Wait = %+v, %v; want no handover", ans, err)
	}
}

// TestHandoverNoAnswer: where fish never answers (its code did not run),
// the wait ends at its bound, and the FIFOs are gone, so that a late fish
// cannot block on one.
func TestHandoverNoAnswer(t *testing.T) {
	h, err := NewHandover(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	start := time.Now()
	_, err = h.Wait(context.Background(), 200*time.Millisecond)
	if !errors.Is(err, ErrNoAnswer) || time.Since(start) > 5*time.Second {
		t.Errorf("Wait = %v after %v; want ErrNoAnswer at the bound", err, time.Since(start))
	}
	if _, err := os.Stat(h.Dir); !os.IsNotExist(err) {
		t.Errorf("the directory is still there: %v", err)
	}
}

// TestHandoverGarbled: an answer that is not fish's is refused, not used:
// a relative path, a pid that is not a number, missing lines.
func TestHandoverGarbled(t *testing.T) {
	for _, answer := range []string{
		"go\n12\n0\nfish\n/usr/share/fish\nend\n",
		"go\nx\n0\n/usr/bin/fish\n/usr/share/fish\nend\n",
		"go\n12\nend\n",
		"maybe\n12\n0\n/usr/bin/fish\n/usr/share/fish\nend\n",
	} {
		h, err := NewHandover(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		go os.WriteFile(filepath.Join(h.Dir, handoverIn), []byte(answer), 0)
		if ans, err := h.Wait(context.Background(), 10*time.Second); err == nil || ans.Go {
			t.Errorf("answer %q: Wait = %+v, %v; want an error", answer, ans, err)
		}
		h.Close()
	}
}

// TestHandoverEOF: when hookd ends without a word (killed), fish reads an
// end of file on st, and goes on as the shell.
func TestHandoverEOF(t *testing.T) {
	h, err := NewHandover(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		_, err := fishSide(h.Dir, "go\n7\n0\n/bin/fish\n\nend\n")
		got <- err.Error()
	}()
	if _, err := h.Wait(context.Background(), 10*time.Second); err != nil {
		t.Fatal(err)
	}
	h.Close()
	if e := <-got; e != "EOF" {
		t.Errorf("fish's read on st: %s; want EOF", e)
	}
}

// TestReadsOurOutput: the reader of the pipe on stdout is found among a
// process's descriptors; a process that does not hold it is not taken for
// it, nor is anything when stdout is not a pipe.
func TestReadsOurOutput(t *testing.T) {
	if os.Getenv("HOOKD_TEST_READS_OUR_OUTPUT") != "" {
		pid, _ := strconv.Atoi(os.Getenv("HOOKD_TEST_READS_OUR_OUTPUT"))
		os.Stderr.WriteString(strconv.FormatBool(ReadsOurOutput(pid)) + "\n")
		return
	}
	ask := func(pid int, stdout func(*exec.Cmd) func()) string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestReadsOurOutput$")
		cmd.Env = append(os.Environ(), "HOOKD_TEST_READS_OUR_OUTPUT="+strconv.Itoa(pid))
		var errOut strings.Builder
		cmd.Stderr = &errOut
		done := stdout(cmd)
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %s", err, errOut.String())
		}
		done()
		return strings.TrimSpace(errOut.String())
	}
	// This process reads the helper's output through a pipe: the helper
	// finds it.
	pipe := func(cmd *exec.Cmd) func() {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout = w
		return func() { w.Close(); r.Close() }
	}
	if got := ask(os.Getpid(), pipe); got != "true" {
		t.Errorf("the reader of the pipe: %s; want true", got)
	}
	// Another process, which holds no pipe of ours.
	other := exec.Command("sleep", "30")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { other.Process.Kill(); other.Wait() }()
	if got := ask(other.Process.Pid, pipe); got != "false" {
		t.Errorf("a process that does not read it: %s; want false", got)
	}
	// Standard output on a file.
	file := func(cmd *exec.Cmd) func() {
		f, err := os.Create(filepath.Join(t.TempDir(), "out"))
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout = f
		return func() { f.Close() }
	}
	if got := ask(os.Getpid(), file); got != "false" {
		t.Errorf("stdout on a file: %s; want false", got)
	}
}

// TestRetitle: the command line that ps shows becomes argv[0] and the new
// words where they fit, and os.Args with it; a longer one is refused and
// changes nothing.
func TestRetitle(t *testing.T) {
	if os.Getenv("HOOKD_TEST_RETITLE") != "" {
		long := Retitle(strings.Repeat("x", 200))
		ok := Retitle("shell")
		b, _ := os.ReadFile("/proc/self/cmdline")
		os.Stderr.WriteString(strconv.FormatBool(long) + " " + strconv.FormatBool(ok) + " " + strings.Join(os.Args[1:], ",") + " " + strconv.Quote(string(b)) + "\n")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRetitle$", "init", "fish", "--early")
	cmd.Env = append(os.Environ(), "HOOKD_TEST_RETITLE=1")
	var errOut strings.Builder
	cmd.Stderr = &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, errOut.String())
	}
	f := strings.Fields(errOut.String())
	if len(f) != 4 {
		t.Fatalf("helper said %q", errOut.String())
	}
	cmdline, _ := strconv.Unquote(f[3])
	if f[0] != "false" || f[1] != "true" || f[2] != "shell" || cmdline != os.Args[0]+"\x00shell\x00"+strings.Repeat("\x00", len(cmdline)-len(os.Args[0])-7) {
		t.Errorf("Retitle: too long %s, shell %s, os.Args %s, /proc/self/cmdline %q", f[0], f[1], f[2], cmdline)
	}
}

// TestHandoverCancelled: a cancelled wait (Ctrl-C at start-up) ends at
// once, with the context's error.
func TestHandoverCancelled(t *testing.T) {
	h, err := NewHandover(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := h.Wait(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("Wait = %v; want context.Canceled", err)
	}
}

// TestIsFish: a fish is told from another program by its executable.
func TestIsFish(t *testing.T) {
	if IsFish(os.Getpid()) {
		t.Errorf("the test binary taken for fish")
	}
	fish, err := exec.LookPath("fish")
	if err != nil {
		required.Skip(t, "fish is not installed", "REQUIRE_SHELLS")
	}
	cmd := exec.Command(fish, "-N", "-c", "read -l x")
	w, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { w.Close(); cmd.Wait() }()
	// (Until its exec, the child is this binary still.)
	for deadline := time.Now().Add(time.Minute); !IsFish(cmd.Process.Pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("fish (pid %d) not taken for fish", cmd.Process.Pid)
		}
	}
}
