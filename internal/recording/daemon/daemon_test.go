package daemon_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/daemon"

	"github.com/hookd/hookd/internal/required"
)

func TestMain(m *testing.M) {
	// As a helper process (see TestRunRefusesOtherUsers): ask the daemon for
	// its status, as whichever user this process runs as.
	if sock := os.Getenv("HOOKD_TEST_CALL"); sock != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		st, err := daemon.Call(ctx, sock, daemon.Request{Op: "status"})
		fmt.Printf("status %+v, error %v\n", st, err)
		if err != nil {
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// daemon is a daemon running in a goroutine of the test.
type testDaemon struct {
	*env
	opt    daemon.Options
	sock   string
	cancel context.CancelFunc
	done   chan error // receives Run's result
}

// startDaemon starts a daemon on e and waits until it answers.
func startDaemon(t *testing.T, e *env, interval time.Duration) *testDaemon {
	t.Helper()
	root := filepath.Dir(e.dir)
	d := &testDaemon{env: e, done: make(chan error, 1)}
	d.opt = daemon.Options{
		Version:    "test-1",
		SpoolDir:   e.dir,
		PIDFile:    filepath.Join(root, "state", "agent.pid"),
		RuntimeDir: filepath.Join(root, "run"),
		DBPath:     e.db,
		Interval:   interval,
		Rules:      e.rules,
		Log:        slog.New(slog.DiscardHandler),
	}
	d.sock = daemon.SocketPath(d.opt.RuntimeDir)
	ctx, cancel := context.WithCancel(t.Context())
	d.cancel = cancel
	go func() { d.done <- daemon.Run(ctx, d.opt) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-d.done:
		case <-time.After(30 * time.Second):
			t.Errorf("the daemon did not stop within 30 s of its context's end")
		}
	})
	waitFor(t, 15*time.Second, "the daemon to answer", func() (bool, string) {
		select {
		case err := <-d.done:
			t.Fatalf("Run returned early: %v", err)
		default:
		}
		st, err := d.call("status")
		return err == nil && st.OK, fmt.Sprintf("%+v, %v", st, err)
	})
	return d
}

func (d *testDaemon) call(op string) (daemon.Status, error) {
	ctx, cancel := context.WithTimeout(d.t.Context(), 10*time.Second)
	defer cancel()
	return daemon.Call(ctx, d.sock, daemon.Request{Op: op})
}

// wait waits for Run to return and returns its error.
func (d *testDaemon) wait() error {
	d.t.Helper()
	select {
	case err := <-d.done:
		d.done <- err // for the cleanup
		return err
	case <-time.After(30 * time.Second):
		d.t.Fatalf("the daemon did not stop within 30 s")
		return nil
	}
}

// checkGone checks that a stopped daemon left no socket or pid file.
func (d *testDaemon) checkGone() {
	d.t.Helper()
	for _, p := range []string{d.sock, d.opt.PIDFile} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			d.t.Errorf("after the daemon stopped, %s is still there (%v)", p, err)
		}
	}
	if _, err := d.call("status"); err == nil {
		d.t.Errorf("a stopped daemon still answers")
	}
}

func TestRunStatusFlushStop(t *testing.T) {
	e := newEnv(t)
	d := startDaemon(t, e, time.Hour) // no timer passes: only flush ingests

	st, err := d.call("status")
	if err != nil || !st.OK || st.PID != os.Getpid() || st.Version != "test-1" || st.Error != "" {
		t.Errorf("status = %+v, %v; want ok, this pid, version test-1", st, err)
	}
	if _, err := time.Parse(time.RFC3339, st.StartedAt); err != nil {
		t.Errorf("started_at %q: %v", st.StartedAt, err)
	}
	if b, err := os.ReadFile(d.opt.PIDFile); err != nil || string(b) != fmt.Sprintf("%d test-1\n", os.Getpid()) {
		t.Errorf("pid file = %q, %v; want %q", b, err, fmt.Sprintf("%d test-1\n", os.Getpid()))
	}
	fi, err := os.Stat(d.sock)
	if err != nil || fi.Mode().Type() != os.ModeSocket || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket: %v, %v; want a socket with mode 0600", fi.Mode(), err)
	}
	if fi, err := os.Stat(d.opt.RuntimeDir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("runtime directory mode %v, %v; want 0700", fi.Mode().Perm(), err)
	}

	// A second daemon for the same runtime directory refuses at once.
	opt2 := d.opt
	opt2.PIDFile = filepath.Join(t.TempDir(), "other.pid")
	errc := make(chan error, 1)
	go func() { errc <- daemon.Run(t.Context(), opt2) }()
	select {
	case err := <-errc:
		if !errors.Is(err, daemon.ErrRunning) {
			t.Errorf("second Run = %v; want ErrRunning", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("second Run did not return")
	}
	if _, err := os.Stat(opt2.PIDFile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused daemon wrote a pid file (%v)", err)
	}
	if st, err := d.call("status"); err != nil || st.PID != os.Getpid() {
		t.Errorf("the first daemon stopped answering after a second one was refused: %+v, %v", st, err)
	}

	// Flush makes a command just written visible.
	s := sessionID(livePID, 1)
	for i := 1; i <= 3; i++ {
		e.write(s, records(i, 1, "echo flushed %d"))
		st, err := d.call("flush")
		if err != nil || st.Ingested != int64(i) || st.LastIngest == "" {
			t.Errorf("flush %d = %+v, %v; want %d ingested in all, a last_ingest", i, st, err, i)
		}
		if got := e.texts(s); len(got) != i || got[i-1] != fmt.Sprintf("echo flushed %d", i) {
			t.Errorf("history right after flush %d = %q", i, got)
		}
	}

	st, err = d.call("stop")
	if err != nil || !st.OK {
		t.Errorf("stop = %+v, %v; want ok", st, err)
	}
	if err := d.wait(); err != nil {
		t.Errorf("Run after stop = %v; want nil", err)
	}
	d.checkGone()
}

func TestRunCancelLastPass(t *testing.T) {
	e := newEnv(t)
	d := startDaemon(t, e, time.Hour)
	s := sessionID(livePID, 1)
	e.write(s, records(1, 5, "echo before stop %d"))
	d.cancel()
	if err := d.wait(); err != nil {
		t.Errorf("Run after cancel = %v; want nil", err)
	}
	d.checkGone()
	if got := e.texts(s); len(got) != 5 {
		t.Errorf("after a clean stop the history has %q; want the 5 commands written before it", got)
	}
}

func TestRunIngestsOnTimer(t *testing.T) {
	e := newEnv(t)
	d := startDaemon(t, e, 100*time.Millisecond)
	s := sessionID(livePID, 1)
	for i := 1; i <= 3; i++ {
		e.write(s, records(i, 1, "echo timer %d"))
		waitFor(t, 10*time.Second, fmt.Sprintf("command %d in the history", i), func() (bool, string) {
			got := e.texts(s)
			return len(got) == i, fmt.Sprintf("%q", got)
		})
	}
	st, err := d.call("status")
	if err != nil || st.Ingested != 3 || st.Bad != 0 || st.LastError != "" {
		t.Errorf("status = %+v, %v; want 3 ingested", st, err)
	}
}

func TestRunBadRequests(t *testing.T) {
	e := newEnv(t)
	d := startDaemon(t, e, time.Hour)
	tests := []struct {
		send      string
		wantError string
	}{
		{"not json\n", "bad request"},
		{`{"op":"dance"}` + "\n", `unknown op \"dance\"`},
		{`{"op":""}` + "\n", `unknown op \"\"`},
		{"\n", "bad request"},
	}
	for _, tt := range tests {
		conn, err := net.Dial("unix", d.sock)
		if err != nil {
			t.Fatal(err)
		}
		conn.SetDeadline(time.Now().Add(10 * time.Second))
		io.WriteString(conn, tt.send)
		line, err := bufio.NewReader(conn).ReadString('\n')
		conn.Close()
		if err != nil || !strings.Contains(line, `"ok":false`) || !strings.Contains(line, tt.wantError) {
			t.Errorf("sending %q: answer %q, %v; want ok false and %q", tt.send, line, err, tt.wantError)
		}
	}
	// A client that hangs up without a full line does no harm.
	conn, err := net.Dial("unix", d.sock)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(conn, `{"op":"sta`)
	conn.Close()
	if _, err := d.call("dance"); err == nil || !strings.Contains(err.Error(), "unknown op") {
		t.Errorf("Call with an unknown op: %v; want an error naming it", err)
	}
	if st, err := d.call("status"); err != nil || !st.OK {
		t.Errorf("status after bad requests = %+v, %v", st, err)
	}
}

func TestRunRecoversCorruptDatabase(t *testing.T) {
	e := newEnv(t)
	e.store.Close()
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(e.db + suffix)
	}
	if err := os.WriteFile(e.db, []byte(strings.Repeat("this is no database ", 500)), 0o600); err != nil {
		t.Fatal(err)
	}
	d := startDaemon(t, e, time.Hour)
	aside, _ := filepath.Glob(e.db + ".corrupt-*")
	if len(aside) != 1 {
		t.Errorf("corrupt database moved aside to %q; want one file", aside)
	}
	s := sessionID(livePID, 1)
	e.write(s, records(1, 2, "echo after recovery %d"))
	if st, err := d.call("flush"); err != nil || st.Ingested != 2 {
		t.Errorf("flush = %+v, %v; want 2 ingested", st, err)
	}
	store := openStore(t, e.db, 10*time.Second)
	if got, err := store.List(t.Context(), history.Query{}); err != nil || len(got) != 2 {
		t.Errorf("new history = %d entries, %v; want 2", len(got), err)
	}
}

// TestRunRefusesOtherUsers connects as another user to a socket made
// reachable on purpose: the daemon's own check of its peer must refuse.
func TestRunRefusesOtherUsers(t *testing.T) {
	if os.Getuid() != 0 {
		required.Cannot(t, "needs root to run a client as another user")
	}
	e := newEnv(t)
	d := startDaemon(t, e, time.Hour)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// Everything the other user needs, except the peer check, is open.
	bin := filepath.Join(filepath.Dir(e.dir), "daemon.test")
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	for p := filepath.Dir(e.dir); p != filepath.Dir(p) && strings.HasPrefix(p, os.TempDir()+"/"); p = filepath.Dir(p) {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(d.opt.RuntimeDir, 0o711); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(d.sock, 0o666); err != nil {
		t.Fatal(err)
	}
	call := func(cred *syscall.Credential) (string, error) {
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
		defer cancel()
		c := exec.CommandContext(ctx, bin)
		c.Env = []string{"HOOKD_TEST_CALL=" + d.sock}
		c.Dir = "/"
		c.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		out, err := c.CombinedOutput()
		return string(out), err
	}
	if out, err := call(nil); err != nil {
		t.Fatalf("the helper, as this user: %v\n%s", err, out)
	}
	out, err := call(&syscall.Credential{Uid: 65534, Gid: 65534})
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Errorf("a client of uid 65534: %v\n%s\nwant it refused (exit status 3)", err, out)
	}
	// Refused by the daemon, after connecting: not by the file system.
	if strings.Contains(out, "permission denied") {
		t.Errorf("the client of uid 65534 could not even connect: %s", out)
	}
	t.Logf("client of uid 65534: %s", out)
	if st, err := d.call("status"); err != nil || !st.OK {
		t.Errorf("status after a refused client = %+v, %v", st, err)
	}
}
