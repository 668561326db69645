package web

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPublished: a running server's published address is found; a file
// open to others, one naming another host, a dead process or a closed
// port, and an unpublished one are not; the token is never in the file.
func TestPublished(t *testing.T) {
	s := serve(t)
	path := filepath.Join(t.TempDir(), "serve")
	unpublish, err := Publish(path, s)
	if err != nil {
		t.Fatal(err)
	}
	want := "http://" + s.Addr()
	if got := Published(path); got != want {
		t.Errorf("Published = %q; want %q", got, want)
	}
	b, _ := os.ReadFile(path)
	if strings.Contains(string(b), s.token) {
		t.Errorf("the published file holds the token: %q", b)
	}
	os.Chmod(path, 0o644)
	if got := Published(path); got != "" {
		t.Errorf("a file others can read was trusted: %q", got)
	}
	os.Chmod(path, 0o600)
	for _, body := range []string{
		"http://evil.example:80\n" + strings.Split(string(b), "\n")[1] + "\n",
		want + "\n999999999\n",
		"http://127.0.0.1:1\n" + strings.Split(string(b), "\n")[1] + "\n",
	} {
		os.WriteFile(path, []byte(body), 0o600)
		if got := Published(path); got != "" {
			t.Errorf("Published(%q) = %q; want none", body, got)
		}
	}
	os.WriteFile(path, b, 0o600)
	unpublish()
	if got := Published(path); got != "" {
		t.Errorf("after unpublish: %q", got)
	}
}
