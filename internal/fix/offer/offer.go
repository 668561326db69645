// Package offer keeps the commands hookd offers for the user's next command
// line: the fixes of the last failed command (Fixes), or the commands an
// LLM's answer proposes (Answer). It is the one writer of offers. Nothing
// here runs anything: the shell's `fix` command and its key binding read
// the offer and put a command before the user, who runs it or not.
//
// The offer of a session is one file, Path(dir, session): the commands,
// best first, each followed by a NUL byte (a shell string cannot hold one,
// so no escaping is needed). The shell code reads it with builtins (bash's
// `read -d ”`, zsh's `${(0)…}`), from the directory `hookd init` fills in.
package offer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/internal/sanitize"
)

// Max is how many commands an offer holds at most (`fix 1` to `fix 3`).
const Max = 3

// Path returns the offer file of session in dir.
func Path(dir, session string) string { return filepath.Join(dir, session) }

// Fixes replaces the offer of session with the commands of fixes, best
// first (`fix`, `fix 2`, …; at most Max, none removes the offer), and
// their risks (RiskPath).
func Fixes(dir, session string, fixes []analyze.Fix) error {
	cmds := make([]string, 0, len(fixes))
	risks := make([]Risk, 0, len(fixes))
	for _, f := range fixes {
		cmds = append(cmds, f.Command)
		risks = append(risks, Risk{Level: f.Risk, Why: f.Explanation})
	}
	return write(dir, session, cmds, risks)
}

// Risk is what the shell says of an offered command before it runs it: its
// risk level (analyze.RiskLow, …) and why it is offered, one line.
type Risk struct {
	Level, Why string
}

// RiskPath is the file beside session's offer that says each command's
// risk, so that the shell names it when it asks (and asks for "yes" when
// it is high), and never picks a high one by itself: for each command,
// its level, the line that explains it and the command, each followed by
// a NUL byte. The shell finds a command's risk by the command itself, so
// that the two files cannot disagree; a command it does not find there is
// one of unknown risk, asked about as a high one.
func RiskPath(dir, session string) string { return filepath.Join(dir, session+".risk") }

// Answer offers the commands an answer proposes, in its order: all of
// them to `fix` (replacing the session's offer), and the first once as the
// next command line (the one-shot offer). An offer belongs to the question
// that made it: an answer that proposes none (or a question that failed or
// was cancelled: nil) takes an earlier one-shot offer away, so that an old
// answer's command never lands on a later line; the fixes `fix` offers
// stay as they are.
func Answer(dir, session string, cmds []string) error {
	if len(cmds) == 0 {
		return ClearNext(dir, session)
	}
	risks := make([]Risk, len(cmds))
	for i, c := range cmds {
		risks[i] = Risk{Level: analyze.Risk(c), Why: "Proposed by the answer."}
	}
	if err := write(dir, session, cmds, risks); err != nil {
		return err
	}
	return writeNext(dir, session, cmds[0])
}

// write replaces the offer of session with cmds (at most Max; none
// removes it) and their risks: the risks first, so that a command is never
// offered before its risk can be read. The files are 0600 in a 0700
// directory.
func write(dir, session string, cmds []string, risks []Risk) error {
	if err := validSession(session); err != nil {
		return err
	}
	if len(cmds) == 0 {
		return Clear(dir, session)
	}
	var b, r []byte
	for i, c := range cmds {
		if i == Max {
			break
		}
		if c == "" || strings.IndexByte(c, 0) >= 0 {
			return fmt.Errorf("offer: command %d is empty or holds a NUL byte", i+1)
		}
		b = append(append(b, c...), 0)
		level := analyze.RiskHigh // unknown: asked about as high
		if risks[i].Level == analyze.RiskLow || risks[i].Level == analyze.RiskMedium {
			level = risks[i].Level
		}
		why := sanitize.Line(risks[i].Why)
		r = append(append(append(append(append(append(r, level...), 0), why...), 0), c...), 0)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("offer: %w", err)
	}
	if err := replace(dir, session, RiskPath(dir, session), r); err != nil {
		return err
	}
	return replace(dir, session, Path(dir, session), b)
}

// replace writes b to path through a temporary file renamed over it.
func replace(dir, session, path string, b []byte) error {
	tmp := Path(dir, "."+session+".tmp")
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("offer: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("offer: %w", err)
	}
	return nil
}

// Read returns the commands offered to session, best first (none when
// there is no offer).
func Read(dir, session string) ([]string, error) {
	if err := validSession(session); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(Path(dir, session))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("offer: %w", err)
	}
	var cmds []string
	for _, c := range strings.Split(string(b), "\x00") {
		if c != "" {
			cmds = append(cmds, c)
		}
	}
	return cmds, nil
}

// Clear removes the offer of session: what was offered for an earlier
// command never applies to a later one.
func Clear(dir, session string) error {
	if err := validSession(session); err != nil {
		return err
	}
	for _, p := range []string{Path(dir, session), RiskPath(dir, session)} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("offer: %w", err)
		}
	}
	return nil
}

// NextPath is the one-shot offer of session: a command the shell puts on
// the next command line once (the first command of an answer to a `??`
// line), then empties.
func NextPath(dir, session string) string { return filepath.Join(dir, session+".next") }

// writeNext sets the one-shot offer of session to cmd.
func writeNext(dir, session, cmd string) error {
	if err := validSession(session); err != nil {
		return err
	}
	if strings.IndexByte(cmd, 0) >= 0 {
		return fmt.Errorf("offer: the command holds a NUL byte")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("offer: %w", err)
	}
	return os.WriteFile(NextPath(dir, session), []byte(cmd), 0o600)
}

// ClearNext takes session's one-shot offer away, if there is one.
func ClearNext(dir, session string) error {
	if err := validSession(session); err != nil {
		return err
	}
	if err := os.Remove(NextPath(dir, session)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("offer: %w", err)
	}
	return nil
}

func validSession(s string) error {
	if s == "" || s[0] == '.' || strings.ContainsAny(s, "/\x00") {
		return fmt.Errorf("offer: bad session id %q", s)
	}
	return nil
}
