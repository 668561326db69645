// Package analyze explains a failed shell command and proposes fixes.
//
// Analyze takes what the shell knows about a failure — the command line, its
// exit status, its output when it was captured, the directory, the user's
// recent history — and returns an error type, a one-line root cause and at
// most three fixes, each labelled with a risk and a confidence, best first.
//
// Analysis is a pure function of its Input: it never runs the failed command,
// never runs a fix, and never changes anything. Everything it needs to know
// about the environment (the PATH, git branches, package.json scripts, files
// in the directory, listening ports) it asks of a Facts value supplied by the
// caller; package probe provides the real implementation, which gathers each
// fact lazily, only when a rule asks for it, within a short timeout.
//
// The knowledge lives in rules: values implementing Rule, one family per file
// (rules_git.go, rules_python.go, …). DefaultRules returns them; an Analyzer
// with extra rules (for instance user patterns loaded from YAML) extends them.
package analyze
