package ask

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/ai/llm"
	"github.com/hookd/hookd/internal/ai/promptblock"
)

// Toolbox answers the read-only tools a model may call while it answers a
// question: history_search, command_output and read_file (inside the
// project). Nothing that changes anything is a tool: a command the model
// wants run is offered on the command line, as its answer's commands are.
type Toolbox struct {
	Sources Sources
	// Root is the directory read_file may read under: the project's root
	// (the repository, or the working directory outside one).
	Root string
	// Max bounds the calls per question (0: DefaultMaxToolCalls); past
	// it, the model is told to answer with what it has.
	Max int
}

// DefaultMaxToolCalls is how many tool calls a question may make.
const DefaultMaxToolCalls = 8

// Limits of what a tool returns.
const (
	toolTokens   = 2000     // an output or a file, cut to head, tail and error lines
	maxReadBytes = 64 << 10 // read_file reads at most this much
	maxSearch    = 20
)

// Tools are the tools' definitions, for llm.Request.Tools.
func (tb *Toolbox) Tools() []llm.Tool {
	return []llm.Tool{
		{Name: "history_search", Description: "Search the user's shell history: commands whose text holds every word of the query, newest first, with their id, exit status, directory and time.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"words the command line holds"},"failed":{"type":"boolean","description":"only commands that failed"},"limit":{"type":"integer","minimum":1,"maximum":20}},"required":["query"]}`)},
		{Name: "command_output", Description: "The output of a recorded command, by its id (from history_search or the context) or -N for the N-th most recent command of this shell session.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"ref":{"type":"string","description":"a command id such as \"42\", or \"-1\" for the last command"}},"required":["ref"]}`)},
		{Name: "read_file", Description: "Read a text file inside the user's project (the repository, or the working directory), by a path relative to it.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
	}
}

// Call answers one tool call: the result for the model (errors are
// results too, so the model can go on), redacted, and a one-line summary
// for the user.
func (tb *Toolbox) Call(ctx context.Context, c llm.ToolCall) (result, summary string) {
	var args struct {
		Query  string `json:"query"`
		Failed bool   `json:"failed"`
		Limit  int    `json:"limit"`
		Ref    string `json:"ref"`
		Path   string `json:"path"`
	}
	if c.Invalid != "" {
		return "error: " + c.Invalid + "; call " + c.Name + " again with a JSON object matching its parameters", c.Name + "(?): " + c.Invalid
	}
	if err := json.Unmarshal(c.Arguments, &args); err != nil && len(c.Arguments) > 0 {
		return "error: " + llm.InvalidArguments + " (" + err.Error() + ")", c.Name + "(?): " + llm.InvalidArguments
	}
	var err error
	switch c.Name {
	case "history_search":
		summary = fmt.Sprintf("history_search(%q)", args.Query)
		result, err = tb.search(ctx, args.Query, args.Failed, args.Limit)
	case "command_output":
		summary = fmt.Sprintf("command_output(%s)", args.Ref)
		result, err = tb.output(ctx, args.Ref)
	case "read_file":
		summary = fmt.Sprintf("read_file(%s)", args.Path)
		result, err = tb.read(args.Path)
	default:
		return fmt.Sprintf("error: there is no tool %q", c.Name), c.Name + "(…): no such tool"
	}
	if err != nil {
		return "error: " + err.Error(), summary + ": " + err.Error()
	}
	red := tb.Sources.Redactor
	result, _ = red.String(result)
	return result, summary
}

func (tb *Toolbox) search(ctx context.Context, query string, failed bool, limit int) (string, error) {
	if limit <= 0 || limit > maxSearch {
		limit = maxSearch
	}
	es, err := tb.Sources.Reader.Store.List(ctx, history.Query{Text: query, Failed: failed, Limit: limit})
	if err != nil {
		return "", err
	}
	if len(es) == 0 {
		return "no command matches", nil
	}
	var b strings.Builder
	for _, e := range es {
		fmt.Fprintf(&b, "#%d exit %d in %s at %s: %s\n", e.ID, e.ExitCode, e.Cwd, time.UnixMicro(e.StartedAt).Format(time.DateTime), e.Command)
	}
	return b.String(), nil
}

func (tb *Toolbox) output(ctx context.Context, ref string) (string, error) {
	en, err := tb.Sources.Reader.Entry(ctx, strings.TrimPrefix(ref, "#"))
	if err != nil {
		return "", err
	}
	c, _ := Block(ctx, tb.Sources, en, false)
	if c.Output == "" {
		if c.Missing != "" {
			return fmt.Sprintf("#%d %s: no output (%s)", en.ID, en.Command, c.Missing), nil
		}
		return fmt.Sprintf("#%d %s: it printed nothing", en.ID, en.Command), nil
	}
	text, omitted := promptblock.Excerpt(c.Output, toolTokens)
	if omitted > 0 {
		text += fmt.Sprintf("\n(%d lines left out)", omitted)
	}
	return text, nil
}

// read reads a file under Root: the path, symlinks resolved, must stay
// inside it; binary files are refused, long ones cut.
func (tb *Toolbox) read(p string) (string, error) {
	if tb.Root == "" {
		return "", errors.New("no project directory to read from")
	}
	root, err := filepath.EvalSymlinks(tb.Root)
	if err != nil {
		return "", err
	}
	full := p
	if !filepath.IsAbs(full) {
		full = filepath.Join(root, p)
	}
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		return "", fmt.Errorf("%s: not found", p)
	}
	if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", fmt.Errorf("%s is outside the project (%s)", p, root)
	}
	f, err := os.Open(real)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return "", fmt.Errorf("%s is a directory", p)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxReadBytes+1))
	if err != nil {
		return "", err
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return "", fmt.Errorf("%s is a binary file", p)
	}
	text := string(b)
	cut := len(b) > maxReadBytes
	if cut {
		text = text[:maxReadBytes]
	}
	text, omitted := promptblock.Excerpt(text, toolTokens)
	if cut || omitted > 0 {
		text += "\n(the file is longer: cut to fit)"
	}
	return text, nil
}

// Offer returns req with the toolbox's tools: the request Converse sends
// first to a provider that has tool calls (one that has none ignores them,
// and llm.DryRun says so). hookd ask --dry-run shows this request, so that
// what it prints is exactly what is sent.
func (tb *Toolbox) Offer(req llm.Request) llm.Request {
	if tb != nil {
		req.Tools = tb.Tools()
	}
	return req
}

// Converse asks prov, answering the model's tool calls with tb until it
// answers in text or the calls run out; onCall is told of each call as it
// is answered. Without a toolbox, or with a provider that has no tool
// calls, it is one request. The Result is the last turn's, with the usage
// of all turns.
func Converse(ctx context.Context, prov llm.Provider, req llm.Request, tb *Toolbox, onCall func(summary string), on func(llm.Event) error) (llm.Result, error) {
	if tb == nil || !prov.Supports().Tools {
		return prov.Stream(ctx, req, on)
	}
	limit := tb.Max
	if limit <= 0 {
		limit = DefaultMaxToolCalls
	}
	req = tb.Offer(req)
	req.Messages = append([]llm.Message{}, req.Messages...)
	var usage llm.Usage
	calls := 0
	for {
		res, err := prov.Stream(ctx, req, on)
		usage.InputTokens += res.Usage.InputTokens
		usage.OutputTokens += res.Usage.OutputTokens
		res.Usage = usage
		if err != nil || len(res.ToolCalls) == 0 {
			return res, err
		}
		req.Messages = append(req.Messages, llm.Message{Role: "assistant", Content: res.Text, ToolCalls: res.ToolCalls})
		for _, c := range res.ToolCalls {
			var result, summary string
			if calls >= limit {
				result, summary = fmt.Sprintf("error: the limit of %d tool calls for this question is reached: answer with what you have", limit), c.Name+": over the limit"
			} else {
				result, summary = tb.Call(ctx, c)
			}
			calls++
			if onCall != nil {
				onCall(summary)
			}
			req.Messages = append(req.Messages, llm.Message{Role: "tool", Content: result, ToolCallID: c.ID})
		}
		if calls > limit+2 {
			// Told that the calls ran out, and calling still.
			return res, fmt.Errorf("the model kept calling tools past the limit of %d", limit)
		}
	}
}
