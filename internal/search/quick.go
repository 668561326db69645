package search

import (
	"bytes"
	"runtime"
	"sync"
	"unicode/utf8"
)

// The quick pass. fzf's algorithm costs microseconds a line (V2 more than
// ten on a long one), too much for every one of a hundred thousand lines
// on each key. So each line is first matched on its ASCII bytes, lowered
// once, by a pass that only finds the characters in order (bytes.Index,
// bytes.IndexByte) and estimates fzf's score from where it found them: a
// word found whole scores as fzf's consecutive match does, one found with
// gaps less, a word boundary before it more. The best few hundred by that
// estimate are then scored by fzf's own algorithm, which orders the list
// and gives the positions to highlight. Lines beyond ASCII go to fzf's
// V1 directly.

// lowered returns the lines in lower case, ASCII ones only (nil for a line
// beyond ASCII), made once per corpus.
func (c *corpus) lowered() [][]byte {
	c.lowerOnce.Do(func() {
		c.lower = make([][]byte, len(c.texts))
		workers := runtime.GOMAXPROCS(0)
		var wg sync.WaitGroup
		for w := range workers {
			lo, hi := len(c.texts)*w/workers, len(c.texts)*(w+1)/workers
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := lo; i < hi; i++ {
					c.lower[i] = lowerASCII(c.texts[i])
				}
			}()
		}
		wg.Wait()
	})
	return c.lower
}

func lowerASCII(s string) []byte {
	b := make([]byte, len(s))
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch >= utf8.RuneSelf {
			return nil
		}
		if 'A' <= ch && ch <= 'Z' {
			ch += 'a' - 'A'
		}
		b[i] = ch
	}
	return b
}

// quickWord is one word of the query for the quick pass.
type quickWord struct {
	b             []byte // lowered unless caseSensitive
	caseSensitive bool
}

func quickWords(ps []pattern) []quickWord {
	ws := make([]quickWord, len(ps))
	for i, p := range ps {
		ws[i] = quickWord{b: []byte(string(p.runes)), caseSensitive: p.caseSensitive}
	}
	return ws
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= utf8.RuneSelf
}

// quickScore matches the line (lower: lowered; orig: as it is, for words
// with a capital) against the words in mode; ok is false when one does not
// match.
func quickScore(lower []byte, orig string, ws []quickWord, mode Mode) (score int, ok bool) {
	for _, w := range ws {
		text := lower
		if w.caseSensitive {
			text = []byte(orig)
		}
		n := len(w.b)
		switch mode {
		case Prefix:
			if !bytes.HasPrefix(bytes.TrimLeft(text, " "), w.b) {
				return 0, false
			}
			score += n * (scoreMatch + 8)
			continue
		case FullText:
			i := bytes.Index(text, w.b)
			if i < 0 {
				return 0, false
			}
			score += n*(scoreMatch+4) + boundary(text, i)
			continue
		}
		if i := bytes.Index(text, w.b); i >= 0 {
			score += n*(scoreMatch+4) + boundary(text, i)
			continue
		}
		first, last, pos := -1, -1, 0
		for _, ch := range w.b {
			j := bytes.IndexByte(text[pos:], ch)
			if j < 0 {
				return 0, false
			}
			if first < 0 {
				first = pos + j
			}
			last = pos + j
			pos += j + 1
		}
		gaps := last - first + 1 - n
		score += spread(n*scoreMatch-3-min(gaps, 40)+boundary(text, first), n, last-first+1)
	}
	return score, true
}

// boundary is the bonus of a match starting at i: after a space or at the
// start most, after other punctuation less.
func boundary(text []byte, i int) int {
	switch {
	case i == 0 || text[i-1] == ' ':
		return 16
	case !isWordByte(text[i-1]):
		return 12
	}
	return 0
}
