package llmtest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// NewOllama starts a fake Ollama: POST /api/chat (streamed as
// newline-delimited JSON when asked, which is Ollama's default: chunks with
// message.content or message.thinking, the tool calls in one chunk
// (message.tool_calls, each with its arguments as an object and no id),
// then an object with done: true,
// done_reason and the eval counts; or whole), GET /api/tags, and GET /
// ("Ollama is running"). Its URL is the base URL. t's cleanup closes it.
func NewOllama(t testing.TB) *Server {
	return newServer(t, "ollama", (*Server).ollama)
}

func ollamaError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]any{"error": msg})
}

func (s *Server) ollama(w http.ResponseWriter, r *http.Request, rc Received) {
	step, reply, models, key := s.next()
	if !s.wait(r, step.Delay) {
		return
	}
	if key != "" && r.Header.Get("Authorization") != "Bearer "+key {
		ollamaError(w, 401, "unauthorized")
		return
	}
	if step.RetryAfter != "" {
		w.Header().Set("Retry-After", step.RetryAfter)
	}
	if step.Status != 0 && step.Status != 200 {
		ollamaError(w, step.Status, cmpOr(step.Message, strings.ToLower(http.StatusText(step.Status))))
		return
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/":
		w.Write([]byte("Ollama is running"))
		return
	case r.Method == http.MethodGet && r.URL.Path == "/api/tags":
		list := []map[string]any{}
		for _, m := range models {
			list = append(list, map[string]any{"name": m, "model": m, "modified_at": "2025-01-01T00:00:00Z",
				"size": 2019393189, "digest": "a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72",
				"details": map[string]any{"format": "gguf", "family": "llama", "parameter_size": "3.2B", "quantization_level": "Q4_K_M"}})
		}
		writeJSON(w, 200, map[string]any{"models": list})
		return
	case r.Method == http.MethodPost && r.URL.Path == "/api/chat":
	default:
		http.NotFound(w, r)
		return
	}
	var stream struct {
		Stream *bool `json:"stream"`
	}
	json.Unmarshal(rc.Body, &stream)
	if len(models) > 0 && !slices.Contains(models, rc.Model) && !slices.Contains(models, rc.Model+":latest") {
		ollamaError(w, 404, "model \""+rc.Model+"\" not found, try pulling it first")
		return
	}
	model := cmpOr(reply.Model, rc.Model)
	const created = "2025-01-01T00:00:00.000000000Z"
	chunk := func(content, thinking string) map[string]any {
		msg := map[string]any{"role": "assistant", "content": content}
		if thinking != "" {
			msg["thinking"] = thinking
		}
		return map[string]any{"model": model, "created_at": created, "message": msg, "done": false}
	}
	var calls []any
	for _, c := range reply.Calls {
		args := json.RawMessage(c.Arguments)
		if !json.Valid(args) { // sent as a string, to be found malformed
			args = json.RawMessage(mustJSON(c.Arguments))
		}
		calls = append(calls, map[string]any{"function": map[string]any{"name": c.Name, "arguments": args}})
	}
	final := chunk("", "")
	final["done"], final["done_reason"] = true, "stop"
	final["total_duration"], final["load_duration"] = int64(5*time.Second), int64(time.Millisecond)
	final["prompt_eval_count"], final["prompt_eval_duration"] = reply.InputTokens, int64(100*time.Millisecond)
	final["eval_count"], final["eval_duration"] = reply.OutputTokens, int64(time.Second)
	if stream.Stream != nil && !*stream.Stream { // Ollama streams unless told not to
		whole := chunk(strings.Join(reply.Text, ""), strings.Join(reply.Reasoning, ""))
		if calls != nil {
			whole["message"].(map[string]any)["tool_calls"] = calls
		}
		for k, v := range final {
			if k != "message" {
				whole[k] = v
			}
		}
		writeJSON(w, 200, whole)
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(200)
	st := &streamer{s: s, w: w, r: r, step: step, every: reply.Interval}
	line := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b) + "\n"
	}
	for i, t := range reply.Reasoning {
		if !st.text(line(chunk("", t))) {
			return
		}
		if i == 0 && !ollamaTrouble(st, step) {
			return
		}
	}
	for i, t := range reply.Text {
		if !st.text(line(chunk(t, ""))) {
			return
		}
		if i == 0 && len(reply.Reasoning) == 0 && !ollamaTrouble(st, step) {
			return
		}
	}
	if calls != nil {
		c := chunk("", "")
		c["message"].(map[string]any)["tool_calls"] = calls
		if !st.text(line(c)) {
			return
		}
	}
	st.send(line(final))
}

// ollamaTrouble sends the step's malformed line or error, after the first
// chunk; false means stop.
func ollamaTrouble(st *streamer, step Step) bool {
	switch {
	case step.Malformed:
		return st.send("{\"model\": \"x\", \"message\": {\n")
	case step.StreamError != "":
		st.send("{\"error\":" + strings.TrimSpace(mustJSON(step.StreamError)) + "}\n")
		return false
	}
	return true
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
