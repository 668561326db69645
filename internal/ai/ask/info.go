package ask

import (
	"errors"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/hookd/hookd/history"
)

// OS names the operating system for the system prompt: the kernel's
// name and, where /etc/os-release says it, the distribution's.
func OS() string {
	b, err := os.ReadFile("/etc/os-release")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "PRETTY_NAME="); ok {
				if u, err := strconv.Unquote(v); err == nil {
					v = u
				}
				return runtime.GOOS + " (" + v + ")"
			}
		}
	}
	return runtime.GOOS
}

// Remote reports whether a provider's endpoint is off this machine (not
// localhost or a loopback address; a command is local), and names its host.
func Remote(endpoint string) (host string, remote bool) {
	u, err := url.Parse(endpoint)
	if err != nil || u.Hostname() == "" {
		return "", false
	}
	h := u.Hostname()
	if h == "localhost" {
		return h, false
	}
	if ip := net.ParseIP(h); ip != nil && ip.IsLoopback() {
		return h, false
	}
	return u.Host, true
}

// FirstRemote reports whether context sent to endpoint leaves this
// machine (Remote) for the first time that the file mark knows of: the
// first call for a remote endpoint makes mark (empty, 0600, in a 0700
// directory) and is true, the next ones are false. host names the
// endpoint's host. When mark cannot be made, it is true every time: a
// notice said twice is better than one never said.
func FirstRemote(mark, endpoint string) (host string, first bool) {
	host, remote := Remote(endpoint)
	if !remote {
		return host, false
	}
	os.MkdirAll(filepath.Dir(mark), 0o700)
	f, err := os.OpenFile(mark, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return host, false
	}
	if err == nil {
		f.Close()
	}
	return host, true
}

// JSON is the JSON shape of a stored question (hookd ask --log --json and
// --show --json).
func JSON(a history.Ask) map[string]any {
	return map[string]any{
		"id": a.ID, "session": a.Session, "parent": a.Parent, "question": a.Question, "context": a.Context,
		"answer": a.Answer, "reasoning": a.Reasoning, "provider": a.Provider, "model": a.Model,
		"input_tokens": a.InputTokens, "output_tokens": a.OutputTokens,
		"first_token_ms": float64(a.FirstTokenUS) / 1000, "duration_ms": float64(a.DurationUS) / 1000,
		"status": a.Status, "error": a.Error,
		"started_at": time.UnixMicro(a.StartedAt).UTC().Format(time.RFC3339Nano),
	}
}
