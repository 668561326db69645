package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
)

const (
	anthropicBaseURL      = "https://api.anthropic.com"
	anthropicVersion      = "2023-06-01"
	anthropicDefaultModel = "claude-sonnet-4-5"
)

// anthropic speaks Anthropic's Messages API.
type anthropic struct {
	api
	model string
}

func newAnthropic(cfg Config, hc *http.Client) (*anthropic, error) {
	base, err := baseURL(cfg.BaseURL, anthropicBaseURL)
	if err != nil {
		return nil, err
	}
	p := &anthropic{model: cmpOr(cfg.Model, anthropicDefaultModel)}
	p.api = api{name: Anthropic, cfg: cfg, hc: hc, base: base, models: p.Models,
		header: func(h http.Header) {
			if cfg.APIKey != "" {
				h.Set("X-Api-Key", cfg.APIKey)
			}
			h.Set("Anthropic-Version", anthropicVersion)
		}}
	return p, nil
}

func (p *anthropic) Name() string     { return Anthropic }
func (p *anthropic) Model() string    { return p.model }
func (p *anthropic) Endpoint() string { return p.base + "/v1/messages" }

type anthropicRequest struct {
	Model      string               `json:"model"`
	MaxTokens  int                  `json:"max_tokens"`
	System     string               `json:"system,omitempty"`
	Messages   []anthropicMessage   `json:"messages"`
	Stream     bool                 `json:"stream"`
	Tools      []anthropicTool      `json:"tools,omitempty"`
	ToolChoice *anthropicToolChoice `json:"tool_choice,omitempty"`
}

type anthropicMessage struct {
	Role    string `json:"role"`
	Content any    `json:"content"` // a string, or []anthropicBlock
}

// anthropicBlock is a content block of a request: text, tool_use (an
// assistant's call) or tool_result (its answer, in a user message).
type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   string          `json:"content,omitempty"`
}

type anthropicTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type anthropicToolChoice struct {
	Type string `json:"type"` // "tool": that one, now
	Name string `json:"name"`
}

func (p *anthropic) body(req Request) ([]byte, error) {
	r := anthropicRequest{Model: cmpOr(req.Model, p.model), MaxTokens: req.MaxTokens, System: req.System, Stream: true}
	if r.MaxTokens <= 0 {
		r.MaxTokens = DefaultMaxTokens
	}
	r.Messages = []anthropicMessage{}
	// results is the blocks of the last message if it is a user message
	// of tool results: consecutive results, and a user's text after
	// them, go in that one message.
	var results []anthropicBlock
	for _, m := range req.Messages {
		switch {
		case m.Role == "tool":
			if results == nil { // the first result: a new user message
				r.Messages = append(r.Messages, anthropicMessage{Role: "user"})
			}
			results = append(results, anthropicBlock{Type: "tool_result", ToolUseID: m.ToolCallID, Content: m.Content})
		case m.Role == "user" && results != nil:
			if m.Content != "" {
				results = append(results, anthropicBlock{Type: "text", Text: m.Content})
			}
		case m.Role == "assistant" && len(m.ToolCalls) > 0:
			var blocks []anthropicBlock
			if m.Content != "" {
				blocks = append(blocks, anthropicBlock{Type: "text", Text: m.Content})
			}
			for _, c := range m.ToolCalls {
				blocks = append(blocks, anthropicBlock{Type: "tool_use", ID: c.ID, Name: c.Name, Input: argumentsObject(c.Arguments)})
			}
			r.Messages = append(r.Messages, anthropicMessage{Role: m.Role, Content: blocks})
			results = nil
			continue
		default:
			r.Messages = append(r.Messages, anthropicMessage{Role: m.Role, Content: m.Content})
			results = nil
			continue
		}
		r.Messages[len(r.Messages)-1].Content = results
	}
	for _, t := range req.Tools {
		r.Tools = append(r.Tools, anthropicTool{Name: t.Name, Description: t.Description, InputSchema: objectSchema(t.Parameters)})
	}
	if sc := req.Schema; sc != nil {
		// Structured output is a tool the model must call: its input is
		// the answer.
		r.Tools = append(r.Tools, anthropicTool{Name: sc.name(),
			Description: cmpOr(sc.Description, "Give the answer: a JSON object matching the input schema."),
			InputSchema: sc.schemaJSON()})
		r.ToolChoice = &anthropicToolChoice{Type: "tool", Name: sc.name()}
	}
	return json.Marshal(r)
}

// Supports: the Messages API has tools; structured output is a forced
// tool whose input is the answer.
func (p *anthropic) Supports() Features { return Features{Tools: true, Schema: true} }

// anthropicEvent is any event of the stream; the fields used depend on
// its type.
type anthropicEvent struct {
	Type         string `json:"type"`
	Index        int    `json:"index"`
	ContentBlock struct {
		Type  string          `json:"type"`
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"content_block"`
	Message struct {
		Model string         `json:"model"`
		Usage anthropicUsage `json:"usage"`
	} `json:"message"`
	Delta struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Thinking    string `json:"thinking"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Usage *anthropicUsage `json:"usage"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

type anthropicUsage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

func (p *anthropic) Stream(ctx context.Context, req Request, on func(Event) error) (Result, error) {
	ctx, cancel := p.withTimeout(ctx)
	defer cancel()
	body, err := p.body(req)
	if err != nil {
		return Result{}, errorf(Other, err, "anthropic: encode request: %v", err)
	}
	resp, err := p.send(ctx, http.MethodPost, p.Endpoint(), body)
	if err != nil {
		return Result{}, err
	}
	defer resp.Body.Close()
	res := newResult(ctx, p.name, p.cfg.timeout())
	sr := newSSEReader(resp.Body)
	uses := map[int]*anthropicToolUse{} // the tool_use blocks being streamed, by index
	for {
		ev, err := sr.Next()
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF // no message_stop
			}
			return res.out(), p.readError(ctx, err)
		}
		var e anthropicEvent
		if err := json.Unmarshal([]byte(ev.Data), &e); err != nil {
			return res.out(), p.malformed("stream event", err)
		}
		switch e.Type {
		case "message_start":
			res.Model = e.Message.Model
			res.Usage = Usage{InputTokens: e.Message.Usage.InputTokens, OutputTokens: e.Message.Usage.OutputTokens}
		case "content_block_start":
			if b := e.ContentBlock; b.Type == "tool_use" {
				u := &anthropicToolUse{id: b.ID, name: b.Name, input: b.Input}
				u.answer = req.Schema != nil && b.Name == req.Schema.name()
				uses[e.Index] = u
			}
		case "content_block_delta":
			var err error
			switch e.Delta.Type {
			case "text_delta":
				err = res.add(Text, e.Delta.Text, on)
			case "thinking_delta":
				err = res.add(Reasoning, e.Delta.Thinking, on)
			case "input_json_delta":
				if u := uses[e.Index]; u != nil {
					u.json = append(u.json, e.Delta.PartialJSON...)
					if u.answer { // structured output: the answer's text
						err = res.add(Text, e.Delta.PartialJSON, on)
					}
				}
			} // signature_delta: not shown
			if err != nil {
				return res.out(), err
			}
		case "content_block_stop":
			if u := uses[e.Index]; u != nil {
				delete(uses, e.Index)
				if err := p.toolUse(res, u, on); err != nil {
					return res.out(), err
				}
			}
		case "message_delta":
			if e.Delta.StopReason != "" {
				res.StopReason = e.Delta.StopReason
			}
			if e.Usage != nil {
				res.Usage.OutputTokens = e.Usage.OutputTokens
				if e.Usage.InputTokens > 0 {
					res.Usage.InputTokens = e.Usage.InputTokens
				}
			}
		case "message_stop":
			return res.out(), nil
		case "error":
			return res.out(), p.streamError(e)
		} // ping, content_block_start, content_block_stop and new types: nothing to do
	}
}

// anthropicToolUse is a tool_use block being streamed.
type anthropicToolUse struct {
	id, name string
	input    json.RawMessage // the block's input at its start ({})
	json     []byte          // the input_json_delta fragments so far
	answer   bool            // the forced tool of a Schema: its input is the answer
}

// toolUse ends a tool_use block: a call, or the answer to a Schema.
func (p *anthropic) toolUse(res *result, u *anthropicToolUse, on func(Event) error) error {
	raw := u.json
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = u.input
	}
	args, invalid := toolArguments(raw)
	if u.answer {
		if invalid != "" {
			return &Error{Kind: Stream, Msg: p.name + ": the structured answer was not a JSON object", Hint: "ask again"}
		}
		if len(bytes.TrimSpace(u.json)) == 0 { // no deltas: the answer is the input as it started
			return res.add(Text, string(args), on)
		}
		return nil
	}
	return res.addCall(ToolCall{ID: cmpOr(u.id, "call_"+strconv.Itoa(len(res.ToolCalls))), Name: u.name, Arguments: args, Invalid: invalid}, on)
}

// streamError describes an error event in the middle of the stream.
func (p *anthropic) streamError(e anthropicEvent) error {
	typ, msg := "error", "unknown error"
	if e.Error != nil {
		typ, msg = e.Error.Type, e.Error.Message
	}
	err := &Error{Kind: Server, Msg: "anthropic: error in the stream: " + typ + ": " + msg, Hint: "ask again"}
	switch typ {
	case "overloaded_error":
		err.Hint = "Anthropic is overloaded: ask again in a moment"
	case "rate_limit_error":
		err.Kind = RateLimit
		err.Hint = "wait a moment and ask again"
	case "invalid_request_error":
		err.Kind, err.Hint = Other, ""
	}
	return err
}

func (p *anthropic) Models(ctx context.Context) ([]string, error) {
	return p.listModels(ctx, p.base+"/v1/models?limit=100")
}
