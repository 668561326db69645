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

func TestIsName(t *testing.T) {
	for in, want := range map[string]bool{
		"PATH": true, "_x1": true, "VIRTUAL_ENV": true, "a": true,
		"": false, "1A": false, "A-B": false, "A;touch${IFS}pwned;B": false, "A B": false, "A=B": false,
		"É": false, "A\n": false, "$(id)": false,
	} {
		if got := IsName(in); got != want {
			t.Errorf("IsName(%q) = %v, want %v", in, got, want)
		}
	}
}
