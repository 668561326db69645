package search

import (
	"context"
	"fmt"
	"sync"

	"github.com/hookd/hookd/history"
	"github.com/junegunn/fzf/src/util"
)

// corpus is the whole history in memory, in the shape a search wants it:
// every distinct command line once (texts), and every run of one as a row
// of parallel arrays (struct of arrays: a million runs take about 30 MB and
// are filtered in milliseconds). Runs are in id order.
type corpus struct {
	texts  []string
	chars  []charsT // texts, as fzf's matcher reads them
	textOf map[string]int32

	cwds  []string
	cwdOf map[string]int32

	sessions []string
	sessOf   map[string]int32
	// author is, by session index, the coding agent that ran the
	// session's commands ("" for the user's own shells): read from the
	// database, not the cache, each time there are new runs.
	author []string

	// The runs.
	id   []int64
	text []int32
	at   []int64
	cwd  []int32
	sess []int32
	exit []int32

	gen history.Generation // what the corpus holds: up to gen.MaxID

	// lower holds the texts in lower case, for the quick pass (quick.go).
	lowerOnce sync.Once
	lower     [][]byte
}

func newCorpus() *corpus {
	return &corpus{textOf: map[string]int32{}, cwdOf: map[string]int32{}, sessOf: map[string]int32{}}
}

func intern(list *[]string, index map[string]int32, s string) int32 {
	if i, ok := index[s]; ok {
		return i
	}
	i := int32(len(*list))
	*list = append(*list, s)
	index[s] = i
	return i
}

// textIndex returns the index of the command lines, made on first use (a
// corpus read from the cache has none until then).
func (c *corpus) textIndex() map[string]int32 {
	if c.textOf == nil {
		c.textOf = make(map[string]int32, len(c.texts))
		for i, t := range c.texts {
			if t != "" {
				c.textOf[t] = int32(i)
			}
		}
	}
	return c.textOf
}

func (c *corpus) addText(s string) int32 {
	if i, ok := c.textIndex()[s]; ok {
		return i
	}
	i := int32(len(c.texts))
	c.texts = append(c.texts, s)
	c.chars = append(c.chars, toChars(s))
	if c.lower != nil {
		c.lower = append(c.lower, lowerASCII(s))
	}
	c.textOf[s] = i
	return i
}

func (c *corpus) add(r history.Run) {
	c.id = append(c.id, r.ID)
	c.text = append(c.text, c.addText(r.Command))
	c.at = append(c.at, r.StartedAt)
	c.cwd = append(c.cwd, intern(&c.cwds, c.cwdOf, r.Cwd))
	c.sess = append(c.sess, intern(&c.sessions, c.sessOf, r.Session))
	c.exit = append(c.exit, int32(r.ExitCode))
}

// update reads what the store has beyond the corpus: the runs added since,
// or everything again when commands were deleted or the database replaced.
// It reports whether it read everything again.
func (c *corpus) update(ctx context.Context, s *history.Store) (*corpus, bool, error) {
	g, err := s.Generation(ctx)
	if err != nil {
		return nil, false, err
	}
	n := c
	full := false
	if c == nil || c.gen.Forget != g.Forget || g.MaxID < c.gen.MaxID || (c.gen.MaxID > 0 && s.Tag(ctx, c.gen.MaxID) != c.gen.Tag) {
		n, full = newCorpus(), true
	}
	if !full && g.MaxID == c.gen.MaxID && len(c.author) == len(c.sessions) {
		return c, false, nil
	}
	from := n.gen.MaxID
	if err := s.Runs(ctx, from, func(r history.Run) error {
		n.add(r)
		return nil
	}); err != nil {
		return nil, false, err
	}
	authors, err := s.SessionAuthors(ctx)
	if err != nil {
		return nil, false, err
	}
	n.author = make([]string, len(n.sessions))
	for i, id := range n.sessions {
		n.author[i] = authors[id]
	}
	if len(n.id) > 0 {
		last := n.id[len(n.id)-1]
		n.gen = history.Generation{MaxID: last, Forget: g.Forget, Tag: n.texts[n.text[len(n.text)-1]]}
	} else {
		n.gen = history.Generation{Forget: g.Forget}
	}
	return n, full, nil
}

func (c *corpus) String() string {
	return fmt.Sprintf("corpus{%d runs, %d distinct, up to id %d}", len(c.id), len(c.texts), c.gen.MaxID)
}

type charsT = util.Chars

func toChars(s string) charsT { return util.ToChars([]byte(s)) }

// drop removes every run of the command line t. The line keeps its index,
// with no run: it is never matched again, and the cache leaves it out.
func (c *corpus) drop(t int32) {
	k := 0
	for r := range c.id {
		if c.text[r] == t {
			continue
		}
		c.id[k], c.text[k], c.at[k], c.cwd[k], c.sess[k], c.exit[k] = c.id[r], c.text[r], c.at[r], c.cwd[r], c.sess[r], c.exit[r]
		k++
	}
	c.id, c.text, c.at, c.cwd, c.sess, c.exit = c.id[:k], c.text[:k], c.at[:k], c.cwd[:k], c.sess[:k], c.exit[:k]
	delete(c.textIndex(), c.texts[t])
	c.texts[t] = ""
	c.chars[t] = toChars("")
}
