package ingest_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hookd/hookd/internal/config"
	"github.com/hookd/hookd/internal/recording/ingest"
)

// TestRulesFrom: the rules a configuration file sets ignore what it says
// to ignore and redact its own patterns on top of the built-in ones.
func TestRulesFrom(t *testing.T) {
	file := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(file, []byte("history:\n  ignore: ['^vault ']\n  ignore_dirs: [/home/u/private]\n"+
		"redact:\n  patterns: ['INTERNAL-[0-9a-f]{8}']\n"), 0o600)
	c, warns := config.Load(file, "/home/u")
	if len(warns) != 0 {
		t.Fatalf("config warnings: %v", warns)
	}
	r, warns := ingest.RulesFrom(c, file)
	if len(warns) != 0 {
		t.Errorf("RulesFrom warnings: %v", warns)
	}
	for _, c := range []struct {
		text, cwd, want string
		ok              bool
	}{
		{"vault read x", "/", "", false},
		{"ls", "/home/u/private/a", "", false},
		{"ls", "/home/u/privateer", "ls", true},
		{"curl -H 'X: INTERNAL-0123abcd' x", "/", "curl -H 'X: [REDACTED]' x", true},
		{"export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "/", "export GITHUB_TOKEN=[REDACTED]", true},
	} {
		got, ok, _ := r.Filter(c.text, c.cwd)
		if got != c.want || ok != c.ok {
			t.Errorf("Filter(%q, %q) = %q, %v; want %q, %v", c.text, c.cwd, got, ok, c.want, c.ok)
		}
	}
}
