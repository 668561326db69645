package analyze

import (
	"context"
	"math"
	"sort"
	"strings"
	"sync"
	"time"
)

// Error types (the JSON contract's error_type values). A Result of an ordinary "no" answer has
// the empty ErrorType and Quiet set.
const (
	PermissionDenied   = "permission_denied"
	CommandNotFound    = "command_not_found"
	MissingDependency  = "missing_dependency"
	SyntaxError        = "syntax_error"
	NetworkError       = "network_error"
	FileNotFound       = "file_not_found"
	ConfigurationError = "configuration_error"
	Unknown            = "unknown"
)

// Risk levels of a fix, from the safest.
const (
	RiskLow    = "low"
	RiskMedium = "medium"
	RiskHigh   = "high"
)

// The methods of a Result (the JSON contract's method values): every
// Result this package produces is MethodHeuristic; an AI layer built on
// top of it (package aifix) reports MethodAI when the model's fixes alone
// make the list, MethodHybrid when its fixes and the rules' are merged.
const (
	MethodHeuristic = "heuristic"
	MethodAI        = "ai"
	MethodHybrid    = "hybrid"
)

// MaxFixes is the largest number of fixes a Result holds.
const MaxFixes = 3

// FixMargin is how much less confident than the best fix another may be and
// still be shown.
const FixMargin = 0.35

// Input is everything known about one failed command.
type Input struct {
	Command  string // the command line as typed
	ExitCode int
	Output   string // combined stdout and stderr; empty when capture is off
	Cwd      string // the directory the command ran in
	Shell    string // "bash" or "zsh"
	Home     string // the user's home directory, for ~ in the command line; "" when unknown
	History  []Past // the user's recent commands, newest first; may be empty
	Env      Facts  // environment facts, gathered lazily; nil means none known
	// Described is true for a failure given by its text (hookd suggest
	// --command) rather than recorded here by this user: who ran it is not
	// known, so this user's root and sudo do not decide whether a fix may
	// go through sudo (canSudo); a recorded failure's are.
	Described bool
}

// Past is one earlier command from the user's history.
type Past struct {
	Command  string
	Cwd      string
	ExitCode int
	When     time.Time
}

// Result is the analysis of one failure.
//
// Quiet reports an ordinary outcome that deserves no comment: an interrupted
// command (exit 130), or a "no" answer such as grep finding nothing, diff
// finding differences or test being false, with no error in the output. A
// quiet Result has an empty ErrorType and no fixes, and the caller prints
// nothing.
type Result struct {
	ErrorType string // one of the error type constants, or "" when Quiet
	RootCause string // one line saying what went wrong
	Method    string // MethodHeuristic
	Fixes     []Fix  // at most MaxFixes, best first
	Quiet     bool
	// Restates reports a RootCause that only says again what the output
	// says ("nosuchfile does not exist." under ls's "cannot access
	// 'nosuchfile'"): no near name, cause or reason of its own. A short
	// form (the lines under the prompt) leaves it out.
	Restates bool
}

// Fix is one proposed command. It is shown to the user and runs only with the
// user's consent.
type Fix struct {
	Command     string
	Explanation string
	Risk        string  // RiskLow, RiskMedium or RiskHigh
	Confidence  float64 // 0 to 1

	// Untrusted reports that the command was taken from the failed
	// command's output, which whoever controls that output can write (a
	// tool's "did you mean", a "run this" hint). Such a fix is rated at
	// least medium and ranks below the fixes the rules built themselves. A
	// rule sets it; in a Result it stays set only when the command is not
	// merely the command as typed with one word corrected to a nearby known
	// subcommand of the tool (git psuh → git push), which is cleared.
	Untrusted bool
	// Incomplete reports that the command cannot run as shown: it holds
	// text the user must replace first, such as a secret that was redacted
	// (RedactionMarker) before the command line was stored. Missing says
	// what, in one sentence.
	Incomplete bool
	Missing    string
	// Learned is set on a fix learned from the user's own history (package
	// learn, put in by package suggest, never by a rule): how many times
	// the user ran it after the same failure, and it worked.
	Learned int

	// alternative marks a fix of another family of cause than the usual
	// one, added for when the usual one is wrong (rules_alternatives.go,
	// rules_venv.go): it never comes first while another fix is there,
	// and it does not push the fixes taken from the output down.
	alternative bool
	// guess marks a far guess at a mistyped name (two letters or more off,
	// not a swap: catman for pacman): after the best fix, it is shown only
	// close to it (guessMargin), never as a distant second.
	guess bool
}

// A Rule recognises one family of failures. Check returns nil when the rule
// does not apply. Rules must only read the Failure and ask its Facts; they
// must not block for long, and they must give the same answer for the same
// Failure.
type Rule interface {
	Name() string
	Check(ctx context.Context, f *Failure) *Finding
}

// Finding is what a Rule concludes about a failure.
//
// Confidence is how sure the rule is of its diagnosis: the most confident
// finding gives the Result its ErrorType and RootCause. Fixes of all findings
// are pooled, unless the most confident one is Exclusive, in which case only
// its own fixes are kept (a rule that knows the honest answer is an
// explanation uses this to keep generic rules from adding commands).
type Finding struct {
	ErrorType  string
	RootCause  string
	Confidence float64
	Fixes      []Fix
	Exclusive  bool
}

// Analyzer runs a list of rules over failures. The zero value has no rules;
// use DefaultRules, possibly with rules of one's own appended.
type Analyzer struct {
	Rules []Rule
}

// Analyze explains a failed command with the default rules. It is safe for
// concurrent use; a nil Input.Env is treated as an environment of which
// nothing is known.
func Analyze(ctx context.Context, in Input) Result {
	a := Analyzer{Rules: DefaultRules()}
	return a.Analyze(ctx, in)
}

// Analyze explains a failed command with a's rules. Rules run concurrently,
// and their findings are combined in a fixed order, so that the same input
// always gives the same Result.
func (a *Analyzer) Analyze(ctx context.Context, in Input) Result {
	f := newFailure(in)
	if quiet, why := isQuiet(f); quiet {
		return Result{RootCause: why, Method: MethodHeuristic, Quiet: true}
	}
	findings := make([]*Finding, len(a.Rules))
	var wg sync.WaitGroup
	for i, r := range a.Rules {
		if !applies(r, f) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			findings[i] = safeCheck(ctx, r, f)
		}()
	}
	wg.Wait()
	dropSudoFixes(ctx, f, findings)
	dropUnrunnableFixes(ctx, f, findings)
	return combine(ctx, f, findings)
}

// strict makes a panicking rule crash, for tests; normally a rule that
// panics is treated as not applying, so that one broken rule never breaks
// the shell.
var strict bool

// safeCheck runs one rule, containing its panics unless strict.
func safeCheck(ctx context.Context, r Rule, f *Failure) (fd *Finding) {
	if !strict {
		defer func() {
			if recover() != nil {
				fd = nil
			}
		}()
	}
	return r.Check(ctx, f)
}

// combine merges the findings of all rules into one Result.
func combine(ctx context.Context, f *Failure, findings []*Finding) Result {
	var best *Finding
	for _, fd := range findings {
		if fd == nil || fd.RootCause == "" && len(fd.Fixes) == 0 {
			continue
		}
		if best == nil || fd.Confidence > best.Confidence {
			best = fd
		}
	}
	res := Result{Method: MethodHeuristic}
	if best == nil {
		res.ErrorType, res.RootCause = fallback(f)
		res.Restates = restates(res.RootCause, f.Output)
		return res
	}
	res.ErrorType = best.ErrorType
	if res.ErrorType == "" {
		res.ErrorType = Unknown
	}
	res.RootCause = oneLine(best.RootCause)
	if res.RootCause == "" {
		_, res.RootCause = fallback(f)
	}
	pool := findings
	if best.Exclusive {
		pool = []*Finding{best}
	}
	res.Fixes = mergeFixes(ctx, f, pool)
	res.Restates = restates(res.RootCause, f.Output)
	return res
}

// mergeFixes pools the fixes of the findings, drops empty and duplicate
// commands (and the failed command itself), trims fixes of a compound line
// to the part that failed, labels each with its risk, rates and ranks fixes
// taken from the output below the others, marks those holding a redacted
// secret, and keeps the best MaxFixes.
func mergeFixes(ctx context.Context, f *Failure, findings []*Finding) []Fix {
	byCmd := map[string]Fix{}
	sh := lineShape(f.Input.Command, f.Shell)
	for _, fd := range findings {
		if fd == nil {
			continue
		}
		for _, fx := range fd.Fixes {
			fx.Command = strings.TrimSpace(fx.Command)
			if fx.Command == "" || strings.ContainsAny(fx.Command, "\n\x00") || fx.Command == strings.TrimSpace(f.Command) {
				continue
			}
			if fx.Untrusted && f.oneWordCorrection(fx.Command) {
				fx.Untrusted = false
			}
			cmd, rerun := sh.failingPart(f.Input.Command, fx.Command)
			fx.Command = cmd
			fx.Confidence = clamp(fx.Confidence)
			fx.Risk = MaxRisk(fx.Risk, Risk(fx.Command))
			if fx.Untrusted || rerun {
				fx.Risk = MaxRisk(fx.Risk, RiskMedium)
			}
			fx.Explanation = oneLine(fx.Explanation)
			if fx.Explanation == "" {
				fx.Explanation = "Suggested fix."
			}
			markIncomplete(&fx)
			if old, ok := byCmd[fx.Command]; ok && !better(fx, old) {
				continue
			}
			byCmd[fx.Command] = fx
		}
	}
	fixes := make([]Fix, 0, len(byCmd))
	for _, fx := range byCmd {
		fixes = append(fixes, fx)
	}
	demoteUntrusted(fixes)
	sort.Slice(fixes, func(i, j int) bool {
		if fixes[i].Confidence != fixes[j].Confidence {
			return fixes[i].Confidence > fixes[j].Confidence
		}
		return fixes[i].Command < fixes[j].Command
	})
	// One of each command however spelt (equivalent.go), then the best and
	// the alternatives worth a line (diverse.go).
	fixes = shown(dropEquivalent(ctx, f, fixes))
	if len(fixes) == 0 {
		return nil
	}
	return fixes
}

// better reports whether a should replace b, a fix of the same command:
// one the rules built beats one taken from the output, then the more
// confident wins.
func better(a, b Fix) bool {
	if a.Untrusted != b.Untrusted {
		return !a.Untrusted
	}
	return a.Confidence > b.Confidence
}

// clamp keeps a confidence within 0 and 1, rounded to two decimals so that
// printed results are stable.
func clamp(c float64) float64 {
	if math.IsNaN(c) || c < 0 {
		return 0
	}
	if c > 1 {
		return 1
	}
	return math.Round(c*100) / 100
}

// oneLine trims s to its first line, without control characters, and at most
// 200 bytes.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	const max = 200
	if len(s) > max {
		cut := max
		for cut > 0 && !isRuneStart(s[cut]) {
			cut--
		}
		s = strings.TrimSpace(s[:cut]) + "…"
	}
	return s
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
