package llm

import (
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		header map[string]string
		want   time.Duration
		ok     bool
	}{
		{map[string]string{"Retry-After": "3"}, 3 * time.Second, true},
		{map[string]string{"Retry-After": "0"}, 0, true},
		{map[string]string{"Retry-After": now.Add(10 * time.Second).Format(http.TimeFormat)}, 10 * time.Second, true},
		{map[string]string{"Retry-After": now.Add(-time.Minute).Format(http.TimeFormat)}, 0, true},
		{map[string]string{"Retry-After-Ms": "250", "Retry-After": "9"}, 250 * time.Millisecond, true},
		{map[string]string{"Retry-After": "soon"}, 0, false},
		{map[string]string{}, 0, false},
	}
	for _, tt := range tests {
		h := http.Header{}
		for k, v := range tt.header {
			h.Set(k, v)
		}
		if got, ok := retryAfter(h, now); got != tt.want || ok != tt.ok {
			t.Errorf("retryAfter(%v) = %v, %v; want %v, %v", tt.header, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBackoff(t *testing.T) {
	for attempt := 1; attempt <= 10; attempt++ {
		d := backoff(time.Second, attempt)
		full := min(time.Second<<(attempt-1), maxRetryWait)
		if d < full/2 || d > full {
			t.Errorf("backoff(1s, %d) = %v; want within [%v, %v]", attempt, d, full/2, full)
		}
	}
}

func TestSSEReader(t *testing.T) {
	tests := []struct {
		name, in string
		want     []sseEvent
	}{
		{"data lines", "data: {\"a\":1}\n\ndata: [DONE]\n\n", []sseEvent{{Data: `{"a":1}`}, {Data: "[DONE]"}}},
		{"comments and CRLF", ": keep-alive\r\n\r\n: OPENROUTER PROCESSING\r\ndata: x\r\n\r\n", []sseEvent{{Data: "x"}}},
		{"named events", "event: ping\ndata: {\"type\": \"ping\"}\n\nevent: message_stop\ndata: {}\n\n",
			[]sseEvent{{Event: "ping", Data: `{"type": "ping"}`}, {Event: "message_stop", Data: "{}"}}},
		{"multi-line data, no space", "data:a\ndata: b\n\n", []sseEvent{{Data: "a\nb"}}},
		{"no final blank line", "data: x", []sseEvent{{Data: "x"}}},
		{"other fields", "id: 1\nretry: 10\ndata: x\n\n", []sseEvent{{Data: "x"}}},
	}
	for _, tt := range tests {
		r := newSSEReader(strings.NewReader(tt.in))
		var got []sseEvent
		for {
			ev, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			got = append(got, ev)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: events = %q; want %q", tt.name, got, tt.want)
		}
	}
}

func TestFitNumCtx(t *testing.T) {
	msg := func(n int) Request {
		return Request{Messages: []Message{{Role: "user", Content: strings.Repeat("x", n)}}}
	}
	tests := []struct {
		req  Request
		want int
	}{
		{msg(10), 0},
		{msg(3000), 0},                   // 1000 + 1024 tokens: fits 2048
		{msg(4000), 4096},                // 1336 + 1024
		{msg(24000), 16384},              // 8000 + 1024
		{msg(10 << 20), 131072},          // capped
		{Request{MaxTokens: 5000}, 8192}, // the answer counts too
	}
	for _, tt := range tests {
		if got := FitNumCtx(tt.req); got != tt.want {
			t.Errorf("FitNumCtx(%+.20v) = %d; want %d", tt.req, got, tt.want)
		}
	}
}

func TestOllamaHost(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "http://localhost:11434"},
		{"0.0.0.0", "http://0.0.0.0:11434"},
		{"gpu:8080", "http://gpu:8080"},
		{"https://ollama.example.com", "https://ollama.example.com"},
		{"http://[::1]:11434/", "http://[::1]:11434"},
	}
	for _, tt := range tests {
		if got := ollamaHost(tt.in); got != tt.want {
			t.Errorf("ollamaHost(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestCompleteUTF8(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"abc", 3}, {"a\xe2\x82", 1}, {"a\xe2\x82\xac", 4}, {"\xe2", 0}, {"", 0}, {"a\xff", 2},
	}
	for _, tt := range tests {
		if got := completeUTF8([]byte(tt.in)); got != tt.want {
			t.Errorf("completeUTF8(%q) = %d; want %d", tt.in, got, tt.want)
		}
	}
}

func TestOpenAIBaseURL(t *testing.T) {
	tests := []struct{ base, endpoint string }{
		{"", "https://api.openai.com/v1/chat/completions"},
		{"http://localhost:8080", "http://localhost:8080/v1/chat/completions"},
		{"http://localhost:1234/v1/", "http://localhost:1234/v1/chat/completions"},
		{"https://openrouter.ai/api/v1", "https://openrouter.ai/api/v1/chat/completions"},
	}
	for _, tt := range tests {
		p, err := newOpenAI(Config{BaseURL: tt.base}, http.DefaultClient)
		if err != nil || p.Endpoint() != tt.endpoint {
			t.Errorf("newOpenAI(%q).Endpoint() = %q, %v; want %q", tt.base, p.Endpoint(), err, tt.endpoint)
		}
	}
}

// TestMaxTokensField checks that OpenAI's own API gets
// max_completion_tokens and the other servers max_tokens.
func TestMaxTokensField(t *testing.T) {
	for base, want := range map[string]string{"": `"max_completion_tokens":100`, "http://localhost:8080/v1": `"max_tokens":100`} {
		p, _ := newOpenAI(Config{BaseURL: base}, http.DefaultClient)
		b, _ := p.body(Request{MaxTokens: 100})
		if !strings.Contains(string(b), want) {
			t.Errorf("body for %q = %s; want %s", base, b, want)
		}
	}
}
