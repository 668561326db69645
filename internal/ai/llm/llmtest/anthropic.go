package llmtest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// NewAnthropic starts a fake Anthropic Messages server: POST /v1/messages
// (streamed as server-sent events when asked: message_start, a thinking
// block with thinking and signature deltas if the Reply has reasoning, a
// ping, a text block, tool_use blocks whose input comes in input_json_delta
// fragments, message_delta with the stop reason ("tool_use" after calls)
// and the usage, message_stop; or whole), and GET /v1/models. A request
// whose tool_choice names a tool gets a call of it, the Reply's text as
// its input (structured output done as a forced tool). It wants the anthropic-version header, and
// the key (see SetKey) as x-api-key or a bearer token. Its
// URL is the base URL. t's cleanup closes it.
func NewAnthropic(t testing.TB) *Server {
	return newServer(t, "anthropic", (*Server).anthropic)
}

func anthropicError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Request-Id", "req_llmtest")
	writeJSON(w, status, map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}})
}

func (s *Server) anthropic(w http.ResponseWriter, r *http.Request, rc Received) {
	step, reply, models, key := s.next()
	if !s.wait(r, step.Delay) {
		return
	}
	// The API takes the key as x-api-key (the Go SDK, API version
	// 2023-06-01) or as a bearer token (the JS SDK 1.x, 2026-10-21).
	if key != "" && r.Header.Get("X-Api-Key") != key && r.Header.Get("Authorization") != "Bearer "+key {
		anthropicError(w, 401, "authentication_error", "invalid x-api-key")
		return
	}
	if r.Header.Get("Anthropic-Version") == "" {
		anthropicError(w, 400, "invalid_request_error", "anthropic-version: header is required")
		return
	}
	if step.RetryAfter != "" {
		w.Header().Set("Retry-After", step.RetryAfter)
	}
	if step.Status != 0 && step.Status != 200 {
		typ := map[int]string{429: "rate_limit_error", 401: "authentication_error", 529: "overloaded_error"}[step.Status]
		if typ == "" {
			typ = "api_error"
		}
		anthropicError(w, step.Status, typ, cmpOr(step.Message, http.StatusText(step.Status)))
		return
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		data := []map[string]any{}
		for _, m := range models {
			data = append(data, map[string]any{"type": "model", "id": m, "display_name": m, "created_at": "2025-01-01T00:00:00Z"})
		}
		first, last := any(nil), any(nil)
		if len(models) > 0 {
			first, last = models[0], models[len(models)-1]
		}
		writeJSON(w, 200, map[string]any{"data": data, "has_more": false, "first_id": first, "last_id": last})
		return
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
	default:
		anthropicError(w, 404, "not_found_error", "Not Found")
		return
	}
	var req struct {
		MaxTokens  int `json:"max_tokens"`
		ToolChoice struct {
			Type, Name string
		} `json:"tool_choice"`
	}
	json.Unmarshal(rc.Body, &req)
	if req.ToolChoice.Type == "tool" && len(reply.Calls) == 0 {
		reply.Calls = []Call{{Name: req.ToolChoice.Name, Arguments: strings.Join(reply.Text, "")}}
		reply.Text = nil
	}
	stop := "end_turn"
	if len(reply.Calls) > 0 {
		stop = "tool_use"
	}
	switch {
	case rc.Model == "":
		anthropicError(w, 400, "invalid_request_error", "model: Field required")
		return
	case req.MaxTokens <= 0:
		anthropicError(w, 400, "invalid_request_error", "max_tokens: Field required")
		return
	case len(models) > 0 && !slices.Contains(models, rc.Model):
		anthropicError(w, 404, "not_found_error", "model: "+rc.Model)
		return
	}
	model := cmpOr(reply.Model, rc.Model)
	const id, sig = "msg_llmtest", "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"
	usage := func(out int) map[string]any {
		return map[string]any{"input_tokens": reply.InputTokens, "cache_creation_input_tokens": 0,
			"cache_read_input_tokens": 0, "output_tokens": out}
	}
	if !rc.Stream {
		var content []any
		if len(reply.Reasoning) > 0 {
			content = append(content, map[string]any{"type": "thinking", "thinking": strings.Join(reply.Reasoning, ""), "signature": sig})
		}
		if len(reply.Text) > 0 || len(reply.Calls) == 0 {
			content = append(content, map[string]any{"type": "text", "text": strings.Join(reply.Text, "")})
		}
		for i, c := range reply.Calls {
			input := json.RawMessage(c.Arguments)
			if !json.Valid(input) {
				input = json.RawMessage("{}")
			}
			content = append(content, map[string]any{"type": "tool_use", "id": callID(c, "toolu_", i), "name": c.Name, "input": input})
		}
		writeJSON(w, 200, map[string]any{"id": id, "type": "message", "role": "assistant", "model": model,
			"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": usage(reply.OutputTokens)})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(200)
	st := &streamer{s: s, w: w, r: r, step: step, every: reply.Interval}
	if !st.send(event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": usage(1)}})) {
		return
	}
	if step.Malformed && !st.send("event: content_block_delta\ndata: {\"type\": \"content_block_delta\", \"index\": 0, \"delta\": {\n\n") {
		return
	}
	if step.StreamError != "" {
		st.send(event("error", map[string]any{"type": "error", "error": map[string]any{"type": "overloaded_error", "message": step.StreamError}}))
		return
	}
	index := 0
	if len(reply.Reasoning) > 0 {
		if !st.send(event("content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": map[string]any{"type": "thinking", "thinking": "", "signature": ""}})) {
			return
		}
		for _, t := range reply.Reasoning {
			if !st.text(delta(index, map[string]any{"type": "thinking_delta", "thinking": t})) {
				return
			}
		}
		if !st.send(delta(index, map[string]any{"type": "signature_delta", "signature": sig})) ||
			!st.send(event("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})) {
			return
		}
		index++
	}
	if len(reply.Text) > 0 || len(reply.Calls) == 0 {
		if !st.send(event("content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": map[string]any{"type": "text", "text": ""}})) ||
			!st.send("event: ping\ndata: {\"type\": \"ping\"}\n\n") {
			return
		}
		for _, t := range reply.Text {
			if !st.text(delta(index, map[string]any{"type": "text_delta", "text": t})) {
				return
			}
		}
		if !st.send(event("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})) {
			return
		}
		index++
	}
	// Each call: a tool_use block with an empty input, an empty
	// input_json_delta as the API sends first, the input in fragments.
	for i, c := range reply.Calls {
		if !st.send(event("content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": map[string]any{"type": "tool_use", "id": callID(c, "toolu_", i), "name": c.Name, "input": map[string]any{}}})) ||
			!st.send(delta(index, map[string]any{"type": "input_json_delta", "partial_json": ""})) {
			return
		}
		for _, f := range fragments(c.Arguments, 3) {
			if !st.text(delta(index, map[string]any{"type": "input_json_delta", "partial_json": f})) {
				return
			}
		}
		if !st.send(event("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})) {
			return
		}
		index++
	}
	if !st.send(event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": reply.OutputTokens}})) {
		return
	}
	st.send(event("message_stop", map[string]any{"type": "message_stop"}))
}

func delta(index int, d map[string]any) string {
	return event("content_block_delta", map[string]any{"type": "content_block_delta", "index": index, "delta": d})
}

// event frames v as a server-sent event named name.
func event(name string, v any) string {
	b, _ := json.Marshal(v)
	return "event: " + name + "\ndata: " + string(b) + "\n\n"
}
