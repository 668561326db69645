// Package answer prints an LLM's answer on a terminal as it streams —
// Markdown rendered progressively by glamour, or plain text — with every
// character the model wrote made safe first, and finds the shell commands
// the answer proposes.
package answer
