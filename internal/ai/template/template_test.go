package template

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestExpand(t *testing.T) {
	calls := map[string]int{}
	builtin := func(name, val string) Builtin {
		return func() (string, error) { calls[name]++; return val, nil }
	}
	v := Vars{
		Builtin: map[string]Builtin{
			"_SCREEN":      builtin("_SCREEN", "$ ls\nfile $_LAST $$ ${_CWD}"),
			"_LAST":        builtin("_LAST", "last block"),
			"_LLM_PREPEND": builtin("_LLM_PREPEND", "skill text"),
			"_CWD":         builtin("_CWD", "/src"),
			"_GIT":         builtin("_GIT", "main, clean"),
			"_OS":          builtin("_OS", "Linux"),
			"_SHELL":       builtin("_SHELL", "zsh"),
		},
		User: map[string]string{
			"PROJECT":     "hookd in $_CWD",
			"LLM_CONTEXT": "$_LLM_PREPEND\n## $PROJECT (${PROJECT}s)",
			"PRICE":       "costs $$5",
		},
	}
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{"$_SCREEN", "$ ls\nfile $_LAST $$ ${_CWD}"}, // built-ins are never expanded again
		{"[$_LAST][$_CWD][$_GIT][$_OS][$_SHELL]", "[last block][/src][main, clean][Linux][zsh]"},
		{"$LLM_CONTEXT", "skill text\n## hookd in /src (hookd in /srcs)"},
		{"$PRICE and $$HOME", "costs $5 and $HOME"},
		{"$HOME stays, ${NOPE} stays, $ alone, $1, ${bad name}", "$HOME stays, ${NOPE} stays, $ alone, $1, ${bad name}"},
		{"$_TYPO and ${_OTHER}x", "$_TYPO and ${_OTHER}x"},
		{"a$_CWD/b", "a/src/b"},
		{"trailing $", "trailing $"},
	} {
		got, _, err := Expand(c.in, v)
		if err != nil || got != c.want {
			t.Errorf("Expand(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	_, res, _ := Expand("$_TYPO $LLM_CONTEXT $_TYPO $_NEW", v)
	if want := []string{"_TYPO", "_NEW"}; !reflect.DeepEqual(res.Unknown, want) {
		t.Errorf("Unknown = %v, want %v", res.Unknown, want)
	}
	if want := []string{"LLM_CONTEXT", "_LLM_PREPEND", "PROJECT", "_CWD"}; !reflect.DeepEqual(res.Used, want) {
		t.Errorf("Used = %v, want %v", res.Used, want)
	}
	calls = map[string]int{}
	Expand("$_CWD $_CWD ${_CWD}", v)
	if calls["_CWD"] != 1 || calls["_GIT"] != 0 {
		t.Errorf("built-ins computed %v; want _CWD once and nothing unused", calls)
	}
}

func TestUserOverridesBuiltin(t *testing.T) {
	got, _, _ := Expand("$_OS", Vars{Builtin: map[string]Builtin{"_OS": func() (string, error) { return "Linux", nil }}, User: map[string]string{"_OS": "Plan 9"}})
	if got != "Plan 9" {
		t.Errorf("got %q, want the user's value", got)
	}
}

func TestCycle(t *testing.T) {
	v := Vars{User: map[string]string{"A": "a $B", "B": "b ${C}", "C": "c $A", "D": "$D"}}
	_, _, err := Expand("x $A", v)
	var ce *CycleError
	if !errors.As(err, &ce) || !reflect.DeepEqual(ce.Names, []string{"A", "B", "C", "A"}) {
		t.Fatalf("err = %v, want the cycle A → B → C → A", err)
	}
	if !strings.Contains(err.Error(), "$A → $B → $C → $A") {
		t.Errorf("message %q does not name the variables", err)
	}
	if _, _, err := Expand("$D", v); err == nil || !strings.Contains(err.Error(), "$D → $D") {
		t.Errorf("self reference: %v", err)
	}
	if err := Check(v.User); err == nil {
		t.Error("Check found no cycle")
	}
	if err := Check(map[string]string{"A": "$B $B", "B": "$C", "C": "c $_SCREEN"}); err != nil {
		t.Errorf("Check of a diamond: %v", err)
	}
	// A cycle the template does not reach does not stop it.
	if got, _, err := Expand("fine", v); err != nil || got != "fine" {
		t.Errorf("got %q, %v", got, err)
	}
}

func TestBuiltinError(t *testing.T) {
	boom := errors.New("not a repository")
	_, _, err := Expand("$_GIT", Vars{Builtin: map[string]Builtin{"_GIT": func() (string, error) { return "", boom }}})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "$_GIT") {
		t.Errorf("err = %v", err)
	}
}

func FuzzExpand(f *testing.F) {
	for _, s := range []string{"$A", "${A}", "$$", "$", "${", "${}", "$_X$", "a$B$$c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := Vars{User: map[string]string{"A": "$B", "B": "b"}, Builtin: map[string]Builtin{"_X": func() (string, error) { return "$A", nil }}}
		out, _, err := Expand(s, v)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(s, "$") && out != s {
			t.Fatalf("text without a dollar changed: %q → %q", s, out)
		}
	})
}
