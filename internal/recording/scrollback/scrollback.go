// Package scrollback reads the output of the last command back from the
// terminal (tmux, kitty, WezTerm) when it was not captured: it never runs
// the command again, it asks the terminal for its text. It runs those
// terminals' command-line tools; package capture, which cuts and renders
// captured output, stays a pure library.
package scrollback

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/hookd/hookd/capture"
)

// cutOutput cuts what command printed out of screen, the text of a
// terminal that shows the command typed after a prompt and then its output:
// the lines after the last line that ends with the command's first line (and
// after the rest of a multi-line command). It also reports whether the
// command was found on the screen, so that "no output" and "not on the
// screen" differ. It is a guess: a command that prints its own command line
// confuses it, which is why it serves only when there is no capture.
func cutOutput(screen, command string) (string, bool) {
	cmdLines := strings.Split(strings.TrimRight(command, "\n"), "\n")
	first := strings.TrimSpace(cmdLines[0])
	if first == "" {
		return "", false
	}
	lines := strings.Split(strings.TrimRight(screen, "\n "), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if !strings.HasSuffix(strings.TrimRight(lines[i], " "), first) {
			continue
		}
		start := i + len(cmdLines)
		if start >= len(lines) {
			return "", true
		}
		return strings.Join(lines[start:], "\n") + "\n", true
	}
	return "", false
}

// The sources [Read] reads from, as [Output.Source] names
// them.
const (
	SourceTmux    = "tmux"
	SourceKitty   = "kitty"
	SourceWezTerm = "wezterm"
)

// Output is the output of a command as a terminal shows it.
type Output struct {
	// Text is the output as plain text: no escape sequences or other
	// control characters but newline and tab, no trailing spaces or
	// blank lines, and a final newline unless it is empty (the command
	// printed nothing). It is at most terminalLines lines: the last ones.
	Text string
	// Source names where Text came from: "tmux", "kitty" or "wezterm".
	Source string
}

// ErrNoTerminal is the error of [Read] when the environment names
// no terminal it can read.
var ErrNoTerminal = errors.New("not in tmux, kitty or WezTerm (TMUX and TMUX_PANE, KITTY_WINDOW_ID and WEZTERM_PANE are unset)")

// terminalLines bounds what Read reads: the lines of scrollback it
// searches for the command, and the lines of output it returns (the last
// ones).
const terminalLines = 500

// Read returns the output of the last command (whose text is
// command) as the terminal shows it. It never runs the command again: it
// asks the terminal for its text. It tries, in this order, each terminal
// env (os.LookupEnv in production; nil means os.LookupEnv) says it runs in,
// and returns the first answer:
//
//   - tmux, when TMUX and TMUX_PANE are set. A tmux of version 3.4 or newer
//     knows where prompts and outputs start from the OSC 133 marks a shell
//     prints (A at a prompt, C before the output: hookd's hooks under
//     capture, and many prompts and shell integrations); Read finds
//     them with copy mode's previous-prompt and next-prompt commands (see
//     tmuxMarked) and captures exactly the lines between. An older tmux, a
//     pane without marks, or marks that do not frame the command: it
//     captures the last lines with `tmux capture-pane -p -J` and cuts the
//     output with cutOutput.
//   - kitty, when KITTY_WINDOW_ID is set: `kitty @ --to $KITTY_LISTEN_ON
//     get-text --match id:$KITTY_WINDOW_ID --extent last_cmd_output`, which
//     needs KITTY_LISTEN_ON (kitty's listen_on) and remote control allowed
//     (allow_remote_control); kitty finds the output by the same marks.
//   - WezTerm, when WEZTERM_PANE is set: `wezterm cli get-text --pane-id
//     $WEZTERM_PANE --start-line=-500`, cut with cutOutput.
//
// It is meant to be called from the shell's prompt hook, after the
// command and before the next prompt is drawn: a prompt on the screen may
// be taken for output when the screen is cut.
//
// timeout bounds each external command Read runs. The text is made
// plain with [capture.Render] whatever the terminal sent.
//
// The error says what was tried and why each failed, for example
// "no terminal output: tmux: capture-pane failed: exit status 1: no server
// running on /tmp/tmux-1000/default; kitty: remote control is off
// (allow_remote_control in kitty.conf)". It is [ErrNoTerminal] when there
// was nothing to try; it wraps [context.DeadlineExceeded] when a command
// timed out.
func Read(ctx context.Context, env func(string) (string, bool), command string, timeout time.Duration) (Output, error) {
	if env == nil {
		env = os.LookupEnv
	}
	get := func(key string) string {
		v, _ := env(key)
		return v
	}
	type source struct {
		name string
		read func() (string, error)
	}
	var sources []source
	if pane := get("TMUX_PANE"); pane != "" && get("TMUX") != "" {
		sources = append(sources, source{SourceTmux, func() (string, error) {
			return readTmux(ctx, pane, command, timeout)
		}})
	}
	if id := get("KITTY_WINDOW_ID"); id != "" {
		sources = append(sources, source{SourceKitty, func() (string, error) {
			return readKitty(ctx, get("KITTY_LISTEN_ON"), id, timeout)
		}})
	}
	if pane := get("WEZTERM_PANE"); pane != "" {
		sources = append(sources, source{SourceWezTerm, func() (string, error) {
			return readWezTerm(ctx, pane, command, timeout)
		}})
	}
	if len(sources) == 0 {
		return Output{}, ErrNoTerminal
	}
	var failed attempts
	for _, s := range sources {
		text, err := s.read()
		if err == nil {
			return Output{Text: text, Source: s.name}, nil
		}
		failed = append(failed, fmt.Errorf("%s: %w", s.name, err))
		if ctx.Err() != nil {
			break
		}
	}
	return Output{}, failed
}

// attempts is the error of Read: why each source failed.
type attempts []error

func (a attempts) Error() string {
	msgs := make([]string, len(a))
	for i, err := range a {
		msgs[i] = err.Error()
	}
	return "no terminal output: " + strings.Join(msgs, "; ")
}

func (a attempts) Unwrap() []error { return a }

// readKitty asks kitty for the output of the last command in window id.
func readKitty(ctx context.Context, listenOn, id string, timeout time.Duration) (string, error) {
	if listenOn == "" {
		// Without an address `kitty @` talks through the controlling
		// terminal, which is the shell's: it would read the user's
		// typeahead as its answer.
		return "", errors.New("KITTY_LISTEN_ON is unset: kitty must listen on a socket (listen_on in kitty.conf) and allow remote control")
	}
	out, err := run(ctx, timeout, "@ get-text", "kitty", "@", "--to", listenOn, "get-text",
		"--match", "id:"+id, "--extent", "last_cmd_output")
	if err != nil {
		var te *toolError
		if errors.As(err, &te) && strings.Contains(strings.ToLower(te.message), "remote control is disabled") {
			return "", fmt.Errorf("remote control is off (allow_remote_control in kitty.conf): %w", err)
		}
		return "", err
	}
	return lastLines(screenText(out), terminalLines), nil
}

// readWezTerm reads the last lines of a WezTerm pane and cuts the output of
// command out of them.
func readWezTerm(ctx context.Context, pane, command string, timeout time.Duration) (string, error) {
	// The = keeps the negative number from reading as a flag.
	out, err := run(ctx, timeout, "cli get-text", "wezterm", "cli", "get-text",
		"--pane-id", pane, "--start-line=-"+strconv.Itoa(terminalLines))
	if err != nil {
		return "", err
	}
	return cutScreen(out, command)
}

// cutScreen cuts the output of command out of the text of a screen, made
// plain first.
func cutScreen(screen, command string) (string, error) {
	out, ok := cutOutput(screenText(screen), command)
	if !ok {
		return "", errors.New("the command is not on the screen")
	}
	return lastLines(out, terminalLines), nil
}

// screenText returns what the screen shows of s, which should be plain text
// already: anything [capture.Render] strips or applies is gone, trailing spaces and
// blank lines are trimmed, and the text ends in a newline unless it is
// empty.
func screenText(s string) string {
	text, fullScreen := capture.Render([]byte(s))
	if fullScreen { // an alternate-screen switch in what was to be plain text
		text = strings.Map(func(r rune) rune {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
				return -1
			}
			return r
		}, s)
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		lines[i] = strings.TrimRight(line, " \t")
	}
	text = strings.TrimRight(strings.Join(lines, "\n"), "\n")
	if text == "" {
		return ""
	}
	return text + "\n"
}

// lastLines returns the last n lines of text, whose lines end in newlines.
func lastLines(text string, n int) string {
	end := len(text)
	for i := len(text) - 1; i >= 0; i-- {
		if text[i] != '\n' || i == end-1 {
			continue
		}
		if n--; n == 0 {
			return text[i+1:]
		}
	}
	return text
}

// maxToolOutput bounds what run keeps of a command's standard output: the
// last bytes.
const maxToolOutput = 4 << 20

// run runs the external command name with args, bounded by timeout, and
// returns its standard output. Its errors are *toolError; label names the
// command in them ("capture-pane", "@ get-text").
func run(ctx context.Context, timeout time.Duration, label, name string, args ...string) (string, error) {
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, name, args...)
	stdout := &tailBuffer{max: maxToolOutput}
	var stderr bytes.Buffer
	cmd.Stdout = stdout
	cmd.Stderr = &stderr
	// A killed command's children may hold its output open: stop waiting
	// for them soon after.
	cmd.WaitDelay = 100 * time.Millisecond
	err := cmd.Run()
	if err == nil {
		return stdout.String(), nil
	}
	te := &toolError{label: label, name: name, err: err, message: firstLine(stderr.String())}
	switch {
	case errors.Is(err, exec.ErrNotFound):
		te.notFound = true
	case ctx.Err() != nil:
		te.err = ctx.Err()
	case errors.Is(cctx.Err(), context.DeadlineExceeded):
		te.timeout = timeout
		te.err = context.DeadlineExceeded
	}
	if te.message == "" {
		te.message = firstLine(stdout.String())
	}
	return "", te
}

// toolError is the error of an external command run by Read.
type toolError struct {
	label    string // the command, without the program: "capture-pane"
	name     string // the program
	err      error
	message  string // the first line of its error output
	notFound bool
	timeout  time.Duration // when it timed out
}

func (e *toolError) Error() string {
	switch {
	case e.notFound:
		return "not installed (no " + e.name + " on PATH)"
	case e.timeout > 0:
		return e.label + " timed out after " + e.timeout.String()
	case e.message != "":
		return e.label + " failed: " + e.err.Error() + ": " + e.message
	}
	return e.label + " failed: " + e.err.Error()
}

func (e *toolError) Unwrap() error { return e.err }

// firstLine returns the first non-blank line of s, trimmed and cut to 200
// bytes.
func firstLine(s string) string {
	for line := range strings.Lines(s) {
		if line = strings.TrimSpace(line); line != "" {
			if len(line) > 200 {
				line = strings.ToValidUTF8(line[:200], "") + "…"
			}
			return line
		}
	}
	return ""
}

// tailBuffer is an io.Writer that keeps the last max bytes written to it.
type tailBuffer struct {
	buf []byte
	max int
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.buf = append(b.buf, p...)
	if len(b.buf) > 2*b.max {
		b.buf = append(b.buf[:0], b.buf[len(b.buf)-b.max:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	if len(b.buf) > b.max {
		return string(b.buf[len(b.buf)-b.max:])
	}
	return string(b.buf)
}
