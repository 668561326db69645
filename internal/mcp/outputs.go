package mcp

import (
	"context"
	"fmt"
	"github.com/hookd/hookd/internal/ui/units"
	"regexp"
	"regexp/syntax"
	"strings"
	"time"
	"unicode"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/recall"
)

// search_output's bounds: an agent's pattern is a stranger's input. RE2
// matches in time linear in the text, but linear in a gigabyte is still
// long, so a call stops at whichever comes first: the deadline, the
// bytes read, the outputs read, the matching lines asked for.
var (
	// searchDeadline bounds one call's time.
	searchDeadline = 2 * time.Second
	// maxScanBytes bounds the text one call reads, in bytes.
	maxScanBytes int64 = 64 << 20
)

// candidateSteps are how many outputs that could match are looked up, in
// turn, until enough lines match: the last is the most one call reads.
var candidateSteps = []int{50, 400, maxCandidates}

const (
	// maxCandidates bounds the outputs one call reads.
	maxCandidates = 2000
	// maxMatchLine bounds the part of a line matched, in bytes: a single
	// line of megabytes would otherwise be one long step.
	maxMatchLine = 64 << 10
	// maxPattern bounds query and regex, in bytes.
	maxPattern = 1000
	// defaultMatches and maxMatches bound the matching lines given.
	defaultMatches, maxMatches = 20, 100
	// maxContextLines bounds context_lines.
	maxContextLines = 10
)

// SearchOutputIn are search_output's arguments.
type SearchOutputIn struct {
	Query        string `json:"query,omitempty" jsonschema:"words a line of output holds, all of them, any case (found through the output index: each word at the start of a word of the output)"`
	Regex        string `json:"regex,omitempty" jsonschema:"instead of query: a regular expression a line matches (RE2 syntax, case-insensitive)"`
	ContextLines *int   `json:"context_lines,omitempty" jsonschema:"lines of context around each match (default 2, at most 10)"`
	Filters
	Limit int `json:"limit,omitempty" jsonschema:"at most this many matching lines (default 20, at most 100)"`
}

// OutputHits are the lines of one command's output that matched.
type OutputHits struct {
	Info
	Matches int `json:"matches" jsonschema:"matching lines given from this output"`
	// Lines are the matches with their context, grep -n style ("N:
	// match", "N- context", "--" between groups).
	Lines string `json:"lines"`
}

// SearchOutputOut is search_output's result.
type SearchOutputOut struct {
	Commands []OutputHits `json:"commands" jsonschema:"newest first"`
	Matches  int          `json:"matches" jsonschema:"matching lines given in all"`
	// Outputs and Bytes are how much was read.
	Outputs int   `json:"outputs_read"`
	Bytes   int64 `json:"bytes_read"`
	// Complete says every output within the filters that could match was
	// read: no bound was reached.
	Complete bool   `json:"complete"`
	Note     string `json:"note,omitempty"`
}

// matcher matches a line of output.
type matcher func(line string) bool

// outputPattern reads search_output's query or regex: the line matcher,
// and the words that narrow the outputs through the index (none: every
// output is a candidate).
func outputPattern(query, regex string) (matcher, []string, error) {
	switch {
	case query == "" && regex == "":
		return nil, nil, badArg("give query (words) or regex")
	case query != "" && regex != "":
		return nil, nil, badArg("give query or regex, not both")
	case len(query) > maxPattern || len(regex) > maxPattern:
		return nil, nil, badArg("the pattern is longer than %d bytes", maxPattern)
	}
	if query != "" {
		words := strings.Fields(strings.ToLower(query))
		return func(line string) bool {
			l := strings.ToLower(line)
			for _, w := range words {
				if !strings.Contains(l, w) {
					return false
				}
			}
			return true
		}, words, nil
	}
	re, err := regexp.Compile("(?i)" + regex)
	if err != nil {
		return nil, nil, badArg("regex: not a regular expression (RE2 syntax): %v", err)
	}
	return re.MatchString, regexWords(regex), nil
}

// regexWords returns words every match of re holds at the start of a word
// (so that the output index, which matches at word starts, can narrow the
// outputs to read without losing one): the letters and digits of its
// literal parts that follow a character that is neither, within them.
func regexWords(re string) []string {
	p, err := syntax.Parse(re, syntax.Perl|syntax.FoldCase)
	if err != nil {
		return nil
	}
	p = p.Simplify()
	var lits []string
	var walk func(*syntax.Regexp)
	walk = func(r *syntax.Regexp) {
		switch r.Op {
		case syntax.OpLiteral:
			lits = append(lits, string(r.Rune))
		case syntax.OpConcat, syntax.OpCapture:
			for i, s := range r.Sub {
				if i > 0 && s.Op == syntax.OpLiteral {
					switch r.Sub[i-1].Op {
					case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpWordBoundary:
						// ^error, \berror: the literal starts a word.
						lits = append(lits, " "+string(s.Rune))
						continue
					}
				}
				walk(s)
			}
		case syntax.OpPlus:
			// x+ holds x at least once.
			walk(r.Sub[0])
		case syntax.OpRepeat:
			if r.Min > 0 {
				walk(r.Sub[0])
			}
		}
	}
	walk(p)
	var words []string
	for _, l := range lits {
		rs := []rune(strings.ToLower(l))
		for i := 1; i < len(rs); i++ {
			if isWordRune(rs[i-1]) || !isWordRune(rs[i]) {
				continue
			}
			j := i
			for j < len(rs) && isWordRune(rs[j]) {
				j++
			}
			// A word cut by the literal's end may go on in the text:
			// the index's prefix match wants 3 characters.
			if j < len(rs) || j-i >= 3 {
				words = append(words, string(rs[i:j]))
			}
			i = j
		}
	}
	return words
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func (t *tools) searchOutput(ctx context.Context, _ *sdk.CallToolRequest, in SearchOutputIn) (*sdk.CallToolResult, SearchOutputOut, error) {
	out := SearchOutputOut{Commands: []OutputHits{}}
	match, words, err := outputPattern(in.Query, in.Regex)
	if err != nil {
		return nil, out, err
	}
	ctxLines := 2
	if in.ContextLines != nil {
		ctxLines = *in.ContextLines
	}
	if ctxLines < 0 || ctxLines > maxContextLines {
		return nil, out, badArg("context_lines must be from 0 to %d, not %d", maxContextLines, ctxLines)
	}
	n, note, err := limit(in.Limit, defaultMatches, maxMatches)
	if err != nil {
		return nil, out, err
	}
	f, err := t.readFilters(in.Filters)
	if err != nil {
		return nil, out, err
	}
	q := history.OutputSearch{Words: words, Failed: in.Failed, Limit: maxCandidates, Authors: f.authors, Cwd: f.cwd, Since: f.since}
	var stop string
	err = t.call(ctx, func(s *history.Store) error {
		dctx, cancel := context.WithTimeout(ctx, searchDeadline)
		defer cancel()
		var ok bool
		if q.Session, ok, err = sessionArg(ctx, s, in.Session); !ok {
			return err
		}
		rd := t.o.Reader(s)
		// The candidates are looked up a few first, then more: the newest
		// outputs of a common word hold the lines asked for, and looking
		// up thousands of them would cost more than reading a few.
		seen := map[int64]bool{}
		for _, lim := range candidateSteps {
			q.Limit = lim
			cands, err := s.SearchOutputs(dctx, q)
			if dctx.Err() != nil {
				stop = fmt.Sprintf("the time limit (%s) ran out", searchDeadline)
				return nil
			}
			if err != nil {
				return err
			}
			fresh := cands[:0:0]
			for _, en := range cands {
				if !seen[en.ID] {
					seen[en.ID] = true
					fresh = append(fresh, en)
				}
			}
			if stop = t.scanOutputs(dctx, rd, fresh, match, ctxLines, n, &out); stop != "" || len(cands) < lim {
				return nil
			}
		}
		stop = fmt.Sprintf("it read the newest %d outputs that could match", maxCandidates)
		return nil
	})
	if err != nil {
		return nil, out, err
	}
	out.Complete = stop == ""
	var notes []string
	if stop != "" {
		notes = append(notes, "stopped early: "+stop+"; narrow the search (since, cwd, session, author, failed, or a word every matching line holds)")
	}
	if note != "" {
		notes = append(notes, note)
	}
	out.Note = strings.Join(notes, "; ")
	var b strings.Builder
	if len(out.Commands) == 0 {
		b.WriteString("No line of output matches.")
		if in.Author == "" {
			b.WriteString(" (Only the user's own commands were searched: author any searches coding agents' too.)")
		}
		b.WriteString("\n")
	}
	var lines []string
	for _, c := range out.Commands {
		lines = append(lines, summary(c.Info))
		lines = append(lines, strings.Split(strings.TrimSuffix(c.Lines, "\n"), "\n")...)
	}
	shown, left := capLines(lines)
	b.WriteString(shown)
	if left > 0 {
		fmt.Fprintf(&b, "[%d more lines left out (the size limit of one call): lower limit or context_lines]\n", left)
	}
	fmt.Fprintf(&b, "[%d matching lines in %d commands; %d outputs read, %s]\n", out.Matches, len(out.Commands), out.Outputs, units.Size(out.Bytes))
	if out.Note != "" {
		fmt.Fprintf(&b, "[%s]\n", out.Note)
	}
	return text(b.String()), out, nil
}

// scanOutputs reads the outputs of cands, newest first, and adds to out
// the lines that match, until n lines have, or a bound is reached (it
// then says which).
func (t *tools) scanOutputs(ctx context.Context, rd *recall.Reader, cands []history.Entry, match matcher, ctxLines, n int, out *SearchOutputOut) string {
	for _, en := range cands {
		if ctx.Err() != nil {
			return fmt.Sprintf("the time limit (%s) ran out", searchDeadline)
		}
		if out.Bytes >= maxScanBytes {
			return fmt.Sprintf("it read %s of output, its limit", units.Size(maxScanBytes))
		}
		o, err := rd.Output(ctx, en, "", 0)
		if err != nil {
			continue // no output (pruned, none captured): nothing to match
		}
		out.Outputs++
		out.Bytes += int64(len(o.Text))
		// Matched as it is given: redacted, so that a pattern cannot
		// test a secret a character at a time.
		lines := strings.Split(strings.TrimSuffix(t.clean(string(o.Text)), "\n"), "\n")
		stopped := false
		sel, found := grepLines(lines, func(l string) bool {
			if stopped {
				return false
			}
			if ctx.Err() != nil {
				stopped = true
				return false
			}
			if len(l) > maxMatchLine {
				l = l[:maxMatchLine]
			}
			return match(l)
		}, 1, len(lines), ctxLines, n-out.Matches)
		if found > 0 {
			out.Commands = append(out.Commands, OutputHits{Info: t.command(en), Matches: found, Lines: strings.Join(sel, "\n") + "\n"})
			out.Matches += found
		}
		if stopped {
			return fmt.Sprintf("the time limit (%s) ran out", searchDeadline)
		}
		if out.Matches >= n {
			return fmt.Sprintf("%d matching lines were found, the limit asked for", n)
		}
	}
	return ""
}
