// Package contextcmd runs context commands: named commands run
// before a question, all at once, each with a timeout, whose outputs go
// with the question in labelled blocks.
//
// Each command runs as SHELL -c COMMAND, stdin from /dev/null, stdout and
// stderr into one pipe (so they interleave as written), in a process group
// of its own. At its timeout the whole group is killed; when it ends,
// whatever it left running in its group is killed too, so that no
// background child outlives it or holds its output open. Run returns at
// the slowest command's end or timeout, whatever grandchildren do.
package contextcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/hookd/hookd/internal/ai/promptblock"
	"github.com/hookd/hookd/internal/config"
)

// Spec is a context command to run.
type Spec struct {
	// Name labels its block ("" is the command itself).
	Name    string
	Command string
	// OnFailure says what a failure does: warn ("" too), ignore or fail.
	OnFailure config.OnFailure
	// Timeout bounds it (0: DefaultTimeout).
	Timeout time.Duration
	// Source says where it came from (a file, or "--exec"), for messages.
	Source string
}

// SpecOf returns the Spec of a configured context command.
func SpecOf(c config.ContextCommand, source string) Spec {
	return Spec{Name: c.Name, Command: c.Command, OnFailure: c.OnFailure, Timeout: time.Duration(c.Timeout), Source: source}
}

// Label is the name its block carries: Name, or else the command.
func (s Spec) Label() string {
	if s.Name != "" {
		return s.Name
	}
	return s.Command
}

// Limits.
const (
	DefaultTimeout = config.DefaultContextTimeout
	// MaxOutput is the most kept of one command's output: its head.
	MaxOutput = 256 << 10
	// grace is how long, once a command and its group are gone, its
	// output pipe is waited on: only a process that left the group (with
	// setsid) can still hold it.
	grace = 250 * time.Millisecond
)

// ErrNotConfirmed is the Err of a command the Confirm function refused.
var ErrNotConfirmed = errors.New("not confirmed")

// Result is what one command did.
type Result struct {
	Spec Spec
	// Output is what it wrote, stdout and stderr together as written, at
	// most MaxOutput bytes (the head; then a line saying so).
	Output string
	// Dropped is how many bytes past MaxOutput were not kept.
	Dropped int64
	// ExitCode is its exit status; -1 when it did not exit by itself
	// (killed, timed out, not started).
	ExitCode int
	// Err is nil, or why it failed: "exit status N", "timed out after
	// 10s", "could not start: …", ErrNotConfirmed, or the context's error.
	Err      error
	Duration time.Duration
}

// Options say how commands run.
type Options struct {
	// Dir is the working directory ("" the current one).
	Dir string
	// Shell runs each command as Shell -c COMMAND ("" is /bin/sh).
	Shell string
	// Env is the environment (nil: this process's).
	Env []string
	// Confirm, when set, is asked about each command, in declared order,
	// before any runs; a command it refuses is not run (Err is
	// ErrNotConfirmed).
	Confirm func(name, command string) bool
}

// Run runs cmds, all at once, and returns their results in declared order
// once the last has ended or timed out. Cancelling ctx kills them all.
func Run(ctx context.Context, cmds []Spec, opt Options) []Result {
	rs := make([]Result, len(cmds))
	run := make([]bool, len(cmds))
	for i, s := range cmds {
		run[i] = opt.Confirm == nil || opt.Confirm(s.Label(), s.Command)
		if !run[i] {
			rs[i] = Result{Spec: s, ExitCode: -1, Err: ErrNotConfirmed}
		}
	}
	var wg sync.WaitGroup
	for i, s := range cmds {
		if run[i] {
			wg.Go(func() { rs[i] = runOne(ctx, s, opt) })
		}
	}
	wg.Wait()
	return rs
}

// runOne runs one command to its end, its timeout or ctx's end.
func runOne(ctx context.Context, s Spec, opt Options) Result {
	r := Result{Spec: s, ExitCode: -1}
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	shell := opt.Shell
	if shell == "" {
		shell = "/bin/sh"
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		r.Err = fmt.Errorf("could not start: %w", err)
		return r
	}
	defer pr.Close()
	cmd := exec.Command(shell, "-c", s.Command)
	cmd.Dir, cmd.Env = opt.Dir, opt.Env
	// One pipe for both: the output interleaves as it was written. The
	// child gets the pipe itself (an *os.File), so waiting for the shell
	// never waits on the pipe; the reader below does.
	cmd.Stdout, cmd.Stderr = pw, pw
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	start := time.Now()
	err = cmd.Start()
	pw.Close()
	if err != nil {
		r.Err = fmt.Errorf("could not start: %w", err)
		return r
	}
	pgid := cmd.Process.Pid
	var out capture
	read := make(chan struct{})
	go func() {
		out.readFrom(pr)
		close(read)
	}()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case err = <-waited:
		if err != nil {
			r.Err = err // exit status N, signal: …
		}
	case <-timer.C:
		killGroup(pgid)
		<-waited
		r.Err = fmt.Errorf("timed out after %s", timeout)
	case <-ctx.Done():
		killGroup(pgid)
		<-waited
		r.Err = ctx.Err()
	}
	r.Duration = time.Since(start)
	r.ExitCode = cmd.ProcessState.ExitCode()
	// What it left running goes with it, and lets go of the pipe.
	killGroup(pgid)
	select {
	case <-read:
	case <-time.After(grace):
		pr.Close() // something outside the group holds the pipe
		<-read
	}
	r.Output, r.Dropped = out.text()
	return r
}

// killGroup kills the process group pgid (a command's, made with Setpgid).
func killGroup(pgid int) {
	if pgid > 0 {
		syscall.Kill(-pgid, syscall.SIGKILL)
	}
}

// capture keeps the head of what is read, up to MaxOutput bytes, and
// counts the rest.
type capture struct {
	buf     []byte
	dropped int64
}

func (c *capture) readFrom(r io.Reader) {
	b := make([]byte, 32<<10)
	for {
		n, err := r.Read(b)
		keep := min(n, MaxOutput-len(c.buf))
		c.buf = append(c.buf, b[:keep]...)
		c.dropped += int64(n - keep)
		if err != nil {
			return
		}
	}
}

// text returns the output kept, cut on a character boundary, with a line
// saying how much was not kept.
func (c *capture) text() (string, int64) {
	b := c.buf
	if c.dropped == 0 {
		return string(b), 0
	}
	for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.Valid(b[max(len(b)-utf8.UTFMax, 0):]); i++ {
		b = b[:len(b)-1]
	}
	dropped := c.dropped + int64(len(c.buf)-len(b))
	s := string(b)
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s + fmt.Sprintf("[… output cut at %d KiB: %d more bytes not kept …]\n", MaxOutput>>10, dropped), dropped
}

// Failed returns an error naming the first command with on_failure: fail
// that failed (not confirmed included); nil when there is none.
func Failed(rs []Result) error {
	for _, r := range rs {
		if r.Err != nil && r.Spec.OnFailure == config.OnFailureFail {
			return fmt.Errorf("context command %q failed (on_failure: fail): %w", r.Spec.Label(), r.Err)
		}
	}
	return nil
}

// Render writes the results as blocks, in declared order:
//
//	--- Context: NAME ---
//	<output>
//	--- End Context ---
//
// A failed command's block (on_failure warn or fail) ends with a line
// "(failed: ERR)", or "(not run: not confirmed)"; with on_failure ignore it
// is left out. The blocks fit in about budgetTokens (0: no limit; four
// bytes a token): when they do not, the outputs share what is left after
// the labels, the smaller ones whole, the larger ones cut to their head,
// tail and error lines (promptblock.Excerpt). notes say, for the user, what
// failed and what was cut.
//
// With a boundary (see promptblock.NewBoundary) each output is fenced with
// it, as commands' outputs are, so that an output that prints "--- End
// Context ---" cannot pass for the end of its block.
func Render(rs []Result, budgetTokens int, boundary string) (text string, notes []string) {
	type block struct {
		label, output, status string
	}
	var bs []block
	for _, r := range rs {
		b := block{label: r.Spec.Label(), output: r.Output}
		switch {
		case r.Err != nil && r.Spec.OnFailure == config.OnFailureIgnore:
			continue
		case errors.Is(r.Err, ErrNotConfirmed):
			b.status = "(not run: not confirmed)\n"
			notes = append(notes, fmt.Sprintf("context command %q not run: not confirmed", b.label))
		case r.Err != nil:
			b.status = "(failed: " + r.Err.Error() + ")\n"
			notes = append(notes, fmt.Sprintf("context command %q failed: %v", b.label, r.Err))
		}
		if r.Dropped > 0 {
			notes = append(notes, fmt.Sprintf("context command %q: output cut at %d KiB (%d bytes more)", b.label, MaxOutput>>10, r.Dropped))
		}
		bs = append(bs, b)
	}
	frame := func(b block) (head, tail string) {
		head, tail = "--- Context: "+b.label+" ---\n", b.status+"--- End Context ---\n"
		if boundary != "" && b.output != "" {
			begin, end := promptblock.Fence("output", boundary)
			head, tail = head+begin+"\n", end+"\n"+tail
		}
		return head, tail
	}
	if budgetTokens > 0 {
		left := budgetTokens
		sizes := make([]int, len(bs))
		for i, b := range bs {
			head, tail := frame(b)
			left -= promptblock.Tokens(head+tail) + 1
			sizes[i] = promptblock.Tokens(b.output)
		}
		for i, share := range shares(sizes, max(left, 0)) {
			if sizes[i] <= share {
				continue
			}
			cut, omitted := promptblock.Excerpt(bs[i].output, share)
			bs[i].output = cut
			notes = append(notes, fmt.Sprintf("context command %q: output cut to about %d tokens (%d lines left out) to fit the budget of %d", bs[i].label, max(share, 16), omitted, budgetTokens))
		}
	}
	var sb strings.Builder
	for i, b := range bs {
		if i > 0 {
			sb.WriteByte('\n')
		}
		head, tail := frame(b)
		sb.WriteString(head)
		sb.WriteString(b.output)
		if b.output != "" && !strings.HasSuffix(b.output, "\n") {
			sb.WriteByte('\n')
		}
		sb.WriteString(tail)
	}
	return sb.String(), notes
}

// shares divides total among sizes fairly: the smallest get what they
// need, the rest share equally what is left.
func shares(sizes []int, total int) []int {
	idx := make([]int, len(sizes))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return sizes[a] - sizes[b] })
	out := make([]int, len(sizes))
	for k, i := range idx {
		share := total / (len(idx) - k)
		out[i] = min(sizes[i], share)
		total -= out[i]
	}
	return out
}
