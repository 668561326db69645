// Package llmtest provides fake LLM servers speaking the real wire formats
// (OpenAI chat completions, Anthropic Messages, Ollama's chat API),
// streaming included, for tests: each records what it received (tools,
// tool calls and results, structured-output requests included) and can be
// scripted to answer with text and tool calls, turn by turn, or to fail (a
// status, Retry-After, a delay, a malformed or cut stream, a stream that
// stalls, or holds until the test releases it).
package llmtest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Message is a message as a fake received it.
type Message struct {
	Role    string
	Content string // the text (of the text blocks, for Anthropic's lists of blocks)
	// ToolCalls are an assistant's calls sent back: OpenAI's and Ollama's
	// tool_calls, Anthropic's tool_use blocks. Arguments is the JSON
	// text as sent (OpenAI's string; Ollama's and Anthropic's object).
	ToolCalls []Call
	// ToolCallID is OpenAI's tool_call_id (role "tool"), ToolName
	// Ollama's tool_name (role "tool").
	ToolCallID, ToolName string
	// Results are the tool_result blocks of an Anthropic user message.
	Results []Result
}

// Call is a tool call: one a Reply makes, or one sent back in a request.
type Call struct {
	ID   string // "" in a Reply: the fake makes one up (none for Ollama)
	Name string
	// Arguments is the JSON text of the arguments. A fake streams it in
	// fragments (OpenAI, Anthropic) or as an object (Ollama; as a string
	// if it is not valid JSON), so that it may be malformed on purpose.
	Arguments string
}

// Result is an Anthropic tool_result block.
type Result struct {
	ToolUseID string
	Content   string
}

// Tool is a tool offered in a request, whatever the vendor's shape.
type Tool struct {
	Name, Description string
	Parameters        json.RawMessage // parameters, or Anthropic's input_schema
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
	Tools    []Tool
	// ToolChoice (OpenAI's, Anthropic's), ResponseFormat (OpenAI's) and
	// Format (Ollama's) are as sent, nil if absent.
	ToolChoice, ResponseFormat, Format json.RawMessage
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
	// Calls are tool calls the answer makes, after the text (the stop
	// reason is then the vendor's for tool calls). An Anthropic fake
	// asked for a tool by tool_choice calls it, with the text as its
	// input, when the Reply has no Calls.
	Calls []Call
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
	// HoldAfter, if > 0, holds the stream after that many chunks of text
	// (reasoning included) until Release is closed, then goes on: a test
	// acts while the answer is known to be unfinished, whatever the
	// machine's speed, rather than racing an Interval.
	HoldAfter int
	Release   <-chan struct{}
	// Malformed sends a chunk that is not JSON after the first one.
	Malformed bool
	// StreamError sends the vendor's mid-stream error after the first
	// chunk (Anthropic's error event, an error object for the others).
	StreamError string
	// Reply, if not nil, is the answer to this request instead of the
	// one SetReply set: a conversation is scripted turn by turn.
	Reply *Reply
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
	reply := s.reply
	if st.Reply != nil {
		reply = *st.Reply
	}
	return st, reply, slices.Clone(s.models), s.key
}

func decode(r *http.Request, body []byte) Received {
	rc := Received{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	var v struct {
		Model    string          `json:"model"`
		System   json.RawMessage `json:"system"`
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCalls  []wireCall      `json:"tool_calls"`
			ToolCallID string          `json:"tool_call_id"`
			ToolName   string          `json:"tool_name"`
		} `json:"messages"`
		Tools []struct {
			Function *struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
		ToolChoice     json.RawMessage `json:"tool_choice"`
		ResponseFormat json.RawMessage `json:"response_format"`
		Format         json.RawMessage `json:"format"`
		Stream         bool            `json:"stream"`
		StreamOptions  struct {
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
		msg := Message{Role: m.Role, Content: text(m.Content), ToolCallID: m.ToolCallID, ToolName: m.ToolName}
		for _, c := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, Call{ID: c.ID, Name: c.Function.Name, Arguments: argText(c.Function.Arguments)})
		}
		var blocks []struct {
			Type      string          `json:"type"`
			ID        string          `json:"id"`
			Name      string          `json:"name"`
			Input     json.RawMessage `json:"input"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
		}
		json.Unmarshal(m.Content, &blocks)
		for _, b := range blocks {
			switch b.Type {
			case "tool_use":
				msg.ToolCalls = append(msg.ToolCalls, Call{ID: b.ID, Name: b.Name, Arguments: string(b.Input)})
			case "tool_result":
				msg.Results = append(msg.Results, Result{ToolUseID: b.ToolUseID, Content: text(b.Content)})
			}
		}
		rc.Messages = append(rc.Messages, msg)
	}
	for _, t := range v.Tools {
		if f := t.Function; f != nil {
			rc.Tools = append(rc.Tools, Tool{Name: f.Name, Description: f.Description, Parameters: f.Parameters})
		} else {
			rc.Tools = append(rc.Tools, Tool{Name: t.Name, Description: t.Description, Parameters: t.InputSchema})
		}
	}
	rc.ToolChoice, rc.ResponseFormat, rc.Format = v.ToolChoice, v.ResponseFormat, v.Format
	return rc
}

// wireCall is a tool call in OpenAI's or Ollama's shape.
type wireCall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// argText is the JSON text of arguments sent as a string (OpenAI) or as
// an object (Ollama).
func argText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// fragments splits s into up to n pieces, at rune boundaries, as a model
// streams arguments.
func fragments(s string, n int) []string {
	rs := []rune(s)
	if len(rs) < n {
		n = max(len(rs), 1)
	}
	var out []string
	for i := range n {
		out = append(out, string(rs[i*len(rs)/n:(i+1)*len(rs)/n]))
	}
	return out
}

// callID is the ID of a Reply's call i: its own, or prefix and i.
func callID(c Call, prefix string, i int) string {
	if c.ID != "" {
		return c.ID
	}
	return prefix + "llmtest_" + strconv.Itoa(i)
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
	if s.step.HoldAfter > 0 && s.n == s.step.HoldAfter && s.step.Release != nil {
		select {
		case <-s.step.Release:
		case <-s.r.Context().Done():
			return false
		case <-s.s.quit:
			return false
		}
	}
	if s.step.StallAfter > 0 && s.n == s.step.StallAfter {
		select {
		case <-s.r.Context().Done():
		case <-s.s.quit:
		}
		return false
	}
	s.n++
	// Noted before it is written: a client that has read the chunk finds
	// it in Sent.
	s.s.mu.Lock()
	s.s.sent = append(s.s.sent, time.Now())
	s.s.mu.Unlock()
	return s.send(chunk)
}
