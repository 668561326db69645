package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// NewOpenAI starts a fake OpenAI chat completions server: POST
// /v1/chat/completions (streamed as server-sent events when asked, with a
// ": keep-alive" comment, reasoning deltas, tool calls as deltas by index
// (id, type and name first, then the arguments in fragments, finish_reason
// "tool_calls"), a usage chunk with no choices when
// stream_options.include_usage, and "data: [DONE]"; or whole), and
// GET /v1/models. Its URL + "/v1" is the base URL. t's cleanup closes it.
func NewOpenAI(t testing.TB) *Server {
	return newServer(t, "openai", (*Server).openAI)
}

func openAIError(w http.ResponseWriter, status int, typ, code, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}})
}

func (s *Server) openAI(w http.ResponseWriter, r *http.Request, rc Received) {
	step, reply, models, key := s.next()
	if !s.wait(r, step.Delay) {
		return
	}
	if key != "" && r.Header.Get("Authorization") != "Bearer "+key {
		openAIError(w, 401, "invalid_request_error", "invalid_api_key", "Incorrect API key provided.")
		return
	}
	if step.RetryAfter != "" {
		w.Header().Set("Retry-After", step.RetryAfter)
	}
	if step.Status != 0 && step.Status != 200 {
		typ := map[int]string{429: "rate_limit_exceeded", 401: "invalid_request_error"}[step.Status]
		if typ == "" {
			typ = "server_error"
		}
		openAIError(w, step.Status, typ, "", cmpOr(step.Message, http.StatusText(step.Status)))
		return
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		data := []map[string]any{}
		for _, m := range models {
			data = append(data, map[string]any{"id": m, "object": "model", "created": 1700000000, "owned_by": "llmtest"})
		}
		writeJSON(w, 200, map[string]any{"object": "list", "data": data})
		return
	case r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions":
	default:
		openAIError(w, 404, "invalid_request_error", "unknown_url", "Unknown request URL: "+r.Method+" "+r.URL.Path)
		return
	}
	if len(models) > 0 && !slices.Contains(models, rc.Model) {
		openAIError(w, 404, "invalid_request_error", "model_not_found",
			fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", rc.Model))
		return
	}
	model := cmpOr(reply.Model, rc.Model)
	field := cmpOr(reply.ReasoningField, "reasoning_content")
	const id, created = "chatcmpl-llmtest", 1700000000
	finish := "stop"
	if len(reply.Calls) > 0 {
		finish = "tool_calls"
	}
	if !rc.Stream {
		msg := map[string]any{"role": "assistant", "content": strings.Join(reply.Text, ""), "refusal": nil}
		if len(reply.Reasoning) > 0 {
			msg[field] = strings.Join(reply.Reasoning, "")
		}
		if len(reply.Calls) > 0 {
			var calls []any
			for i, c := range reply.Calls {
				calls = append(calls, map[string]any{"id": callID(c, "call_", i), "type": "function",
					"function": map[string]any{"name": c.Name, "arguments": c.Arguments}})
			}
			msg["tool_calls"] = calls
			if len(reply.Text) == 0 {
				msg["content"] = nil
			}
		}
		writeJSON(w, 200, map[string]any{"id": id, "object": "chat.completion", "created": created, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "logprobs": nil, "finish_reason": finish}},
			"usage":   openAIUsage(reply)})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(200)
	st := &streamer{s: s, w: w, r: r, step: step, every: reply.Interval}
	chunk := func(delta map[string]any, finish any) string {
		return data(map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"system_fingerprint": "fp_llmtest",
			"choices":            []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}}})
	}
	// OpenRouter and others send comments while they wait.
	if !st.send(": keep-alive\n\n" + chunk(map[string]any{"role": "assistant", "content": ""}, nil)) {
		return
	}
	if step.Malformed && !st.send("data: {\"id\": \"chatcmpl-llmtest\", \"choices\": [\n\n") {
		return
	}
	if step.StreamError != "" {
		st.send(data(map[string]any{"error": map[string]any{"message": step.StreamError, "type": "server_error", "code": nil}}))
		return
	}
	for _, t := range reply.Reasoning {
		if !st.text(chunk(map[string]any{field: t}, nil)) {
			return
		}
	}
	for _, t := range reply.Text {
		if !st.text(chunk(map[string]any{"content": t}, nil)) {
			return
		}
	}
	// Each call: its index, id, type and name with empty arguments, then
	// the arguments in fragments, under the same index.
	for i, c := range reply.Calls {
		first := map[string]any{"index": i, "id": callID(c, "call_", i), "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": ""}}
		if !st.send(chunk(map[string]any{"tool_calls": []any{first}}, nil)) {
			return
		}
		for _, f := range fragments(c.Arguments, 3) {
			d := map[string]any{"index": i, "function": map[string]any{"arguments": f}}
			if !st.text(chunk(map[string]any{"tool_calls": []any{d}}, nil)) {
				return
			}
		}
	}
	if !st.send(chunk(map[string]any{}, finish)) {
		return
	}
	if rc.Usage {
		if !st.send(data(map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"system_fingerprint": "fp_llmtest", "choices": []any{}, "usage": openAIUsage(reply)})) {
			return
		}
	}
	st.send("data: [DONE]\n\n")
}

func openAIUsage(r Reply) map[string]any {
	return map[string]any{"prompt_tokens": r.InputTokens, "completion_tokens": r.OutputTokens,
		"total_tokens": r.InputTokens + r.OutputTokens}
}

// data frames v as a server-sent event with no event name.
func data(v any) string {
	b, _ := json.Marshal(v)
	return "data: " + string(b) + "\n\n"
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
