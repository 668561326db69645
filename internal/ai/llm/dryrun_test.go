package llm_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hookd/hookd/internal/ai/llm"
)

// TestDryRun checks that DryRun gives exactly what Stream sends, and sends
// nothing itself.
func TestDryRun(t *testing.T) {
	for _, f := range fakes {
		t.Run(f.provider, func(t *testing.T) {
			s := f.start(t)
			cfg := llm.Config{Provider: f.provider, Model: "test-model", BaseURL: f.base(s), APIKey: "sk-secret-0123456789abcd"}
			sent, err := llm.DryRun(t.Context(), cfg, question)
			if err != nil {
				t.Fatalf("DryRun: %v", err)
			}
			if n := len(s.Requests()); n != 0 {
				t.Fatalf("DryRun sent %d requests", n)
			}
			p, err := llm.New(cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := collect(t.Context(), p, question); err != nil {
				t.Fatal(err)
			}
			got := s.Last()
			if !bytes.Equal(sent.Body, got.Body) || sent.Method != got.Method || sent.URL != s.URL+got.Path || sent.URL != p.Endpoint() {
				t.Errorf("DryRun = %s %s\n%s\nStream sent %s %s\n%s", sent.Method, sent.URL, sent.Body, got.Method, got.Path, got.Body)
			}
			if sent.Provider != f.provider || sent.Model != "test-model" {
				t.Errorf("DryRun provider, model = %q, %q", sent.Provider, sent.Model)
			}
			text := sent.String()
			if strings.Contains(text, "sk-secret") || !strings.Contains(text, "****abcd") {
				t.Errorf("DryRun shows the key, or not its masked form:\n%s", text)
			}
			for _, want := range []string{"provider: " + f.provider, "model: test-model", "POST " + p.Endpoint(),
				"Be brief.", "because", "why did make fail?"} {
				if !strings.Contains(text, want) {
					t.Errorf("DryRun's text lacks %q:\n%s", want, text)
				}
			}
		})
	}
}

func TestDryRunCommand(t *testing.T) {
	sent, err := llm.DryRun(t.Context(), llm.Config{Provider: llm.Command, Command: "llm -m x"}, question)
	if err != nil {
		t.Fatal(err)
	}
	want := "Be brief.\n\nUser: why?\n\nAssistant: because\n\nUser: why did make fail?\n"
	if sent.URL != "llm -m x" || string(sent.Body) != want {
		t.Errorf("DryRun = %q, %q; want %q, %q", sent.URL, sent.Body, "llm -m x", want)
	}
	if text := sent.String(); !strings.Contains(text, "command: sh -c llm -m x") {
		t.Errorf("DryRun's text = %q", text)
	}
}
