package redact

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// allTriggers returns the triggers of every built-in rule.
func allTriggers() []string {
	var ts []string
	for _, ru := range builtinRules() {
		ts = append(ts, ru.triggers...)
	}
	return ts
}

func hasTrigger(s string, triggers []string) bool {
	b := []byte(s)
	for i, c := range b {
		b[i] = lowerTable[c]
	}
	lower := string(b)
	for _, t := range triggers {
		if strings.Contains(lower, t) {
			return true
		}
	}
	return false
}

// TestNoTriggerUnchanged checks that text containing no trigger comes back
// byte-identical, whatever bytes it holds.
func TestNoTriggerUnchanged(t *testing.T) {
	triggers := allTriggers()
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"ls", "-la", "git", "status", "=", ":", "@", "$", "'", `"`, "\x1b[0m", "\xff", "é", "\n", "\r\n", "\t",
		"PATH=/usr/bin", "user:x@host", "-p", "--force", "make", "build", "KEY=v", "-----BEGIN", "{", "}", "/", "?", "#"}
	const alphabet = "abcdefgijklmnoqrsuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-=:@/'\"$\\"
	checked := 0
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		switch i % 3 {
		case 0: // arbitrary bytes
			for range rng.IntN(200) {
				b.WriteByte(byte(rng.UintN(256)))
			}
		case 1: // command-like text
			for range rng.IntN(12) {
				b.WriteString(words[rng.IntN(len(words))])
				b.WriteByte(" \t="[rng.IntN(3)])
			}
		default: // printable ASCII
			for range rng.IntN(120) {
				b.WriteByte(alphabet[rng.IntN(len(alphabet))])
			}
		}
		in := b.String()
		if hasTrigger(in, triggers) {
			continue
		}
		checked++
		if got, n := (*Redactor)(nil).String(in); got != in || n != 0 {
			t.Fatalf("String(%q) = %q, %d; want input unchanged", in, got, n)
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d trigger-free samples checked", checked)
	}
}
