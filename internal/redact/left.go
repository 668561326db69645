package redact

import (
	"slices"
	"strings"
)

// left describes what must precede the trigger of an anchored rule. frag is
// the equivalent regular expression, used to build the rule's line pattern;
// fn checks the text before position p of s and returns where the key name
// starts (or -1 if the rule has no key).
type left struct {
	frag string
	fn   func(s string, p int) (ks int, ok bool)
}

// maxKeyPrefix bounds backward scans. A longer key name is cut, which only
// shortens the key passed to checks.
const maxKeyPrefix = 256

var (
	// leftAny: no condition.
	leftAny = left{"", func(string, int) (int, bool) { return -1, true }}
	// leftWord: a word boundary, like \b.
	leftWord = left{`\b`, func(s string, p int) (int, bool) {
		return -1, p == 0 || !isWordByte(s[p-1])
	}}
	// leftSpace: the start of a shell word.
	leftSpace = left{`(?:^|[ \t])`, func(s string, p int) (int, bool) {
		return -1, p == 0 || strings.IndexByte(" \t\r\n", s[p-1]) >= 0
	}}
	// leftKey: any identifier characters, which become part of the key name
	// (DB_PASSWORD, my.api-key).
	leftKey = left{`(?P<ks>)[A-Za-z0-9_.-]*`, func(s string, p int) (int, bool) {
		return scanBack(s, p, isKeyByte), true
	}}
	// leftFlag: "-" or "--" at the start of a word, then name characters.
	leftFlag = left{`(?:^|[ \t])--?(?P<ks>)[A-Za-z0-9_-]*`, func(s string, p int) (int, bool) {
		i := scanBack(s, p, func(c byte) bool { return isWordByte(c) || c == '-' })
		if i == p || s[i] != '-' || (i > 0 && strings.IndexByte(" \t\r\n", s[i-1]) < 0) {
			return 0, false
		}
		i++
		if i < p && s[i] == '-' {
			i++
		}
		return i, true
	}}
	// leftYAML: a key at the start of a line, after optional indentation,
	// a list or quote marker ("- ", "> ") and an opening quote.
	leftYAML = left{`^[ \t]*(?:[-<>*+][ \t]*)?["']?(?P<ks>)[A-Za-z0-9_.-]*`, func(s string, p int) (int, bool) {
		ks := scanBack(s, p, isKeyByte)
		i := ks
		if i > 0 && (s[i-1] == '"' || s[i-1] == '\'') {
			i--
		}
		i = scanBack(s, i, isBlank)
		if i > 0 && strings.IndexByte("-<>*+", s[i-1]) >= 0 {
			i = scanBack(s, i-1, isBlank)
		}
		return ks, i == 0 || s[i-1] == '\n' || s[i-1] == '\r'
	}}
	// leftScheme: a URL scheme.
	leftScheme = left{`(?i:\b[a-z][a-z0-9+.-]*)`, func(s string, p int) (int, bool) {
		i := scanBack(s, p, func(c byte) bool { return isWordByte(c) && c != '_' || strings.IndexByte("+.-", c) >= 0 })
		ok := i < p && (s[i]|0x20 >= 'a' && s[i]|0x20 <= 'z') && (i == 0 || !isWordByte(s[i-1]))
		return -1, ok
	}}
)

// scanBack returns the smallest i >= p-maxKeyPrefix such that every byte in
// s[i:p] satisfies in.
func scanBack(s string, p int, in func(byte) bool) int {
	i := p
	for i > 0 && p-i < maxKeyPrefix && in(s[i-1]) {
		i--
	}
	return i
}

func isKeyByte(c byte) bool { return isWordByte(c) || c == '.' || c == '-' }

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// maxCommandScan bounds how far back leftAfter looks for the command name.
const maxCommandScan = 4096

// leftAfter: an option of one of the given commands. The trigger starts a
// word, and earlier on the same line, not separated by one of the bytes in
// stops (shell operators), is one of cmds as a command word (at the start,
// or after a blank or "/"), followed by a blank. bases are prefixes of the
// cmds used to find them.
func leftAfter(stops string, bases []string, cmds ...string) left {
	frag := `(?:^|[ \t/])(?:` + strings.Join(cmds, "|") + `)(?:[ \t][^\r\n` + stops + `]*?)?[ \t]`
	return left{frag, func(s string, p int) (int, bool) {
		if p == 0 || !isBlank(s[p-1]) {
			return -1, false
		}
		lo := max(0, p-maxCommandScan)
		seg := s[lo:p]
		if i := strings.LastIndexAny(seg, "\r\n"+stops); i >= 0 {
			seg = seg[i+1:]
		}
		for _, b := range bases {
			for i := 0; ; {
				j := strings.Index(seg[i:], b)
				if j < 0 {
					break
				}
				j += i
				i = j + 1
				if j > 0 && strings.IndexByte(" \t/", seg[j-1]) < 0 {
					continue
				}
				k := j + len(b)
				for k < len(seg) && (isWordByte(seg[k]) || seg[k] == '-') {
					k++
				}
				if k < len(seg) && isBlank(seg[k]) && slices.Contains(cmds, seg[j:k]) {
					return -1, true
				}
			}
		}
		return -1, false
	}}
}

// leftConfig: the key argument of a "set" or "config" subcommand, after
// optional flags: npm config set //host/:_authToken X, git config --global
// user.password X, aws configure set aws_secret_access_key X.
var leftConfig = left{`(?:^|[ \t])(?:set|config)[ \t]+(?:-\S*[ \t]+)*(?P<ks>)\S*?`, func(s string, p int) (int, bool) {
	notBlank := func(c byte) bool { return c > ' ' }
	ks := scanBack(s, p, notBlank)
	for i, n := ks, 0; n < 8; n++ {
		j := scanBack(s, i, isBlank)
		if j == i {
			return 0, false
		}
		i = scanBack(s, j, notBlank)
		switch w := s[i:j]; {
		case w == "set" || w == "config":
			return ks, i == 0 || !notBlank(s[i-1])
		case w == "" || w[0] != '-':
			return 0, false
		}
	}
	return 0, false
}}
