package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// defaultSchemaName names a Schema that has no Name.
const defaultSchemaName = "answer"

func (s *Schema) name() string { return cmpOr(s.Name, defaultSchemaName) }

// schemaJSON is the schema to send: {"type":"object"} when it has none.
func (s *Schema) schemaJSON() json.RawMessage {
	if len(bytes.TrimSpace(s.JSON)) == 0 {
		return json.RawMessage(`{"type":"object"}`)
	}
	return s.JSON
}

// objectSchema is a tool's parameters as sent: an empty object schema when
// it has none (Anthropic requires input_schema; OpenAI and Ollama take it).
func objectSchema(p json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(p)) == 0 {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return p
}

// toolArguments checks the arguments of a call as they arrived (the
// concatenated fragments): "" is "{}", anything else must be a JSON
// object. The error is a Stream *Error naming the call.
func toolArguments(provider, name string, raw []byte) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return json.RawMessage("{}"), nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		if err == nil {
			err = fmt.Errorf("null")
		}
		shown := string(raw)
		if len(shown) > 80 {
			shown = shown[:80] + "…"
		}
		return nil, &Error{Kind: Stream, Err: err,
			Msg:  fmt.Sprintf("%s: malformed arguments of tool call %s (not a JSON object: %v): %s", provider, quote(name), err, shown),
			Hint: "ask again; a smaller model may not manage tool calls"}
	}
	return append(json.RawMessage(nil), raw...), nil
}

// addCall adds a complete call to r and delivers it.
func (r *result) addCall(c ToolCall, on func(Event) error) error {
	if r.ctx.Err() != nil {
		return ctxError(r.ctx, r.name, r.timeout)
	}
	r.ToolCalls = append(r.ToolCalls, c)
	if on == nil {
		return nil
	}
	call := c
	return on(Event{Kind: ToolCallEvent, Call: &call})
}

// openAITool is a tool as OpenAI's chat completions and Ollama take it.
type openAITool struct {
	Type     string `json:"type"` // "function"
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

func openAITools(tools []Tool) []openAITool {
	var out []openAITool
	for _, t := range tools {
		var o openAITool
		o.Type = "function"
		o.Function.Name, o.Function.Description, o.Function.Parameters = t.Name, t.Description, objectSchema(t.Parameters)
		out = append(out, o)
	}
	return out
}

// argumentsObject is a call's arguments as a JSON object for a request
// ("{}" if they are empty or not an object).
func argumentsObject(a json.RawMessage) json.RawMessage {
	a = bytes.TrimSpace(a)
	if len(a) == 0 || a[0] != '{' || !json.Valid(a) {
		return json.RawMessage("{}")
	}
	return a
}

// toolName finds the name of the call id answers, in the assistant
// messages before message i ("" if none has it).
func toolName(msgs []Message, i int, id string) string {
	for j := i - 1; j >= 0; j-- {
		for _, c := range msgs[j].ToolCalls {
			if c.ID == id {
				return c.Name
			}
		}
	}
	return ""
}
