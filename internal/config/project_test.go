package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestGlobMatch(t *testing.T) {
	for _, c := range []struct {
		glob, dir string
		want      bool
	}{
		{"/home/u/work/*", "/home/u/work/api", true},
		{"/home/u/work/*", "/home/u/work/api/cmd", false},
		{"/home/u/work/*", "/home/u/work", false},
		{"/home/u/work/**", "/home/u/work", true},
		{"/home/u/work/**", "/home/u/work/api/cmd", true},
		{"/home/u/work/**", "/home/u/workshop", false},
		{"/home/u/work/", "/home/u/work/api", true},
		{"/home/u/work/", "/home/u/work", true},
		{"/home/u/*/src/**", "/home/u/a/src/x/y", true},
		{"/home/u/*/src/**", "/home/u/a/b/src", false},
		{"/home/u/work", "/home/u/work/", true},
		{"/**", "/anything", true},
		{"", "/home/u", false},
	} {
		if got := Glob(c.glob).Match(c.dir); got != c.want {
			t.Errorf("Glob(%q).Match(%q) = %v; want %v", c.glob, c.dir, got, c.want)
		}
	}
}

func TestLoadTrailingSlashKept(t *testing.T) {
	c, warns := Load(write(t, "ask: {profiles: {w: {when: {cwd: '~/work/'}}}}\n"), "/home/u")
	if len(warns) != 0 || c.Ask.Profiles["w"].When.Cwd != "/home/u/work/" {
		t.Errorf("cwd = %q, %v; want /home/u/work/", c.Ask.Profiles["w"].When.Cwd, warns)
	}
}

func writeProject(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), ".hookd.yml")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadProject(t *testing.T) {
	p := writeProject(t, `ask:
  template: "project $_LAST"
  variables: {TEAM: web}
  skills:
    - {pattern: 'deploy', llm_prepend: "Use the staging cluster."}
  context_commands:
    - {name: Tests, command: make test, on_failure: fail, timeout: 30}
    - {command: git log -3}
  profiles:
    front: {when: {cwd: 'frontend/**'}, variables: {TEAM: front}}
    abs: {when: {cwd: '/srv/*'}}
`)
	a, warns := LoadProject(p)
	if len(warns) != 0 {
		t.Fatalf("warnings: %v", warns)
	}
	dir := filepath.Dir(p)
	if a.Template != "project $_LAST" || a.Variables["TEAM"] != "web" || len(a.Skills) != 1 || !a.Skills[0].Pattern.MatchString("deploy now") {
		t.Errorf("LoadProject = %+v", a)
	}
	cc := a.ContextCommands
	if len(cc) != 2 || cc[0] != (ContextCommand{"Tests", "make test", OnFailureFail, Duration(30 * time.Second)}) ||
		cc[1] != (ContextCommand{"", "git log -3", OnFailureWarn, Duration(DefaultContextTimeout)}) {
		t.Errorf("context commands = %+v", cc)
	}
	if g := a.Profiles["front"].When.Cwd; g != Glob(dir+"/frontend/**") {
		t.Errorf("relative profile pattern = %q; want it under %s", g, dir)
	}
	if g := a.Profiles["abs"].When.Cwd; g != "/srv/*" {
		t.Errorf("absolute pattern = %q", g)
	}
}

func TestLoadProjectWarnings(t *testing.T) {
	p := writeProject(t, `ask:
  prefix: "!!"
  budget: 100
  variables: {A: b}
  context_commands:
    - {name: no command}
    - {command: uptime, on_failure: explode}
    - {command: date}
  profiles:
    home: {when: {cwd: '~/x/**'}}
llm: {provider: openai}
colour: blue
`)
	a, warns := LoadProject(p)
	var got []string
	for _, w := range warns {
		got = append(got, w.String())
	}
	want := []string{
		":2:11: ask.prefix: only the user's config.yaml sets this; ignored",
		":3:11: ask.budget: only the user's config.yaml sets this; ignored",
		":6:7: ask.context_commands[0]: a context command needs a command; skipped",
		":7:37: ask.context_commands[1].on_failure: want warn, ignore or fail, not \"explode\"; using warn",
		":10:24: ask.profiles.home.when.cwd: a project's pattern is relative",
		":11:1: llm: unknown setting",
		":12:1: colour: unknown setting",
	}
	if len(got) != len(want) {
		t.Fatalf("warnings:\n%s", strings.Join(got, "\n"))
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) || !strings.HasPrefix(got[i], p) {
			t.Errorf("warning %d = %q; want it to hold %q", i, got[i], w)
		}
	}
	if a.Prefix != "" || a.Budget != 0 || a.Variables["A"] != "b" || a.Profiles["home"].When.Cwd != "" {
		t.Errorf("LoadProject = %+v", a)
	}
	var cmds []string
	for _, c := range a.ContextCommands {
		cmds = append(cmds, c.Command)
	}
	if strings.Join(cmds, ",") != "uptime,date" {
		t.Errorf("commands kept = %q", cmds)
	}
}

func TestLoadProjectBroken(t *testing.T) {
	for _, content := range []string{"ask: [unclosed\n", "- a list\n"} {
		a, warns := LoadProject(writeProject(t, content))
		if len(warns) != 1 || a.Template != "" || len(a.ContextCommands) != 0 || !strings.Contains(warns[0].String(), "ignoring the file") {
			t.Errorf("LoadProject(%q) = %+v, %v", content, a, warns)
		}
	}
	if _, warns := LoadProject(filepath.Join(t.TempDir(), "none")); len(warns) != 1 {
		t.Errorf("missing file: %v", warns)
	}
	a, warns := LoadProject(writeProject(t, "# nothing\n"))
	if len(warns) != 0 || a.Template != "" {
		t.Errorf("empty file: %+v %v", a, warns)
	}
}

// TestLoadProjectCannotExtendAllowlist: a project's .hookd.yml that tries
// to extend the prompt files' allowlist is warned about and ignored (and
// LoadProject returns nothing that could carry it); the user's own
// config.yaml extends it.
func TestLoadProjectCannotExtendAllowlist(t *testing.T) {
	p := writeProject(t, "prompt_files:\n  allow: ['rm *']\nask:\n  prompt_files: {allow: ['curl *']}\n")
	_, warns := LoadProject(p)
	var got []string
	for _, w := range warns {
		got = append(got, w.String())
	}
	all := strings.Join(got, "\n")
	if len(got) != 2 || !strings.Contains(all, ": prompt_files: only the user's config.yaml extends the prompt files' allowlist; ignored") ||
		!strings.Contains(all, "ask.prompt_files: unknown setting") {
		t.Errorf("warnings:\n%s", all)
	}
	c, warns := Load(write(t, "prompt_files:\n  allow: ['make -n*']\n"), "/home/u")
	if len(warns) != 0 || len(c.PromptFiles.Allow) != 1 || c.PromptFiles.Allow[0] != "make -n*" {
		t.Errorf("Load = %+v, %v", c.PromptFiles, warns)
	}
}
