package before

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
)

// TestNamedVariables: the variables a failure says it misses, in the
// words of real tools (each output below is what the tool printed on this
// machine), and none from outputs that name something else.
func TestNamedVariables(t *testing.T) {
	tests := []struct {
		out  string
		want []string
	}{
		{"bash: line 1: API_TOKEN: unbound variable\n", []string{"API_TOKEN"}},
		{"zsh:1: API_TOKEN: parameter not set\n", []string{"API_TOKEN"}},
		{"bash: line 1: API_TOKEN: API_TOKEN is not set\n", []string{"API_TOKEN"}},
		{"API_TOKEN is not set\n", []string{"API_TOKEN"}},
		{"Error: API_TOKEN environment variable is required\n    at [eval]:1:37\n", []string{"API_TOKEN"}},
		{"Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n  File \"<frozen os>\", line 679, in __getitem__\nKeyError: 'API_TOKEN'\n", []string{"API_TOKEN"}},
		{"Traceback (most recent call last):\n  File \"/w/app.py\", line 3, in <module>\n    token = os.environ[\"DB_URL\"]\nKeyError: 'DB_URL'\n", []string{"DB_URL"}},
		{"error: environment variable DATABASE_URL not found\n", []string{"DATABASE_URL"}},
		{"Missing required environment variable: STRIPE_KEY\n", []string{"STRIPE_KEY"}},
		{"TypeError: Cannot read properties of undefined (reading 'split')\n    process.env.PATHS is undefined\n", []string{"PATHS"}},
		{"$GOPATH must be set\n", []string{"GOPATH"}},
		// A dict's key, not the environment's.
		{"Traceback (most recent call last):\n  File \"/w/a.py\", line 2, in <module>\n    print(d[\"KEY\"])\nKeyError: 'KEY'\n", nil},
		{"make: *** No rule to make target 'all'.  Stop.\n", nil},
		{"error: the option X is not set in config\n", nil}, // one letter: no variable's name
	}
	for _, tt := range tests {
		if got := namedVariables(tt.out); !slices.Equal(got, tt.want) {
			t.Errorf("namedVariables(%q) = %q; want %q", tt.out, got, tt.want)
		}
	}
}

// TestAssigned: what each way of setting or clearing a variable in bash,
// zsh and fish leaves it at; prefix counts NAME=value before a command.
func TestAssigned(t *testing.T) {
	tests := []struct {
		line, shell string
		prefix      bool
		value       string
		set, found  bool
	}{
		{"export API_TOKEN=abc123", "bash", false, "abc123", true, true},
		{"export API_TOKEN='a b'", "bash", false, "a b", true, true},
		{"cd app && export API_TOKEN=x; ./deploy", "bash", false, "x", true, true},
		{"declare -x API_TOKEN=dx", "bash", false, "dx", true, true},
		{"typeset -gx API_TOKEN=tx", "zsh", false, "tx", true, true},
		{"export API_TOKEN", "bash", false, "", true, true},
		{"API_TOKEN=local", "bash", false, "", false, false}, // a shell variable, not exported
		{"unset API_TOKEN", "bash", false, "", false, true},
		{"export API_TOKEN=1; unset API_TOKEN", "bash", false, "", false, true},
		{"set -gx API_TOKEN fishy", "fish", false, "fishy", true, true},
		{"set --export API_TOKEN a b", "fish", false, "a b", true, true},
		{"set -g API_TOKEN notexported", "fish", false, "", false, false},
		{"set -e API_TOKEN", "fish", false, "", false, true},
		{"setenv API_TOKEN v", "fish", false, "v", true, true},
		{"API_TOKEN=p ./deploy", "bash", true, "p", true, true},
		{"API_TOKEN=p ./deploy", "bash", false, "", false, false}, // for that command alone
		{"echo API_TOKEN=x", "bash", false, "", false, false},
		{"export OTHER=1", "bash", false, "", false, false},
	}
	for _, tt := range tests {
		v, set, found := assigned(tt.line, tt.shell, "API_TOKEN", tt.prefix)
		if v != tt.value || set != tt.set || found != tt.found {
			t.Errorf("assigned(%q, %s, prefix %v) = %q, %v, %v; want %q, %v, %v", tt.line, tt.shell, tt.prefix, v, set, found,
				tt.value, tt.set, tt.found)
		}
	}
}

// TestFindNamedVariable: a variable the shell never noted (not in
// fix.watch_env), set by an export earlier in the session where the
// command last worked, is the difference that explains "API_TOKEN is not
// set" in a new shell without it: said, and restored by the fix, unless
// its value was redacted (said, no fix), the failing shell has it now, or
// it was unset before the success.
func TestFindNamedVariable(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	dir := t.TempDir()
	touch(t, filepath.Join(dir, "deploy.sh"), 0o755)
	base := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC).UnixMicro()
	add := func(session string, seq int64, cmd string, exit int) {
		tx, err := s.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		at := base + seq*60e6
		if _, err := tx.AddCommand(ctx, history.Entry{Session: session, Seq: seq, Command: cmd, ExitCode: exit, Cwd: dir, StartedAt: at}); err != nil {
			t.Fatal(err)
		}
		if err := tx.AddContext(ctx, session, seq, exit == 0, at, history.Context{Key: runctxKey(cmd), Dirty: -1}); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	entry := func(session string, seq int64) history.Entry {
		es, err := s.List(ctx, history.Query{Session: session})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if e.Seq == seq {
				return e
			}
		}
		t.Fatalf("no command %s/%d", session, seq)
		return history.Entry{}
	}
	unset := func(string) (string, bool) { return "", false }
	out := "deploy: API_TOKEN is not set\n"

	add("a", 1, "export API_TOKEN=tok-123", 0)
	add("a", 2, "ls", 0)
	add("a", 3, "./deploy.sh", 0)
	add("b", 4, "./deploy.sh", 1)
	c, err := Find(ctx, s, entry("b", 4), Options{Output: out, Environ: unset, Now: time.UnixMicro(base + 300e6)})
	if err != nil || c == nil {
		t.Fatalf("Find = %v, %v", c, err)
	}
	if !strings.Contains(c.Line, "with API_TOKEN=tok-123; now without API_TOKEN") {
		t.Errorf("line = %q", c.Line)
	}
	if len(c.Fixes) == 0 || c.Fixes[0].Command != "export API_TOKEN=tok-123" {
		t.Errorf("fixes = %+v; want export API_TOKEN=tok-123 first", c.Fixes)
	}
	// Set in the failing shell now: not what is missing.
	c, _ = Find(ctx, s, entry("b", 4), Options{Output: out, Environ: func(string) (string, bool) { return "x", true }})
	if c != nil && len(c.Fixes) > 0 {
		t.Errorf("with API_TOKEN set now: fixes %+v", c.Fixes)
	}
	// Without the shell's environment (hookd suggest not run by it):
	// nothing is said of a variable no shell noted.
	c, _ = Find(ctx, s, entry("b", 4), Options{Output: out})
	if c != nil && (len(c.Fixes) > 0 || strings.Contains(c.Line, "API_TOKEN")) {
		t.Errorf("without Environ: %q, %+v", c.Line, c.Fixes)
	}

	// A redacted value: said, not restored.
	add("c", 10, "export API_TOKEN=[REDACTED]", 0)
	add("c", 11, "./deploy.sh", 0)
	add("d", 12, "./deploy.sh", 1)
	c, err = Find(ctx, s, entry("d", 12), Options{Output: out, Environ: unset})
	if err != nil || c == nil || !strings.Contains(c.Line, "API_TOKEN set") {
		t.Fatalf("redacted: %+v, %v", c, err)
	}
	for _, f := range c.Fixes {
		if strings.Contains(f.Command, "API_TOKEN") {
			t.Errorf("a redacted value restored: %q", f.Command)
		}
	}

	// Unset before the last success: nothing to restore.
	add("e", 20, "export API_TOKEN=x; unset API_TOKEN", 0)
	add("e", 21, "./deploy.sh", 0)
	add("f", 22, "./deploy.sh", 1)
	c, _ = Find(ctx, s, entry("f", 22), Options{Output: out, Environ: unset})
	if c != nil && strings.Contains(c.Line, "API_TOKEN") {
		t.Errorf("unset before the success: %q", c.Line)
	}

	// Set for the command alone, on its own line.
	touch(t, filepath.Join(dir, "ship.sh"), 0o755)
	add("g", 30, "API_TOKEN=inline ./ship.sh", 0)
	add("h", 31, "./ship.sh", 1)
	c, _ = Find(ctx, s, entry("h", 31), Options{Output: out, Environ: unset})
	if c == nil || len(c.Fixes) == 0 || c.Fixes[0].Command != "export API_TOKEN=inline" {
		t.Errorf("prefix: %+v", c)
	}

	// A value someone else's history could hold comes back as one word:
	// a substitution, a separator, a leading dash stay text; a newline
	// in it offers nothing.
	for i, tt := range []struct{ set, want string }{
		{`export API_TOKEN='-rf $(touch pwned); id'`, `export API_TOKEN='-rf $(touch pwned); id'`},
		{`export API_TOKEN="it's \$(id)"`, `export API_TOKEN='it'\''s $(id)'`},
		{`export API_TOKEN=$'a
b'`, ""},
	} {
		script := fmt.Sprintf("hostile%d.sh", i)
		touch(t, filepath.Join(dir, script), 0o755)
		seq := int64(40 + 3*i)
		add(fmt.Sprintf("x%d", i), seq, tt.set, 0)
		add(fmt.Sprintf("x%d", i), seq+1, "./"+script, 0)
		add(fmt.Sprintf("y%d", i), seq+2, "./"+script, 1)
		c, err := Find(ctx, s, entry(fmt.Sprintf("y%d", i), seq+2), Options{Output: out, Environ: unset})
		if err != nil || c == nil {
			t.Fatalf("%s: %+v, %v", tt.set, c, err)
		}
		got := ""
		for _, f := range c.Fixes {
			if strings.Contains(f.Command, "API_TOKEN") {
				got = f.Command
			}
		}
		if got != tt.want {
			t.Errorf("after %s: fix %q; want %q", tt.set, got, tt.want)
		}
	}
}

// BenchmarkFindNamedVariable is what naming a missing variable adds to the
// failure path: Find for a failure whose output names one, the success's
// session holding 5,000 commands (every tenth naming the variable), with
// the shell's environment (the session's lines read) and without.
func BenchmarkFindNamedVariable(b *testing.B) {
	ctx := context.Background()
	s, err := history.Open(ctx, filepath.Join(b.TempDir(), "h.db"), time.Second)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	tx, err := s.Begin(ctx)
	if err != nil {
		b.Fatal(err)
	}
	base := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC).UnixMicro()
	add := func(session string, seq int64, cmd string, exit int) {
		at := base + seq*1e6
		if _, err := tx.AddCommand(ctx, history.Entry{Session: session, Seq: seq, Command: cmd, ExitCode: exit, Cwd: "/w", StartedAt: at}); err != nil {
			b.Fatal(err)
		}
		if err := tx.AddContext(ctx, session, seq, exit == 0, at, history.Context{Key: runctxKey(cmd), Dirty: -1}); err != nil {
			b.Fatal(err)
		}
	}
	for i := int64(1); i <= 5000; i++ {
		cmd := fmt.Sprintf("make target-%d", i%37)
		if i%10 == 0 {
			cmd = fmt.Sprintf("echo $API_TOKEN %d", i)
		}
		add("a", i, cmd, 0)
	}
	add("a", 5001, "export API_TOKEN=tok", 0)
	add("a", 5002, "./deploy.sh", 0)
	add("b", 5003, "./deploy.sh", 1)
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	es, _ := s.List(ctx, history.Query{Session: "b"})
	unset := func(string) (string, bool) { return "", false }
	for _, env := range []struct {
		name    string
		environ func(string) (string, bool)
	}{{"without", nil}, {"with", unset}} {
		b.Run(env.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Find(ctx, s, es[0], Options{Output: "API_TOKEN is not set\n", Environ: env.environ}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestHomeProgramNotMissing: a program run as ~/r.sh is the file in the
// home directory, not one named "~" in the working directory: it is not
// said to be missing when it is there (it was, before: "~/r.sh is
// missing" beside the real difference).
func TestHomeProgramNotMissing(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	touch(t, filepath.Join(home, "r.sh"), 0o755)
	run := func(exit int) Run {
		return Run{Command: "~/r.sh", ExitCode: exit, Cwd: work, Known: true, Context: history.Context{Dirty: -1}}
	}
	c := Compare(run(0), run(1), Options{Home: home})
	for _, d := range c.Differences {
		if d.Kind == KindFile {
			t.Errorf("difference %+v: ~/r.sh is in the home directory", d)
		}
	}
}
