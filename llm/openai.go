package llm

import (
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
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
	Role    string `json:"role"`
	Content string `json:"content"`
}

type openAIRequest struct {
	Model         string          `json:"model"`
	Messages      []openAIMessage `json:"messages"`
	Stream        bool            `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options,omitempty"`
	MaxTokens           int `json:"max_tokens,omitempty"`
	MaxCompletionTokens int `json:"max_completion_tokens,omitempty"`
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
		r.Messages = append(r.Messages, openAIMessage(m))
	}
	// OpenAI's own API wants max_completion_tokens (its reasoning models
	// refuse max_tokens); the other servers know max_tokens.
	if u, err := url.Parse(p.base); err == nil && u.Hostname() == "api.openai.com" {
		r.MaxCompletionTokens = req.MaxTokens
	} else {
		r.MaxTokens = req.MaxTokens
	}
	return json.Marshal(r)
}

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
		if err := p.chunk(res, c, on); err != nil {
			return res.out(), err
		}
		return res.out(), nil
	}
	sr := newSSEReader(resp.Body)
	finished := false
	for {
		ev, err := sr.Next()
		if err == io.EOF && finished {
			return res.out(), nil
		}
		if err != nil {
			return res.out(), p.readError(ctx, err)
		}
		if ev.Data == "[DONE]" {
			return res.out(), nil
		}
		var c openAIChunk
		if err := json.Unmarshal([]byte(ev.Data), &c); err != nil {
			return res.out(), p.malformed("stream chunk", err)
		}
		if err := p.chunk(res, c, on); err != nil {
			return res.out(), err
		}
		if res.StopReason != "" {
			finished = true
		}
	}
}

// chunk adds a chunk to res, calling on for what it brings.
func (p *openAI) chunk(res *result, c openAIChunk, on func(Event) error) error {
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
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			res.StopReason = *ch.FinishReason
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
