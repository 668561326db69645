package ask

import (
	"net"
	"net/url"
	"os"
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
