package llm

import (
	"slices"
	"strings"
)

// keyVars are the environment variables that hold a language model
// provider's API key: hookd's own, those Resolve reads, and the common
// providers' a user's shell may carry.
var keyVars = []string{EnvAPIKey, "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENROUTER_API_KEY", "GROQ_API_KEY",
	"GEMINI_API_KEY", "GOOGLE_API_KEY", "MISTRAL_API_KEY", "DEEPSEEK_API_KEY", "XAI_API_KEY", "TOGETHER_API_KEY",
	"FIREWORKS_API_KEY", "PERPLEXITY_API_KEY", "AZURE_OPENAI_API_KEY", "COHERE_API_KEY", "OLLAMA_API_KEY"}

// KeyVars returns the names of the variables that hold a provider's API
// key: the configured one (apiKeyEnv, "" for none) and every known
// provider's.
func KeyVars(apiKeyEnv string) []string {
	vars := slices.Clone(keyVars)
	if apiKeyEnv != "" && !slices.Contains(vars, apiKeyEnv) {
		vars = append(vars, apiKeyEnv)
	}
	return vars
}

// Scrub returns environ (KEY=VALUE entries) without the variables of
// KeyVars(apiKeyEnv), for the commands hookd starts (context commands,
// a prompt file's !`cmd`, a chain's run steps), and the values it took
// out, for redaction: a command a project wrote never sees the key.
func Scrub(environ []string, apiKeyEnv string) (env, keys []string) {
	vars := KeyVars(apiKeyEnv)
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		if slices.Contains(vars, k) {
			if v = strings.TrimSpace(v); v != "" && !slices.Contains(keys, v) {
				keys = append(keys, v)
			}
			continue
		}
		env = append(env, kv)
	}
	return env, keys
}
