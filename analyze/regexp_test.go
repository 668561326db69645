package analyze

import (
	"regexp"
	"testing"
)

// TestRegexpsCompile compiles every pattern the rules declare, including
// those no other test reaches.
func TestRegexpsCompile(t *testing.T) {
	if len(allRegexps) < 100 {
		t.Fatalf("only %d patterns registered", len(allRegexps))
	}
	for _, l := range allRegexps {
		if _, err := regexp.Compile(l.src); err != nil {
			t.Errorf("pattern %q: %v", l.src, err)
		}
	}
}
