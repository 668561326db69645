// Package s3test starts a real S3-compatible server for tests: versitygw
// (github.com/versity/versitygw) with its posix backend over a temporary
// directory, listening on 127.0.0.1. It is no fake: the tests of sync
// speak the real wire protocol to a real store, conditional writes
// included. `.ci/run` installs versitygw; where it is missing the tests
// skip, unless REQUIRE_S3 or REQUIRE_SHELLS is set (as in CI), when they
// fail.
package s3test

import (
	"fmt"
	"github.com/hookd/hookd/internal/required"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// Credentials of the server's root account.
const (
	AccessKey = "hookdtestaccess"
	SecretKey = "hookdtestsecret0123456789"
)

// Binary finds versitygw: $HOOKD_VERSITYGW, else on PATH, else in
// $GOPATH/bin (where `go install` puts it). "" when it is nowhere.
func Binary() string {
	if p := os.Getenv("HOOKD_VERSITYGW"); p != "" {
		return p
	}
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p
	}
	home, _ := os.UserHomeDir()
	for _, dir := range []string{os.Getenv("GOBIN"), filepath.Join(os.Getenv("GOPATH"), "bin"), filepath.Join(home, "go", "bin")} {
		if dir == "" {
			continue
		}
		if p := filepath.Join(dir, "versitygw"); isExec(p) {
			return p
		}
	}
	return ""
}

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// Server is a running versitygw.
type Server struct {
	t        testing.TB
	bin      string
	Root     string // the posix backend's directory: one subdirectory per bucket
	sidecar  string
	Endpoint string // http://127.0.0.1:PORT
	port     int
	cmd      *exec.Cmd
	done     chan struct{}
}

// Start starts a server over a new temporary directory, or skips the test
// when versitygw is not installed (fails when REQUIRE_S3 or
// REQUIRE_SHELLS says it must be). It is stopped at the test's end.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := Binary()
	if bin == "" {
		required.Skip(t, "versitygw is not installed: go install github.com/versity/versitygw/cmd/versitygw@v1.8.0", "REQUIRE_S3", "REQUIRE_SHELLS")
	}
	dir := t.TempDir()
	s := &Server{t: t, bin: bin, Root: filepath.Join(dir, "data"), sidecar: filepath.Join(dir, "meta")}
	for _, d := range []string{s.Root, s.sidecar} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.port = ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	s.Endpoint = "http://127.0.0.1:" + strconv.Itoa(s.port)
	s.Restart()
	t.Cleanup(s.Stop)
	return s
}

// Bucket makes a bucket (a directory of the backend) and returns its name.
func (s *Server) Bucket(name string) string {
	s.t.Helper()
	if err := os.MkdirAll(filepath.Join(s.Root, name), 0o700); err != nil {
		s.t.Fatal(err)
	}
	return name
}

// Stop stops the server (SIGKILL: as abrupt as a crash); the data stays.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.done
	s.cmd = nil
}

// Restart starts the server (again) on the same port and data, and waits
// until it accepts connections.
func (s *Server) Restart() {
	s.t.Helper()
	s.Stop()
	cmd := exec.Command(s.bin, "--access", AccessKey, "--secret", SecretKey, "--port", "127.0.0.1:"+strconv.Itoa(s.port),
		"--quiet", "posix", "--sidecar", s.sidecar, s.Root)
	logf, err := os.Create(filepath.Join(filepath.Dir(s.Root), "server.log"))
	if err != nil {
		s.t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY=", "ROOT_SECRET_KEY=")
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("start versitygw: %v", err)
	}
	logf.Close()
	s.cmd, s.done = cmd, make(chan struct{})
	go func() { cmd.Wait(); close(s.done) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(s.port), time.Second)
		if err == nil {
			c.Close()
			return
		}
		select {
		case <-s.done:
			log, _ := os.ReadFile(filepath.Join(filepath.Dir(s.Root), "server.log"))
			s.t.Fatalf("versitygw exited at start: %s", log)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.t.Fatal("versitygw did not listen within 60 s")
		}
	}
}

// Files returns every file under the backend's directory (the bucket's
// objects as stored) and the sidecar metadata, by path.
func (s *Server) Files() map[string][]byte {
	s.t.Helper()
	out := map[string][]byte{}
	for _, root := range []string{s.Root, s.sidecar} {
		filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
			if err != nil || fi.IsDir() {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				s.t.Errorf("read %s: %v", p, err)
			}
			out[p] = b
			return nil
		})
	}
	return out
}

// String names the server.
func (s *Server) String() string { return fmt.Sprintf("versitygw at %s over %s", s.Endpoint, s.Root) }
