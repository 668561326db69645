package main

import (
	"encoding/json"

	"github.com/hookd/hookd/internal/sanitize"
)

// jsonEncoder is the encoder of every --json that carries recorded text:
// no HTML escaping, and the characters that hide or reorder text (bidi
// controls, zero-width characters, C1 controls) as \u escapes, which
// decode to the same strings.
func (e *env) jsonEncoder() *json.Encoder {
	enc := json.NewEncoder(sanitize.JSON(e.stdout))
	enc.SetEscapeHTML(false)
	return enc
}
