package redact

import "strings"

// triggerIndex finds all trigger occurrences of a rule list in one pass:
// a bitset over the (lowercased) first two bytes of every trigger tells
// which positions can start one.
type triggerIndex struct {
	bits    [1 << 16 / 64]uint64
	bucket  [1 << 16]uint8 // first two bytes -> 1 + index into buckets
	buckets [][]trigger
}

type trigger struct {
	s     string // lowercase, at least two bytes
	rules []int  // indexes of the rules that have it
}

var lowerTable = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] = byte(i + 'a' - 'A')
		}
	}
	return t
}()

func newTriggerIndex(rules []rule) *triggerIndex {
	x := &triggerIndex{}
	byString := map[string]int{} // trigger -> bucket<<8 | position
	for ri, ru := range rules {
		for _, t := range ru.triggers {
			if len(t) < 2 || t != strings.ToLower(t) {
				panic("redact: trigger " + t + " of rule " + ru.name + " must be lowercase and at least two bytes")
			}
			if k, ok := byString[t]; ok {
				b := &x.buckets[k>>8][k&0xff]
				b.rules = append(b.rules, ri)
				continue
			}
			key := uint16(t[0])<<8 | uint16(t[1])
			if x.bucket[key] == 0 {
				x.buckets = append(x.buckets, nil)
				x.bucket[key] = uint8(len(x.buckets))
				x.bits[key>>6] |= 1 << (key & 63)
			}
			bi := int(x.bucket[key]) - 1
			byString[t] = bi<<8 | len(x.buckets[bi])
			x.buckets[bi] = append(x.buckets[bi], trigger{s: t, rules: []int{ri}})
		}
	}
	if len(x.buckets) > 255 {
		panic("redact: too many trigger prefixes")
	}
	return x
}

// hit is an occurrence of a trigger of rule at pos.
type hit struct{ rule, pos int }

// find appends to dst the occurrences in s (ASCII case-insensitively) of
// all triggers, ordered by position.
func (x *triggerIndex) find(s string, dst []hit) []hit {
	for i := 0; i+1 < len(s); i++ {
		key := uint16(lowerTable[s[i]])<<8 | uint16(lowerTable[s[i+1]])
		if x.bits[key>>6]&(1<<(key&63)) == 0 {
			continue
		}
		for _, t := range x.buckets[x.bucket[key]-1] {
			if hasPrefixFold(s[i:], t.s) {
				for _, r := range t.rules {
					dst = append(dst, hit{r, i})
				}
			}
		}
	}
	return dst
}

// hasPrefixFold reports whether s starts with the lowercase ASCII prefix,
// ignoring ASCII case in s.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 2; i < len(prefix); i++ { // the first two bytes matched already
		if lowerTable[s[i]] != prefix[i] {
			return false
		}
	}
	return true
}
