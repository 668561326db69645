package llm

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
)

// Provider names.
const (
	Auto      = "auto"      // the first one set up (Resolve picks it)
	OpenAI    = "openai"    // OpenAI's chat completions, or any server with that API
	Anthropic = "anthropic" // Anthropic's Messages API
	Ollama    = "ollama"    // Ollama's native chat API
	Command   = "command"   // a command line: the prompt on stdin, the answer on stdout
)

// Defaults used where a Config leaves a value zero.
const (
	DefaultConnectTimeout = 5 * time.Second
	DefaultTimeout        = 60 * time.Second
	DefaultRetries        = 2
	DefaultRetryWait      = 500 * time.Millisecond
	// DefaultMaxTokens is the answer's budget where a provider needs one
	// (Anthropic does) and the Request says none.
	DefaultMaxTokens = 4096

	maxRetryWait = 8 * time.Second // the backoff's cap (Retry-After may ask for more)
)

// Message is one turn of a conversation.
type Message struct {
	// Role is "user", "assistant", or "tool": the answer to a ToolCall,
	// Content being the result and ToolCallID naming the call.
	Role    string
	Content string
	// ToolCalls are, on an "assistant" message, the calls it made: sent
	// back as they came in the Result, before their "tool" answers.
	ToolCalls []ToolCall
	// ToolCallID is, on a "tool" message, the ID of the call answered.
	ToolCallID string
}

// Tool is a function the model may call; hookd answers the call itself
// (a "tool" Message in the next Request).
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage // a JSON Schema object (nil: no parameters)
}

// ToolCall is the model asking for a tool.
type ToolCall struct {
	// ID is the provider's id for the call; Ollama has none and gets
	// "call_0", "call_1", … in the order of the answer.
	ID        string
	Name      string
	Arguments json.RawMessage // a JSON object ("{}" when the model sent none)
	// Invalid says why the model's arguments were refused
	// (InvalidArguments); Arguments is then "{}". The call is still
	// delivered, to be answered with a tool error so the model can retry.
	Invalid string
}

// Schema asks for structured output: the answer (Result.Text) is one JSON
// value matching JSON.
type Schema struct {
	// Name names the schema for the provider (letters, digits, _ and -;
	// "" is "answer"). For Anthropic it is the name of the forced tool.
	Name        string
	Description string
	JSON        json.RawMessage // a JSON Schema object
}

// Features says what a provider can do with a Request.
type Features struct {
	Tools  bool // Request.Tools are offered to the model, and ToolCalls come back
	Schema bool // Request.Schema is enforced by the server (not merely asked for)
}

// Request is one question for a model.
type Request struct {
	// Model overrides the provider's model ("" is the provider's).
	Model string
	// System is the system prompt ("" for none).
	System string
	// Messages are the conversation so far, ending with the question.
	Messages []Message
	// MaxTokens bounds the answer (0: the provider's default; Anthropic
	// needs one and gets DefaultMaxTokens).
	MaxTokens int
	// NumCtx is, for Ollama, the context window to ask for. 0 fits the
	// prompt: Ollama's default window silently drops the start of long
	// prompts, so a prompt estimated to need more than 2048 tokens asks
	// for the next power of two (4096 at least, 131072 at most).
	NumCtx int
	// Tools are the functions the model may call (see Features.Tools;
	// provider Command ignores them).
	Tools []Tool
	// Schema, if not nil, asks for structured output: the answer is one
	// JSON value matching it (see Features.Schema; provider Command only
	// asks for it in the prompt).
	Schema *Schema
}

// EventKind says what an Event carries.
type EventKind int

// The kinds of event.
const (
	// Text is part of the answer.
	Text EventKind = iota
	// Reasoning is part of the model's reasoning or thinking: not the
	// answer, to be shown dimmed or hidden.
	Reasoning
	// ToolCallEvent is a complete tool call (Event.Call), delivered once,
	// when all of it has arrived.
	ToolCallEvent
)

// String names the kind: text, reasoning or tool call.
func (k EventKind) String() string {
	switch k {
	case Text:
		return "text"
	case Reasoning:
		return "reasoning"
	case ToolCallEvent:
		return "tool call"
	}
	return "unknown"
}

// Event is a piece of a streamed answer, delivered as it arrives.
type Event struct {
	Kind EventKind
	Text string    // for Text and Reasoning
	Call *ToolCall // for ToolCallEvent
}

// Usage counts the tokens of a request, as the server reported them (zero
// where it did not).
type Usage struct {
	InputTokens, OutputTokens int
}

// Result is a whole answer: what the events carried, put together.
type Result struct {
	Text       string
	Reasoning  string
	Usage      Usage
	Model      string // the model that answered, as the server named it
	StopReason string // why it stopped, in the provider's words ("stop", "end_turn", "length", "tool_calls", "tool_use", …)
	// ToolCalls are the complete tool calls of the answer, in order.
	ToolCalls []ToolCall
}

// Provider is a model behind an API or a command.
type Provider interface {
	// Name is the provider's name: OpenAI, Anthropic, Ollama or Command.
	Name() string
	// Model is the model asked when a Request names none.
	Model() string
	// Endpoint is where a request goes: the URL, or the command line.
	Endpoint() string
	// Stream asks req and calls on with each piece of the answer as it
	// arrives; an error from on stops the stream and is returned. The
	// Result holds what arrived, also when the error is not nil (a
	// cancelled stream returns the text so far). Errors are *Error.
	Stream(ctx context.Context, req Request, on func(Event) error) (Result, error)
	// Models lists the models the server offers (nil for a command).
	Models(ctx context.Context) ([]string, error)
	// Supports says what the provider does with Request.Tools and
	// Request.Schema.
	Supports() Features
}

// Config says which provider to use and how to reach it.
type Config struct {
	// Provider is Auto, OpenAI, Anthropic, Ollama or Command ("" is Auto).
	Provider string
	// Model is the model's name ("" is the provider's default).
	Model string
	// BaseURL is the server's address ("" is the provider's usual one).
	// For OpenAI it includes the version ("http://localhost:8080/v1"; a
	// bare host gets /v1); for Anthropic and Ollama it does not.
	BaseURL string
	// APIKey is the key itself, read from the environment by Resolve.
	APIKey string
	// APIKeyEnv names the variable the key is read from ("" is the
	// provider's usual one), named by errors about the key.
	APIKeyEnv string
	// Command is the command line of provider Command, run with sh -c.
	Command string
	// ConnectTimeout bounds connecting to the server (0: 5s).
	ConnectTimeout time.Duration
	// Timeout bounds a whole request, answer included (0: 60s).
	Timeout time.Duration
	// Retries is how many times a request answered 429 or 5xx is tried
	// again, before any of the answer has arrived (0: 2; negative: none).
	Retries int
	// RetryWait is the first wait between tries, doubled each time,
	// jittered and capped at 8s; a Retry-After header overrides it (0:
	// 500ms).
	RetryWait time.Duration
}

func (c Config) connectTimeout() time.Duration {
	return orDefault(c.ConnectTimeout, DefaultConnectTimeout)
}
func (c Config) timeout() time.Duration   { return orDefault(c.Timeout, DefaultTimeout) }
func (c Config) retryWait() time.Duration { return orDefault(c.RetryWait, DefaultRetryWait) }

func (c Config) retries() int {
	switch {
	case c.Retries < 0:
		return 0
	case c.Retries == 0:
		return DefaultRetries
	}
	return c.Retries
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// New returns the provider cfg names (Resolve it first: Auto is refused).
// hc sends its requests; nil is a client whose dialer honours
// cfg.ConnectTimeout.
func New(cfg Config, hc *http.Client) (Provider, error) {
	if hc == nil {
		hc = NewHTTPClient(cfg.connectTimeout())
	}
	c := *hc
	c.CheckRedirect = sameHost(hc.CheckRedirect)
	hc = &c
	switch cfg.Provider {
	case OpenAI:
		return newOpenAI(cfg, hc)
	case Anthropic:
		return newAnthropic(cfg, hc)
	case Ollama:
		return newOllama(cfg, hc)
	case Command:
		return newCommand(cfg)
	case Auto, "":
		return nil, &Error{Kind: NotConfigured, Msg: "provider auto must be resolved first", Hint: "call Resolve"}
	}
	return nil, &Error{Kind: NotConfigured, Msg: "unknown provider " + quote(cfg.Provider),
		Hint: "use one of auto, openai, anthropic, ollama, command"}
}
