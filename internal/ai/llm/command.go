package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"
)

// command runs a command line with sh -c: the prompt on its stdin, the
// answer on its stdout (llm -m X, ollama run X, …).
type command struct {
	cfg Config
}

func newCommand(cfg Config) (*command, error) {
	if strings.TrimSpace(cfg.Command) == "" {
		return nil, &Error{Kind: NotConfigured, Msg: "provider command needs a command line",
			Hint: "set llm.command in config.yaml, e.g. 'llm -m gpt-4o-mini'"}
	}
	return &command{cfg: cfg}, nil
}

func (p *command) Name() string     { return Command }
func (p *command) Model() string    { return p.cfg.Model }
func (p *command) Endpoint() string { return p.cfg.Command }

// Models returns nil: a command lists no models.
func (p *command) Models(ctx context.Context) ([]string, error) { return nil, nil }

// Supports: a command has neither tool calls nor enforced structured
// output. Request.Tools are ignored; a Request.Schema is asked for in the
// prompt (see prompt), and the answer is returned as the command wrote it.
func (p *command) Supports() Features { return Features{} }

// prompt is what the command reads: the system prompt and the messages,
// separated by blank lines, labelled by role if the assistant has spoken;
// with a Schema, an instruction to answer with JSON matching it.
func (p *command) prompt(req Request) string {
	labels := false
	for _, m := range req.Messages {
		labels = labels || m.Role != "user"
	}
	var parts []string
	if req.System != "" {
		parts = append(parts, req.System)
	}
	for _, m := range req.Messages {
		if labels {
			parts = append(parts, strings.ToUpper(m.Role[:min(1, len(m.Role))])+m.Role[min(1, len(m.Role)):]+": "+m.Content)
		} else {
			parts = append(parts, m.Content)
		}
	}
	if sc := req.Schema; sc != nil {
		parts = append(parts, schemaInstruction(sc))
	}
	return strings.Join(parts, "\n\n") + "\n"
}

// schemaInstruction asks for an answer that is only JSON matching sc.
func schemaInstruction(sc *Schema) string {
	var b strings.Builder
	b.WriteString("Answer with only a JSON value matching this JSON Schema: no other text, no code fence.")
	if sc.Description != "" {
		d := sc.Description
		// "The analysis of …" goes on as "It is the analysis of …"
		// (an acronym, "JSON …", keeps its capitals).
		if len(d) > 1 && d[0] >= 'A' && d[0] <= 'Z' && d[1] >= 'a' && d[1] <= 'z' {
			d = string(d[0]+'a'-'A') + d[1:]
		}
		b.WriteString(" It is " + d)
		if !strings.HasSuffix(d, ".") {
			b.WriteString(".")
		}
	}
	var ind bytes.Buffer
	schema := sc.schemaJSON()
	if json.Indent(&ind, schema, "", "  ") == nil {
		schema = ind.Bytes()
	}
	b.WriteString("\n\n")
	b.Write(schema)
	return b.String()
}

// commandWaitDelay is how long a cancelled command's group has to go after
// SIGTERM before its pipes are closed and it is killed.
const commandWaitDelay = 100 * time.Millisecond

func (p *command) Stream(ctx context.Context, req Request, on func(Event) error) (Result, error) {
	ctx, cancel := withTimeout(ctx, p.cfg.timeout())
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", p.cfg.Command)
	cmd.Stdin = strings.NewReader(p.prompt(req))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = commandWaitDelay
	stderr := &tailBuffer{max: 4 << 10}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return Result{}, errorf(CommandFailed, err, "command: %v", err)
	}
	if err := cmd.Start(); err != nil {
		return Result{}, &Error{Kind: CommandFailed, Msg: fmt.Sprintf("command: start %q: %v", p.cfg.Command, err), Err: err}
	}
	pgid := cmd.Process.Pid
	defer syscall.Kill(-pgid, syscall.SIGKILL) // whatever of the group is left

	res := newResult(ctx, Command, p.cfg.timeout())
	res.Model = p.cfg.Model
	var pending []byte
	buf := make([]byte, 4096)
	var onErr error
	for {
		n, rerr := stdout.Read(buf)
		if n > 0 && onErr == nil {
			pending = append(pending, buf[:n]...)
			cut := completeUTF8(pending)
			onErr = res.add(Text, string(pending[:cut]), on)
			pending = append(pending[:0], pending[cut:]...)
			if onErr != nil {
				cancel()
			}
		}
		if rerr != nil {
			break
		}
	}
	if onErr == nil && len(pending) > 0 {
		onErr = res.add(Text, string(pending), on)
	}
	werr := cmd.Wait()
	switch {
	case onErr != nil:
		return res.out(), onErr
	case ctx.Err() != nil:
		return res.out(), ctxError(ctx, Command, p.cfg.timeout())
	case werr != nil:
		e := &Error{Kind: CommandFailed, Msg: fmt.Sprintf("command: %q: %v", p.cfg.Command, werr), Err: werr,
			Hint: "check llm.command in config.yaml"}
		var ee *exec.ExitError
		if errors.As(werr, &ee) {
			e.Msg = fmt.Sprintf("command: %q exited with status %d", p.cfg.Command, ee.ExitCode())
		}
		if tail := stderr.lastLines(5); tail != "" {
			e.Hint = "it said:\n" + tail
		}
		return res.out(), e
	}
	res.StopReason = "exit"
	return res.out(), nil
}

// completeUTF8 returns the length of b's longest prefix that does not end
// in the middle of a UTF-8 sequence.
func completeUTF8(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) lastLines(n int) string {
	lines := strings.Split(strings.TrimRight(string(bytes.ToValidUTF8(t.b, []byte("?"))), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

var _ io.Writer = (*tailBuffer)(nil)
