package llm

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"
)

// The variables that override the configuration.
const (
	EnvProvider = "HOOKD_LLM_PROVIDER"
	EnvBaseURL  = "HOOKD_LLM_BASE_URL"
	EnvModel    = "HOOKD_LLM_MODEL"
	EnvAPIKey   = "HOOKD_LLM_API_KEY"
)

// ProbeTimeout bounds the look for a local Ollama by Resolve.
const ProbeTimeout = 500 * time.Millisecond

// Setup is how to set up a provider, in a few lines: the hint of the
// error Resolve returns when there is none.
const Setup = `set one of these up:
  ANTHROPIC_API_KEY or OPENAI_API_KEY   an API key in the environment
  ollama serve                          a local Ollama (OLLAMA_HOST, or localhost:11434)
  llm: in config.yaml                   provider, model, base_url, api_key_env, or a command
  HOOKD_LLM_PROVIDER, HOOKD_LLM_MODEL, HOOKD_LLM_BASE_URL, HOOKD_LLM_API_KEY override it`

// Resolve applies the HOOKD_LLM_* variables over cfg, reads the API key
// from the environment, and for provider Auto (or "") picks the first one
// set up: HOOKD_LLM_* or the configuration's base URL or key, then
// ANTHROPIC_API_KEY, then OPENAI_API_KEY, then an Ollama answering at
// OLLAMA_HOST or localhost:11434 within ProbeTimeout. It returns the
// resolved Config and why that provider was chosen, in a few words (for
// hookd status). With nothing set up, the error matches ErrNotConfigured
// and its hint says how to set one up.
func Resolve(ctx context.Context, cfg Config, env func(string) (string, bool)) (Config, string, error) {
	get := func(k string) string {
		v, _ := env(k)
		return strings.TrimSpace(v)
	}
	why := "set in config.yaml"
	if v := get(EnvProvider); v != "" {
		cfg.Provider, why = v, "set by "+EnvProvider
	}
	if v := get(EnvBaseURL); v != "" {
		cfg.BaseURL = v
	}
	if v := get(EnvModel); v != "" {
		cfg.Model = v
	}
	if v := get(EnvAPIKey); v != "" {
		cfg.APIKey, cfg.APIKeyEnv = v, EnvAPIKey
	} else if cfg.APIKeyEnv != "" {
		cfg.APIKey = get(cfg.APIKeyEnv)
	}
	cfg.Provider = strings.ToLower(strings.TrimSpace(cfg.Provider))
	switch cfg.Provider {
	case OpenAI, Anthropic, Ollama, Command:
	case Auto, "":
		var err error
		if cfg, why, err = auto(ctx, cfg, get); err != nil {
			return cfg, "", err
		}
	default:
		return cfg, "", &Error{Kind: NotConfigured, Msg: "unknown LLM provider " + quote(cfg.Provider),
			Hint: "use one of auto, openai, anthropic, ollama, command"}
	}
	return finish(cfg, why, get)
}

// auto picks the provider of an Auto cfg.
func auto(ctx context.Context, cfg Config, get func(string) string) (Config, string, error) {
	switch {
	case cfg.APIKey != "" || cfg.BaseURL != "":
		cfg.Provider = guess(cfg)
		src := "llm.base_url"
		switch {
		case cfg.APIKeyEnv == EnvAPIKey:
			src = EnvAPIKey
		case get(EnvBaseURL) != "":
			src = EnvBaseURL
		case cfg.APIKey != "":
			src = cfg.APIKeyEnv
		}
		return cfg, "auto: " + src + " is set", nil
	case get("ANTHROPIC_API_KEY") != "":
		cfg.Provider, cfg.APIKeyEnv = Anthropic, "ANTHROPIC_API_KEY"
		return cfg, "auto: ANTHROPIC_API_KEY is set", nil
	case get("OPENAI_API_KEY") != "":
		cfg.Provider, cfg.APIKeyEnv = OpenAI, "OPENAI_API_KEY"
		return cfg, "auto: OPENAI_API_KEY is set", nil
	}
	base := ollamaHost(get("OLLAMA_HOST"))
	models, err := probeOllama(ctx, base)
	if err != nil {
		return cfg, "", &Error{Kind: NotConfigured, Msg: ErrNotConfigured.Error(), Hint: Setup}
	}
	cfg.Provider, cfg.BaseURL = Ollama, base
	if cfg.Model == "" && len(models) > 0 && !hasModel(models, ollamaDefaultModel) {
		cfg.Model = models[0]
	}
	return cfg, "auto: Ollama answered at " + base, nil
}

// guess names the provider of a base URL or a key, OpenAI-compatible
// being the most common.
func guess(cfg Config) string {
	if u, err := url.Parse(cfg.BaseURL); err == nil && cfg.BaseURL != "" {
		switch {
		case u.Port() == "11434":
			return Ollama
		case u.Hostname() == "api.anthropic.com":
			return Anthropic
		}
	}
	if strings.HasPrefix(cfg.APIKey, "sk-ant-") || strings.Contains(strings.ToUpper(cfg.APIKeyEnv), "ANTHROPIC") {
		return Anthropic
	}
	return OpenAI
}

// finish fills in what a chosen provider needs from the environment, and
// checks that it has it.
func finish(cfg Config, why string, get func(string) string) (Config, string, error) {
	switch cfg.Provider {
	case OpenAI, Anthropic:
		if cfg.APIKey == "" {
			if cfg.APIKeyEnv == "" {
				cfg.APIKeyEnv = map[string]string{OpenAI: "OPENAI_API_KEY", Anthropic: "ANTHROPIC_API_KEY"}[cfg.Provider]
			}
			cfg.APIKey = get(cfg.APIKeyEnv)
		}
		if cfg.APIKey == "" && cfg.BaseURL == "" { // a local server may need no key; the vendor's does
			return cfg, why, &Error{Kind: Auth, Msg: fmt.Sprintf("%s needs an API key, and %s is empty", cfg.Provider, cfg.APIKeyEnv),
				Hint: fmt.Sprintf("export %s=…, or name another variable in llm.api_key_env", cfg.APIKeyEnv)}
		}
	case Ollama:
		if cfg.BaseURL == "" {
			cfg.BaseURL = ollamaHost(get("OLLAMA_HOST"))
		}
	case Command:
		if strings.TrimSpace(cfg.Command) == "" {
			return cfg, why, &Error{Kind: NotConfigured, Msg: "provider command needs a command line",
				Hint: "set llm.command in config.yaml, e.g. 'llm -m gpt-4o-mini'"}
		}
	}
	if cfg.BaseURL != "" {
		if _, err := baseURL(cfg.BaseURL, ""); err != nil {
			return cfg, why, err
		}
	}
	return cfg, why, nil
}

// ollamaHost turns OLLAMA_HOST (host, host:port or a URL; "" for the
// default) into a base URL.
func ollamaHost(v string) string {
	if v == "" {
		return ollamaBaseURL
	}
	if !strings.Contains(v, "://") {
		v = "http://" + v
	}
	u, err := url.Parse(v)
	if err != nil || u.Host == "" {
		return ollamaBaseURL
	}
	if u.Port() == "" && u.Scheme == "http" {
		u.Host = net.JoinHostPort(u.Hostname(), "11434")
	}
	return strings.TrimRight(u.String(), "/")
}

// probeOllama asks base for its models, giving up after ProbeTimeout.
func probeOllama(ctx context.Context, base string) ([]string, error) {
	p, err := newOllama(Config{BaseURL: base, Timeout: ProbeTimeout, Retries: -1}, NewHTTPClient(ProbeTimeout))
	if err != nil {
		return nil, err
	}
	return p.Models(ctx)
}

func hasModel(models []string, name string) bool {
	for _, m := range models {
		if m == name || m == name+":latest" {
			return true
		}
	}
	return false
}
