package shellinit

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/hookd/hookd/internal/shellwords"
)

// fishAssign matches the start of a marked line of fish's script, up to
// its value: `set -g NAME `.
var fishAssign = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*set -g [A-Za-z_][A-Za-z0-9_]* `) })

// isKeyMarker reports whether marker's value is a key sequence in the
// notation of the shell's key binding command.
func isKeyMarker(marker string) bool {
	switch marker {
	case fixKeyMarker, aiKeyMarker, searchKeyMarker, searchUpMarker:
		return true
	}
	return false
}

// fishBindSeq writes key as fish escapes, outside quotes: \e, \cX for a
// control character, \x7f, letters and digits as they are, anything else
// as \xHH, so that the word is the key's bytes and nothing else.
func fishBindSeq(key []byte) string {
	var b strings.Builder
	for _, c := range key {
		switch {
		case c == 0x1b:
			b.WriteString(`\e`)
		case c >= 1 && c <= 26:
			b.WriteString(`\c` + string(rune(c+'`')))
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, `\x%02x`, c)
		}
	}
	return b.String()
}

// enterFish is Enter for fish: its _hookd_proxy function, a call, and the
// function erased.
func enterFish(src, bin string) (string, error) {
	start := strings.Index(src, "\nfunction _hookd_proxy\n")
	if start < 0 {
		return "", fmt.Errorf("script for fish: no _hookd_proxy function")
	}
	end := strings.Index(src[start:], "\nend\n")
	if end < 0 {
		return "", fmt.Errorf("script for fish: _hookd_proxy does not end")
	}
	return src[start+1:start+end+5] + "_hookd_proxy " + shellwords.QuoteFish(bin) + "\nfunctions -e _hookd_proxy\n", nil
}
