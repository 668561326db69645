package web

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hookd/hookd/internal/paths"
)

// hookd serve publishes where it listens, so that hookd show and hookd out
// can point at a command's page (/c/ID): a file in the user's runtime
// directory (0700), 0600, holding the page's base address and the serving
// process's id, and never the access token. The token stays in the address
// serve printed and in the browser's cookie: show and out print on a
// terminal whose text hookd's capture stores (and sync carries, and a model
// may read), so a token printed there would leave the machine.

// loopbackBase reports whether s is a base address a published file may
// hold: http://127.0.0.1:PORT. (No regular expression: compiling one would
// cost every command's start-up.)
func loopbackBase(s string) bool {
	port, ok := strings.CutPrefix(s, "http://127.0.0.1:")
	if !ok || port == "" || len(port) > 5 || strings.Trim(port, "0123456789") != "" {
		return false
	}
	n, err := strconv.Atoi(port)
	return err == nil && n > 0 && n <= 65535
}

// Publish writes the base address of s (http://127.0.0.1:PORT) to path,
// 0600, with this process's id; unpublish removes it, unless another
// hookd serve has published itself there since.
func Publish(path string, s *Server) (unpublish func(), err error) {
	body := fmt.Sprintf("http://%s\n%d\n", s.Addr(), os.Getpid())
	if err := paths.WriteAtomic(path, []byte(body)); err != nil {
		return nil, err
	}
	return func() {
		if b, err := os.ReadFile(path); err == nil && string(b) == body {
			os.Remove(path)
		}
	}, nil
}

// Published returns the base address a running hookd serve published at
// path, or "" when none runs: the file must be the user's own, open to no
// one else, name a loopback address, and a live process that listens there.
func Published(path string) string {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o077 != 0 || fi.Size() > 256 {
		return ""
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
		return ""
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 2 || !loopbackBase(lines[0]) {
		return ""
	}
	pid, err := strconv.Atoi(lines[1])
	if err != nil || pid <= 0 || syscall.Kill(pid, 0) != nil {
		return ""
	}
	c, err := net.DialTimeout("tcp", strings.TrimPrefix(lines[0], "http://"), 200*time.Millisecond)
	if err != nil {
		return ""
	}
	c.Close()
	return lines[0]
}
