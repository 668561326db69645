package llmtest

import (
	"bufio"
	"net/http"
	"strings"
	"testing"
)

// TestHoldAfter: a stream held after its first chunk sends nothing more
// until the test releases it, then the rest.
func TestHoldAfter(t *testing.T) {
	s := NewOpenAI(t)
	s.SetReply(Reply{Text: []string{"one ", "two ", "three"}})
	release := make(chan struct{})
	s.Push(Step{HoldAfter: 1, Release: release})
	resp, err := http.Post(s.URL+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"m","stream":true,"messages":[{"role":"user","content":"q"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	var got strings.Builder
	for !strings.Contains(got.String(), "one ") {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("stream ended before its first chunk: %v, %q", err, got.String())
		}
		got.WriteString(line)
	}
	if n := len(s.Sent()); n != 1 {
		t.Fatalf("%d chunks sent before the release; want 1", n)
	}
	close(release)
	for !strings.Contains(got.String(), "[DONE]") {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("stream ended early: %v, %q", err, got.String())
		}
		got.WriteString(line)
	}
	if !strings.Contains(got.String(), "two ") || !strings.Contains(got.String(), "three") || len(s.Sent()) != 3 {
		t.Errorf("after the release: %d chunks sent, %q", len(s.Sent()), got.String())
	}
}
