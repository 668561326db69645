package capture

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Tmux returns the last lines of a tmux pane (joined where tmux wrapped
// them), for finding the last command's output when hookd did not capture
// it itself. It runs `tmux capture-pane`, and gives up after timeout.
func Tmux(ctx context.Context, pane string, lines int, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "tmux", "capture-pane", "-p", "-J", "-t", pane, "-S", "-"+strconv.Itoa(lines)).Output()
	return string(out), err
}

// LastOutput cuts what command printed out of screen, the text of a
// terminal that shows the command typed after a prompt and then its output:
// the lines after the last line that ends with the command's first line (and
// after the rest of a multi-line command). It returns "" when the command is
// not on the screen. It is a guess: a command that prints its own command
// line confuses it, which is why it serves only when there is no capture.
func LastOutput(screen, command string) string {
	cmdLines := strings.Split(strings.TrimRight(command, "\n"), "\n")
	first := strings.TrimSpace(cmdLines[0])
	if first == "" {
		return ""
	}
	lines := strings.Split(strings.TrimRight(screen, "\n "), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if !strings.HasSuffix(strings.TrimRight(lines[i], " "), first) {
			continue
		}
		start := i + len(cmdLines)
		if start >= len(lines) {
			return ""
		}
		return strings.Join(lines[start:], "\n") + "\n"
	}
	return ""
}
