// Package llmtest provides fake LLM servers speaking the real wire formats
// (OpenAI chat completions, Anthropic Messages, Ollama's chat API),
// streaming included, for tests: each records what it received and can be
// scripted to fail (a status, Retry-After, a delay, a malformed or cut
// stream, a stream that stalls).
package llmtest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"
)

// Message is a message as a fake received it.
type Message struct {
	Role    string
	Content string
}

// Received is a request as a fake received it.
type Received struct {
	Method, Path string
	Header       http.Header
	Body         []byte
	// Decoded from the body of a chat request:
	Model    string
	System   string // Anthropic's system field, or OpenAI's and Ollama's system message
	Messages []Message
	Stream   bool
	NumCtx   int  // Ollama's options.num_ctx
	Usage    bool // OpenAI's stream_options.include_usage
}

// Reply is the answer a fake streams.
type Reply struct {
	Text      []string // the answer's chunks, in order
	Reasoning []string // reasoning (OpenAI reasoning_content, Anthropic thinking, Ollama thinking), sent first
	// ReasoningField is OpenAI's name for reasoning deltas:
	// "reasoning_content" (the default) or "reasoning".
	ReasoningField            string
	InputTokens, OutputTokens int
	// Interval is the time between chunks (0: none).
	Interval time.Duration
	// Model names the model in the answer ("" is the one asked for).
	Model string
}

// Step scripts the answer to one request; a fake's steps are used in
// order, one a request, then it answers normally.
type Step struct {
	// Status, if not 0 or 200, is answered with the vendor's error body
	// holding Message.
	Status     int
	Message    string
	RetryAfter string // the Retry-After header, if not ""
	// Delay holds the response back (headers included), unless the
	// client goes away first.
	Delay time.Duration
	// CutAfter, if > 0, aborts the connection after that many chunks of
	// text (reasoning included), before the next one.
	CutAfter int
	// StallAfter, if > 0, stops sending after that many chunks of text
	// (reasoning included) and holds the stream open until the client
	// goes away.
	StallAfter int
	// Malformed sends a chunk that is not JSON after the first one.
	Malformed bool
	// StreamError sends the vendor's mid-stream error after the first
	// chunk (Anthropic's error event, an error object for the others).
	StreamError string
}

// Server is a fake LLM server.
type Server struct {
	*httptest.Server
	kind string

	mu     sync.Mutex
	reply  Reply
	steps  []Step
	recv   []Received
	models []string
	key    string
	sent   []time.Time   // when each text or reasoning chunk was flushed
	quit   chan struct{} // closed by Close: stalled and delayed handlers return
	closed sync.Once
}

func newServer(t testing.TB, kind string, h func(*Server, http.ResponseWriter, *http.Request, Received)) *Server {
	s := &Server{kind: kind, reply: Reply{Text: []string{"Hello", ", world"}, InputTokens: 12, OutputTokens: 3},
		quit: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc := decode(r, body)
		s.mu.Lock()
		s.recv = append(s.recv, rc)
		s.mu.Unlock()
		h(s, w, r, rc)
	}))
	t.Cleanup(s.Close)
	return s
}

// Sent returns when each text or reasoning chunk was sent (flushed to the
// connection), in order, over all requests: for latency measurements.
func (s *Server) Sent() []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Time(nil), s.sent...)
}

// Close stops the server, ending stalled streams.
func (s *Server) Close() {
	s.closed.Do(func() { close(s.quit) })
	s.Server.Close()
}

// SetReply sets the answer to chat requests.
func (s *Server) SetReply(r Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reply = r
}

// Push adds steps that script the next requests.
func (s *Server) Push(steps ...Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.steps = append(s.steps, steps...)
}

// SetModels sets the models the server lists; a chat request for another
// one is then answered as the vendor does an unknown model (with none set,
// any model is answered).
func (s *Server) SetModels(models ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = models
}

// SetKey makes the server refuse, as the vendor does (401), requests that
// do not carry key.
func (s *Server) SetKey(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.key = key
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.recv)
}

// Last returns the last request received (the zero Received if none).
func (s *Server) Last() Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.recv) == 0 {
		return Received{}
	}
	return s.recv[len(s.recv)-1]
}

// next returns the step for this request, and the settings.
func (s *Server) next() (Step, Reply, []string, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var st Step
	if len(s.steps) > 0 {
		st, s.steps = s.steps[0], s.steps[1:]
	}
	return st, s.reply, slices.Clone(s.models), s.key
}

func decode(r *http.Request, body []byte) Received {
	rc := Received{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	var v struct {
		Model    string          `json:"model"`
		System   json.RawMessage `json:"system"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Stream        bool `json:"stream"`
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
		Options struct {
			NumCtx int `json:"num_ctx"`
		} `json:"options"`
	}
	if json.Unmarshal(body, &v) != nil {
		return rc
	}
	rc.Model, rc.Stream, rc.NumCtx, rc.Usage = v.Model, v.Stream, v.Options.NumCtx, v.StreamOptions.IncludeUsage
	rc.System = text(v.System)
	for _, m := range v.Messages {
		if m.Role == "system" || m.Role == "developer" {
			rc.System = text(m.Content)
			continue
		}
		rc.Messages = append(rc.Messages, Message{Role: m.Role, Content: text(m.Content)})
	}
	return rc
}

// text reads content that is a string or a list of text blocks.
func text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &blocks)
	for _, b := range blocks {
		s += b.Text
	}
	return s
}

// wait sleeps for d unless r's client goes away; it reports whether the
// client is still there.
func (s *Server) wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return r.Context().Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-r.Context().Done():
		return false
	case <-s.quit:
		return false
	case <-t.C:
		return true
	}
}

// writeJSON answers v with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// streamer sends the chunks of a stream, applying a step's cut and stall
// and the reply's interval to the chunks of text (or reasoning).
type streamer struct {
	s     *Server
	w     http.ResponseWriter
	r     *http.Request
	step  Step
	every time.Duration
	n     int // text chunks sent
}

// send writes one chunk (already framed) and flushes it; false means the
// client went away.
func (s *streamer) send(chunk string) bool {
	if s.r.Context().Err() != nil {
		return false
	}
	io.WriteString(s.w, chunk)
	s.w.(http.Flusher).Flush()
	return true
}

// text sends a chunk of text or reasoning, after the interval; false
// means stop (the client went away, or the stream stalled).
func (s *streamer) text(chunk string) bool {
	if s.n > 0 && !s.s.wait(s.r, s.every) {
		return false
	}
	if s.step.CutAfter > 0 && s.n == s.step.CutAfter {
		panic(http.ErrAbortHandler) // the connection drops, no end of stream
	}
	if s.step.StallAfter > 0 && s.n == s.step.StallAfter {
		select {
		case <-s.r.Context().Done():
		case <-s.s.quit:
		}
		return false
	}
	s.n++
	ok := s.send(chunk)
	s.s.mu.Lock()
	s.s.sent = append(s.s.sent, time.Now())
	s.s.mu.Unlock()
	return ok
}
