package shellwords

import (
	"os/exec"
	"testing"

	"github.com/hookd/hookd/internal/required"
)

// TestQuoteFish: fish reads each quoted word back as exactly the input,
// backslashes and quotes included (Quote's form is not fish's for them).
func TestQuoteFish(t *testing.T) {
	fish := required.Tool(t, "fish", "REQUIRE_SHELLS")
	for _, s := range []string{"", "plain", "it's", `a\`, `a\'b`, `\\`, `'`, "$HOME (id) *", "a\nb", "日本", "\x1b[31m"} {
		out, err := exec.Command(fish, "--no-config", "-c", "printf %s "+QuoteFish(s)).Output()
		if err != nil || string(out) != s {
			t.Errorf("fish: printf %%s %s = %q, %v; want %q", QuoteFish(s), out, err, s)
		}
	}
}
