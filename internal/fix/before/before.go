// Package before explains a failure by what changed since the same command
// last succeeded: it finds that run in the history (the same line, or the
// same program and subcommand with close arguments) and compares the
// context each ran in — directory, git branch and changes, the environment
// the shell noted (virtualenv, conda, PATH, the managers' variables,
// fix.watch_env's), the files the command names, the time since — and
// says which difference plausibly explains the failure, in one line, with
// the command that restores it where there is one (cd back, git switch,
// source the virtualenv's activate, export the variable's old value when it
// was not a secret).
//
// It runs nothing: the facts were noted when the commands were recorded
// (package runctx, at ingest), and the only other thing it looks at is
// whether files exist now.
package before

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/runctx"
	"github.com/hookd/hookd/internal/shellwords"
)

// Run is one run of a command and the context it ran in.
type Run struct {
	ID       int64
	Command  string
	ExitCode int
	Cwd      string
	Started  time.Time
	// Context is what was noted of it (package history); Known is false
	// when nothing was (a command recorded before hookd noted contexts).
	Context history.Context
	Known   bool
}

// Kinds of difference.
const (
	KindDirectory = "directory"
	KindBranch    = "branch"
	KindChanges   = "changes"
	KindVenv      = "virtualenv"
	KindConda     = "conda"
	KindVariable  = "variable"
	KindPath      = "path"
	KindFile      = "file"
)

// Difference is one way the failure's context differs from the success's.
type Difference struct {
	Kind string
	// Name is the variable (KindVariable), the file (KindFile), the
	// directory missing from or added to PATH (KindPath).
	Name string
	// Then and Now are the values (a directory, a branch, a variable's
	// value; "" for none or unset). Redacted is set when the value then
	// was a secret, redacted before it was stored.
	Then, Now string
	Redacted  bool
	// Weight is how plausibly the difference explains the failure, 0 to 1.
	Weight float64
	// Text says it, for people: "on branch main; now on feature".
	Text string
	// then and now are the line's halves ("on branch main", "on feature").
	then, now string
}

// Comparison is a failure compared with the last success of the same
// command.
type Comparison struct {
	Then, Now Run
	// Exact is set when the success was the very same line.
	Exact bool
	// Differences are the ways the contexts differ, most plausible
	// explanation first.
	Differences []Difference
	// Line says, in one line, when it worked and what changed since,
	// when a difference plausibly explains the failure ("" otherwise).
	Line string
	// Fixes restore what changed, most plausible first: cd back, git
	// switch, source an activate script, export a variable's old value.
	Fixes []analyze.Fix

	home string // shown as ~
}

// Options are what the comparison needs besides the two runs.
type Options struct {
	// Home is the user's home directory, shown as ~.
	Home string
	// ErrorType and Output are the failure's analysis and output (either
	// may be empty): they say which differences matter.
	ErrorType string
	Output    string
	// Now is the time of the comparison (for "20 min ago").
	Now time.Time
	// Shell is the shell the failure ran in: fish activates a virtualenv
	// with bin/activate.fish.
	Shell string
	// Environ, when set, looks a variable up in the failing shell's
	// environment as it is now (hookd suggest runs as that shell's
	// child): a variable the output names as missing is then compared
	// with what the session's command lines had set it to when the
	// command last worked (named.go). nil: not compared.
	Environ func(name string) (string, bool)
}

// plausible is the weight from which a difference is said in the line.
const plausible = 0.5

// candidates is how many of the last successes of a key are looked at.
const candidates = 50

// Find looks up the last success of the command of en (same line, else the
// same program and subcommand with close arguments) and compares the two.
// It returns nil when there is none, or en did not fail.
func Find(ctx context.Context, s *history.Store, en history.Entry, o Options) (*Comparison, error) {
	if en.ExitCode == 0 || en.ExitCode == 130 {
		return nil, nil
	}
	then, ok, err := LastSuccess(ctx, s, en)
	if err != nil || !ok {
		return nil, err
	}
	return CompareEntries(ctx, s, then, en, o)
}

// LastSuccess returns the last run of en's command that succeeded before
// it on this installation: the same line, else the same program and
// subcommand with close arguments; ok is false when there is none, and
// always for a failure synced from another installation. A success
// synced from elsewhere is never one: its directories, PATH and
// environment are another machine's (and anyone holding the sync key
// could have written them), so what restores them is nothing to offer
// here.
func LastSuccess(ctx context.Context, s *history.Store, en history.Entry) (history.Entry, bool, error) {
	key := runctx.KeyHash(en.Command)
	if key == 0 || en.HostID != "" || history.SessionHost(en.Session) != "" {
		return history.Entry{}, false, nil
	}
	// The walk stops at the first run of the same line: most often the
	// first row, rather than fifty read.
	p := newPicker(en.Command)
	if err := s.EachSuccess(ctx, key, en.StartedAt, "", candidates, p.add); err != nil {
		return history.Entry{}, false, err
	}
	return p.got, p.ok, nil
}

// CompareEntries compares two recorded runs, with what was noted of their
// contexts: now as it differs from then.
func CompareEntries(ctx context.Context, s *history.Store, then, now history.Entry, o Options) (*Comparison, error) {
	nowRun, err := runOf(ctx, s, now)
	if err != nil {
		return nil, err
	}
	thenRun, err := runOf(ctx, s, then)
	if err != nil {
		return nil, err
	}
	if err := addNamed(ctx, s, then, &thenRun, &nowRun, o); err != nil {
		return nil, err
	}
	c := Compare(thenRun, nowRun, o)
	if !c.Exact {
		c.scale(0.8)
	}
	return c, nil
}

func runOf(ctx context.Context, s *history.Store, en history.Entry) (Run, error) {
	c, ok, err := s.Context(ctx, en)
	if err != nil {
		return Run{}, err
	}
	return Run{ID: en.ID, Command: en.Command, ExitCode: en.ExitCode, Cwd: en.Cwd, Started: time.UnixMicro(en.StartedAt),
		Context: c, Known: ok}, nil
}

// picker chooses, among the successes of a key read newest first, the last
// run of the same line, else the last with close arguments.
type picker struct {
	line      string
	words     []string
	got       history.Entry
	exact, ok bool
}

func newPicker(line string) *picker {
	w, _ := runctx.Words(line)
	return &picker{line: line, words: w}
}

// add takes the next (older) success, and reports whether one after it
// could still change the choice: none can after a run of the same line.
func (p *picker) add(e history.Entry) bool {
	if e.Command == p.line {
		p.got, p.exact, p.ok = e, true, true
		return false
	}
	if !p.ok {
		ew, _ := runctx.Words(e.Command)
		if d := wordDistance(p.words, ew); d <= max(1, min(len(p.words), len(ew))/3) {
			p.got, p.ok = e, true
		}
	}
	return true
}

// wordDistance is the edit distance between two word lists.
func wordDistance(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// scale lowers every weight (a success of another line is weaker
// evidence) and says the line again.
func (c *Comparison) scale(f float64) {
	for i := range c.Differences {
		c.Differences[i].Weight = round(c.Differences[i].Weight * f)
	}
	for i := range c.Fixes {
		c.Fixes[i].Confidence = round(c.Fixes[i].Confidence * f)
	}
	c.say()
}

func round(x float64) float64 { return math.Round(x*100) / 100 }

// Compare compares the failure now with the success then.
func Compare(then, now Run, o Options) *Comparison {
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	k := &comparer{then: then, now: now, o: o}
	k.compare()
	// Only what plausibly explains the failure is worth restoring.
	var fixes []analyze.Fix
	for _, f := range k.fixes {
		if f.Confidence >= plausible {
			fixes = append(fixes, f)
		}
	}
	k.fixes = fixes
	c := &Comparison{Then: then, Now: now, Exact: then.Command == now.Command, Differences: k.diffs, Fixes: k.fixes, home: o.Home}
	sort.SliceStable(c.Differences, func(i, j int) bool { return c.Differences[i].Weight > c.Differences[j].Weight })
	sort.SliceStable(c.Fixes, func(i, j int) bool { return c.Fixes[i].Confidence > c.Fixes[j].Confidence })
	c.say()
	return c
}

// say writes the line from the plausible differences.
func (c *Comparison) say() {
	c.Line = ""
	var thens, nows []string
	dirShown := false
	for _, d := range c.Differences {
		if d.Weight < plausible || len(thens) == 3 {
			continue
		}
		if d.Kind == KindDirectory {
			dirShown = true
		}
		if d.then != "" {
			thens = append(thens, d.then)
		}
		if d.now != "" {
			nows = append(nows, d.now)
		}
	}
	if len(nows) == 0 && len(thens) == 0 {
		return
	}
	var b strings.Builder
	if c.Then.ExitCode == 0 {
		b.WriteString("worked " + ago(c.Now.Started.Sub(c.Then.Started)))
	} else {
		// Two runs compared by hand (hookd diff), the earlier one failed too.
		b.WriteString(fmt.Sprintf("ran %s (exit status %d)", ago(c.Now.Started.Sub(c.Then.Started)), c.Then.ExitCode))
	}
	if !c.Exact {
		b.WriteString(" as `" + shorten(c.Then.Command, 40) + "`")
	}
	if !dirShown && c.Then.Cwd != "" {
		b.WriteString(" in " + shellwords.Tilde(c.Then.Cwd, c.home))
	}
	if len(thens) > 0 {
		b.WriteString(" " + join(thens))
	}
	if len(nows) > 0 {
		b.WriteString("; now " + join(nows))
	}
	c.Line = b.String()
}

// join joins phrases with commas, saying a first word they share once:
// "with A, B" for "with A" and "with B".
func join(phrases []string) string {
	var b strings.Builder
	prev := ""
	for i, p := range phrases {
		first, rest, _ := strings.Cut(p, " ")
		if i > 0 {
			b.WriteString(", ")
			if first == prev && rest != "" {
				p = rest
			}
		}
		prev = first
		b.WriteString(p)
	}
	return b.String()
}

// ago says how long ago, roughly.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s ago", max(int(d.Seconds()), 0))
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	}
	return fmt.Sprintf("%d days ago", int(d.Hours()/24))
}

func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

func abs(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// Summary says the comparison for a model (the context block of hookd ask
// and hookd ctx): which run worked, when, and every difference noted,
// plausible or not ("no difference noted" when there is none).
func (c *Comparison) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "command #%d (`%s`) worked %s", c.Then.ID, shorten(c.Then.Command, 80), ago(c.Now.Started.Sub(c.Then.Started)))
	if c.Then.Cwd != "" {
		b.WriteString(" in " + shellwords.Tilde(c.Then.Cwd, c.home))
	}
	var ds []string
	for _, d := range c.Differences {
		ds = append(ds, d.Text)
	}
	if len(ds) == 0 {
		b.WriteString("; no difference in its context was noted since (directory, git branch, environment)")
	} else {
		b.WriteString("; since then: " + strings.Join(ds, "; "))
	}
	return b.String()
}
