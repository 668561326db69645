package shellwords

import "testing"

func TestQuoteWord(t *testing.T) {
	for in, want := range map[string]string{
		"":              "''",
		"main":          "main",
		"feature/x-1.2": "feature/x-1.2",
		"dev$(touch x)": `'dev$(touch x)'`,
		"it's":          `'it'\''s'`,
		"a b":           "'a b'",
		"`id`":          "'`id`'",
		"x;y":           "'x;y'",
		"line\nbreak":   "'line\nbreak'",
	} {
		if got := QuoteWord(in); got != want {
			t.Errorf("QuoteWord(%q) = %q, want %q", in, got, want)
		}
	}
}
