package probe

import (
	"net"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

// hideProc points the package at an empty directory in place of /proc, as
// a sandbox or macOS would have it, for the test's duration.
func hideProc(t *testing.T) {
	old := procRoot
	procRoot = t.TempDir()
	t.Cleanup(func() { procRoot = old })
}

// listenLocal listens on a free port of 127.0.0.1.
func listenLocal(t *testing.T) (net.Listener, int) {
	t.Helper()
	var lc net.ListenConfig
	l, err := lc.Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return l, l.Addr().(*net.TCPAddr).Port
}

// Without /proc a listening port is found by connecting to it.
func TestListeningPortNoProc(t *testing.T) {
	hideProc(t)
	l, port := listenLocal(t)
	defer l.Close()
	p := New(Options{Timeout: shelltest.Scale(30 * time.Second)})
	got, ok := p.ListeningPort(t.Context(), port)
	if !ok || got.PID != 0 {
		t.Fatalf("ListeningPort(%d) without /proc = %+v, %v; want listening, holder unknown", port, got, ok)
	}
	l.Close()
	if _, ok := New(Options{Timeout: time.Second}).ListeningPort(t.Context(), port); ok {
		t.Errorf("ListeningPort(%d) without /proc = true after the listener closed", port)
	}
}
