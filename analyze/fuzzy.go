package analyze

import (
	"sort"
	"strings"
)

// distance returns the Damerau-Levenshtein distance between a and b, in its
// optimal-string-alignment form: insertions, deletions, substitutions and
// transpositions of adjacent characters each cost one. It works on bytes,
// which is right for the ASCII names it is used on.
func distance(a, b string) int {
	if a == b {
		return 0
	}
	la, lb := len(a), len(b)
	if la == 0 {
		return lb
	}
	if lb == 0 {
		return la
	}
	// Three rows suffice for the transposition look-back.
	prev2 := make([]int, lb+1)
	prev := make([]int, lb+1)
	cur := make([]int, lb+1)
	for j := 0; j <= lb; j++ {
		prev[j] = j
	}
	for i := 1; i <= la; i++ {
		cur[0] = i
		for j := 1; j <= lb; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[lb]
}

// isTransposition reports whether b is a with two adjacent characters
// swapped, the most common typo of all.
func isTransposition(a, b string) bool {
	if len(a) != len(b) || a == b {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
}

// maxTypos is how many edits a word of n characters may plausibly carry.
func maxTypos(n int) int {
	switch {
	case n <= 4:
		return 1
	case n <= 8:
		return 2
	default:
		return 3
	}
}

// match is a candidate correction with its similarity score (higher is
// better, at most 1).
type match struct {
	word  string
	score float64
	dist  int
}

// closest returns the candidates within typo distance of word, best first,
// ties broken lexically. Case differences alone count as nearly equal.
// bonus, when not nil, adds a preference (popularity, history) to a
// candidate's score.
func closest(word string, candidates []string, bonus func(string) float64) []match {
	if word == "" {
		return nil
	}
	lw := strings.ToLower(word)
	limit := maxTypos(len(word))
	seen := map[string]bool{}
	var out []match
	for _, c := range candidates {
		if c == "" || c == word || seen[c] {
			continue
		}
		seen[c] = true
		if abs(len(c)-len(word)) > limit {
			continue
		}
		lc := strings.ToLower(c)
		var score float64
		d := distance(lw, lc)
		switch {
		case lc == lw:
			score, d = 0.97, 0
		case d > limit:
			continue
		case d == 1 && isTransposition(lw, lc):
			score = 0.92
		default:
			score = 1 - float64(d)/float64(max(len(word), len(c), 3))
			if d == 1 {
				score = max(score, 0.8)
			}
			score = min(score, 0.88)
			if d >= 2 && len(word) <= 3 {
				continue
			}
		}
		if lc[0] != lw[0] {
			score -= 0.04
		}
		if bonus != nil {
			score += bonus(c)
		}
		out = append(out, match{word: c, score: score, dist: d})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].word < out[j].word
	})
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Closest returns the candidate a mistyped word most likely meant (within
// the typos a word of its length may carry), or "" when none is near:
// `hookd histroy` → history.
func Closest(word string, candidates []string) string {
	if m := closest(word, candidates, nil); len(m) > 0 {
		return m[0].word
	}
	return ""
}
