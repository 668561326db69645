package learn

import (
	"reflect"
	"testing"
)

func TestDiff(t *testing.T) {
	tests := []struct {
		failed, fixed string
		want          Edit
		ok            bool
	}{
		{"deploy --prod x", "deploy --production x", Edit{Program: "deploy", Kind: Replace, From: "--prod", To: "--production"}, true},
		{"deploy x", "deploy --force x", Edit{Program: "deploy", Kind: Add, To: "--force"}, true},
		{"git push", "git push --force-with-lease", Edit{Program: "git", Kind: Add, To: "--force-with-lease", After: "push", AtEnd: true}, true},
		{"make", "make -j 4", Edit{Program: "make", Kind: Add, To: "-j 4", AtEnd: true}, true},
		{"tool -v --dry x", "tool --dry x", Edit{Program: "tool", Kind: Remove, From: "-v"}, true},
		{"deploy --env prod x", "deploy --env=production x", Edit{Program: "deploy", Kind: Replace, From: "--env prod", To: "--env=production"}, true},
		// Quoting: the words put in are kept as typed.
		{`say "hello world" x`, `say 'hello there' x`, Edit{Program: "say", Kind: Replace, From: `"hello world"`, To: `'hello there'`}, true},
		// A word with a backslash or $'…' is taken as typed, not by its
		// value (learned edits match words as typed).
		{`deploy a\ b x`, `deploy 'a b' x`, Edit{Program: "deploy", Kind: Replace, From: `a\ b`, To: `'a b'`}, true},
		{`deploy $'a' x`, `deploy a x`, Edit{Program: "deploy", Kind: Replace, From: `$'a'`, To: `a`}, true},
		{`deploy "a\$" x`, `deploy 'a$' x`, Edit{Program: "deploy", Kind: Replace, From: `"a\$"`, To: `'a$'`}, true},
		// Assignments and sudo before the program stay out of the edit.
		{"FOO=1 sudo deploy --prod x", "FOO=1 sudo deploy --production x", Edit{Program: "deploy", Kind: Replace, From: "--prod", To: "--production"}, true},
		// Not learned:
		{"deploy --prod x", "deploy --prod x", Edit{}, false},                           // identical
		{"deploy 'x'", "deploy x", Edit{}, false},                                       // only the quoting changed
		{"deploy --prod x", "ls", Edit{}, false},                                        // another program
		{"deploy --prod x", "cd x", Edit{}, false},                                      // another program
		{"deploy --token [REDACTED] x", "deploy --token [REDACTED] y", Edit{}, false},   // a secret
		{"deploy --prod x", "sudo deploy --prod x", Edit{}, false},                      // run another way
		{"deploy --prod x", "deploy --help", Edit{}, false},                             // asking for help
		{"deploy a b c", "deploy d e c2", Edit{}, false},                                // too much changed
		{"deploy a b", "deploy c d", Edit{}, false},                                     // nothing left in common
		{"deploy --prod x | tee log", "deploy --production x | tee log", Edit{}, false}, // not a simple command
		{"echo hi", "echo ho", Edit{}, false},                                           // a program not learned
		{"$CMD --prod", "$CMD --production", Edit{}, false},                             // not a literal program
	}
	for _, tt := range tests {
		got, ok := Diff(tt.failed, tt.fixed)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("Diff(%q, %q) = %+v, %v; want %+v, %v", tt.failed, tt.fixed, got, ok, tt.want, tt.ok)
		}
	}
}

func TestApply(t *testing.T) {
	tests := []struct {
		learnFrom, learnTo string
		failed, want       string
		ok                 bool
	}{
		{"deploy --prod x", "deploy --production x", "deploy --prod y", "deploy --production y", true},
		{"deploy --prod x", "deploy --production x", "deploy y '--prod'", "deploy y --production", true},
		{"deploy --prod x", "deploy --production x", "FOO=1 deploy  --prod   'a b' >log", "FOO=1 deploy  --production   'a b' >log", true},
		{"deploy --prod x", "deploy --production x", "sudo deploy --prod z", "sudo deploy --production z", true},
		{"deploy --prod x", "deploy --production x", "deploy --staging y", "", false},    // nothing to replace
		{"deploy --prod x", "deploy --production x", "other --prod y", "", false},        // another program
		{"deploy --prod x", "deploy --production x", "deploy --prod y && ls", "", false}, // not a simple command
		{"deploy x", "deploy --force x", "deploy y", "deploy --force y", true},
		{"deploy x", "deploy --force x", "deploy --force y", "", false}, // already there
		{"git push", "git push --force-with-lease", "git push origin main", "git push --force-with-lease origin main", true},
		{"tool a --yes", "tool a --yes --quiet", "tool b", "tool b --quiet", true},
		{"make", "make -j 4", "make all", "make all -j 4", true},
		{"tool -v --dry x", "tool --dry x", "tool -v y", "tool y", true},
		{"tool -v --dry x", "tool --dry x", "tool a -v", "tool a", true},
		{"tool -v --dry x", "tool --dry x", "tool y", "", false},
		{`say "hello world" x`, `say 'hello there' x`, `say 'hello world' y`, `say 'hello there' y`, true},
	}
	for _, tt := range tests {
		e, ok := Diff(tt.learnFrom, tt.learnTo)
		if !ok {
			t.Fatalf("Diff(%q, %q) learned nothing", tt.learnFrom, tt.learnTo)
		}
		got, ok := Apply(e, tt.failed)
		if ok != tt.ok || got != tt.want {
			t.Errorf("Apply(%s, %q) = %q, %v; want %q, %v", e.Describe(), tt.failed, got, ok, tt.want, tt.ok)
		}
	}
}

func TestScan(t *testing.T) {
	c := func(id int64, text string, exit int) Command { return Command{ID: id, Text: text, Exit: exit} }
	tests := []struct {
		name   string
		cmds   []Command
		pairs  [][2]int64 // failed, fixed ids
		vetoed []int64
	}{
		{"the fix right after", []Command{c(1, "deploy --prod x", 2), c(2, "deploy --production x", 0)}, [][2]int64{{1, 2}}, nil},
		{"other programs in between", []Command{c(1, "deploy --prod x", 2), c(2, "cat README", 0), c(3, "deploy --help", 0), c(4, "deploy --production x", 0)}, [][2]int64{{1, 4}}, nil},
		{"too far", []Command{c(1, "deploy --prod x", 2), c(2, "ls", 0), c(3, "ls", 0), c(4, "ls", 0), c(5, "deploy --production x", 0)}, nil, nil},
		{"another failed attempt first", []Command{c(1, "deploy --prod x", 2), c(2, "deploy --prd x", 2), c(3, "deploy --production x", 0)}, [][2]int64{{1, 3}, {2, 3}}, nil},
		{"the fix must succeed", []Command{c(1, "deploy --prod x", 2), c(2, "deploy --production x", 1)}, nil, nil},
		{"the same command again", []Command{c(1, "deploy --prod x", 2), c(2, "deploy --prod x", 0), c(3, "deploy --production x", 0)}, nil, nil},
		{"a step before, not a fix", []Command{c(1, "git push", 1), c(2, "git pull", 0), c(3, "git push", 0)}, nil, []int64{1}},
		{"another call of the program", []Command{c(1, "deploy --prod x", 2), c(2, "deploy status all now", 0), c(3, "deploy --production x", 0)}, nil, nil},
		{"interrupted", []Command{c(1, "deploy --prod x", 130), c(2, "deploy --production x", 0)}, nil, nil},
		{"not found", []Command{c(1, "deploy --prod x", 127), c(2, "deploy --production x", 0)}, nil, nil},
		{"a secret", []Command{c(1, "deploy --key [REDACTED] --prod", 2), c(2, "deploy --key [REDACTED] --production", 0)}, nil, nil},
		{"just cd", []Command{c(1, "deploy --prod x", 2), c(2, "cd x", 0)}, nil, nil},
	}
	for _, tt := range tests {
		pairs, vetoed := Scan(tt.cmds)
		var got [][2]int64
		for _, p := range pairs {
			got = append(got, [2]int64{p.Failed.ID, p.Fixed.ID})
		}
		if !reflect.DeepEqual(got, tt.pairs) || !reflect.DeepEqual(vetoed, tt.vetoed) {
			t.Errorf("%s: Scan = %v, vetoed %v; want %v, %v", tt.name, got, vetoed, tt.pairs, tt.vetoed)
		}
	}
}

func TestDescribe(t *testing.T) {
	e, _ := Diff("deploy --prod x", "deploy --production x")
	if got := e.Describe(); got != "replace `--prod` with `--production`" {
		t.Errorf("Describe = %q", got)
	}
}
