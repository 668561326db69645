package scrollback

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// readTmux reads the output of command from tmux pane: by the OSC 133
// marks when tmux knows them and they frame the command, otherwise from the
// last lines of the pane with cutOutput.
func readTmux(ctx context.Context, pane, command string, timeout time.Duration) (string, error) {
	if paneID().MatchString(pane) {
		if v, err := run(ctx, timeout, "-V", "tmux", "-V"); err == nil && parseTmuxVersion(v).promptMarks() {
			out, err := tmuxMarked(ctx, pane, command, timeout)
			if err == nil {
				return out, nil
			}
			if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
				return "", err // a hung server would only hang again
			}
		}
	}
	screen, err := run(ctx, timeout, "capture-pane", "tmux", "capture-pane", "-p", "-J", "-t", pane,
		"-S", "-"+strconv.Itoa(terminalLines))
	if err != nil {
		return "", err
	}
	return cutScreen(screen, command)
}

// paneID matches a tmux pane id as TMUX_PANE holds it, which is safe to
// put into a tmux command string.
var paneID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^%[0-9]+$`) })

// tmuxVersion is what `tmux -V` says: "tmux 3.4", "tmux 3.3a", "tmux
// next-3.5" (a build from git on its way to 3.5), "tmux master".
type tmuxVersion struct {
	major, minor int
	next         bool // next-M.N: before release M.N
	master       bool
}

var tmuxVersionRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^tmux (next-)?([0-9]+)\.([0-9]+)[a-z]?(?:-rc[0-9]*)?$`)
})

// parseTmuxVersion parses the output of `tmux -V`; a version it does not
// know is the zero tmuxVersion, which has no prompt marks.
func parseTmuxVersion(s string) tmuxVersion {
	s = strings.TrimSpace(s)
	if s == "tmux master" {
		return tmuxVersion{master: true}
	}
	m := tmuxVersionRE().FindStringSubmatch(s)
	if m == nil {
		return tmuxVersion{}
	}
	major, err1 := strconv.Atoi(m[2])
	minor, err2 := strconv.Atoi(m[3])
	if err1 != nil || err2 != nil {
		return tmuxVersion{}
	}
	return tmuxVersion{major: major, minor: minor, next: m[1] != ""}
}

// promptMarks reports whether this tmux keeps OSC 133 prompt and output
// marks and moves between them with copy mode's previous-prompt and
// next-prompt -o: tmux 3.4 and newer, and builds from git after 3.4.
func (v tmuxVersion) promptMarks() bool {
	if v.master {
		return true
	}
	if v.major != 3 {
		return v.major > 3
	}
	return v.minor > 4 || v.minor == 4 && !v.next
}

// errNoMarks says that the marks do not give the output: tmuxMarked's
// caller falls back to cutting the screen.
var errNoMarks = errors.New("no prompt marks frame the command")

// tmuxMarked reads the output of the last command from tmux pane (an id
// such as %3) by the OSC 133 marks the shell hooks print: A starts a prompt
// (tmux flags the line as a prompt start) and C, printed when the command
// starts, flags its line as the start of the output. tmux 3.4 has no
// command that prints the lines between marks (capture-pane takes line
// numbers only), but copy mode moves to them: `previous-prompt` to the
// nearest prompt line above the cursor, `next-prompt -o` to the nearest
// output-start line below. So, in one tmux command unless the pane is
// already in a mode (the user's copy mode is left alone):
//
//	copy-mode -H                 cursor on the pane's cursor line, no indicator
//	previous-prompt              to the prompt of the last command
//	next-prompt -o               to where its output starts
//	next-prompt                  to the next prompt, if one is below
//	cancel
//
// printing `#{copy_cursor_y} #{scroll_position}` after each step: copy
// mode's cursor row and how far it is scrolled up, whose difference is the
// line number capture-pane takes (0 the top of the visible pane, negative
// numbers in the history). Entering and leaving copy mode in one command
// shows nothing on the screen. Then one more tmux command captures the
// prompt lines and the output lines, with a random separator between.
//
// The output ends before the next prompt, or on the cursor's line (where
// a last line without a newline is). The prompt lines must show command's
// first line: marks from another shell (one reached over ssh, say) must not
// pass for the last command's. An error wrapping errNoMarks means the marks
// did not give the output.
func tmuxMarked(ctx context.Context, pane, command string, timeout time.Duration) (string, error) {
	show := "display-message -p -t " + pane + ` "#{copy_cursor_y} #{scroll_position}"`
	send := "send-keys -X -t " + pane + " "
	walk := strings.Join([]string{
		"copy-mode -H -t " + pane, show,
		send + "previous-prompt", show,
		send + "next-prompt -o", show,
		send + "next-prompt", show,
		send + "cancel",
	}, " ; ")
	out, err := run(ctx, timeout, "if-shell", "tmux", "if-shell", "-F", "-t", pane, "#{pane_in_mode}",
		"display-message -p busy", walk)
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(out) == "busy" {
		return "", fmt.Errorf("%w: the pane is in a mode", errNoMarks)
	}
	lines, ok := parseLines(out, 4)
	if !ok {
		return "", fmt.Errorf("%w: unexpected answer from tmux: %q", errNoMarks, firstLine(out))
	}
	cursor, prompt, output, next := lines[0], lines[1], lines[2], lines[3]
	if prompt >= cursor {
		return "", fmt.Errorf("%w: no prompt mark above the cursor", errNoMarks)
	}
	if output <= prompt || output > cursor {
		return "", fmt.Errorf("%w: no output mark after the prompt", errNoMarks)
	}
	end := cursor
	if next > output && next <= cursor {
		end = next - 1
	}

	sep := "hookd-" + rand.Text() // no line of the pane is this
	args := []string{"capture-pane", "-p", "-J", "-t", pane, "-S", strconv.Itoa(prompt), "-E", strconv.Itoa(output - 1)}
	if output <= end {
		args = append(args, ";", "display-message", "-p", sep, ";",
			"capture-pane", "-p", "-J", "-t", pane,
			"-S", strconv.Itoa(max(output, end-terminalLines+1)), "-E", strconv.Itoa(end))
	}
	text, err := run(ctx, timeout, "capture-pane", "tmux", args...)
	if err != nil {
		return "", err
	}
	typed, printed := text, ""
	if output <= end {
		var found bool
		if typed, printed, found = strings.Cut(text, "\n"+sep+"\n"); !found {
			return "", fmt.Errorf("%w: unexpected answer from tmux capture-pane", errNoMarks)
		}
	}
	first := strings.TrimSpace(strings.SplitN(command, "\n", 2)[0])
	if !strings.Contains(screenText(typed), first) {
		return "", fmt.Errorf("%w: the command is not at the marked prompt", errNoMarks)
	}
	return screenText(printed), nil
}

// parseLines parses n lines of "ROW SCROLL" into row-scroll each: line
// numbers as capture-pane takes them.
func parseLines(s string, n int) ([]int, bool) {
	var lines []int
	for line := range strings.Lines(s) {
		row, scroll, ok := strings.Cut(strings.TrimSpace(line), " ")
		y, err1 := strconv.Atoi(row)
		o, err2 := strconv.Atoi(scroll)
		if !ok || err1 != nil || err2 != nil {
			return nil, false
		}
		lines = append(lines, y-o)
	}
	return lines, len(lines) == n
}
