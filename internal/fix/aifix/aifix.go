// Package aifix asks an LLM about a failed command (the AI half of the failure path):
// it sends the failure's context block and asks for a structured answer —
// root cause, error type, up to three fixes each with an explanation, a
// risk and a confidence — through the provider's structured output where
// it has one, validates the answer, re-scores every fix's risk with
// hookd's own parser (never lower than hookd's rules say), and merges it
// with the rules' analysis. On a timeout, an error or an invalid answer it
// falls back to the rules and says why. It is never on the prompt's path:
// the user asks for it (hookd suggest --ai, fix --ai, ai: on_failure for
// hookd run).
package aifix

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/internal/ai/llm"
	"github.com/hookd/hookd/internal/ai/promptblock"
	"github.com/hookd/hookd/internal/redact"
)

// Methods of a merged analysis (the JSON contract's method values).
const (
	MethodAI     = analyze.MethodAI
	MethodHybrid = analyze.MethodHybrid
)

// DefaultTimeout bounds the question: past it, the rules' analysis stands.
const DefaultTimeout = 10 * time.Second

// Preferred is the confidence above which the model's fixes rank before
// the rules'.
const Preferred = 0.7

// ErrorTypes are the error types the model may give (the rules' own).
var ErrorTypes = []string{analyze.PermissionDenied, analyze.CommandNotFound, analyze.MissingDependency, analyze.SyntaxError,
	analyze.NetworkError, analyze.FileNotFound, analyze.ConfigurationError, analyze.Unknown}

// Answer is the model's analysis, validated.
type Answer struct {
	RootCause string `json:"root_cause"`
	ErrorType string `json:"error_type"`
	Fixes     []Fix  `json:"fixes"`
}

// Fix is one of the model's fixes.
type Fix struct {
	Command     string  `json:"command"`
	Explanation string  `json:"explanation"`
	Risk        string  `json:"risk"`
	Confidence  float64 `json:"confidence"`
}

// schema is the JSON Schema of Answer, for the provider's structured
// output (strict: every property required, none added).
var schema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "root_cause": {"type": "string", "description": "what went wrong, in one sentence"},
    "error_type": {"type": "string", "enum": ["` + strings.Join(ErrorTypes, `", "`) + `"]},
    "fixes": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "command": {"type": "string", "description": "one shell command line that fixes it, or \"\" when only an explanation fits"},
          "explanation": {"type": "string", "description": "why this fixes it, in one sentence"},
          "risk": {"type": "string", "enum": ["low", "medium", "high"]},
          "confidence": {"type": "number", "description": "from 0 to 1"}
        },
        "required": ["command", "explanation", "risk", "confidence"],
        "additionalProperties": false
      }
    }
  },
  "required": ["root_cause", "error_type", "fixes"],
  "additionalProperties": false
}`)

// Schema is the structured output asked for.
func Schema() *llm.Schema {
	return &llm.Schema{Name: "failure_analysis", Description: "The analysis of a failed shell command and up to three fixes.", JSON: schema}
}

// System is the system prompt of the question.
func System(shell, os, dataNote string) string {
	var b strings.Builder
	b.WriteString("You analyse a shell command that failed")
	if shell != "" {
		fmt.Fprintf(&b, " in %s", shell)
	}
	if os != "" {
		fmt.Fprintf(&b, " on %s", os)
	}
	b.WriteString(`. Say in one sentence what went wrong (root_cause), classify it (error_type), and give at most three fixes, the most likely first. Each fix is one command line the user could run as it is, in their shell, from the directory the command ran in; an explanation; its risk (low: reads or changes nothing important; medium: deletes, overwrites, uses sudo or changes configuration; high: could destroy data or runs downloaded code); and your confidence from 0 to 1 that it fixes this failure. Prefer the smallest change to the command as typed. When no command can fix it, give no fixes. Never invent files, branches or packages the output does not show. Answer with the JSON object only.
`)
	b.WriteString(dataNote)
	return b.String()
}

// Budget bounds the failure's context block, in estimated tokens.
const Budget = 4000

// Prepare is the question about the failure in: its context block (the
// command, status, directory and output, cut to Budget, fenced as data),
// redacted with red, and the rules' analysis as a hint. The int counts
// the secrets redacted.
func Prepare(in analyze.Input, rules analyze.Result, os string, red *redact.Redactor) (llm.Request, int) {
	c := promptblock.Command{Text: in.Command, ExitCode: in.ExitCode, Cwd: in.Cwd, Output: in.Output, Source: "captured"}
	if in.Output == "" {
		c.Source, c.Missing = "", "none was captured"
	}
	boundary := promptblock.NewBoundary(in.Output)
	block := promptblock.Render([]promptblock.Command{c}, Budget, boundary).Text
	req := Request(System(in.Shell, os, promptblock.DataNote(boundary)), block, rules)
	var n int
	req.Messages[0].Content, n = red.String(req.Messages[0].Content)
	return req, n
}

// Request is the question about a failure whose context block (package
// promptblock, redacted) is block; rules is the rules' own analysis, given as
// a hint the model may correct.
func Request(system, block string, rules analyze.Result) llm.Request {
	user := "This command failed:\n\n" + block
	if rules.RootCause != "" {
		user += "\nhookd's rules say: " + rules.RootCause + "\n"
		for _, f := range rules.Fixes {
			if f.Command != "" {
				user += "- rules' fix: " + f.Command + "\n"
			}
		}
	}
	return llm.Request{System: system, Messages: []llm.Message{{Role: "user", Content: user}}, Schema: Schema(), MaxTokens: 1024}
}

// InvalidError is an answer that is not the JSON asked for.
type InvalidError struct{ Why string }

func (e *InvalidError) Error() string { return "the model's answer is not a valid analysis: " + e.Why }

// Parse reads and validates the model's answer: the JSON object (a fenced
// code block around it, as models add when not held to a schema, is
// accepted), a known error type (unknown otherwise), at most three fixes,
// risks and confidences in range, commands on one line.
func Parse(text string) (Answer, error) {
	var a Answer
	text = strings.TrimSpace(text)
	if strings.HasPrefix(text, "```") {
		text = strings.TrimPrefix(text, "```json")
		text = strings.TrimPrefix(text, "```")
		text = strings.TrimSuffix(strings.TrimSpace(text), "```")
	}
	if i, j := strings.IndexByte(text, '{'), strings.LastIndexByte(text, '}'); i > 0 && j > i {
		text = text[i : j+1] // prose around the object
	}
	if text == "" {
		return a, &InvalidError{"it is empty"}
	}
	if !strings.HasPrefix(text, "{") {
		return a, &InvalidError{"it is prose, not the JSON object asked for (the provider does not follow the answer's schema)"}
	}
	dec := json.NewDecoder(strings.NewReader(text))
	if err := dec.Decode(&a); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syn):
			return a, &InvalidError{fmt.Sprintf("its JSON is broken at character %d", syn.Offset)}
		case errors.As(err, &typ):
			return a, &InvalidError{fmt.Sprintf("its field %s is not a %s", typ.Field, typ.Type)}
		case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
			return a, &InvalidError{"its JSON is cut short"}
		}
		return a, &InvalidError{err.Error()}
	}
	if strings.TrimSpace(a.RootCause) == "" {
		return a, &InvalidError{"no root_cause"}
	}
	if !slices.Contains(ErrorTypes, a.ErrorType) {
		a.ErrorType = analyze.Unknown
	}
	var fixes []Fix
	for i, f := range a.Fixes {
		f.Command = strings.TrimSpace(f.Command)
		switch {
		case f.Confidence < 0 || f.Confidence > 1:
			return a, &InvalidError{fmt.Sprintf("fix %d: confidence %v is not between 0 and 1", i+1, f.Confidence)}
		case !slices.Contains([]string{analyze.RiskLow, analyze.RiskMedium, analyze.RiskHigh}, f.Risk):
			return a, &InvalidError{fmt.Sprintf("fix %d: risk %q is not low, medium or high", i+1, f.Risk)}
		case strings.ContainsAny(f.Command, "\n\r"):
			return a, &InvalidError{fmt.Sprintf("fix %d: the command spans several lines", i+1)}
		}
		fixes = append(fixes, f)
	}
	if len(fixes) > analyze.MaxFixes {
		fixes = fixes[:analyze.MaxFixes]
	}
	a.Fixes = fixes
	return a, nil
}

// Merge puts the model's answer and the rules' analysis together. Every
// model fix is re-scored: its risk is the higher of the model's and
// hookd's own (analyze.Risk). The model's fixes at or above Preferred
// confidence come first, then the rules' fixes, then the model's others;
// a command offered by both is kept once, at its better place, with the
// higher confidence. The root cause and error type are the model's when
// its best fix is preferred (or the rules found nothing), the rules'
// otherwise. Method says whose fixes made the list: ai, hybrid or
// heuristic.
func Merge(rules analyze.Result, ai Answer) analyze.Result {
	type cand struct {
		analyze.Fix
		fromAI bool
		rank   int
	}
	var cs []cand
	seen := map[string]int{}
	add := func(c cand) {
		key := strings.Join(strings.Fields(c.Command), " ")
		if c.Command == "" {
			key = "\x00" + c.Explanation
		}
		if i, ok := seen[key]; ok {
			if c.rank < cs[i].rank {
				cs[i].rank, cs[i].fromAI = c.rank, c.fromAI
			}
			cs[i].Confidence = max(cs[i].Confidence, c.Confidence)
			return
		}
		seen[key] = len(cs)
		cs = append(cs, c)
	}
	bestAI := 0.0
	for _, f := range ai.Fixes {
		bestAI = max(bestAI, f.Confidence)
	}
	for i, f := range ai.Fixes {
		risk := f.Risk
		if f.Command != "" {
			risk = analyze.MaxRisk(risk, analyze.Risk(f.Command))
		}
		rank := 2000 + i
		if f.Confidence >= Preferred {
			rank = i
		}
		add(cand{Fix: analyze.Fix{Command: f.Command, Explanation: f.Explanation, Risk: risk, Confidence: f.Confidence}, fromAI: true, rank: rank})
	}
	for i, f := range rules.Fixes {
		add(cand{Fix: f, rank: 1000 + i})
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].rank < cs[j].rank })
	if len(cs) > analyze.MaxFixes {
		cs = cs[:analyze.MaxFixes]
	}
	out := analyze.Result{ErrorType: rules.ErrorType, RootCause: rules.RootCause, Method: analyze.MethodHeuristic}
	if bestAI >= Preferred || rules.RootCause == "" || rules.Quiet {
		out.ErrorType, out.RootCause = ai.ErrorType, ai.RootCause
	}
	var nAI int
	for _, c := range cs {
		out.Fixes = append(out.Fixes, c.Fix)
		if c.fromAI {
			nAI++
		}
	}
	switch {
	case nAI > 0 && nAI == len(cs):
		out.Method = MethodAI
	case nAI > 0:
		out.Method = MethodHybrid
	case out.RootCause == ai.RootCause:
		out.Method = MethodAI // the model's diagnosis, with no fix at all
	}
	return out
}

// Outcome is what Analyze did.
type Outcome struct {
	Result analyze.Result
	// Fallback says why the rules' analysis stands alone ("" when the
	// model's answer was used): a timeout, an error, an invalid answer.
	Fallback string
	// Model is the model that answered, Duration the time it took.
	Model    string
	Duration time.Duration
}

// Analyze asks prov about the failure and merges its answer with the
// rules', within timeout (0: DefaultTimeout).
func Analyze(ctx context.Context, prov llm.Provider, req llm.Request, rules analyze.Result, timeout time.Duration) Outcome {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	res, err := prov.Stream(ctx, req, func(llm.Event) error { return nil })
	out := Outcome{Result: rules, Model: res.Model, Duration: time.Since(start)}
	if out.Model == "" {
		out.Model = prov.Model()
	}
	switch {
	case err != nil && (errors.Is(ctx.Err(), context.DeadlineExceeded) || llm.KindOf(err) == llm.Timeout):
		out.Fallback = fmt.Sprintf("the model did not answer within %s", timeout)
		return out
	case err != nil:
		out.Fallback = "the model could not be asked: " + err.Error()
		return out
	}
	a, err := Parse(res.Text)
	if err != nil {
		out.Fallback = err.Error()
		return out
	}
	out.Result = Merge(rules, a)
	return out
}
