// Package llm talks to language models: OpenAI-compatible chat completions,
// Anthropic Messages, Ollama's native chat API and any command line that
// reads a prompt on stdin, all streaming, with timeouts, retries and errors
// that say what to do.
//
// It is a leaf: it takes plain values (a Config, an env lookup function, an
// *http.Client) and imports nothing else of hookd's.
package llm
