package llm_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/ai/llm"
	"github.com/hookd/hookd/internal/ai/llm/llmtest"
	"github.com/hookd/hookd/internal/shelltest"
)

// fake is a fake server of one provider.
type fake struct {
	provider string
	start    func(testing.TB) *llmtest.Server
	base     func(*llmtest.Server) string
}

var fakes = []fake{
	{llm.OpenAI, llmtest.NewOpenAI, func(s *llmtest.Server) string { return s.URL + "/v1" }},
	{llm.Anthropic, llmtest.NewAnthropic, func(s *llmtest.Server) string { return s.URL }},
	{llm.Ollama, llmtest.NewOllama, func(s *llmtest.Server) string { return s.URL }},
}

// newProvider returns a provider of f's kind talking to s, cfg
// overriding the defaults of a test: a key, a fast retry, a timeout that
// only bounds a hang (a loaded machine can take seconds to answer).
func newProvider(t *testing.T, f fake, s *llmtest.Server, edit func(*llm.Config)) llm.Provider {
	t.Helper()
	cfg := llm.Config{Provider: f.provider, Model: "test-model", BaseURL: f.base(s), APIKey: "sk-test-key-0123456789",
		APIKeyEnv: "TEST_KEY", Timeout: shelltest.Scale(30 * time.Second), RetryWait: time.Millisecond}
	if edit != nil {
		edit(&cfg)
	}
	p, err := llm.New(cfg, nil)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	return p
}

var question = llm.Request{System: "Be brief.", Messages: []llm.Message{
	{Role: "user", Content: "why?"}, {Role: "assistant", Content: "because"}, {Role: "user", Content: "why did make fail?"}}}

// collect streams req from p, returning the events.
func collect(ctx context.Context, p llm.Provider, req llm.Request) ([]llm.Event, llm.Result, error) {
	var evs []llm.Event
	res, err := p.Stream(ctx, req, func(e llm.Event) error {
		evs = append(evs, e)
		return nil
	})
	return evs, res, err
}

func TestStream(t *testing.T) {
	for _, f := range fakes {
		t.Run(f.provider, func(t *testing.T) {
			s := f.start(t)
			s.SetReply(llmtest.Reply{Text: []string{"Run ", "make", " -j1"}, Reasoning: []string{"The log", " says"},
				InputTokens: 42, OutputTokens: 7})
			p := newProvider(t, f, s, nil)
			evs, res, err := collect(t.Context(), p, question)
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			want := []llm.Event{{Kind: llm.Reasoning, Text: "The log"}, {Kind: llm.Reasoning, Text: " says"},
				{Kind: llm.Text, Text: "Run "}, {Kind: llm.Text, Text: "make"}, {Kind: llm.Text, Text: " -j1"}}
			if !reflect.DeepEqual(evs, want) {
				t.Errorf("events = %+v; want %+v", evs, want)
			}
			if res.Text != "Run make -j1" || res.Reasoning != "The log says" || res.Usage != (llm.Usage{InputTokens: 42, OutputTokens: 7}) ||
				res.Model != "test-model" || res.StopReason == "" {
				t.Errorf("Result = %+v; want the text, the reasoning, usage {42 7}, the model and a stop reason", res)
			}
			got := s.Last()
			wantMsgs := []llmtest.Message{{Role: "user", Content: "why?"}, {Role: "assistant", Content: "because"}, {Role: "user", Content: "why did make fail?"}}
			if got.Model != "test-model" || got.System != "Be brief." || !reflect.DeepEqual(got.Messages, wantMsgs) || !got.Stream {
				t.Errorf("the server received %q %q %+v stream=%v; want the model, the system prompt, the messages, streaming",
					got.Model, got.System, got.Messages, got.Stream)
			}
		})
	}
}

// TestStreamOpenAIVariants covers what OpenAI-compatible servers differ
// in: the name of the reasoning field, and a reply that does not stream.
func TestStreamOpenAIVariants(t *testing.T) {
	s := llmtest.NewOpenAI(t)
	s.SetReply(llmtest.Reply{Text: []string{"ok"}, Reasoning: []string{"hm"}, ReasoningField: "reasoning", InputTokens: 1, OutputTokens: 1})
	p := newProvider(t, fakes[0], s, nil)
	evs, res, err := collect(t.Context(), p, question)
	want := []llm.Event{{Kind: llm.Reasoning, Text: "hm"}, {Kind: llm.Text, Text: "ok"}}
	if err != nil || !reflect.DeepEqual(evs, want) || res.Usage.InputTokens != 1 {
		t.Errorf("Stream (reasoning) = %+v, %+v, %v; want %+v", evs, res, err, want)
	}
	if !s.Last().Usage {
		t.Errorf("the request did not ask for the usage (stream_options.include_usage)")
	}
}

// TestStreamOnError checks that an error from the callback stops the
// stream and is returned as it is.
func TestStreamOnError(t *testing.T) {
	stop := errors.New("enough")
	for _, f := range fakes {
		t.Run(f.provider, func(t *testing.T) {
			s := f.start(t)
			p := newProvider(t, f, s, nil)
			n := 0
			res, err := p.Stream(t.Context(), question, func(llm.Event) error { n++; return stop })
			if !errors.Is(err, stop) || n != 1 || res.Text != "Hello" {
				t.Errorf("Stream = %q, %v after %d events; want %q, %v after 1", res.Text, err, n, "Hello", stop)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(*llmtest.Server)
		edit  func(*llm.Config)
		kind  llm.ErrorKind
		hint  string // in the error's hint
		tries int    // requests the server got (0: not checked)
		text  string // the text streamed before the error
	}{
		{name: "401", setup: func(s *llmtest.Server) { s.SetKey("sk-the-right-one") }, kind: llm.Auth, hint: "TEST_KEY", tries: 1},
		{name: "no key", setup: func(s *llmtest.Server) { s.SetKey("sk-the-right-one") },
			edit: func(c *llm.Config) { c.APIKey = "" }, kind: llm.Auth, hint: "no API key was sent: set TEST_KEY"},
		{name: "unknown model", setup: func(s *llmtest.Server) { s.SetModels("alpha", "beta") }, kind: llm.Model,
			hint: "the server offers alpha, beta"},
		{name: "500 three times", setup: func(s *llmtest.Server) {
			s.Push(llmtest.Step{Status: 500}, llmtest.Step{Status: 502}, llmtest.Step{Status: 503})
		}, kind: llm.Server, tries: 3},
		{name: "429 after the retries", setup: func(s *llmtest.Server) {
			s.Push(llmtest.Step{Status: 429}, llmtest.Step{Status: 429}, llmtest.Step{Status: 429})
		}, kind: llm.RateLimit, tries: 3},
		{name: "no retries", setup: func(s *llmtest.Server) { s.Push(llmtest.Step{Status: 500}) },
			edit: func(c *llm.Config) { c.Retries = -1 }, kind: llm.Server, tries: 1},
		{name: "400", setup: func(s *llmtest.Server) { s.Push(llmtest.Step{Status: 400, Message: "bad temperature"}) },
			kind: llm.Other, tries: 1},
		{name: "slower than the timeout", setup: func(s *llmtest.Server) { s.Push(llmtest.Step{Delay: time.Minute}) },
			edit: func(c *llm.Config) { c.Timeout = 100 * time.Millisecond }, kind: llm.Timeout, hint: "llm.timeout"},
		// The first chunk must come before the timeout, on a busy machine
		// too: a few seconds (the subtests run in parallel).
		{name: "stalls past the timeout", setup: func(s *llmtest.Server) { s.Push(llmtest.Step{StallAfter: 1}) },
			edit: func(c *llm.Config) { c.Timeout = shelltest.Scale(3 * time.Second) }, kind: llm.Timeout, text: "Hello"},
		{name: "malformed stream", setup: func(s *llmtest.Server) { s.Push(llmtest.Step{Malformed: true}) }, kind: llm.Stream},
		{name: "stream cut", setup: func(s *llmtest.Server) { s.Push(llmtest.Step{CutAfter: 1}) }, kind: llm.Stream, hint: "ask again"},
		{name: "error mid-stream", setup: func(s *llmtest.Server) { s.Push(llmtest.Step{StreamError: "overloaded"}) }, kind: llm.Server},
	}
	for _, f := range fakes {
		for _, tt := range tests {
			t.Run(f.provider+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				s := f.start(t)
				tt.setup(s)
				p := newProvider(t, f, s, tt.edit)
				start := time.Now()
				_, res, err := collect(t.Context(), p, question)
				var e *llm.Error
				if !errors.As(err, &e) || e.Kind != tt.kind || !strings.Contains(e.Hint, tt.hint) {
					t.Fatalf("Stream error = %v (%#v); want kind %v, hint with %q", err, e, tt.kind, tt.hint)
				}
				t.Log(e)
				if !strings.HasPrefix(e.Error(), f.provider+": ") {
					t.Errorf("error %q does not name the provider", e)
				}
				if n := len(s.Requests()); tt.tries > 0 && n != tt.tries {
					t.Errorf("the server got %d requests; want %d", n, tt.tries)
				}
				if tt.text != "" && res.Text != tt.text {
					t.Errorf("Result.Text = %q; want the text so far, %q", res.Text, tt.text)
				}
				// No wait beyond the retries' and the timeout's.
				if d := time.Since(start); d > shelltest.Scale(20*time.Second) {
					t.Errorf("Stream took %v", d)
				}
			})
		}
	}
}

// TestRetryAfter checks that a 429 is tried again once the wait the server
// asked for is over.
func TestRetryAfter(t *testing.T) {
	t.Parallel()
	for _, f := range fakes {
		t.Run(f.provider, func(t *testing.T) {
			t.Parallel()
			s := f.start(t)
			s.Push(llmtest.Step{Status: 429, RetryAfter: "1"})
			p := newProvider(t, f, s, nil)
			start := time.Now()
			_, res, err := collect(t.Context(), p, question)
			if d := time.Since(start); err != nil || res.Text != "Hello, world" || d < time.Second || d > shelltest.Scale(10*time.Second) {
				t.Errorf("Stream = %q, %v after %v; want the answer after Retry-After: 1", res.Text, err, d)
			}
			if n := len(s.Requests()); n != 2 {
				t.Errorf("the server got %d requests; want 2", n)
			}
		})
	}
}

// TestCancel checks that cancelling mid-stream (Ctrl-C) returns at once,
// with the text so far.
func TestCancel(t *testing.T) {
	for _, f := range fakes {
		t.Run(f.provider, func(t *testing.T) {
			s := f.start(t)
			s.SetReply(llmtest.Reply{Text: []string{"one ", "two ", "three"}})
			s.Push(llmtest.Step{StallAfter: 2})
			p := newProvider(t, f, s, nil)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			var at time.Time
			res, err := p.Stream(ctx, question, func(e llm.Event) error {
				if e.Text == "two " {
					at = time.Now()
					cancel()
				}
				return nil
			})
			d := time.Since(at)
			if llm.KindOf(err) != llm.Canceled || res.Text != "one two " {
				t.Errorf("Stream = %q, %v; want a Canceled error and the text so far", res.Text, err)
			}
			// The stream stalls: without the cancel it would never end.
			if d > shelltest.Scale(5*time.Second) {
				t.Errorf("Stream returned %v after the cancel; want it at once", d)
			}
		})
	}
}

func TestConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := "http://" + l.Addr().String()
	l.Close()
	for _, f := range fakes {
		t.Run(f.provider, func(t *testing.T) {
			p, err := llm.New(llm.Config{Provider: f.provider, BaseURL: addr, APIKey: "k", Retries: 1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = collect(t.Context(), p, question)
			t.Log(err)
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != llm.Connect || !strings.Contains(e.Msg, addr) || !strings.Contains(e.Hint, "HOOKD_LLM_BASE_URL") {
				t.Errorf("Stream error = %v; want a Connect error naming %s", err, addr)
			}
		})
	}
}

func TestModels(t *testing.T) {
	for _, f := range fakes {
		t.Run(f.provider, func(t *testing.T) {
			s := f.start(t)
			s.SetModels("m1", "m2")
			got, err := newProvider(t, f, s, nil).Models(t.Context())
			if err != nil || !reflect.DeepEqual(got, []string{"m1", "m2"}) {
				t.Errorf("Models = %q, %v; want [m1 m2]", got, err)
			}
		})
	}
}

// TestHeaders checks the key and version headers each provider sends.
func TestHeaders(t *testing.T) {
	tests := []struct {
		f      fake
		header string
		want   string
	}{
		{fakes[0], "Authorization", "Bearer sk-test-key-0123456789"},
		{fakes[1], "X-Api-Key", "sk-test-key-0123456789"},
		{fakes[1], "Anthropic-Version", "2023-06-01"},
		{fakes[2], "Authorization", "Bearer sk-test-key-0123456789"},
	}
	for _, tt := range tests {
		s := tt.f.start(t)
		if _, _, err := collect(t.Context(), newProvider(t, tt.f, s, nil), question); err != nil {
			t.Fatal(err)
		}
		if got := s.Last().Header.Get(tt.header); got != tt.want {
			t.Errorf("%s: header %s = %q; want %q", tt.f.provider, tt.header, got, tt.want)
		}
	}
}

func TestOllamaNumCtx(t *testing.T) {
	long := strings.Repeat("make: *** [all] Error 1\n", 1000) // 24,000 bytes: some 8,000 tokens
	tests := []struct {
		name string
		req  llm.Request
		want int
	}{
		{"short prompt: the server's default", llm.Request{Messages: []llm.Message{{Role: "user", Content: "hi"}}}, 0},
		{"long prompt: fitted", llm.Request{Messages: []llm.Message{{Role: "user", Content: long}}}, 16384},
		{"asked for", llm.Request{NumCtx: 3000, Messages: []llm.Message{{Role: "user", Content: "hi"}}}, 3000},
	}
	s := llmtest.NewOllama(t)
	p := newProvider(t, fakes[2], s, nil)
	for _, tt := range tests {
		if _, _, err := collect(t.Context(), p, tt.req); err != nil {
			t.Fatal(err)
		}
		if got := s.Last().NumCtx; got != tt.want {
			t.Errorf("%s: num_ctx = %d; want %d", tt.name, got, tt.want)
		}
	}
}

var _ = http.StatusOK
