package redact

import (
	"regexp"
	"strings"
)

// A rule is one pattern plus the filters deciding whether a match is a
// secret. It runs in one of three ways:
//
//   - anchored (at != nil): for every occurrence of a trigger, left checks
//     the text before it and at is matched starting exactly at the trigger.
//     A line with more than maxAttemptsPerLine occurrences is scanned with
//     line instead, which bounds the work per line.
//   - line: line is run on every line that contains a trigger.
//   - whole: line is run on the whole input if it contains a trigger (or
//     always, if there are no triggers).
type rule struct {
	name string
	// triggers are lowercase substrings; every match contains one of them
	// (case-insensitively). For anchored rules a match starts at one.
	triggers []string
	line     pattern
	at       *pattern
	left     left
	whole    bool
	// user rules come from New's extra patterns; they skip the built-in
	// value filters.
	user bool
	// check, if set, reports whether a candidate should be redacted.
	check func(c *candidate) bool
}

// pattern is a compiled regular expression with its group indexes.
type pattern struct {
	re *regexp.Regexp
	// secrets are the groups named "secret"; the first one taking part in a
	// match is replaced. Empty means the whole match.
	secrets []int
	key     int // group "key": the secret's key name (ends the key), or -1
	ks      int // empty group "ks": where the key name starts, or -1
}

func compile(expr string) pattern {
	re := regexp.MustCompile(expr)
	return newPattern(re)
}

func newPattern(re *regexp.Regexp) pattern {
	p := pattern{re: re, key: -1, ks: -1}
	for i, n := range re.SubexpNames() {
		switch n {
		case "secret":
			p.secrets = append(p.secrets, i)
		case "key":
			p.key = i
		case "ks":
			p.ks = i
		}
	}
	return p
}

// candidate describes one match for a rule's check. Offsets index text.
type candidate struct {
	text     string
	keyStart int // start of the key name, or -1
	keyEnd   int
	valStart int // the would-be secret is text[valStart:valEnd]
	valEnd   int
	end      int // end of the whole match
}

func (c *candidate) key() string {
	if c.keyStart < 0 {
		return ""
	}
	return c.text[c.keyStart:c.keyEnd]
}

func (c *candidate) value() string { return c.text[c.valStart:c.valEnd] }

// quote returns the quote character that opens the value, or 0 if the value
// is not quoted.
func (c *candidate) quote() byte {
	if c.valStart > 0 {
		if q := c.text[c.valStart-1]; q == '"' || q == '\'' {
			return q
		}
	}
	return 0
}

// candidate builds the candidate for match m of p, whose offsets are
// relative to text[shift:]. It reports false if no secret group took part.
func (p *pattern) candidate(text string, m []int, shift int) (candidate, bool) {
	c := candidate{text: text, keyStart: -1, valStart: m[0] + shift, valEnd: m[1] + shift, end: m[1] + shift}
	if len(p.secrets) > 0 {
		c.valStart = -1
		for _, g := range p.secrets {
			if m[2*g] >= 0 {
				c.valStart, c.valEnd = m[2*g]+shift, m[2*g+1]+shift
				break
			}
		}
		if c.valStart < 0 {
			return c, false
		}
	}
	if p.key >= 0 && m[2*p.key] >= 0 {
		c.keyStart, c.keyEnd = m[2*p.key]+shift, m[2*p.key+1]+shift
		if p.ks >= 0 && m[2*p.ks] >= 0 {
			c.keyStart = m[2*p.ks] + shift
		}
	}
	return c, true
}

// verdict tells what to do with a candidate.
type verdict int

const (
	skip   verdict = iota // nothing to redact (empty or already the marker)
	reject                // a match, but not a secret
	redact
)

func (ru *rule) judge(c *candidate) verdict {
	if c.valStart == c.valEnd || c.value() == Marker {
		return skip
	}
	if !ru.user && (notSecret(c.value(), c.quote()) || (ru.check != nil && !ru.check(c))) {
		return reject
	}
	return redact
}

// maxAttemptsPerLine bounds the anchored attempts of one rule on one line.
const maxAttemptsPerLine = 16

// findLine appends to dst the secret spans that ru.line finds in text,
// shifted by off.
func (ru *rule) findLine(text string, off int, dst []span) []span {
	for _, m := range ru.line.re.FindAllStringSubmatchIndex(text, -1) {
		c, ok := ru.line.candidate(text, m, 0)
		if !ok {
			continue
		}
		switch ru.judge(&c) {
		case reject:
			// The rejected match consumed text that may hold a real
			// match, as in TOKEN="${X} PASSWORD=y": look inside the value.
			// (Each byte is searched at most once more per nesting level,
			// and values do not nest much.)
			if c.valStart > m[0] || c.valEnd < m[1] {
				dst = ru.findLine(text[c.valStart:c.valEnd], off+c.valStart, dst)
			}
		case redact:
			dst = append(dst, span{off + c.valStart, off + c.valEnd})
		}
	}
	return dst
}

// findAnchored appends to dst the secret spans of an anchored rule in s,
// given the sorted trigger positions pos.
func (ru *rule) findAnchored(s string, pos []int, dst []span) []span {
	skipTo, lineEnd, attempts := 0, -1, 0
	for _, p := range pos {
		if p < skipTo {
			continue
		}
		if p >= lineEnd {
			lineEnd = len(s)
			if k := strings.IndexAny(s[p:], "\r\n"); k >= 0 {
				lineEnd = p + k
			}
			attempts = 0
		}
		if attempts++; attempts > maxAttemptsPerLine {
			ls := strings.LastIndexAny(s[:p], "\r\n") + 1
			dst = ru.findLine(s[ls:lineEnd], ls, dst)
			skipTo = lineEnd
			continue
		}
		ks, ok := ru.left.fn(s, p)
		if !ok {
			continue
		}
		m := ru.at.re.FindStringSubmatchIndex(s[p:lineEnd])
		if m == nil {
			continue
		}
		c, ok := ru.at.candidate(s, m, p)
		if !ok {
			continue
		}
		if ks >= 0 && c.keyStart >= 0 {
			c.keyStart = ks
		}
		switch ru.judge(&c) {
		case redact:
			dst = append(dst, span{c.valStart, c.valEnd})
			skipTo = c.end
		case reject:
			// Occurrences inside a rejected quoted value still count:
			// TOKEN="${X} PASSWORD=y".
			if c.quote() == 0 {
				skipTo = c.end
			}
		}
	}
	return dst
}

// notSecret reports whether v is obviously not a secret value: a shell
// expansion (unless single-quoted, where the shell takes it literally), a
// placeholder such as <token> or ****, or a JSON null/true/false. A lone
// "$" is what is left of $(cmd) after an unquoted value stops at "(".
func notSecret(v string, quote byte) bool {
	if quote != '\'' && isExpansion(v) {
		return true
	}
	if len(v) >= 2 && v[0] == '<' && v[len(v)-1] == '>' {
		return true
	}
	if strings.Trim(v, "*") == "" {
		return true
	}
	switch strings.TrimRight(v, ",]}") {
	case "$", "null", "true", "false":
		return true
	}
	return false
}

// isExpansion reports whether v starts with a shell parameter expansion or
// command substitution: $VAR, ${VAR}, $(cmd), $1, $@ and so on.
func isExpansion(v string) bool {
	if len(v) < 2 || v[0] != '$' {
		return false
	}
	c := v[1]
	return c == '{' || c == '(' || c == '_' || isWordByte(c) || strings.IndexByte("@*#?!$-", c) >= 0
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}
