// Package llm talks to language models: OpenAI-compatible chat completions,
// Anthropic Messages, Ollama's native chat API and any command line that
// reads a prompt on stdin, all streaming, with timeouts, retries and errors
// that say what to do. The HTTP providers also offer tools the model may
// call (Request.Tools, Result.ToolCalls, ToolCallEvent; the results go
// back as "tool" messages) and structured output (Request.Schema: the
// answer is JSON matching it); Provider.Supports says which a provider
// does. The command provider ignores tools and only asks for the schema
// in its prompt.
//
// It is a leaf: it takes plain values (a Config, an env lookup function, an
// *http.Client) and imports nothing else of hookd's.
package llm
