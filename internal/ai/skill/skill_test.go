package skill

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookd/hookd/internal/config"
)

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestConfigSkills(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	write(t, dir, "config.yaml", `ask:
  skills:
    - pattern: 'prioriti[sz]e'
      llm_prepend: "## Priority"
    - pattern: 'bad('
      llm_prepend: never
    - pattern: 'summar|recap'
      llm_prepend: "## Summary"
    - pattern: 'delete'
      llm_prepend: "## Deletion"
`)
	c, warns := config.Load(cfg, dir)
	if len(warns) == 0 || warns[0].Line != 5 || !strings.Contains(warns[0].String(), "config.yaml:5") {
		t.Errorf("invalid regex: warnings %v, want one naming config.yaml:5", warns)
	}
	skills := FromConfig(c.Ask.Skills, cfg)
	if len(skills) != 3 {
		t.Fatalf("%d skills, want 3 (the invalid one skipped)", len(skills))
	}
	for _, tc := range []struct {
		q    string
		want string
	}{
		{"PRIORITISE items 2 and 5", "## Priority"},
		{"prioritize then recap", "## Priority\n\n## Summary"},
		{"recap and prioritize", "## Priority\n\n## Summary"}, // declared order, not the question's
		{"list the files", ""},
	} {
		if got := Prepend(Match(skills, tc.q)); got != tc.want {
			t.Errorf("%q: $_LLM_PREPEND = %q, want %q", tc.q, got, tc.want)
		}
	}
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "b-deploy.md", "---\ndescription: How we deploy\npattern: 'deploy|release'\n---\nUse `make ship`, never `kubectl apply` by hand.\n")
	write(t, dir, "a-sql.md", "---\npattern: '\\bsql\\b'\n---\n\nPrefer CTEs.\n")
	write(t, dir, "c-bad.md", "---\ndescription: x\npattern: '(unclosed'\n---\nbody\n")
	write(t, dir, "d-none.md", "no frontmatter at all\n")
	write(t, dir, "e-list.md", "---\n- a\n---\nbody\n")
	write(t, dir, "notes.txt", "---\npattern: x\n---\nnot a skill file\n")
	skills, warns := LoadDir(dir)
	if len(skills) != 2 || skills[0].Name != "a-sql" || skills[1].Name != "b-deploy" {
		t.Fatalf("skills %+v, want a-sql and b-deploy in name order", skills)
	}
	if skills[1].Description != "How we deploy" || skills[1].Source != filepath.Join(dir, "b-deploy.md")+":3" || skills[1].Prepend != "Use `make ship`, never `kubectl apply` by hand." {
		t.Errorf("b-deploy = %+v", skills[1])
	}
	if len(warns) != 3 {
		t.Fatalf("warnings %v, want 3", warns)
	}
	if w := warns[0].String(); !strings.Contains(w, "c-bad.md:3") || !strings.Contains(w, "missing closing )") {
		t.Errorf("invalid regex warning %q", w)
	}
	if w := warns[1].String(); !strings.Contains(w, "d-none.md") || !strings.Contains(w, "needs a pattern") {
		t.Errorf("no pattern warning %q", w)
	}
	if w := warns[2].String(); !strings.Contains(w, "e-list.md:2") || !strings.Contains(w, "not a mapping") {
		t.Errorf("list frontmatter warning %q", w)
	}
	if got := Prepend(Match(skills, "Deploy the SQL migration")); got != "Prefer CTEs.\n\nUse `make ship`, never `kubectl apply` by hand." {
		t.Errorf("got %q", got)
	}
	if s, w := LoadDir(filepath.Join(dir, "missing")); s != nil || w != nil {
		t.Errorf("missing dir: %v %v", s, w)
	}
}
