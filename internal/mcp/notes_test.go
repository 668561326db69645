package mcp

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
)

// TestCommandOutputNotes: command_output gives the user's notes on the
// command (hookd note), sanitized, in the result and its text.
func TestCommandOutputNotes(t *testing.T) {
	f := newFixture(t)
	s, err := history.Open(context.Background(), f.path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddNote(context.Background(), f.ids["ls"], "run it from the repo top\x1b[2J", t0); err != nil {
		t.Fatal(err)
	}
	s.Close()
	cs := connect(t, f.options())
	m, text, isErr := call(t, cs, "command_output", map[string]any{"id": f.ids["ls"]})
	notes, _ := m["user_notes"].([]any)
	if isErr || len(notes) != 1 || notes[0] != `run it from the repo top\e[2J` || !strings.Contains(text, "The user's note: run it from the repo top") {
		t.Errorf("command_output: user_notes %v, text %q", m["user_notes"], text)
	}
	m, _, _ = call(t, cs, "command_output", map[string]any{"id": f.ids["build"]})
	if _, ok := m["user_notes"]; ok {
		t.Errorf("a command without notes has user_notes: %v", m["user_notes"])
	}
}
