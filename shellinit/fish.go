package shellinit

import (
	"fmt"
	"path/filepath"
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
	return fishCall(src, "_hookd_proxy", bin)
}

// Handover returns what fish's early line runs where its hookd becomes the
// proxy (package ptyshell's Handover): the script's _hookd_handover
// function, a call with the handover's directory, and the function erased.
func Handover(dir string) (string, error) {
	return fishCall(sources["fish"], "_hookd_handover", dir)
}

// fishCall is fish's function name from src, a call of it with arg, and
// the function erased.
func fishCall(src, name, arg string) (string, error) {
	def, err := fishFunction(src, name)
	if err != nil {
		return "", err
	}
	return def + name + " " + shellwords.QuoteFish(arg) + "\nfunctions -e " + name + "\n", nil
}

// fishFunction is the top-level function name of fish's script src, from
// its `function` line to its `end` line.
func fishFunction(src, name string) (string, error) {
	start := strings.Index(src, "\nfunction "+name+"\n")
	if start < 0 {
		return "", fmt.Errorf("script for fish: no %s function", name)
	}
	end := strings.Index(src[start:], "\nend\n")
	if end < 0 {
		return "", fmt.Errorf("script for fish: %s does not end", name)
	}
	return src[start+1 : start+end+5], nil
}

// FishEarly returns the file `hookd shell` puts in a vendor_conf.d of its
// own for the fish it starts (FishEarlyDir: fish reads the vendor_conf.d of
// every directory of XDG_DATA_DIRS, before config.fish). It holds what the
// early line prints under the proxy, and runs only in the fish that the
// proxy started with HOOKD_FISH_EARLY set: that fish gets XDG_DATA_DIRS back
// as it was ("set:VALUE", or unset), and then its config.fish's hookd lines
// are answered by the script's `hookd` function without a process.
func FishEarly(o Options) (string, error) {
	src, err := Early("fish", o)
	if err != nil {
		return "", err
	}
	return `# Written by hookd shell for the fish it starts (see hookd's shellinit.FishEarly).
if set -q HOOKD_FISH_EARLY
    if string match -q 'set:*' -- "$HOOKD_FISH_EARLY"
        set -gx XDG_DATA_DIRS (string sub -s 5 -- "$HOOKD_FISH_EARLY")
    else
        set -e XDG_DATA_DIRS
    end
    set -e HOOKD_FISH_EARLY
` + src + "end\n", nil
}

// FishEarlyFile is where FishEarly's file goes under dir, the directory
// put first in XDG_DATA_DIRS.
func FishEarlyFile(dir string) string {
	return filepath.Join(dir, "fish", "vendor_conf.d", "hookd-early.fish")
}
