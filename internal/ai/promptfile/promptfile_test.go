package promptfile

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"

	"github.com/hookd/hookd/internal/required"
)

// newProject makes a repository with files (path → content) and returns its
// places (no user directory; home is a directory of its own).
func newProject(t *testing.T, files map[string]string) Places {
	t.Helper()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, root, files)
	return PlacesFor(root, filepath.Join(t.TempDir(), "user"), t.TempDir())
}

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func load(t *testing.T, p Places, name string, args ...string) Result {
	t.Helper()
	r := Expand(context.Background(), name, args, Options{Places: p, Cwd: p.Root})
	if _, err := json.Marshal(r); err != nil {
		t.Fatal(err)
	}
	return r
}

// The prompt-file design's scenario "Cargar command simple sin expansiones".
func TestScenarioSimple(t *testing.T) {
	p := newProject(t, map[string]string{".claude/commands/simple.md": "Hello world"})
	r := load(t, p, "/simple")
	if !r.Success || r.Command.Content != "Hello world" || len(r.Expansions.Files) != 0 || len(r.Expansions.Bash) != 0 {
		t.Fatalf("%+v", r)
	}
	b, _ := json.Marshal(r)
	for _, want := range []string{`"files":[]`, `"bash":[]`, `"path":".claude/commands/simple.md"`, `"expandedAt":`, `"totalTokensEstimate":3`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON lacks %s: %s", want, b)
		}
	}
}

// The prompt-file design's scenario "Cargar command con @file reference".
func TestScenarioFileReference(t *testing.T) {
	p := newProject(t, map[string]string{".claude/commands/with-ref.md": "@.claude/docs/test.md", ".claude/docs/test.md": "Test content"})
	r := load(t, p, "load-security-not-this-one")
	if r.Success {
		t.Fatal("found a command that does not exist")
	}
	r = load(t, p, "with-ref")
	if !r.Success || !strings.Contains(r.Command.Content, "Test content") || !r.Expansions.Files[0].Resolved {
		t.Fatalf("%+v", r)
	}
}

// The prompt-file design's scenario "Cargar command con bash inline".
func TestScenarioBash(t *testing.T) {
	p := newProject(t, map[string]string{".claude/commands/with-bash.md": "Status: !`git status`"})
	os.Remove(filepath.Join(p.Root, ".git"))
	if out, err := exec.Command("git", "init", "-q", p.Root).CombinedOutput(); err != nil {
		required.Skip(t, fmt.Sprintf("git init: %v %s", err, out))
	}
	r := load(t, p, "/with-bash")
	if !r.Success || !r.Expansions.Bash[0].Executed || !strings.Contains(r.Command.Content, "On branch") {
		t.Fatalf("%+v %+v", r.Command, r.Expansions)
	}
}

// The prompt-file design's scenario "Command no existe".
func TestScenarioNotFound(t *testing.T) {
	p := newProject(t, nil)
	r := load(t, p, "/nonexistent")
	if r.Success || r.Error.Code != "COMMAND_NOT_FOUND" || len(r.Error.SearchedPaths) == 0 {
		t.Fatalf("%+v", r.Error)
	}
	if !strings.Contains(strings.Join(r.Error.SearchedPaths, " "), filepath.Join(".claude", "commands", "nonexistent.md")) {
		t.Errorf("searched: %v", r.Error.SearchedPaths)
	}
}

// The prompt-file design's scenario "@file reference no existe".
func TestScenarioBrokenRef(t *testing.T) {
	p := newProject(t, map[string]string{".claude/commands/broken-ref.md": "@.claude/nonexistent.md"})
	r := load(t, p, "/broken-ref")
	f := r.Expansions.Files[0]
	if !r.Success || f.Resolved || !strings.Contains(f.Error, "not found") {
		t.Fatalf("%+v", r)
	}
}

// The prompt-file design's scenario "Bash command no permitido".
func TestScenarioDangerous(t *testing.T) {
	p := newProject(t, map[string]string{".claude/commands/dangerous.md": "!`rm -rf /`"})
	r := load(t, p, "/dangerous")
	b := r.Expansions.Bash[0]
	if !r.Success || b.Executed || !strings.Contains(b.Error, "not allowed") {
		t.Fatalf("%+v", r)
	}
}

// The prompt-file design's scenario "Frontmatter parsing".
func TestScenarioFrontmatter(t *testing.T) {
	p := newProject(t, map[string]string{".claude/commands/with-meta.md": "---\ndescription: Load security patterns\nallowed-tools: [Read, \"Bash(git:*)\"]\n---\nBody\n"})
	r := load(t, p, "/with-meta")
	if r.Command.Frontmatter["description"] != "Load security patterns" {
		t.Errorf("%+v", r.Command.Frontmatter)
	}
	if _, ok := r.Command.Frontmatter["allowed-tools"].([]any); !ok {
		t.Errorf("allowed-tools: %#v", r.Command.Frontmatter["allowed-tools"])
	}
	if r.Command.Content != "Body\n" {
		t.Errorf("content %q", r.Command.Content)
	}
}

func TestFrontmatterNotAMapping(t *testing.T) {
	p := newProject(t, map[string]string{".hookd/commands/list.md": "---\n- a\n- b\n---\nBody\n"})
	r := load(t, p, "list")
	if !r.Success || len(r.Command.Frontmatter) != 0 || r.Command.Content != "Body\n" || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "not a mapping") {
		t.Fatalf("%+v %v", r.Command, r.Warnings)
	}
}

func TestArguments(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{"review $ARGUMENTS now", "review a b now"},
		{"first $0, second $1, third $2", "first a, second b, third $2"},
		{"$ARGUMENTS[0]/$ARGUMENTS[1]/$ARGUMENTS[5]", "a/b/$ARGUMENTS[5]"},
		{"no placeholder", "no placeholder\n\nARGUMENTS: a b\n"},
		// Named, as the frontmatter's arguments declare them.
		{"fix $issue on $issue-branch, $scope, $issuer", "fix a on b, $scope, $issuer"},
		{"$issue.", "a."},
	} {
		if got := Substitute(c.body, []string{"a", "b"}, []string{"issue", "issue-branch", "scope"}); got != c.want {
			t.Errorf("Substitute(%q) = %q, want %q", c.body, got, c.want)
		}
	}
}

func TestLookupOrderAndShadowing(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	user := filepath.Join(t.TempDir(), "hookd", "commands")
	home := t.TempDir()
	write(t, root, map[string]string{
		".hookd/commands/review.md":      "---\ndescription: project review\n---\nproject",
		"sub/.hookd/commands/review.md":  "nearest",
		".claude/commands/review.md":     "claude",
		".claude/commands/git/commit.md": "---\ndescription: commit\n---\ncommit $ARGUMENTS",
	})
	write(t, user, map[string]string{"review.md": "user", "mine.md": "mine"})
	write(t, home, map[string]string{".claude/commands/mine.md": "home claude"})
	p := PlacesFor(filepath.Join(root, "sub"), user, home)
	if p.Root != root {
		t.Fatalf("root %s", p.Root)
	}
	r := Expand(context.Background(), "/review", nil, Options{Places: p})
	if r.Command.Content != "nearest" {
		t.Errorf("review: %q", r.Command.Content)
	}
	r = Expand(context.Background(), "git/commit", []string{"x"}, Options{Places: p})
	if r.Command.Content != "commit x" || r.Command.Name != "git/commit" {
		t.Errorf("git/commit: %+v", r.Command)
	}
	files := p.List()
	var got []string
	for _, f := range files {
		s := f.Name + "@" + f.Place.Kind
		if f.ShadowedBy != "" {
			s += "(shadowed)"
		}
		got = append(got, s)
	}
	want := "git/commit@claude mine@user mine@claude-user(shadowed) review@project review@project(shadowed) review@user(shadowed) review@claude(shadowed)"
	if strings.Join(got, " ") != want {
		t.Errorf("List:\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	// A path works as a name.
	r = Expand(context.Background(), filepath.Join(root, ".claude/commands/review.md"), nil, Options{Places: p})
	if r.Command.Content != "claude" {
		t.Errorf("by path: %+v", r)
	}
}

func TestCycle(t *testing.T) {
	p := newProject(t, map[string]string{
		".hookd/commands/a.md": "A @.hookd/commands/b.md",
		".hookd/commands/b.md": "B @.hookd/commands/a.md",
		".hookd/commands/c.md": "C @.hookd/commands/d.md !`echo hi`",
		".hookd/commands/d.md": "---\ndescription: d\n---\nD $0",
	})
	r := load(t, p, "a")
	if r.Success || r.Error.Code != CodeCycle || !strings.Contains(r.Error.Message, ".hookd/commands/a.md → .hookd/commands/b.md → .hookd/commands/a.md") {
		t.Fatalf("%+v", r.Error)
	}
	r = load(t, p, "c", "x")
	if !r.Success || r.Command.Content != "C D x hi\n\nARGUMENTS: x\n" {
		t.Fatalf("%q %+v", r.Command.Content, r.Expansions)
	}
}

func TestFileOutsideProject(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "s.txt")
	os.WriteFile(outside, []byte("TOPSECRET"), 0o644)
	p := newProject(t, map[string]string{".hookd/commands/x.md": "@../../etc/passwd @" + outside + " @link.txt @dir/ok.txt", "dir/ok.txt": "fine"})
	os.Symlink(outside, filepath.Join(p.Root, "link.txt"))
	r := load(t, p, "x")
	if strings.Contains(r.Command.Content, "TOPSECRET") || strings.Contains(r.Command.Content, "root:") {
		t.Fatalf("leaked: %q", r.Command.Content)
	}
	fs := r.Expansions.Files
	if len(fs) != 4 || !fs[3].Resolved {
		t.Fatalf("%+v", fs)
	}
	for _, f := range fs[:3] {
		if f.Resolved || !(strings.Contains(f.Error, "outside the project") || strings.Contains(f.Error, "not found")) {
			t.Errorf("%+v", f)
		}
	}
	if !strings.Contains(fs[2].Error, "outside the project") {
		t.Errorf("symlink: %+v", fs[2])
	}
}

func TestBinaryAndHuge(t *testing.T) {
	p := newProject(t, map[string]string{
		".hookd/commands/bin.md": "abc\x00def",
		".hookd/commands/x.md":   "@blob @big",
		"blob":                   "\x7fELF\x00\x01",
		"big":                    strings.Repeat("x", MaxFile+1),
	})
	r := load(t, p, "bin")
	if r.Success || r.Error.Code != CodeInvalid || !strings.Contains(r.Error.Message, "binary") {
		t.Fatalf("%+v", r.Error)
	}
	r = load(t, p, "x")
	if !strings.Contains(r.Expansions.Files[0].Error, "binary") || !strings.Contains(r.Expansions.Files[1].Error, "too large") {
		t.Fatalf("%+v", r.Expansions.Files)
	}
	write(t, p.Root, map[string]string{".hookd/commands/huge.md": strings.Repeat("y", maxPrompt+1)})
	if r = load(t, p, "huge"); r.Success || !strings.Contains(r.Error.Message, "too large") {
		t.Fatalf("%+v", r.Error)
	}
}

func TestTimeoutAndCap(t *testing.T) {
	root := t.TempDir()
	start := time.Now()
	_, err := Run("sleep 10", root, nil, 200*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "timeout") || time.Since(start) > shelltest.Scale(9*time.Second) {
		t.Fatalf("err %v after %s", err, time.Since(start))
	}
	out, err := Run("seq 1 100000", root, nil, shelltest.Scale(30*time.Second))
	if err != nil || len(out) > MaxOutput+200 || !strings.Contains(out, "cut: output is capped") {
		t.Fatalf("err %v, %d bytes", err, len(out))
	}
	p := newProject(t, map[string]string{".hookd/commands/slow.md": "!`sleep 5`"})
	r := Expand(context.Background(), "slow", nil, Options{Places: p, Allow: Allowlist{Extra: []string{"sleep *"}}, Timeout: 100 * time.Millisecond})
	if b := r.Expansions.Bash[0]; b.Executed || !strings.Contains(b.Error, "timeout") {
		t.Fatalf("%+v", b)
	}
}

func TestAllowlist(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "f.txt"), []byte("x"), 0o644)
	a := Allowlist{Extra: []string{"wc -l*"}}
	for _, ok := range []string{"git status", "git diff HEAD~1", "git log --oneline -5", "git branch -a", "git remote -v",
		"ls -la", "ls", "cat f.txt", "cat ./f.txt", "echo 'hi there'", `echo "a b"`, "pwd", "date", "date +%Y",
		"git status && git log -1", "echo a | cat", "wc -l f.txt"} {
		if err := a.Check(ok, root); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, no := range []string{"rm -rf /", "cat /etc/passwd", "cat ../x", "ls /", "echo $(rm x)", "echo `id`", "echo $HOME",
		"echo x > f.txt", "cat < /etc/passwd", "git status; rm x", "git status && curl x", "echo a | sh", "git branch -D main",
		"git branch new", "git remote add x y", "git diff --output=x", "git diff --no-index /etc/passwd f.txt", "git -c a=b status",
		"FOO=1 echo", "echo *", "cat ~/x", "sleep 1 &", "(echo a)", "{ echo a; }", "date -s 2020-01-01", "make -n all", "pwd x",
		"echo a\\ b", "git status |& cat", "! echo", "if true; then echo; fi"} {
		if err := a.Check(no, root); err == nil || !strings.Contains(err.Error(), "not allowed") {
			t.Errorf("%s: allowed (%v)", no, err)
		}
	}
}

func mkdirFile(full, c string) error {
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		return err
	}
	return os.WriteFile(full, []byte(c), 0o644)
}

// TestNamedArguments: a prompt file's own arguments: list names them.
func TestNamedArguments(t *testing.T) {
	p := newProject(t, map[string]string{".hookd/commands/fix.md": "---\narguments: [issue, branch]\n---\nFix $issue on $branch ($0).\n"})
	r, ok := Question(t.Context(), []string{`/fix 42 "hot fix"`}, Options{Places: p, Cwd: p.Root})
	if !ok || !r.Success || r.Command.Content != "Fix 42 on hot fix (42).\n" {
		t.Fatalf("%v %+v", ok, r.Command)
	}
}
