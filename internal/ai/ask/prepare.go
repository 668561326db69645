// Package ask prepares and asks a question of an LLM with the context
// hookd keeps: `!!ctx`, `!-Nctx` and `!IDctx` in a question bring in
// recorded commands (their text, status, directory, timing and output, as
// package promptblock writes them), a pinned command comes in likewise, piped
// input becomes a block of its own, everything is redacted again right
// before it leaves, and the system prompt says what the fenced data is.
package ask

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/ai/contextcmd"
	"github.com/hookd/hookd/internal/ai/promptblock"
	"github.com/hookd/hookd/internal/ai/skill"
	"github.com/hookd/hookd/internal/recording/recall"
	"github.com/hookd/hookd/internal/redact"
)

// mention matches a reference to a recorded command in a question.
var mention = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`!(!|-[0-9]+|[0-9]+)ctx\b`) })

// Mentions returns the REFs (as package recall reads them: "-1", "-3",
// "42") that a question mentions, in order, without repeats.
func Mentions(question string) []string {
	var refs []string
	seen := map[string]bool{}
	for _, m := range mention().FindAllStringSubmatch(question, -1) {
		ref := m[1]
		if ref == "!" {
			ref = "-1"
		}
		if !seen[ref] {
			seen[ref] = true
			refs = append(refs, ref)
		}
	}
	return refs
}

// OnlyMention reports whether line is a mention alone (`!!ctx`, `!-2ctx`,
// `!42ctx`, blanks around it), which pins that command for the next
// question, and returns its REF.
func OnlyMention(line string) (string, bool) {
	line = strings.TrimSpace(line)
	m := mention().FindStringSubmatchIndex(line)
	if m == nil || m[0] != 0 || m[1] != len(line) {
		return "", false
	}
	refs := Mentions(line)
	return refs[0], true
}

// Sources are what Prepare reads from.
type Sources struct {
	Reader *recall.Reader
	// Terminal reads the last command's output back from the terminal
	// when it was not captured (see package scrollback), and names the
	// terminal; nil: never.
	Terminal func(ctx context.Context, command string) (text, source string, err error)
	// Redactor redacts what is sent (nil: the built-in rules).
	Redactor *redact.Redactor
	// WorkedBefore says, for a failed command, when the same command last
	// worked and what changed since ("" when it never did); nil: never
	// asked.
	WorkedBefore func(ctx context.Context, en history.Entry) string
}

// Input is a question and what comes with it.
type Input struct {
	Question string
	// Pinned are REFs pinned by an earlier `!!ctx` line, brought in as
	// if mentioned.
	Pinned []string
	// Stdin is what was piped into hookd ask ("" for nothing).
	Stdin string
	// Budget bounds the context, in estimated tokens.
	Budget int
	// Env describes where the question is asked, for the system prompt.
	Env Env
	// Template is the system prompt's template ("" is the built-in
	// system prompt, followed by the matched skills' text), with the
	// user's Variables (see package tmpl and Builtins).
	Template  string
	Variables map[string]string
	// Skills whose pattern matches the question add their text to
	// $_LLM_PREPEND.
	Skills []skill.Skill
	// Contexts are the context commands' results (package contextcmd), each
	// in a labelled block after the commands' blocks.
	Contexts []contextcmd.Result
}

// Prompt is what is sent: the system prompt, and the user's message (the
// question and the context blocks).
type Prompt struct {
	System string
	// Question is the question as the model sees it: mentions replaced
	// by the commands' numbers, secrets redacted.
	Question string
	// Context is the context blocks (commands, piped input), redacted;
	// "" for none.
	Context string
	// Commands are the history entries brought in.
	Commands []history.Entry
	// Notes say what was cut, read from a terminal, or missing: for the
	// user (--verbose, --dry-run).
	Notes []string
	// Redacted counts the secrets replaced.
	Redacted int
	// Skills are the skills that matched the question.
	Skills []skill.Skill
}

// User is the user's message: the question, then the context.
func (p Prompt) User() string {
	if p.Context == "" {
		return p.Question
	}
	return p.Question + "\n\n" + p.Context
}

// RefError is a mention that names no command: which, and why.
type RefError struct {
	Ref string
	Err error
}

func (e *RefError) Error() string {
	shown := "!" + e.Ref + "ctx"
	if e.Ref == "-1" {
		shown = "!!ctx"
	}
	switch {
	case errors.Is(e.Err, history.ErrNotFound) && strings.HasPrefix(e.Ref, "-"):
		return fmt.Sprintf("%s: this shell session has no command %s (hookd history --session lists them)", shown, e.Ref)
	case errors.Is(e.Err, history.ErrNotFound):
		return fmt.Sprintf("%s: there is no command #%s in the history", shown, e.Ref)
	}
	return fmt.Sprintf("%s: %v", shown, e.Err)
}

func (e *RefError) Unwrap() error { return e.Err }

// Prepare gathers what a question brings in and writes the prompt.
func Prepare(ctx context.Context, src Sources, in Input) (Prompt, error) {
	var p Prompt
	refs := Mentions(in.Question)
	for _, r := range in.Pinned {
		if !contains(refs, r) {
			refs = append(refs, r)
		}
	}
	var cmds []promptblock.Command
	ids := map[string]int64{}
	for _, ref := range refs {
		en, err := src.Reader.Entry(ctx, ref)
		if err != nil {
			return p, &RefError{ref, err}
		}
		ids[ref] = en.ID
		if hasEntry(p.Commands, en.ID) {
			continue
		}
		p.Commands = append(p.Commands, en)
		c, note := Block(ctx, src, en, ref == "-1" || ref == "")
		if note != "" {
			p.Notes = append(p.Notes, note)
		}
		cmds = append(cmds, c)
	}
	// Oldest first, as they ran.
	sortByID(p.Commands, cmds)
	p.Question = mention().ReplaceAllStringFunc(in.Question, func(m string) string {
		ref := mention().FindStringSubmatch(m)[1]
		if ref == "!" {
			ref = "-1"
		}
		return "(command #" + strconv.FormatInt(ids[ref], 10) + ", below)"
	})
	budget := max(in.Budget, 256)
	texts := append(outputs(cmds), in.Stdin)
	for _, c := range in.Contexts {
		texts = append(texts, c.Output)
	}
	boundary := promptblock.NewBoundary(texts...)
	var parts []string
	if in.Stdin != "" {
		// Piped input comes first in the budget: the user sent it
		// explicitly.
		text, omitted := promptblock.Excerpt(in.Stdin, budget*2/3)
		if omitted > 0 {
			p.Notes = append(p.Notes, fmt.Sprintf("piped input: %d lines left out to fit the budget", omitted))
		}
		begin, end := promptblock.Fence("stdin", boundary)
		block := "Piped input:\n" + begin + "\n" + text
		if !strings.HasSuffix(text, "\n") {
			block += "\n"
		}
		block += end + "\n"
		budget -= promptblock.Tokens(block)
		parts = append(parts, block)
	}
	if len(in.Contexts) > 0 {
		// Context commands come next: the user set them up for this.
		text, notes := contextcmd.Render(in.Contexts, max(budget/2, 128), boundary)
		p.Notes = append(p.Notes, notes...)
		budget -= Tokens(text)
		parts = append([]string{text}, parts...)
	}
	if len(cmds) > 0 {
		b := promptblock.Render(cmds, max(budget, 128), boundary)
		p.Notes = append(p.Notes, b.Notes...)
		budget -= b.Tokens
		parts = append([]string{b.Text}, parts...)
	}
	sys, err := system(ctx, src, in, &p, boundary, max(budget, 256), len(parts) > 0)
	if err != nil {
		return p, err
	}
	red := src.Redactor
	var k int
	p.Context, k = red.String(strings.Join(parts, "\n"))
	p.Redacted += k
	p.Question, k = red.String(p.Question)
	p.Redacted += k
	// The template may bring in commands and their output ($_SCREEN,
	// $_LAST): redacted like the rest.
	p.System, k = red.String(sys)
	p.Redacted += k
	return p, nil
}

// Block returns the context block of one recorded command: its output from
// the history, or, for the last command of the caller's session when none
// was captured, read back from the terminal. The note says where the
// output came from when that is worth saying.
func Block(ctx context.Context, src Sources, en history.Entry, last bool) (promptblock.Command, string) {
	c := promptblock.Command{ID: en.ID, Text: en.Command, ExitCode: en.ExitCode, Pipestatus: en.Pipestatus, Cwd: en.Cwd,
		Started: time.UnixMicro(en.StartedAt), Duration: time.Duration(en.DurationUS) * time.Microsecond}
	if en.ExitCode != 0 && src.WorkedBefore != nil {
		c.WorkedBefore = src.WorkedBefore(ctx, en)
	}
	o, err := src.Reader.Output(ctx, en, "", 0)
	var no *recall.NoOutput
	switch {
	case err == nil:
		c.Output, c.Source = string(o.Text), "captured"
		c.Truncated, c.Bytes = o.Flags&history.OutputTruncated != 0, o.Bytes
		return c, ""
	case errors.As(err, &no):
		c.Missing = no.Reason
	default:
		c.Missing = err.Error()
	}
	if last && src.Terminal != nil && en.Session == src.Reader.Session && (no == nil || !no.Withheld) {
		if text, source, err := src.Terminal(ctx, en.Command); err == nil {
			c.Output, c.Source, c.Missing = text, source, ""
			return c, fmt.Sprintf("#%d: no output was captured; read it back from %s", en.ID, source)
		}
	}
	return c, fmt.Sprintf("#%d: no output: %s", en.ID, c.Missing)
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

func hasEntry(es []history.Entry, id int64) bool {
	for _, e := range es {
		if e.ID == id {
			return true
		}
	}
	return false
}

func outputs(cmds []promptblock.Command) []string {
	out := make([]string, len(cmds))
	for i, c := range cmds {
		out[i] = c.Output
	}
	return out
}

// sortByID orders entries and their blocks together, oldest first.
func sortByID(es []history.Entry, cs []promptblock.Command) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].ID < es[j-1].ID; j-- {
			es[j], es[j-1] = es[j-1], es[j]
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// ContextBlock is the context block of recorded commands, as `hookd ctx`
// prints it and hookd's MCP server gives it (command_context): each
// command's facts and output (Block; the last command of its shell may be
// read back from the terminal, recall.Reader.Last), fenced with one
// boundary, within budget tokens, redacted. The notes say where outputs
// came from and what was cut; debug notes are Block's.
func ContextBlock(ctx context.Context, src Sources, es []history.Entry, budget int) (text string, notes, debug []string) {
	cmds := make([]promptblock.Command, 0, len(es))
	for _, en := range es {
		c, note := Block(ctx, src, en, src.Reader.Last(ctx, en))
		if note != "" {
			debug = append(debug, note)
		}
		cmds = append(cmds, c)
	}
	b := promptblock.Render(cmds, budget, promptblock.NewBoundary(outputs(cmds)...))
	text, _ = src.Redactor.String(b.Text)
	return text, b.Notes, debug
}
