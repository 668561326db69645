package llm_test

import (
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/hookd/hookd/internal/ai/llm"
	"github.com/hookd/hookd/internal/ai/llm/llmtest"
)

// closedAddr returns host:port where nothing listens.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	return l.Addr().String()
}

func TestResolve(t *testing.T) {
	ollama := llmtest.NewOllama(t)
	ollama.SetModels("qwen3:8b", "llama3.2:latest")
	ollamaNoDefault := llmtest.NewOllama(t)
	ollamaNoDefault.SetModels("qwen3:8b")
	noOllama := closedAddr(t)
	host := func(s *llmtest.Server) string { return strings.TrimPrefix(s.URL, "http://") }

	tests := []struct {
		name string
		cfg  llm.Config
		env  map[string]string
		want llm.Config // the fields compared: Provider, Model, BaseURL, APIKey, APIKeyEnv
		why  string     // in the reason
	}{
		{"anthropic key", llm.Config{}, map[string]string{"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o"},
			llm.Config{Provider: llm.Anthropic, APIKey: "a", APIKeyEnv: "ANTHROPIC_API_KEY"}, "ANTHROPIC_API_KEY is set"},
		{"openai key", llm.Config{Provider: "auto"}, map[string]string{"OPENAI_API_KEY": "o"},
			llm.Config{Provider: llm.OpenAI, APIKey: "o", APIKeyEnv: "OPENAI_API_KEY"}, "OPENAI_API_KEY is set"},
		{"keys before ollama", llm.Config{}, map[string]string{"OPENAI_API_KEY": "o", "OLLAMA_HOST": host(ollama)},
			llm.Config{Provider: llm.OpenAI, APIKey: "o", APIKeyEnv: "OPENAI_API_KEY"}, "OPENAI_API_KEY"},
		{"ollama probed", llm.Config{}, map[string]string{"OLLAMA_HOST": host(ollama)},
			llm.Config{Provider: llm.Ollama, BaseURL: ollama.URL}, "Ollama answered at " + ollama.URL},
		{"ollama without the default model", llm.Config{}, map[string]string{"OLLAMA_HOST": host(ollamaNoDefault)},
			llm.Config{Provider: llm.Ollama, BaseURL: ollamaNoDefault.URL, Model: "qwen3:8b"}, "Ollama answered"},
		{"HOOKD_LLM_* before the keys", llm.Config{}, map[string]string{"HOOKD_LLM_API_KEY": "h", "HOOKD_LLM_MODEL": "m",
			"ANTHROPIC_API_KEY": "a"},
			llm.Config{Provider: llm.OpenAI, Model: "m", APIKey: "h", APIKeyEnv: "HOOKD_LLM_API_KEY"}, "HOOKD_LLM_API_KEY is set"},
		{"HOOKD_LLM_API_KEY of anthropic", llm.Config{}, map[string]string{"HOOKD_LLM_API_KEY": "sk-ant-x"},
			llm.Config{Provider: llm.Anthropic, APIKey: "sk-ant-x", APIKeyEnv: "HOOKD_LLM_API_KEY"}, "HOOKD_LLM_API_KEY"},
		{"HOOKD_LLM_BASE_URL of ollama", llm.Config{}, map[string]string{"HOOKD_LLM_BASE_URL": "http://gpu:11434"},
			llm.Config{Provider: llm.Ollama, BaseURL: "http://gpu:11434"}, "HOOKD_LLM_BASE_URL is set"},
		{"HOOKD_LLM_BASE_URL of openrouter", llm.Config{}, map[string]string{"HOOKD_LLM_BASE_URL": "https://openrouter.ai/api/v1", "OPENAI_API_KEY": "o"},
			llm.Config{Provider: llm.OpenAI, BaseURL: "https://openrouter.ai/api/v1", APIKey: "o", APIKeyEnv: "OPENAI_API_KEY"}, "HOOKD_LLM_BASE_URL"},
		{"config base_url", llm.Config{BaseURL: "http://localhost:8080/v1"}, map[string]string{"OPENAI_API_KEY": "o"},
			llm.Config{Provider: llm.OpenAI, BaseURL: "http://localhost:8080/v1", APIKey: "o", APIKeyEnv: "OPENAI_API_KEY"}, "llm.base_url"},
		{"config api_key_env", llm.Config{APIKeyEnv: "MY_ANTHROPIC_KEY"}, map[string]string{"MY_ANTHROPIC_KEY": "k"},
			llm.Config{Provider: llm.Anthropic, APIKey: "k", APIKeyEnv: "MY_ANTHROPIC_KEY"}, "MY_ANTHROPIC_KEY is set"},
		{"provider overridden", llm.Config{Provider: llm.Anthropic, Model: "c"},
			map[string]string{"HOOKD_LLM_PROVIDER": "OpenAI", "HOOKD_LLM_MODEL": "g", "HOOKD_LLM_BASE_URL": "http://x:1/v1"},
			llm.Config{Provider: llm.OpenAI, Model: "g", BaseURL: "http://x:1/v1", APIKeyEnv: "OPENAI_API_KEY"}, "HOOKD_LLM_PROVIDER"},
		{"configured", llm.Config{Provider: llm.Anthropic, Model: "c"}, map[string]string{"ANTHROPIC_API_KEY": "a"},
			llm.Config{Provider: llm.Anthropic, Model: "c", APIKey: "a", APIKeyEnv: "ANTHROPIC_API_KEY"}, "config.yaml"},
		{"configured ollama at OLLAMA_HOST", llm.Config{Provider: llm.Ollama}, map[string]string{"OLLAMA_HOST": "gpu"},
			llm.Config{Provider: llm.Ollama, BaseURL: "http://gpu:11434"}, "config.yaml"},
		{"command", llm.Config{Provider: llm.Command, Command: "llm -m x"}, nil,
			llm.Config{Provider: llm.Command}, "config.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"OLLAMA_HOST": noOllama}
			for k, v := range tt.env {
				env[k] = v
			}
			got, why, err := llm.Resolve(t.Context(), tt.cfg, lookup(env))
			if err != nil {
				t.Fatalf("Resolve: %v", err)
			}
			g := llm.Config{Provider: got.Provider, Model: got.Model, BaseURL: got.BaseURL, APIKey: got.APIKey, APIKeyEnv: got.APIKeyEnv}
			if g != tt.want || !strings.Contains(why, tt.why) {
				t.Errorf("Resolve(%+v, %v) = %+v, %q; want %+v, %q", tt.cfg, tt.env, g, why, tt.want, tt.why)
			}
		})
	}
}

func TestResolveErrors(t *testing.T) {
	noOllama := closedAddr(t)
	tests := []struct {
		name string
		cfg  llm.Config
		env  map[string]string
		kind llm.ErrorKind
		hint string
	}{
		{"nothing configured", llm.Config{}, nil, llm.NotConfigured, "ANTHROPIC_API_KEY or OPENAI_API_KEY"},
		{"unknown provider", llm.Config{Provider: "gemini"}, nil, llm.NotConfigured, "openai, anthropic"},
		{"openai without a key", llm.Config{Provider: llm.OpenAI}, nil, llm.Auth, "export OPENAI_API_KEY"},
		{"anthropic key in an empty variable", llm.Config{Provider: llm.Anthropic, APIKeyEnv: "WORK_KEY"}, nil, llm.Auth, "WORK_KEY"},
		{"command without a command", llm.Config{Provider: llm.Command}, nil, llm.NotConfigured, "llm.command"},
		{"bad base URL", llm.Config{Provider: llm.Ollama, BaseURL: "localhost:11434"}, nil, llm.NotConfigured, "http://"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"OLLAMA_HOST": noOllama}
			for k, v := range tt.env {
				env[k] = v
			}
			_, _, err := llm.Resolve(t.Context(), tt.cfg, lookup(env))
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != tt.kind || !strings.Contains(e.Hint, tt.hint) {
				t.Errorf("Resolve(%+v) error = %v; want kind %v, hint with %q", tt.cfg, err, tt.kind, tt.hint)
			}
		})
	}
	_, _, err := llm.Resolve(t.Context(), llm.Config{}, lookup(map[string]string{"OLLAMA_HOST": noOllama}))
	if !errors.Is(err, llm.ErrNotConfigured) {
		t.Errorf("Resolve with nothing set up = %v; want ErrNotConfigured", err)
	}
}

func lookup(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}
