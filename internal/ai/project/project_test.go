package project

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/hookd/hookd/internal/ai/trust"
	"github.com/hookd/hookd/internal/config"
)

func mkfile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFind(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	t.Setenv("HOME", home)
	p := func(parts ...string) string { return filepath.Join(append([]string{root}, parts...)...) }
	// home/.hookd.yml: found from below home when no repository is between.
	mkfile(t, p("home", ".hookd.yml"), "")
	// A repository whose root has no .hookd.yml, under a dir that has one:
	// the search stops at the repository root.
	mkfile(t, p("home", "outer", ".hookd.yml"), "")
	os.MkdirAll(p("home", "outer", "repo", ".git"), 0o755)
	os.MkdirAll(p("home", "outer", "repo", "src", "deep"), 0o755)
	// A repository with one at its root, and a worktree (.git is a file).
	mkfile(t, p("home", "app", ".hookd.yml"), "")
	os.MkdirAll(p("home", "app", ".git"), 0o755)
	os.MkdirAll(p("home", "app", "cmd", "x"), 0o755)
	mkfile(t, p("home", "wt", ".git"), "gitdir: elsewhere\n")
	mkfile(t, p("home", "wt", "sub", ".hookd.yml"), "")
	os.MkdirAll(p("home", "wt", "sub", "a"), 0o755)
	// A directory named .hookd.yml is not a project file.
	os.MkdirAll(p("home", "plain", "x", ".hookd.yml"), 0o755)
	os.MkdirAll(p("elsewhere", "y"), 0o755)
	// Above home, outside any repository: never reached. Outside both, the
	// search is the working directory alone (issue 20: a file planted in
	// /tmp shaped questions asked in /tmp/x).
	mkfile(t, p(".hookd.yml"), "")
	mkfile(t, p("elsewhere", "z", ".hookd.yml"), "")
	for _, c := range []struct {
		cwd, want string
	}{
		{p("home", "outer", "repo", "src", "deep"), ""},
		{p("home", "outer", "repo"), ""},
		{p("home", "outer"), p("home", "outer", ".hookd.yml")},
		{p("home", "app", "cmd", "x"), p("home", "app", ".hookd.yml")},
		{p("home", "wt", "sub", "a"), p("home", "wt", "sub", ".hookd.yml")},
		{p("home", "plain", "x"), p("home", ".hookd.yml")},
		{p("home"), p("home", ".hookd.yml")},
		{p("elsewhere", "y"), ""},
		{p("elsewhere", "z"), p("elsewhere", "z", ".hookd.yml")},
	} {
		got, ok := Find(c.cwd)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("Find(%s) = %q, %v; want %q", strings.TrimPrefix(c.cwd, root), got, ok, c.want)
		}
	}
	dirs := Dirs(p("home", "outer", "repo", "src"), home)
	if want := []string{p("home", "outer", "repo", "src"), p("home", "outer", "repo")}; !reflect.DeepEqual(dirs, want) {
		t.Errorf("Dirs = %q; want %q", dirs, want)
	}
}

func cc(name, command string) config.ContextCommand {
	return config.ContextCommand{Name: name, Command: command, OnFailure: config.OnFailureWarn, Timeout: config.Duration(config.DefaultContextTimeout)}
}

func cfgSkill(pattern, text string) config.Skill {
	return config.Skill{Pattern: config.Regexp{Regexp: regexp.MustCompile(pattern)}, LLMPrepend: text}
}

func profile(cwd string, f func(p *config.Profile)) config.Profile {
	var p config.Profile
	p.When.Cwd = config.Glob(cwd)
	if f != nil {
		f(&p)
	}
	return p
}

func names(cs []Command) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name+"@"+c.Source)
	}
	return out
}

func skillTexts(ss []config.Skill) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.LLMPrepend)
	}
	return out
}

func TestSelect(t *testing.T) {
	user := config.Ask{
		Template:        "user template",
		Variables:       map[string]string{"TEAM": "core", "ME": "u"},
		Skills:          []config.Skill{cfgSkill("x", "user skill")},
		ContextCommands: []config.ContextCommand{cc("status", "git status")},
		Profiles: map[string]config.Profile{
			"work": profile("/home/u/work/**", func(p *config.Profile) {
				p.Variables = map[string]string{"TEAM": "payments"}
				p.ContextCommands = []config.ContextCommand{cc("kube", "kubectl config current-context")}
			}),
			// Matches too, but "work" sorts first: the first by name wins.
			"zwork": profile("/home/u/work/*", func(p *config.Profile) { p.Template = "zwork" }),
			"plain": profile("", func(p *config.Profile) { p.Template = "plain template" }),
		},
	}
	const pf = "/home/u/work/api/.hookd.yml"
	proj := func(st trust.State) *Project {
		return &Project{Path: pf, State: st, Ask: config.Ask{
			Variables:       map[string]string{"TEAM": "api", "REPO": "api"},
			Skills:          []config.Skill{cfgSkill("y", "project skill")},
			ContextCommands: []config.ContextCommand{cc("tests", "make test")},
			Profiles: map[string]config.Profile{
				"plain": profile("", func(p *config.Profile) { p.Template = "project plain" }),
			},
		}}
	}
	for _, c := range []struct {
		name      string
		proj      *Project
		cwd, prof string
		want      Settings
	}{
		{"no profile matches", nil, "/tmp", "", Settings{Template: "user template",
			Variables: map[string]string{"TEAM": "core", "ME": "u"}, Skills: user.Skills,
			Commands: []Command{{cc("status", "git status"), UserSource, ""}}}},
		{"profile by cwd: the dir itself under /**", nil, "/home/u/work", "", Settings{Profile: "work", Template: "user template",
			Variables: map[string]string{"TEAM": "payments"}, Skills: user.Skills,
			Commands: []Command{{cc("kube", "kubectl config current-context"), "config.yaml (profile work)", "work"}}}},
		{"profile by cwd, two match: first by name", nil, "/home/u/work/api", "", Settings{Profile: "work", Template: "user template",
			Variables: map[string]string{"TEAM": "payments"}, Skills: user.Skills,
			Commands: []Command{{cc("kube", "kubectl config current-context"), "config.yaml (profile work)", "work"}}}},
		{"profile by name", nil, "/home/u/work/api", "zwork", Settings{Profile: "zwork", Template: "zwork",
			Variables: map[string]string{"TEAM": "core", "ME": "u"}, Skills: user.Skills,
			Commands: []Command{{cc("status", "git status"), UserSource, ""}}}},
		{"trusted project layers over the user's", proj(trust.Allowed), "/home/u/work/api", "", Settings{Profile: "work", Template: "user template",
			Variables: map[string]string{"TEAM": "api", "REPO": "api"}, Skills: append(append([]config.Skill{}, user.Skills...), cfgSkill("y", "project skill")),
			Commands: []Command{{cc("kube", "kubectl config current-context"), "config.yaml (profile work)", "work"}, {cc("tests", "make test"), pf, ""}}}},
		{"changed project: commands skipped, the rest used", proj(trust.Changed), "/tmp", "", Settings{Template: "user template",
			Variables: map[string]string{"TEAM": "api", "REPO": "api", "ME": "u"}, Skills: append(append([]config.Skill{}, user.Skills...), cfgSkill("y", "project skill")),
			Commands: []Command{{cc("status", "git status"), UserSource, ""}}, Skipped: []Command{{cc("tests", "make test"), pf, ""}}, Untrusted: pf}},
		{"denied project", proj(trust.Denied), "/tmp", "", Settings{Template: "user template",
			Variables: map[string]string{"TEAM": "api", "REPO": "api", "ME": "u"}, Skills: append(append([]config.Skill{}, user.Skills...), cfgSkill("y", "project skill")),
			Commands: []Command{{cc("status", "git status"), UserSource, ""}}, Skipped: []Command{{cc("tests", "make test"), pf, ""}}, Untrusted: pf}},
		{"project profile wins on a name", proj(trust.Untrusted), "/tmp", "plain", Settings{Profile: "plain", Template: "project plain",
			Variables: map[string]string{"TEAM": "api", "REPO": "api", "ME": "u"}, Skills: append(append([]config.Skill{}, user.Skills...), cfgSkill("y", "project skill")),
			Commands: []Command{{cc("status", "git status"), UserSource, ""}}, Skipped: []Command{{cc("tests", "make test"), pf, ""}}, Untrusted: pf}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Select(user, c.proj, c.cwd, c.prof)
			if err != nil {
				t.Fatal(err)
			}
			if got.Profile != c.want.Profile || got.Template != c.want.Template || got.Untrusted != c.want.Untrusted ||
				!reflect.DeepEqual(got.Variables, c.want.Variables) ||
				!reflect.DeepEqual(skillTexts(got.Skills), skillTexts(c.want.Skills)) ||
				!reflect.DeepEqual(names(got.Commands), names(c.want.Commands)) ||
				!reflect.DeepEqual(names(got.Skipped), names(c.want.Skipped)) {
				t.Errorf("Select =\n%+v\nwant\n%+v", got, c.want)
			}
		})
	}
	// Select does not change what it was given.
	if user.Variables["TEAM"] != "core" || len(user.Skills) != 1 {
		t.Errorf("Select changed the user's section: %+v", user)
	}
}

func TestSelectProjectTemplateAndProfile(t *testing.T) {
	p := &Project{Path: "/p/.hookd.yml", State: trust.Allowed, Ask: config.Ask{
		Template:        "project template",
		ContextCommands: []config.ContextCommand{cc("a", "true")},
		Profiles: map[string]config.Profile{
			"front": profile("/p/frontend/**", func(p *config.Profile) {
				p.ContextCommands = []config.ContextCommand{cc("npm", "npm ls")}
			}),
		},
	}}
	got, err := Select(config.Ask{Template: "user"}, p, "/p/frontend/src", "")
	if err != nil {
		t.Fatal(err)
	}
	if got.Profile != "front" || got.Template != "project template" || !reflect.DeepEqual(names(got.Commands), []string{"npm@/p/.hookd.yml (profile front)"}) {
		t.Errorf("Select = %+v", got)
	}
	if cmds := names(p.Commands()); !reflect.DeepEqual(cmds, []string{"a@/p/.hookd.yml", "npm@/p/.hookd.yml (profile front)"}) {
		t.Errorf("Commands() = %q", cmds)
	}
}

func TestSelectUnknownProfile(t *testing.T) {
	user := config.Ask{Profiles: map[string]config.Profile{"work": {}, "home": {}}}
	proj := &Project{Ask: config.Ask{Profiles: map[string]config.Profile{"ci": {}}}}
	_, err := Select(user, proj, "/", "nope")
	if err == nil || !strings.Contains(err.Error(), `"nope"`) || !strings.Contains(err.Error(), "ci, home, work") {
		t.Errorf("unknown profile: %v; want it to list ci, home, work", err)
	}
	_, err = Select(config.Ask{}, nil, "/", "nope")
	if err == nil || !strings.Contains(err.Error(), "no profiles are defined") {
		t.Errorf("unknown profile, none defined: %v", err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, ".hookd.yml")
	mkfile(t, file, "ask:\n  context_commands:\n    - {command: 'echo hi'}\n  bogus: 1\n")
	store := trust.Store{Dir: filepath.Join(dir, "trust")}
	p, warns := Load(file, store)
	if p.State != trust.Untrusted || p.Trusted() || len(p.Ask.ContextCommands) != 1 || len(warns) != 1 || warns[0].Line != 4 {
		t.Fatalf("Load = %+v, %v", p, warns)
	}
	store.Allow(file)
	if p, _ = Load(file, store); !p.Trusted() || p.Path != file {
		t.Errorf("after Allow: %+v", p)
	}
}

// TestSkippedNote: the note for an untrusted file's commands says why as
// hookd allow --list does: not trusted, changed since it was allowed, or
// denied.
func TestSkippedNote(t *testing.T) {
	skipped := []Command{{ContextCommand: config.ContextCommand{Name: "Facts", Command: "make facts"}, Source: "/p/.hookd.yml"}}
	for _, tt := range []struct {
		state trust.State
		want  string
	}{
		{trust.Untrusted, "/p/.hookd.yml is not trusted: its context commands (Facts) were not run; `hookd allow /p/.hookd.yml` lets them run"},
		{trust.Changed, "/p/.hookd.yml changed since it was allowed: its context commands (Facts) were not run; `hookd allow /p/.hookd.yml` trusts what it says now"},
		{trust.Denied, "/p/.hookd.yml is denied: its context commands (Facts) were not run; `hookd allow /p/.hookd.yml` lets them run"},
	} {
		q := Question{Settings: Settings{Skipped: skipped, Untrusted: "/p/.hookd.yml", UntrustedState: tt.state}}
		if got := q.SkippedNote(); got != tt.want {
			t.Errorf("%v: %q\nwant %q", tt.state, got, tt.want)
		}
	}
	if got := (Question{}).SkippedNote(); got != "" {
		t.Errorf("nothing skipped: %q", got)
	}
}
