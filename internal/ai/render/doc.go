// Package render prints an LLM's answer on a terminal as it streams —
// Markdown rendered progressively, or plain text — with every character
// the model wrote made safe first, and finds the shell commands the answer
// proposes.
//
// The Markdown is parsed by goldmark's CommonMark parser, with GitHub's
// tables, strikethrough and task lists parsed by this package (gfm.go,
// into goldmark's extension/ast nodes), and the AST laid out here for a terminal:
// colours through termenv, the widths of wide and combining characters
// through uniseg. It is not rendered by glamour, as it first was, because
// of what glamour costs every start of hookd, which is one binary: glamour
// brings in chroma, whose package initialization (its registries of
// lexers and styles) took about 15 ms (GODEBUG=inittrace=1) and added
// about 18 ms of wall time to a program that links this package, on the
// machine it was measured on — `hookd suggest --inline` and `hookd
// history` included, which never render an answer. Nor is goldmark's
// extension package linked: its initialization (Linkify's regular
// expressions) cost every hookd command 264 KB in 2,049 allocations and
// about 1.3 ms of CPU (docs/benchmarks.md §34); goldmark's parser still
// costs about 250 KB and 1.5 ms. So a code block is coloured as one block, its language
// shown as a label, and not highlighted token by token: syntax
// highlighting is what chroma's registries are for.
package render
