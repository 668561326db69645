package mcp

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/ai/ask"
	"github.com/hookd/hookd/internal/ai/promptblock"
	"github.com/hookd/hookd/internal/recording/recall"
)

// RecentIn are recent_commands' arguments.
type RecentIn struct {
	Limit  int    `json:"limit,omitempty" jsonschema:"how many commands (default 10, at most 50)"`
	Author string `json:"author,omitempty" jsonschema:"a coding agent's name (such as claude-code) for that agent's most recent session instead of the user's shell"`
}

// RecentOut is recent_commands' result.
type RecentOut struct {
	Session  string `json:"session" jsonschema:"the shell session the commands come from"`
	Commands []Info `json:"commands" jsonschema:"oldest first: the last one is the most recent"`
	Note     string `json:"note,omitempty"`
}

func (t *tools) recent(ctx context.Context, _ *sdk.CallToolRequest, in RecentIn) (*sdk.CallToolResult, RecentOut, error) {
	out := RecentOut{Commands: []Info{}}
	n, note, err := limit(in.Limit, defaultRecent, maxRecent)
	if err != nil {
		return nil, out, err
	}
	out.Note = note
	err = t.call(ctx, func(s *history.Store) error {
		sess, es, err := lastOf(ctx, s, in.Author, n)
		out.Session = sess
		for _, en := range es {
			out.Commands = append(out.Commands, t.command(en))
		}
		return err
	})
	if err != nil {
		return nil, out, err
	}
	var b strings.Builder
	switch {
	case out.Session == "" && in.Author != "":
		fmt.Fprintf(&b, "No command of %s is recorded (its hook is set up with `hookd agent-hook claude-code --print-config`, or `hookd record --author %s`).\n", t.line(in.Author), t.line(in.Author))
	case out.Session == "":
		b.WriteString("No command of an interactive shell is recorded yet: hookd records the shells that load it (eval \"$(hookd init bash)\" or zsh in the rc file).\n")
	default:
		fmt.Fprintf(&b, "The last %d commands of session %s, oldest first:\n", len(out.Commands), out.Session)
		for _, c := range out.Commands {
			b.WriteString(summary(c) + "\n")
		}
	}
	if out.Note != "" {
		b.WriteString(out.Note + "\n")
	}
	return text(b.String()), out, nil
}

// limit reads a limit argument: 0 is def, more than most is most, with a
// note that says so.
func limit(n, def, most int) (int, string, error) {
	switch {
	case n < 0:
		return 0, "", badArg("limit must be positive, not %d", n)
	case n == 0:
		return def, "", nil
	case n > most:
		return most, fmt.Sprintf("limit %d is more than the %d a call gives: %d given", n, most, most), nil
	}
	return n, "", nil
}

// OutputIn are command_output's arguments.
type OutputIn struct {
	ID        int64  `json:"id" jsonschema:"the command's id, or -1 for the last command of the user's most recent shell (-2 the one before, …)"`
	StartLine int    `json:"start_line,omitempty" jsonschema:"the first line to give (1-based)"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"the last line to give (inclusive)"`
	Tail      int    `json:"tail,omitempty" jsonschema:"give the last N lines"`
	Grep      string `json:"grep,omitempty" jsonschema:"give only the lines matching this regular expression (case-insensitive), with context lines around them"`
	Context   *int   `json:"context,omitempty" jsonschema:"lines of context around each grep match (default 2, at most 20)"`
	Author    string `json:"author,omitempty" jsonschema:"with a negative id: count in this coding agent's most recent session instead of the user's shell"`
}

// OutputOut is command_output's result.
type OutputOut struct {
	Info
	// Output is the text selected, as the terminal showed it; "" with
	// Missing when there is none.
	Output string `json:"output"`
	// Missing says why there is no output.
	Missing    string `json:"missing,omitempty"`
	TotalLines int    `json:"total_lines"`
	// FirstLine and LastLine are the range given (0 for an excerpt or a
	// grep, whose lines carry their numbers).
	FirstLine int `json:"first_line,omitempty"`
	LastLine  int `json:"last_line,omitempty"`
	Matches   int `json:"matches,omitempty"`
	// Truncated: the capture kept only the head and tail of a larger
	// output.
	Truncated bool `json:"truncated,omitempty"`
	// Note says what was left out, and how to ask for it.
	Note string `json:"note,omitempty"`
	// UserNotes are the notes the user attached to the command (hookd
	// note), oldest first.
	UserNotes []string `json:"user_notes,omitempty" jsonschema:"the user's own notes on this command (hookd note), oldest first"`
}

func (t *tools) output(ctx context.Context, _ *sdk.CallToolRequest, in OutputIn) (*sdk.CallToolResult, OutputOut, error) {
	var out OutputOut
	ctxLines := 2
	if in.Context != nil {
		ctxLines = *in.Context
	}
	var re *regexp.Regexp
	switch {
	case in.ID == 0:
		return nil, out, badArg("id is required: a command's id (history_search, recent_commands), or -1 for the last command")
	case in.StartLine < 0 || in.EndLine < 0 || in.Tail < 0:
		return nil, out, badArg("start_line, end_line and tail must be positive")
	case in.EndLine > 0 && in.StartLine > in.EndLine:
		return nil, out, badArg("start_line %d is after end_line %d", in.StartLine, in.EndLine)
	case in.Tail > 0 && (in.StartLine > 0 || in.EndLine > 0):
		return nil, out, badArg("give tail, or start_line/end_line, not both")
	case ctxLines < 0 || ctxLines > 20:
		return nil, out, badArg("context must be from 0 to 20, not %d", ctxLines)
	case in.Grep != "":
		var err error
		if re, err = regexp.Compile("(?i)" + in.Grep); err != nil {
			return nil, out, badArg("grep: not a regular expression (RE2 syntax): %v", err)
		}
	}
	var body string
	err := t.call(ctx, func(s *history.Store) error {
		rd, en, err := t.entry(ctx, s, in.ID, in.Author)
		if err != nil {
			return err
		}
		out.Info = t.command(en)
		ns, err := s.Notes(ctx, []int64{en.ID})
		if err != nil {
			return err
		}
		for _, n := range ns[en.ID] {
			out.UserNotes = append(out.UserNotes, t.line(n.Text))
		}
		o, err := rd.Output(ctx, en, "", 0)
		var no *recall.NoOutput
		if errors.As(err, &no) {
			out.Missing = t.line(no.Reason)
			return nil
		}
		if err != nil {
			return err
		}
		out.Truncated = o.Flags&history.OutputTruncated != 0
		body = t.clean(string(o.Text))
		return nil
	})
	if err != nil {
		return nil, out, err
	}
	head := summary(out.Info)
	for _, n := range out.UserNotes {
		head += "\nThe user's note: " + n
	}
	switch {
	case out.Missing != "":
		return text(fmt.Sprintf("%s\nNo output: %s.\n", head, out.Missing)), out, nil
	case body == "":
		out.Missing = "it printed nothing"
		return text(head + "\nNo output: it printed nothing.\n"), out, nil
	}
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	out.TotalLines = len(lines)
	first, last := 1, len(lines)
	ranged := in.StartLine > 0 || in.EndLine > 0 || in.Tail > 0
	if in.StartLine > 0 {
		first = in.StartLine
	}
	if in.EndLine > 0 {
		last = min(in.EndLine, len(lines))
	}
	if in.Tail > 0 {
		first = max(len(lines)-in.Tail+1, 1)
	}
	if first > len(lines) {
		out.Note = fmt.Sprintf("the output has %d lines: start_line %d is past its end", len(lines), first)
		return text(fmt.Sprintf("%s\n%s.\n", head, out.Note)), out, nil
	}
	var shown string
	var notes []string
	switch {
	case re != nil:
		var sel []string
		sel, out.Matches = grepLines(lines, re.MatchString, first, last, ctxLines, 0)
		if out.Matches == 0 {
			notes = append(notes, fmt.Sprintf("no line of %d–%d matches %q", first, last, in.Grep))
		}
		var left int
		shown, left = capLines(sel)
		if left > 0 {
			notes = append(notes, fmt.Sprintf("%d more lines of matches left out: narrow grep, or give start_line/end_line", left))
		}
	case ranged:
		var left int
		shown, left = capLines(lines[first-1 : last])
		out.FirstLine, out.LastLine = first, last-left
		if left > 0 {
			notes = append(notes, fmt.Sprintf("cut at line %d (the size limit of one call): ask again from start_line %d", out.LastLine, out.LastLine+1))
		}
	default:
		shown, out.FirstLine, out.LastLine = body, 1, len(lines)
		if len(body) > maxText {
			excerpt, omitted := promptblock.Excerpt(body, maxText/4)
			shown, out.FirstLine, out.LastLine = excerpt, 0, 0
			// An excerpt of a very long line may still be long.
			if len(shown) > maxText {
				shown = shown[:maxText]
			}
			notes = append(notes, fmt.Sprintf("%d of %d lines left out (head, tail and the lines that look like errors kept): ask with start_line/end_line, tail or grep for the rest", omitted, len(lines)))
		}
	}
	if out.Truncated {
		notes = append(notes, "the capture kept only the head and tail of a larger output (output.limit in hookd's config)")
	}
	out.Output, out.Note = shown, strings.Join(notes, "; ")
	var b strings.Builder
	b.WriteString(head + "\n")
	switch {
	case re != nil:
		fmt.Fprintf(&b, "%d matching lines of %d (grep -n style: N: match, N- context):\n", out.Matches, len(lines))
	case out.FirstLine > 0:
		fmt.Fprintf(&b, "Lines %d–%d of %d:\n", out.FirstLine, out.LastLine, len(lines))
	default:
		fmt.Fprintf(&b, "An excerpt of %d lines:\n", len(lines))
	}
	b.WriteString(shown)
	if out.Note != "" {
		fmt.Fprintf(&b, "[%s]\n", out.Note)
	}
	return text(b.String()), out, nil
}

// grepLines returns the lines of lines[first-1:last] that match, numbered,
// with c lines of context, groups apart separated by "--"; and the count
// of matches, at most most (0: all).
func grepLines(lines []string, match func(string) bool, first, last, c, most int) ([]string, int) {
	var out []string
	matches := 0
	shownUpTo := 0 // the last line number written
	for i := first; i <= last && (most <= 0 || matches < most); i++ {
		if !match(lines[i-1]) {
			continue
		}
		matches++
		from, to := max(i-c, first, shownUpTo+1), min(i+c, last)
		if shownUpTo > 0 && from > shownUpTo+1 {
			out = append(out, "--")
		}
		for j := from; j <= to; j++ {
			sep := "-"
			if j == i || j > i && match(lines[j-1]) {
				sep = ":"
			}
			out = append(out, strconv.Itoa(j)+sep+" "+lines[j-1])
		}
		shownUpTo = max(shownUpTo, to)
	}
	return out, matches
}

// entry resolves an id, negative ids counting back in the user's most
// recent shell (or author's most recent session).
func (t *tools) entry(ctx context.Context, s *history.Store, id int64, author string) (*recall.Reader, history.Entry, error) {
	rd := t.o.Reader(s)
	rd.Author = author
	ref := strconv.FormatInt(id, 10)
	if id < 0 && author == "" {
		sess, err := s.LatestSession(ctx, "")
		if err != nil {
			return rd, history.Entry{}, badArg("id %d counts back in the user's most recent shell, and no command of an interactive shell is recorded yet", id)
		}
		rd.Session = sess
	}
	en, err := rd.Entry(ctx, ref)
	if errors.Is(err, history.ErrNotFound) {
		if id > 0 {
			return rd, en, badArg("there is no command %d in the history (history_search and recent_commands give ids)", id)
		}
		who := "the user's most recent shell"
		if author != "" {
			who = author + "'s most recent session"
		}
		return rd, en, badArg("%s has fewer than %d commands", who, -id)
	}
	return rd, en, err
}

// SearchIn are history_search's arguments.
type SearchIn struct {
	Query string `json:"query,omitempty" jsonschema:"words the command line holds, each as a substring, any case (empty: every command)"`
	Filters
	Limit int `json:"limit,omitempty" jsonschema:"how many commands, newest first (default 20, at most 100)"`
}

// SearchOut is history_search's result.
type SearchOut struct {
	Commands []Found `json:"commands" jsonschema:"each command line once, best match first"`
	// More says that more commands match than were given.
	More bool   `json:"more,omitempty"`
	Note string `json:"note,omitempty"`
}

// maxHitLine bounds the output line a search hit shows, in bytes.
const maxHitLine = 400

// clipLine cuts s to at most n bytes, at a character's start, with "…".
func clipLine(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// Found is a command history_search found.
type Found struct {
	Info
	Runs       int    `json:"runs" jsonschema:"how many times this command line ran within the filters; id is the most recent run"`
	Matched    string `json:"matched,omitempty" jsonschema:"where the words were found: command, output or both"`
	Line       string `json:"line,omitempty" jsonschema:"for an output match, the first line of the output holding the words"`
	LineNumber int    `json:"line_number,omitempty" jsonschema:"that line's number, from 1 (command_output start_line)"`
}

func (t *tools) search(ctx context.Context, _ *sdk.CallToolRequest, in SearchIn) (*sdk.CallToolResult, SearchOut, error) {
	out := SearchOut{Commands: []Found{}}
	n, note, err := limit(in.Limit, defaultSearch, maxSearch)
	if err != nil {
		return nil, out, err
	}
	f, err := t.readFilters(in.Filters)
	if err != nil {
		return nil, out, err
	}
	q := history.Query{Text: in.Query, Failed: in.Failed, Limit: n + 1, Authors: f.authors, Cwd: f.cwd, Since: f.since}
	err = t.call(ctx, func(s *history.Store) error {
		var ok bool
		if q.Session, ok, err = sessionArg(ctx, s, in.Session); !ok {
			return err
		}
		hits, err := t.o.Search(ctx, s, q)
		if err != nil {
			return err
		}
		if len(hits) > n {
			hits, out.More = hits[:n], true
		}
		for _, h := range hits {
			f := Found{Info: t.command(h.Entry), Runs: h.Runs, Matched: h.Matched}
			if h.Line != "" {
				// Redacted whole, then cut: a secret cut in two would
				// escape the rules.
				f.Line, f.LineNumber = clipLine(t.line(h.Line), maxHitLine), h.LineNo
			}
			out.Commands = append(out.Commands, f)
		}
		return nil
	})
	if err != nil {
		return nil, out, err
	}
	out.Note = note
	var b strings.Builder
	if len(out.Commands) == 0 {
		b.WriteString("No command matches.")
		if q.Authors != nil && q.Authors[0] == "" {
			b.WriteString(" (Only the user's own commands were searched: author any searches coding agents' too.)")
		}
		b.WriteString("\n")
	}
	for _, c := range out.Commands {
		b.WriteString(summary(c.Info))
		if c.Runs > 1 {
			fmt.Fprintf(&b, " [ran %d times]", c.Runs)
		}
		if c.Line != "" {
			fmt.Fprintf(&b, "\n    output line %d: %s", c.LineNumber, c.Line)
		} else if c.Matched == "output" {
			b.WriteString("\n    (matched in its output)")
		}
		b.WriteString("\n")
	}
	if out.More {
		fmt.Fprintf(&b, "[more commands match: narrow the query, or raise limit (at most %d)]\n", maxSearch)
	}
	if note != "" {
		fmt.Fprintf(&b, "[%s]\n", note)
	}
	return text(b.String()), out, nil
}

// ContextIn are command_context's arguments.
type ContextIn struct {
	IDs    []int64 `json:"ids,omitempty" jsonschema:"the commands' ids; -1 is the last command of the user's most recent shell (default [-1])"`
	Budget int     `json:"budget,omitempty" jsonschema:"at most about this many tokens (default 8000, at most 16000)"`
	Author string  `json:"author,omitempty" jsonschema:"negative ids count in this coding agent's most recent session instead of the user's shell"`
}

// ContextOut is command_context's result.
type ContextOut struct {
	Block string  `json:"block"`
	IDs   []int64 `json:"ids" jsonschema:"the commands in the block, by id"`
	Note  string  `json:"note,omitempty"`
}

func (t *tools) context(ctx context.Context, _ *sdk.CallToolRequest, in ContextIn) (*sdk.CallToolResult, ContextOut, error) {
	out := ContextOut{IDs: []int64{}}
	ids := in.IDs
	if len(ids) == 0 {
		ids = []int64{-1}
	}
	if len(ids) > maxContext {
		return nil, out, badArg("at most %d commands a call, not %d", maxContext, len(ids))
	}
	budget := t.o.Budget
	switch {
	case in.Budget < 0:
		return nil, out, badArg("budget must be positive")
	case in.Budget > 0:
		budget = in.Budget
	}
	var notes []string
	if budget > maxBudget {
		notes = append(notes, fmt.Sprintf("budget %d is more than %d: %d used", budget, maxBudget, maxBudget))
		budget = maxBudget
	}
	budget = max(budget, 256)
	err := t.call(ctx, func(s *history.Store) error {
		var es []history.Entry
		var rd *recall.Reader
		for _, id := range ids {
			if id == 0 {
				return badArg("0 is not an id")
			}
			r, en, err := t.entry(ctx, s, id, in.Author)
			if err != nil {
				return err
			}
			rd = r
			es = append(es, en)
			out.IDs = append(out.IDs, en.ID)
		}
		// Not the caller's terminal: no output is read back from it.
		src := ask.Sources{Reader: rd, Redactor: t.o.Redactor}
		if wb := t.o.WorkedBefore; wb != nil {
			src.WorkedBefore = func(ctx context.Context, en history.Entry) string { return wb(ctx, s, en) }
		}
		block, ns, _ := ask.ContextBlock(ctx, src, es, budget)
		out.Block = t.clean(block)
		notes = append(notes, ns...)
		return nil
	})
	if err != nil {
		return nil, out, err
	}
	out.Note = t.line(strings.Join(notes, "; "))
	res := out.Block
	if out.Note != "" {
		res += "\n[" + out.Note + "]\n"
	}
	return text(res), out, nil
}
