package llm

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
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
	Model     string          `json:"model"`
	MaxTokens int             `json:"max_tokens"`
	System    string          `json:"system,omitempty"`
	Messages  []openAIMessage `json:"messages"` // the same shape: role, content
	Stream    bool            `json:"stream"`
}

func (p *anthropic) body(req Request) ([]byte, error) {
	r := anthropicRequest{Model: cmpOr(req.Model, p.model), MaxTokens: req.MaxTokens, System: req.System, Stream: true}
	if r.MaxTokens <= 0 {
		r.MaxTokens = DefaultMaxTokens
	}
	r.Messages = []openAIMessage{}
	for _, m := range req.Messages {
		r.Messages = append(r.Messages, openAIMessage(m))
	}
	return json.Marshal(r)
}

// anthropicEvent is any event of the stream; the fields used depend on
// its type.
type anthropicEvent struct {
	Type    string `json:"type"`
	Message struct {
		Model string         `json:"model"`
		Usage anthropicUsage `json:"usage"`
	} `json:"message"`
	Delta struct {
		Type       string `json:"type"`
		Text       string `json:"text"`
		Thinking   string `json:"thinking"`
		StopReason string `json:"stop_reason"`
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
		case "content_block_delta":
			var err error
			switch e.Delta.Type {
			case "text_delta":
				err = res.add(Text, e.Delta.Text, on)
			case "thinking_delta":
				err = res.add(Reasoning, e.Delta.Thinking, on)
			} // signature_delta, input_json_delta: not shown
			if err != nil {
				return res.out(), err
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
