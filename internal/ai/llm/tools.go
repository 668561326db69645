package llm

import (
	"bytes"
	"encoding/json"
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
// object. Arguments that are not come back as "{}" with why (a malformed
// call is answered with a tool error, and the model goes on).
func toolArguments(raw []byte) (args json.RawMessage, invalid string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return json.RawMessage("{}"), ""
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return json.RawMessage("{}"), InvalidArguments
	}
	return append(json.RawMessage(nil), raw...), ""
}

// InvalidArguments is ToolCall.Invalid for arguments that were not a JSON
// object.
const InvalidArguments = "arguments were not a JSON object"

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
