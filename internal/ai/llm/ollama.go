package llm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
)

const (
	ollamaBaseURL      = "http://localhost:11434"
	ollamaDefaultModel = "llama3.2"
)

// ollama speaks Ollama's native chat API, which (unlike its OpenAI
// endpoint) lets a request set the context window.
type ollama struct {
	api
	model string
}

func newOllama(cfg Config, hc *http.Client) (*ollama, error) {
	base, err := baseURL(cfg.BaseURL, ollamaBaseURL)
	if err != nil {
		return nil, err
	}
	p := &ollama{model: cmpOr(cfg.Model, ollamaDefaultModel)}
	p.api = api{name: Ollama, cfg: cfg, hc: hc, base: base, models: p.Models,
		header: func(h http.Header) {
			if cfg.APIKey != "" { // Ollama behind a proxy, or ollama.com
				h.Set("Authorization", "Bearer "+cfg.APIKey)
			}
		}}
	return p, nil
}

func (p *ollama) Name() string     { return Ollama }
func (p *ollama) Model() string    { return p.model }
func (p *ollama) Endpoint() string { return p.base + "/api/chat" }

type ollamaRequest struct {
	Model    string          `json:"model"`
	Messages []ollamaMessage `json:"messages"`
	Stream   bool            `json:"stream"`
	Options  *ollamaOptions  `json:"options,omitempty"`
	Tools    []openAITool    `json:"tools,omitempty"`
	Format   json.RawMessage `json:"format,omitempty"` // a JSON schema: structured output
}

type ollamaMessage struct {
	Role      string           `json:"role"`
	Content   string           `json:"content"`
	ToolCalls []ollamaToolCall `json:"tool_calls,omitempty"`
	ToolName  string           `json:"tool_name,omitempty"` // on a "tool" message: the tool that answers
}

type ollamaToolCall struct {
	ID       string `json:"id,omitempty"` // newer servers send one
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"` // an object, not a string
	} `json:"function"`
}

type ollamaOptions struct {
	NumCtx     int `json:"num_ctx,omitempty"`
	NumPredict int `json:"num_predict,omitempty"`
}

func (p *ollama) body(req Request) ([]byte, error) {
	r := ollamaRequest{Model: cmpOr(req.Model, p.model), Messages: []ollamaMessage{}, Stream: true}
	if req.System != "" {
		r.Messages = append(r.Messages, ollamaMessage{Role: "system", Content: req.System})
	}
	for i, m := range req.Messages {
		om := ollamaMessage{Role: m.Role, Content: m.Content}
		for _, c := range m.ToolCalls {
			var tc ollamaToolCall
			tc.Function.Name, tc.Function.Arguments = c.Name, argumentsObject(c.Arguments)
			om.ToolCalls = append(om.ToolCalls, tc)
		}
		if m.Role == "tool" {
			om.ToolName = toolName(req.Messages, i, m.ToolCallID)
		}
		r.Messages = append(r.Messages, om)
	}
	r.Tools = openAITools(req.Tools)
	if req.Schema != nil {
		r.Format = req.Schema.schemaJSON()
	}
	o := ollamaOptions{NumCtx: req.NumCtx, NumPredict: req.MaxTokens}
	if o.NumCtx == 0 {
		o.NumCtx = FitNumCtx(req)
	}
	if o != (ollamaOptions{}) {
		r.Options = &o
	}
	return json.Marshal(r)
}

// FitNumCtx returns the context window Ollama is asked for when a Request
// says none: 0 (the server's default) for a prompt estimated to fit in
// 2048 tokens with its answer, else the next power of two, 4096 at least
// and 131072 at most. Powers of two keep the number of distinct windows,
// each of which makes Ollama reload the model, small. The estimate is
// deliberately high: a token for every 3 bytes.
func FitNumCtx(req Request) int {
	n := len(req.System)
	for _, m := range req.Messages {
		n += len(m.Content) + 8
		for _, c := range m.ToolCalls {
			n += len(c.Name) + len(c.Arguments) + 8
		}
	}
	for _, t := range req.Tools {
		n += len(t.Name) + len(t.Description) + len(t.Parameters) + 8
	}
	if req.Schema != nil {
		n += len(req.Schema.JSON)
	}
	answer := req.MaxTokens
	if answer <= 0 {
		answer = 1024
	}
	need := n/3 + answer
	if need <= 2048 {
		return 0
	}
	w := 4096
	for w < need && w < 131072 {
		w *= 2
	}
	return w
}

type ollamaChunk struct {
	Model   string `json:"model"`
	Message struct {
		Content   string           `json:"content"`
		Thinking  string           `json:"thinking"`
		ToolCalls []ollamaToolCall `json:"tool_calls"` // each whole, in one chunk
	} `json:"message"`
	Done            bool   `json:"done"`
	DoneReason      string `json:"done_reason"`
	PromptEvalCount int    `json:"prompt_eval_count"`
	EvalCount       int    `json:"eval_count"`
	Error           string `json:"error"`
}

func (p *ollama) Stream(ctx context.Context, req Request, on func(Event) error) (Result, error) {
	ctx, cancel := p.withTimeout(ctx)
	defer cancel()
	body, err := p.body(req)
	if err != nil {
		return Result{}, errorf(Other, err, "ollama: encode request: %v", err)
	}
	resp, err := p.send(ctx, http.MethodPost, p.Endpoint(), body)
	if err != nil {
		return Result{}, err
	}
	defer resp.Body.Close()
	res := newResult(ctx, p.name, p.cfg.timeout())
	br := bufio.NewReaderSize(resp.Body, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) == 0 || (err != nil && err != io.EOF) {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF // no done object
			}
			return res.out(), p.readError(ctx, err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var c ollamaChunk
		if err := json.Unmarshal(line, &c); err != nil {
			if ctx.Err() != nil {
				return res.out(), ctxError(ctx, p.name, p.cfg.timeout())
			}
			return res.out(), p.malformed("stream line", err)
		}
		if c.Error != "" {
			return res.out(), &Error{Kind: Server, Msg: "ollama: error in the stream: " + c.Error, Hint: "ask again"}
		}
		if c.Model != "" {
			res.Model = c.Model
		}
		if err := res.add(Reasoning, c.Message.Thinking, on); err != nil {
			return res.out(), err
		}
		if err := res.add(Text, c.Message.Content, on); err != nil {
			return res.out(), err
		}
		for _, tc := range c.Message.ToolCalls {
			args, invalid := toolArguments(openAIArguments(tc.Function.Arguments))
			id := cmpOr(tc.ID, "call_"+strconv.Itoa(len(res.ToolCalls)))
			if err := res.addCall(ToolCall{ID: id, Name: tc.Function.Name, Arguments: args, Invalid: invalid}, on); err != nil {
				return res.out(), err
			}
		}
		if c.Done {
			res.StopReason = c.DoneReason
			res.Usage = Usage{InputTokens: c.PromptEvalCount, OutputTokens: c.EvalCount}
			return res.out(), nil
		}
	}
}

// Supports: Ollama's chat API has tools (for the models made for them)
// and takes a JSON schema as format.
func (p *ollama) Supports() Features { return Features{Tools: true, Schema: true} }

func (p *ollama) Models(ctx context.Context) ([]string, error) {
	ctx, cancel := p.withTimeout(ctx)
	defer cancel()
	var v struct {
		Models []struct {
			Name string `json:"name"`
		} `json:"models"`
	}
	if err := p.getJSON(ctx, p.base+"/api/tags", &v); err != nil {
		return nil, err
	}
	var ms []string
	for _, m := range v.Models {
		ms = append(ms, m.Name)
	}
	return ms, nil
}
