//go:build linux

package proxy

// Tests that call Run in the test process, with pipes and files rather than
// a terminal as Stdin and Stdout: the way the proxy runs under a pipeline,
// and the paths that involve no signals or raw mode.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// collectStdout returns a Stdout for Run whose content got returns once Run is done.
func collectStdout(t *testing.T) (stdout *os.File, got func() string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.Copy(&buf, r)
		r.Close()
	}()
	t.Cleanup(func() { w.Close(); <-done })
	return w, func() string {
		w.Close()
		<-done
		return buf.String()
	}
}

// input returns a Stdin for Run that holds s and then ends.
func input(t *testing.T, s string) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	go func() {
		_, _ = io.WriteString(w, s)
		w.Close()
	}()
	return r
}

// runCtx bounds a Run in the test process, so that a hang fails the test
// rather than the whole run. Hanging up on the deadline is Run's own
// doing, which makes the test fail on the returned error.
func runCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	t.Cleanup(cancel)
	return ctx
}

func TestRunWithoutTerminal(t *testing.T) {
	stdout, got := collectStdout(t)
	status, err := Run(runCtx(t), Options{
		Argv:   []string{"sh", "-c", "read x; echo got:$x; exit 3"},
		Stdin:  input(t, "abc\n"),
		Stdout: stdout,
	})
	if err != nil || status != 3 {
		t.Fatalf("Run = %d, %v; want 3, nil", status, err)
	}
	if out := got(); !strings.Contains(out, "got:abc\r\n") {
		t.Fatalf("output %q lacks got:abc", out)
	}
}

// The end of a Stdin that is not a terminal just stops the input: the
// command keeps its terminal (closing the master would hang it up).
func TestStdinEOFLeavesCommandRunning(t *testing.T) {
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	stdout, got := collectStdout(t)
	status, err := Run(runCtx(t), Options{
		Argv:   []string{"sh", "-c", "sleep 0.3; echo still-here; exit 4"},
		Stdin:  devNull,
		Stdout: stdout,
	})
	if err != nil || status != 4 {
		t.Fatalf("Run = %d, %v; want 4, nil", status, err)
	}
	if out := got(); !strings.Contains(out, "still-here") {
		t.Fatalf("output %q lacks still-here", out)
	}
}

type failingWriter struct{ writes int }

var errBroken = errors.New("broken output")

func (f *failingWriter) Write([]byte) (int, error) {
	f.writes++
	return 0, errBroken
}

// A failing Output is reported, but the command's output is still read so
// that the command never blocks on a full terminal and finishes.
func TestOutputErrorKeepsCommandRunning(t *testing.T) {
	fw := &failingWriter{}
	stdout, _ := collectStdout(t)
	status, err := Run(runCtx(t), Options{
		Argv:   []string{"sh", "-c", "head -c 2000000 /dev/zero; exit 5"},
		Stdin:  input(t, ""),
		Stdout: stdout,
		Output: func(io.Writer) io.Writer { return fw },
	})
	if status != 5 || !errors.Is(err, errBroken) || errors.Is(err, ErrStart) {
		t.Fatalf("Run = %d, %v; want 5 and the writer's error", status, err)
	}
	if fw.writes != 1 {
		t.Fatalf("Output written %d times after failing; want 1 write in all", fw.writes)
	}
}

// signalWriter closes ready at the first write that contains want.
type signalWriter struct {
	want  string
	seen  bytes.Buffer
	ready chan struct{}
}

func (s *signalWriter) Write(p []byte) (int, error) {
	s.seen.Write(p)
	if s.ready != nil && strings.Contains(s.seen.String(), s.want) {
		close(s.ready)
		s.ready = nil
	}
	return len(p), nil
}

func TestContextCancelHangsUpCommand(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	mark := filepath.Join(t.TempDir(), "mark")
	ready := make(chan struct{})
	sw := &signalWriter{want: "ready", ready: ready}
	go func() {
		select {
		case <-ready:
		case <-time.After(waitShort):
		}
		cancel()
	}()
	stdout, _ := collectStdout(t)
	status, err := Run(ctx, Options{
		Argv:   []string{"sh", "-c", `trap 'echo hup >"$MARK"; exit 0' HUP; echo ready; while :; do sleep 0.1; done`},
		Env:    func(string) []string { return append(os.Environ(), "MARK="+mark) },
		Stdin:  input(t, ""),
		Stdout: stdout,
		Output: func(io.Writer) io.Writer { return sw },
	})
	if !errors.Is(err, context.Canceled) || status != 128+int(unix.SIGHUP) {
		t.Fatalf("Run = %d, %v; want %d, context.Canceled", status, err, 128+int(unix.SIGHUP))
	}
	waitMark(t, mark)
}

func TestEnvAndDir(t *testing.T) {
	dir := t.TempDir()
	var gotTTY string
	stdout, got := collectStdout(t)
	status, err := Run(runCtx(t), Options{
		Argv: []string{"sh", "-c", `echo "foo=$FOO"; echo "pwd=$(pwd)"; echo "tty=$(tty)"`},
		Env: func(tty string) []string {
			gotTTY = tty
			return []string{"FOO=bar", "PATH=" + os.Getenv("PATH")}
		},
		Dir:    dir,
		Stdin:  input(t, ""),
		Stdout: stdout,
	})
	if err != nil || status != 0 {
		t.Fatalf("Run = %d, %v", status, err)
	}
	out := got()
	if !strings.HasPrefix(gotTTY, "/dev/pts/") {
		t.Errorf("Env got tty %q", gotTTY)
	}
	for _, want := range []string{"foo=bar\r\n", "pwd=" + dir + "\r\n", "tty=" + gotTTY + "\r\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output %q lacks %q", out, want)
		}
	}
}

// A command that lets go of its terminal while it runs ends the output
// (the master reports EOF) but not the wait for its exit status.
func TestCommandClosingItsTerminal(t *testing.T) {
	stdout, _ := collectStdout(t)
	status, err := Run(runCtx(t), Options{
		Argv:   []string{"sh", "-c", "exec </dev/null >/dev/null 2>&1; sleep 0.3; exit 6"},
		Stdin:  input(t, ""),
		Stdout: stdout,
	})
	if err != nil || status != 6 {
		t.Fatalf("Run = %d, %v; want 6, nil", status, err)
	}
}

// Once Run has returned, nothing of the proxy reads Stdin any more: input
// that arrives later is there for whoever reads it next.
func TestRunLeavesStdinAlone(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	stdout, _ := collectStdout(t)
	status, err := Run(runCtx(t), Options{
		Argv:   []string{"sh", "-c", "exit 0"},
		Stdin:  r,
		Stdout: stdout,
	})
	if err != nil || status != 0 {
		t.Fatalf("Run = %d, %v", status, err)
	}
	if _, err := w.WriteString("later"); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	r.SetReadDeadline(time.Now().Add(waitShort))
	n, err := r.Read(buf)
	if err != nil || string(buf[:n]) != "later" {
		t.Fatalf("read %q, %v after Run; want the input untouched", buf[:n], err)
	}
}

func TestStartErrors(t *testing.T) {
	dir := t.TempDir()
	notExec := filepath.Join(dir, "script")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		o    Options
		msg  string // in the error text
	}{
		{"no argv", Options{}, "no command"},
		{"not in PATH", Options{Argv: []string{"hookd-no-such-command"}}, `"hookd-no-such-command": not found in PATH`},
		{"no such file", Options{Argv: []string{filepath.Join(dir, "nope")}}, "no such file or directory"},
		{"not executable", Options{Argv: []string{notExec}}, "permission denied"},
		{"no such dir", Options{Argv: []string{"sh", "-c", "exit 0"}, Dir: filepath.Join(dir, "nope")}, "no such file or directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.Stdin = input(t, "")
			tc.o.Stdout, _ = collectStdout(t)
			status, err := Run(runCtx(t), tc.o)
			if !errors.Is(err, ErrStart) || status != 0 {
				t.Fatalf("Run = %d, %v; want 0 and ErrStart", status, err)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.msg) || strings.Contains(msg, "\n") {
				t.Fatalf("error %q: want one line with %q", msg, tc.msg)
			}
		})
	}
}

// When the start fails after the terminal went raw (exec fails in the
// child), the terminal is back as it was.
func TestStartFailureLeavesTerminalAlone(t *testing.T) {
	master, tty, err := openPTY()
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	defer tty.Close()
	fd, _ := rawFD(tty)
	before, err := getTermios(fd)
	if err != nil {
		t.Fatal(err)
	}
	status, err := Run(runCtx(t), Options{
		Argv:   []string{"sh", "-c", "exit 0"},
		Dir:    filepath.Join(t.TempDir(), "nope"),
		Stdin:  tty,
		Stdout: tty,
	})
	if !errors.Is(err, ErrStart) || status != 0 {
		t.Fatalf("Run = %d, %v; want 0 and ErrStart", status, err)
	}
	after, err := getTermios(fd)
	if err != nil {
		t.Fatal(err)
	}
	if !sameTermios(*before, *after) {
		t.Fatalf("terminal changed:\nbefore %+v\nafter  %+v", before, after)
	}
}

func TestCheck(t *testing.T) {
	if err := Check([]string{"sh", "-i"}); err != nil {
		t.Fatalf("Check(sh) = %v", err)
	}
	for _, argv := range [][]string{nil, {"hookd-no-such-command"}, {"/nonexistent/sh"}} {
		err := Check(argv)
		if !errors.Is(err, ErrStart) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Check(%q) = %v; want a one-line ErrStart", argv, err)
		}
	}
}

// The master must be pollable: the drain after the command's exit relies on
// read deadlines, and the teardown on Close interrupting a read.
func TestMasterIsPollable(t *testing.T) {
	master, slave, err := openPTY()
	if err != nil {
		t.Fatal(err)
	}
	defer slave.Close()
	defer master.Close()
	if err := master.SetReadDeadline(time.Now().Add(50 * time.Millisecond)); err != nil {
		t.Fatalf("SetReadDeadline: %v", err)
	}
	if _, err := master.Read(make([]byte, 16)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("Read = %v; want a deadline error", err)
	}
	if err := master.SetReadDeadline(time.Time{}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := master.Read(make([]byte, 16))
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	master.Close()
	select {
	case err := <-done:
		if !errors.Is(err, os.ErrClosed) {
			t.Fatalf("Read after Close = %v; want os.ErrClosed", err)
		}
	case <-time.After(waitShort):
		t.Fatal("Close did not interrupt a Read")
	}
}
