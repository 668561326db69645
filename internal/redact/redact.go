package redact

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Marker is the text that replaces every secret.
const Marker = "[REDACTED]"

// maxPasses bounds how often String re-runs the rules on its own output.
// A second pass finds something only when a replacement changes what a
// neighbouring rule sees (for example a word boundary next to the marker);
// in practice the built-in rules settle after the second pass.
const maxPasses = 4

// Redactor replaces secrets in text. The zero value and a nil *Redactor
// apply the built-in rules only. A Redactor is safe for concurrent use.
type Redactor struct {
	rules []rule // the built-in rules, then the extra ones
	// literals are secrets known by their value (an API key hookd holds),
	// replaced wherever they appear, whatever is around them.
	literals []string
}

// MinLiteral is the shortest value WithLiterals takes: a shorter one
// ("ollama", a placeholder) would redact ordinary words.
const MinLiteral = 12

// WithLiterals returns a Redactor that also replaces each of lits, as it
// is, wherever it appears: the values of the API keys hookd knows, which a
// tool may print bare. Values shorter than MinLiteral are left out. The
// work stays linear in the input for a fixed number of literals.
func (r *Redactor) WithLiterals(lits ...string) *Redactor {
	c := &Redactor{}
	if r != nil {
		*c = *r
	}
	c.literals = slices.Clone(c.literals)
	for _, l := range lits {
		if len(l) >= MinLiteral && !slices.Contains(c.literals, l) {
			c.literals = append(c.literals, l)
		}
	}
	// Longest first, so that a key holding another is replaced whole.
	slices.SortFunc(c.literals, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return c
}

// std is the Redactor used by a nil or zero *Redactor.
var std = sync.OnceValue(func() *Redactor { return &Redactor{rules: builtinRules()} })

// builtinIndex finds the triggers of the built-in rules; extra rules have
// none.
var builtinIndex = sync.OnceValue(func() *triggerIndex { return newTriggerIndex(builtinRules()) })

// New returns a Redactor with the built-in rules plus extra user regular
// expressions in Go RE2 syntax. If an extra pattern has a capture group named
// "secret", only that group is replaced; otherwise the whole match is. Extra
// patterns run on the whole input (they may span lines) and are not subject
// to the built-in filters for shell variables and placeholders; a match that
// is exactly Marker is left alone, but a pattern that matches parts of the
// marker makes String's result depend on the number of passes. A pattern
// that does not compile gives an error naming the pattern and its index.
func New(extra []string) (*Redactor, error) {
	if len(extra) == 0 {
		// The built-in rules alone: compiled when first used (a command
		// that redacts nothing does not pay for them).
		return &Redactor{}, nil
	}
	rules := slices.Clip(builtinRules())
	for i, p := range extra {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("redact: extra pattern %d (%q): %w", i, p, err)
		}
		rules = append(rules, rule{name: fmt.Sprintf("extra[%d]", i), line: newPattern(re), whole: true, user: true})
	}
	return &Redactor{rules: rules}, nil
}

// String returns s with every secret replaced by Marker, and how many
// secrets were replaced. Overlapping or adjacent secrets count as one.
func (r *Redactor) String(s string) (string, int) {
	total := 0
	if r != nil {
		for _, l := range r.literals {
			if n := strings.Count(s, l); n > 0 {
				s, total = strings.ReplaceAll(s, l, Marker), total+n
			}
		}
	}
	if r == nil || r.rules == nil {
		r = std()
	}
	for range maxPasses {
		out, n := r.pass(s)
		if n == 0 {
			break
		}
		s, total = out, total+n
	}
	return s, total
}

type span struct{ start, end int }

// pass applies every rule once and replaces the union of the found spans.
func (r *Redactor) pass(s string) (string, int) {
	var buf [16]hit
	hits := builtinIndex().find(s, buf[:0])
	if len(hits) == 0 && len(r.rules) == len(builtinRules()) {
		return s, 0
	}
	// Group the hits by rule; positions stay sorted within a rule.
	slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(a.rule, b.rule) })
	var spans, lines []span
	var pos []int
	for i := range r.rules {
		ru := &r.rules[i]
		pos = pos[:0]
		for len(hits) > 0 && hits[0].rule == i {
			if n := len(pos); n == 0 || pos[n-1] != hits[0].pos {
				pos = append(pos, hits[0].pos)
			}
			hits = hits[1:]
		}
		switch {
		case ru.user:
			spans = ru.findLine(s, 0, spans)
		case len(pos) == 0:
		case ru.whole:
			spans = ru.findLine(s, 0, spans)
		case ru.at != nil:
			spans = ru.findAnchored(s, pos, spans)
		default:
			lines = linesAt(s, pos, lines[:0])
			for _, l := range lines {
				spans = ru.findLine(s[l.start:l.end], l.start, spans)
			}
		}
	}
	if len(spans) == 0 {
		return s, 0
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	merged := spans[:1]
	for _, sp := range spans[1:] {
		last := &merged[len(merged)-1]
		if sp.start <= last.end {
			last.end = max(last.end, sp.end)
			continue
		}
		merged = append(merged, sp)
	}
	var b strings.Builder
	b.Grow(len(s) + len(merged)*len(Marker))
	prev := 0
	for _, sp := range merged {
		b.WriteString(s[prev:sp.start])
		b.WriteString(Marker)
		prev = sp.end
	}
	b.WriteString(s[prev:])
	return b.String(), len(merged)
}

// linesAt appends to dst the distinct lines of s that contain one of the
// sorted positions pos. Line bounds exclude the terminator; "\r" and "\n"
// both end a line.
func linesAt(s string, pos []int, dst []span) []span {
	for _, p := range pos {
		if len(dst) > 0 && p < dst[len(dst)-1].end {
			continue
		}
		ls := strings.LastIndexAny(s[:p], "\r\n") + 1
		le := len(s)
		if k := strings.IndexAny(s[p:], "\r\n"); k >= 0 {
			le = p + k
		}
		dst = append(dst, span{ls, le})
	}
	return dst
}
