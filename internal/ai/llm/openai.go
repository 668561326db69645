package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

const (
	openAIBaseURL      = "https://api.openai.com/v1"
	openAIDefaultModel = "gpt-4o-mini"
)

// openAI speaks OpenAI's chat completions, as OpenAI, OpenRouter, vLLM,
// llama.cpp's server and LM Studio do.
type openAI struct {
	api
	model string
}

func newOpenAI(cfg Config, hc *http.Client) (*openAI, error) {
	base, err := baseURL(cfg.BaseURL, openAIBaseURL)
	if err != nil {
		return nil, err
	}
	if u, _ := url.Parse(base); u.Path == "" {
		base += "/v1"
	}
	p := &openAI{model: cmpOr(cfg.Model, openAIDefaultModel)}
	p.api = api{name: OpenAI, cfg: cfg, hc: hc, base: base, models: p.Models,
		header: func(h http.Header) {
			if cfg.APIKey != "" {
				h.Set("Authorization", "Bearer "+cfg.APIKey)
			}
		}}
	return p, nil
}

func (p *openAI) Name() string     { return OpenAI }
func (p *openAI) Model() string    { return p.model }
func (p *openAI) Endpoint() string { return p.base + "/chat/completions" }

type openAIMessage struct {
	Role       string           `json:"role"`
	Content    any              `json:"content"` // a string, or null for an assistant's tool calls alone
	ToolCalls  []openAIToolCall `json:"tool_calls,omitempty"`
	ToolCallID string           `json:"tool_call_id,omitempty"`
}

type openAIToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"` // "function"
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"` // JSON text
	} `json:"function"`
}

type openAIRequest struct {
	Model         string          `json:"model"`
	Messages      []openAIMessage `json:"messages"`
	Stream        bool            `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options,omitempty"`
	MaxTokens           int                   `json:"max_tokens,omitempty"`
	MaxCompletionTokens int                   `json:"max_completion_tokens,omitempty"`
	Tools               []openAITool          `json:"tools,omitempty"`
	ResponseFormat      *openAIResponseFormat `json:"response_format,omitempty"`
}

// openAIResponseFormat asks for structured output.
type openAIResponseFormat struct {
	Type       string `json:"type"` // "json_schema"
	JSONSchema struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Schema      json.RawMessage `json:"schema"`
		Strict      bool            `json:"strict"`
	} `json:"json_schema"`
}

func (p *openAI) body(req Request) ([]byte, error) {
	r := openAIRequest{Model: cmpOr(req.Model, p.model), Stream: true}
	r.StreamOptions = &struct {
		IncludeUsage bool `json:"include_usage"`
	}{true}
	if req.System != "" {
		r.Messages = append(r.Messages, openAIMessage{Role: "system", Content: req.System})
	}
	for _, m := range req.Messages {
		om := openAIMessage{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID}
		for _, c := range m.ToolCalls {
			var tc openAIToolCall
			tc.ID, tc.Type = c.ID, "function"
			tc.Function.Name, tc.Function.Arguments = c.Name, string(argumentsObject(c.Arguments))
			om.ToolCalls = append(om.ToolCalls, tc)
		}
		if len(om.ToolCalls) > 0 && m.Content == "" {
			om.Content = nil
		}
		r.Messages = append(r.Messages, om)
	}
	// OpenAI's own API wants max_completion_tokens (its reasoning models
	// refuse max_tokens); the other servers know max_tokens.
	if u, err := url.Parse(p.base); err == nil && u.Hostname() == "api.openai.com" {
		r.MaxCompletionTokens = req.MaxTokens
	} else {
		r.MaxTokens = req.MaxTokens
	}
	r.Tools = openAITools(req.Tools)
	if sc := req.Schema; sc != nil {
		f := &openAIResponseFormat{Type: "json_schema"}
		f.JSONSchema.Name, f.JSONSchema.Description, f.JSONSchema.Schema, f.JSONSchema.Strict = sc.name(), sc.Description, sc.schemaJSON(), true
		r.ResponseFormat = f
	}
	return json.Marshal(r)
}

// Supports: chat completions have tools and json_schema response formats
// (a server that has not is expected to answer 400).
func (p *openAI) Supports() Features { return Features{Tools: true, Schema: true} }

// openAIChunk is a chunk of a streamed answer, or (Message instead of
// Delta) a whole one.
type openAIChunk struct {
	Model   string `json:"model"`
	Choices []struct {
		Delta        openAIDelta  `json:"delta"`
		Message      *openAIDelta `json:"message"`
		FinishReason *string      `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Error json.RawMessage `json:"error"`
}

type openAIDelta struct {
	Content          string `json:"content"`
	ReasoningContent string `json:"reasoning_content"` // DeepSeek, vLLM, llama.cpp
	Reasoning        string `json:"reasoning"`         // OpenRouter, Ollama, LM Studio
	ToolCalls        []struct {
		Index    *int   `json:"index"` // in a whole message, none: the position
		ID       string `json:"id"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"` // a string of JSON (a fragment of it in a delta)
		} `json:"function"`
	} `json:"tool_calls"`
}

// openAICalls gathers the tool calls of a stream: deltas carry an index,
// the first one the id and name, all of them fragments of the arguments.
type openAICalls struct {
	byIndex map[int]*openAIPending
	order   []int // the indexes not yet delivered, in order of arrival
	n       int   // calls delivered
}

type openAIPending struct {
	id, name string
	args     []byte
}

func (p *openAI) Stream(ctx context.Context, req Request, on func(Event) error) (Result, error) {
	ctx, cancel := p.withTimeout(ctx)
	defer cancel()
	body, err := p.body(req)
	if err != nil {
		return Result{}, errorf(Other, err, "openai: encode request: %v", err)
	}
	resp, err := p.send(ctx, http.MethodPost, p.Endpoint(), body)
	if err != nil {
		return Result{}, err
	}
	defer resp.Body.Close()
	res := newResult(ctx, p.name, p.cfg.timeout())
	calls := &openAICalls{byIndex: map[int]*openAIPending{}}
	if ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); ct == "application/json" {
		// A server that does not stream sends the whole answer.
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			return res.out(), p.readError(ctx, err)
		}
		var c openAIChunk
		if err := json.Unmarshal(data, &c); err != nil {
			return res.out(), p.malformed("answer", err)
		}
		if err := p.chunk(res, calls, c, on); err != nil {
			return res.out(), err
		}
		return res.out(), p.flushCalls(res, calls, -1, on)
	}
	sr := newSSEReader(resp.Body)
	finished := false
	for {
		ev, err := sr.Next()
		if err == io.EOF && finished {
			return res.out(), p.flushCalls(res, calls, -1, on)
		}
		if err != nil {
			return res.out(), p.readError(ctx, err)
		}
		if ev.Data == "[DONE]" {
			return res.out(), p.flushCalls(res, calls, -1, on)
		}
		var c openAIChunk
		if err := json.Unmarshal([]byte(ev.Data), &c); err != nil {
			return res.out(), p.malformed("stream chunk", err)
		}
		if err := p.chunk(res, calls, c, on); err != nil {
			return res.out(), err
		}
		if res.StopReason != "" {
			finished = true
		}
	}
}

// chunk adds a chunk to res, calling on for what it brings.
func (p *openAI) chunk(res *result, calls *openAICalls, c openAIChunk, on func(Event) error) error {
	if len(c.Error) > 0 && string(c.Error) != "null" {
		return &Error{Kind: Server, Msg: "openai: error in the stream: " + serverMessage([]byte(`{"error":`+string(c.Error)+`}`)),
			Hint: "ask again"}
	}
	if c.Model != "" {
		res.Model = c.Model
	}
	if c.Usage != nil {
		res.Usage = Usage{InputTokens: c.Usage.PromptTokens, OutputTokens: c.Usage.CompletionTokens}
	}
	for _, ch := range c.Choices { // none in the usage chunk
		d := ch.Delta
		if ch.Message != nil {
			d = *ch.Message
		}
		if err := res.add(Reasoning, d.ReasoningContent+d.Reasoning, on); err != nil {
			return err
		}
		if err := res.add(Text, d.Content, on); err != nil {
			return err
		}
		for i, tc := range d.ToolCalls {
			index := i
			if tc.Index != nil {
				index = *tc.Index
			}
			// The calls come one after the other: one with a lower
			// index is complete.
			if err := p.flushCalls(res, calls, index, on); err != nil {
				return err
			}
			pc := calls.byIndex[index]
			if pc == nil {
				pc = &openAIPending{}
				calls.byIndex[index] = pc
				calls.order = append(calls.order, index)
			}
			if tc.ID != "" {
				pc.id = tc.ID
			}
			if tc.Function.Name != "" {
				pc.name = tc.Function.Name
			}
			pc.args = append(pc.args, openAIArguments(tc.Function.Arguments)...)
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			res.StopReason = *ch.FinishReason
			if err := p.flushCalls(res, calls, -1, on); err != nil {
				return err
			}
		}
	}
	return nil
}

// openAIArguments reads arguments as sent: a string of JSON text (or, from
// a lax server, the object itself).
func openAIArguments(raw json.RawMessage) []byte {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []byte(s)
	}
	if t := bytes.TrimSpace(raw); string(t) != "null" {
		return t // checked by toolArguments
	}
	return nil
}

// flushCalls delivers the pending calls whose index is below before (all
// of them if before < 0), checking their arguments.
func (p *openAI) flushCalls(res *result, calls *openAICalls, before int, on func(Event) error) error {
	for len(calls.order) > 0 {
		index := calls.order[0]
		if before >= 0 && index >= before {
			return nil
		}
		pc := calls.byIndex[index]
		calls.order = calls.order[1:]
		delete(calls.byIndex, index)
		args, invalid := toolArguments(pc.args)
		id := cmpOr(pc.id, "call_"+strconv.Itoa(calls.n))
		calls.n++
		if err := res.addCall(ToolCall{ID: id, Name: pc.name, Arguments: args, Invalid: invalid}, on); err != nil {
			return err
		}
	}
	return nil
}

func (p *openAI) Models(ctx context.Context) ([]string, error) {
	return p.listModels(ctx, p.base+"/models")
}

// result gathers a Result from the events, delivering them until the
// context is done.
type result struct {
	Result
	text, reasoning strings.Builder
	ctx             context.Context
	name            string
	timeout         time.Duration
}

func newResult(ctx context.Context, name string, timeout time.Duration) *result {
	return &result{ctx: ctx, name: name, timeout: timeout}
}

// out returns the Result so far.
func (r *result) out() Result {
	res := r.Result
	res.Text, res.Reasoning = r.text.String(), r.reasoning.String()
	return res
}

func (r *result) add(kind EventKind, s string, on func(Event) error) error {
	if s == "" {
		return nil
	}
	if r.ctx.Err() != nil { // cancelled by the callback: deliver no more
		return ctxError(r.ctx, r.name, r.timeout)
	}
	switch kind {
	case Text:
		r.text.WriteString(s)
	case Reasoning:
		r.reasoning.WriteString(s)
	}
	if on == nil {
		return nil
	}
	return on(Event{Kind: kind, Text: s})
}

// baseURL checks a base URL, "" being def; the result has no trailing
// slash.
func baseURL(s, def string) (string, error) {
	if s == "" {
		s = def
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", &Error{Kind: NotConfigured, Msg: "invalid base URL " + quote(s),
			Hint: "give an http:// or https:// URL in llm.base_url or HOOKD_LLM_BASE_URL"}
	}
	return strings.TrimRight(s, "/"), nil
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
