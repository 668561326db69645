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
// A built-in rule about particular programs names them, and runs (and
// compiles its patterns) only when the command line runs one of them.
//
// Many tools say themselves what was meant ("The most similar command is",
// "Invalid choice … maybe you meant", "Did you mean this?"). One rule,
// ruleToolSuggestion, reads all these dialects (rules_suggest.go lists them,
// each marked as recorded from the tool or taken from its documentation):
// the rejected word is replaced in the command line by each proposal that
// looks like a word of the tool, quoted, up to three ranked by typo
// distance, then by whether the word is known to exist (a known subcommand,
// a package.json script, a make target, a branch, or what the user ran
// before), then by the tool's own order. Tools that propose nothing are
// corrected from their known subcommands (ruleUnknownSubcommand), which also
// puts a subcommand typed after its argument back in front.
//
// A command line is parsed once, the same way for every part of the
// package and for hookd's other readers of commands (internal/shellwords):
// mvdan.cc/sh's parser splits it into simple commands, each word is
// evaluated once (quotes and escapes removed, expansions marked), and the
// wrappers in front of a program (sudo, env, timeout, nice, xargs, …) are
// set apart by one table, so that `timeout 5 rm -rf x`
// is rm to the rules and to Risk alike. Risk rates a program by the rule
// for its name (riskRules), its wrappers and its redirections.
//
// The package's tables are made on first use and its patterns compiled on
// first use, so that a command that never analyses a failure pays nothing
// for them at start-up.
//
// Text taken from the output is untrusted (Fix.Untrusted): such a fix is at
// least medium risk and ranks below the fixes the rules built themselves,
// unless it merely corrects one word to a known subcommand of the tool.
package analyze
