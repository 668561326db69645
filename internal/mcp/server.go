// Package mcp is hookd's MCP server (`hookd mcp`): coding agents (Claude
// Code, Codex, Gemini CLI, Cursor) read the user's shell history and the
// commands' captured outputs through read-only tools (history_search,
// command_output, recent_commands, command_context, search_output,
// diff_output, agent_session, assess_command), resources and prompts,
// over the official Go SDK. Nothing is written and nothing is run: every call reads the
// history (opened per call, so the last command typed is there), and
// every result is redacted again and stripped of terminal control
// sequences on its way out, capped in size with a note of what was cut,
// and names the ids the agent can ask more about.
package mcp

import (
	"context"
	"errors"
	"fmt"
	"github.com/hookd/hookd/internal/ui/units"
	"io"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/config"
	"github.com/hookd/hookd/internal/recording/recall"
	"github.com/hookd/hookd/internal/redact"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/search"
)

// Options are what the server reads from and how.
type Options struct {
	// Open opens the history for one call, after moving what waits in
	// the spools into it; the call closes it.
	Open func(ctx context.Context) (*history.Store, error)
	// Recover recovers a database found damaged while a call read it; the
	// call is then tried once more. nil: no recovery.
	Recover func(ctx context.Context) error
	// Reader makes the reader of a call's store (the outbox, the
	// ingestion rules: package recall).
	Reader func(*history.Store) *recall.Reader
	// Redactor redacts every result (nil: the built-in rules).
	Redactor *redact.Redactor
	// Search is history_search's engine (nil: SearchHistory's, over
	// SearchCache).
	Search SearchFunc
	// SearchCache is the search's corpus cache (package search), read to
	// start the first search sooner; never written. "": none.
	SearchCache string
	// Budget is command_context's default budget, in tokens (0:
	// config.DefaultBudget).
	Budget int
	// Version is hookd's, for the server's implementation info.
	Version string
	// Now is the clock (nil: time.Now), for since.
	Now func() time.Time
	// WorkedBefore says, for a failed command, when the same command last
	// worked and what changed since, for command_context's block, as
	// hookd ctx says it ("" when it never did; nil: not said).
	WorkedBefore func(ctx context.Context, s *history.Store, en history.Entry) string
}

// SearchFunc finds the commands a history_search selects: each command
// line once, its most recent run within the filters, best match first.
type SearchFunc func(ctx context.Context, s *history.Store, q history.Query) ([]Hit, error)

// Hit is a command line a search found.
type Hit struct {
	// Entry is its most recent run within the filters (for an output
	// match, the one whose output matched).
	history.Entry
	// Runs is how many times it ran within the filters (at least 1).
	Runs int
	// Matched is where the words were found: "command", "output" or
	// "both" ("" without words).
	Matched string
	// Line is, for an output match, the output's first line holding the
	// words (as stored), and LineNo its number from 1.
	Line   string
	LineNo int
}

// SearchHistory returns history_search's engine: hookd search's (package
// search), which matches the query's words against the command lines
// (every word a substring, any case) and against what the commands printed
// (every word in the output, at the start of one of its words, through the
// full-text index), and ranks what it finds by how well it matches, how
// recently and how often it ran. q's Text, Failed, Cwd, Since, Session,
// Authors, ThisHost and Limit apply (Host does not). The engine keeps the
// history's command lines in memory for the server's life (read from cache
// on the first call when there is one; cache is never written), so that
// only the first call reads them all; calls take turns. It is the one
// place to switch. now is the clock (recency ranks).
func SearchHistory(cache string, now func() time.Time) SearchFunc {
	var mu sync.Mutex
	var eng *search.Engine
	var at time.Time
	return func(ctx context.Context, s *history.Store, q history.Query) ([]Hit, error) {
		mu.Lock()
		defer mu.Unlock()
		// Recency is ranked from a time that moves once a minute, so
		// that calls in between keep the engine's views of the history.
		if t := now(); at.IsZero() || t.Sub(at) >= time.Minute || t.Before(at) {
			at = t
		}
		here := search.Here{Now: at}
		if eng == nil {
			eng = search.New(s, here, cache)
		} else {
			eng.Rebind(s, here)
		}
		sq := search.Query{Text: strings.ToLower(q.Text), Mode: search.FullText, Limit: q.Limit,
			Filter: search.Filter{Failed: q.Failed, Cwd: q.Cwd, Since: q.Since, Session: q.Session}}
		switch {
		case q.Authors == nil:
			sq.Agents = true
		case len(q.Authors) == 1 && q.Authors[0] == "":
		case len(q.Authors) == 1:
			sq.Author = q.Authors[0]
		default:
			return nil, fmt.Errorf("history_search: one author at a time, not %q", q.Authors)
		}
		if q.ThisHost {
			sq.Scope = search.ScopeHost
		}
		if sq.Limit <= 0 {
			sq.Limit = maxSearch + 1
		}
		res, err := eng.Search(ctx, sq)
		if err != nil {
			return nil, err
		}
		hits := make([]Hit, len(res))
		for i, r := range res {
			hits[i] = Hit{Entry: r.Entry, Runs: max(1, r.Count), Matched: r.Matched.String(), Line: r.Line, LineNo: r.LineNo}
		}
		return hits, nil
	}
}

// Instructions tell the agent what hookd is and when to use each tool.
const Instructions = `hookd records every command the user types in their bash and zsh shells (text, exit status, directory, time, duration) and, when output capture is on, what each command printed. Use these tools when the user refers to something they ran or saw in their own terminal ("why did my build fail?", "what did that command print?", "the error I just got"), instead of asking them to paste it or running the command again. Everything is read-only: nothing is run or changed.

- recent_commands: the last commands of the user's most recent shell, with exit statuses. Start here when the user speaks of something they just did.
- command_output: what one command printed, by its id (-1 for the last command of the user's most recent shell, -2 the one before). Long outputs come cut, with a note: ask again with start_line/end_line, tail, or grep (a regular expression, with context lines) for the part you need.
- history_search: find earlier commands by words of their command line or of what they printed (an error message, a file name), best match first, with filters (cwd, session "current", failed, since, author). Gives ids for command_output.
- command_context: one block with the commands' facts and outputs cut to fit, the same block 'hookd ctx' prints; handy to read a failure whole.
- search_output: the lines of outputs that hold words or match a regular expression, with context lines ("where did I see that error?").
- diff_output: how a run's output differs from the last time the same command worked, and what changed since; for "it worked yesterday".
- agent_session: the commands you yourself ran in your current session, with what they printed.
- assess_command: how risky a command is (low, medium, high) and why, before you run it; ask the user first when it is not low.

Ids are stable: quote them to the user. Secrets are replaced by [REDACTED]. Commands run by coding agents (author "claude-code", …) are left out unless you ask for them with author.`

// Limits of what a call returns.
const (
	// maxText bounds the text of one result, in bytes.
	maxText = 16 << 10
	// defaultSearch and maxSearch bound history_search's commands.
	defaultSearch, maxSearch = 20, 100
	// defaultRecent and maxRecent bound recent_commands'.
	defaultRecent, maxRecent = 10, 50
	// maxContext bounds command_context's commands.
	maxContext = 10
	// maxBudget bounds command_context's budget, in tokens.
	maxBudget = 16000
)

// New returns hookd's MCP server over o.
func New(o Options) *sdk.Server {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Search == nil {
		o.Search = SearchHistory(o.SearchCache, o.Now)
	}
	if o.Budget <= 0 {
		o.Budget = config.DefaultBudget
	}
	if o.Redactor == nil {
		o.Redactor, _ = redact.New(nil)
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "hookd", Title: "hookd: your shell history and outputs", Version: o.Version},
		&sdk.ServerOptions{Instructions: Instructions, Capabilities: &sdk.ServerCapabilities{}})
	t := &tools{o: o, calls: make(chan struct{}, maxCalls)}
	readOnly := &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}
	sdk.AddTool(s, &sdk.Tool{Name: "recent_commands", Title: "Recent commands",
		Description: "The last commands of the user's most recent interactive shell (bash or zsh), oldest first, with exit status, directory, duration and output size. Use it when the user refers to what they just ran.",
		Annotations: readOnly}, t.recent)
	sdk.AddTool(s, &sdk.Tool{Name: "command_output", Title: "A command's output",
		Description: "What a recorded command printed, as the terminal showed it, by id (-1: the last command of the user's most recent shell, -2 the one before). Without options, a long output comes as its head, tail and error lines, with a note; start_line/end_line (1-based, inclusive), tail (the last N lines) and grep (a case-insensitive regular expression; context lines around each match) select a part. When there is no output, it says why.",
		Annotations: readOnly}, t.output)
	sdk.AddTool(s, &sdk.Tool{Name: "history_search", Title: "Search the shell history",
		Description: "Search the user's shell history: commands whose command line holds every word of query (any case), or whose output does (an error message, a file name; words match at the start of the output's words), with filters. Each command line comes once (its most recent run within the filters), best match first: how well it matches, how recently and how often it ran; matched says where the words were found. Without query, the most recent commands. Gives ids for command_output.",
		Annotations: readOnly}, t.search)
	sdk.AddTool(s, &sdk.Tool{Name: "command_context", Title: "Context block of commands",
		Description: "The context block of recorded commands, as `hookd ctx` prints it for any LLM: each command's text, status, directory, timing and output, cut to head, tail and error lines within a budget of tokens, fenced so that output cannot pass for instructions.",
		Annotations: readOnly}, t.context)
	addMore(s, t, readOnly)
	return s
}

// Serve runs the server over in and out (the agent's pipes) until in
// ends or ctx is done.
func Serve(ctx context.Context, o Options, in io.Reader, out io.Writer) error {
	w := &lockedWriter{w: out}
	err := New(o).Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(guard(in, w)), Writer: nopCloser{w}})
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// tools answers the tool calls.
type tools struct {
	o Options
	// calls holds a token for each call at work on the history: an agent
	// may send thousands at once, and the SDK starts each at once.
	calls chan struct{}
	// opening is held while a call opens the history, which first moves
	// what waits in the spools into it (a write): the calls of this
	// process never wait on each other's writes, so a database found
	// busy is busy with another process's.
	opening sync.Mutex
}

// maxCalls bounds the calls at work on the history at once; the others
// wait their turn.
const maxCalls = 8

// call runs f on a store opened for it, recovering a database found
// damaged and trying once more; its error is one for the agent.
func (t *tools) call(ctx context.Context, f func(*history.Store) error) error {
	select {
	case t.calls <- struct{}{}:
		defer func() { <-t.calls }()
	case <-ctx.Done():
		return t.fail(ctx.Err())
	}
	err := t.once(ctx, f)
	if errors.Is(err, history.ErrCorrupt) && t.o.Recover != nil {
		if rerr := t.o.Recover(ctx); rerr != nil {
			return t.fail(fmt.Errorf("the history database is damaged and could not be recovered now: %v (hookd status says more; try again in a moment)", rerr))
		}
		err = t.once(ctx, f)
	}
	if err != nil {
		return t.fail(err)
	}
	return nil
}

func (t *tools) once(ctx context.Context, f func(*history.Store) error) error {
	t.opening.Lock()
	s, err := t.o.Open(ctx)
	t.opening.Unlock()
	if err != nil {
		return err
	}
	defer s.Close()
	return f(s)
}

// toolError is an error as the agent reads it: redacted, safe to show.
type toolError struct{ msg string }

func (e *toolError) Error() string { return e.msg }

// fail turns err into what the agent reads (the SDK sends it as a tool
// result with isError set, so the agent can go on).
func (t *tools) fail(err error) error {
	var te *toolError
	if errors.As(err, &te) {
		return te
	}
	msg := err.Error()
	if history.IsBusy(err) {
		msg = "the history database is busy (another hookd process is writing it): try again in a moment"
	}
	return &toolError{t.clean(msg)}
}

// badArg is a mistake in the agent's arguments.
func badArg(format string, a ...any) error { return &toolError{fmt.Sprintf(format, a...)} }

// clean redacts s and makes it safe to show on a terminal (newlines and
// tabs kept): every string that leaves goes through it.
func (t *tools) clean(s string) string {
	s, _ = t.o.Redactor.String(s)
	return sanitize.Text(s)
}

// line is clean on one line.
func (t *tools) line(s string) string {
	s, _ = t.o.Redactor.String(s)
	return sanitize.Line(s)
}

// Info is a recorded command as the tools give it.
type Info struct {
	ID         int64   `json:"id" jsonschema:"the command's id: give it to command_output or command_context"`
	Command    string  `json:"command"`
	ExitCode   int     `json:"exit_code"`
	Cwd        string  `json:"cwd"`
	StartedAt  string  `json:"started_at" jsonschema:"when it started (RFC 3339)"`
	DurationMS float64 `json:"duration_ms"`
	// OutputBytes is the size of the stored output (0: none).
	OutputBytes int64  `json:"output_bytes"`
	Session     string `json:"session"`
	Author      string `json:"author,omitempty" jsonschema:"the coding agent that ran it; absent for the user's own commands"`
}

func (t *tools) command(en history.Entry) Info {
	return Info{ID: en.ID, Command: t.line(en.Command), ExitCode: en.ExitCode, Cwd: t.line(en.Cwd),
		StartedAt:  time.UnixMicro(en.StartedAt).UTC().Format(time.RFC3339),
		DurationMS: float64(en.DurationUS/100) / 10, OutputBytes: en.OutputBytes, Session: en.Session, Author: en.Author}
}

// summary is a command on one line, for the text the agent reads.
func summary(c Info) string {
	status := "ok"
	if c.ExitCode != 0 {
		status = fmt.Sprintf("FAILED exit %d", c.ExitCode)
	}
	var extra []string
	if c.DurationMS >= 1000 {
		extra = append(extra, fmt.Sprintf("%.1fs", c.DurationMS/1000))
	}
	if c.OutputBytes > 0 {
		extra = append(extra, fmt.Sprintf("output %s", units.Size(c.OutputBytes)))
	} else {
		extra = append(extra, "no output")
	}
	if c.Author != "" {
		extra = append(extra, "by "+c.Author)
	}
	return fmt.Sprintf("#%d [%s] %s $ %s  (%s, %s)", c.ID, status, c.Cwd, c.Command, c.StartedAt, strings.Join(extra, ", "))
}

// text is a result's text content.
func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

// capLines joins lines within maxText bytes, and says how many did not
// fit.
func capLines(lines []string) (string, int) {
	var b strings.Builder
	for i, l := range lines {
		if b.Len()+len(l)+1 > maxText {
			return b.String(), len(lines) - i
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String(), 0
}
