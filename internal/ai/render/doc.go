// Package render prints an LLM's answer on a terminal as it streams —
// Markdown rendered progressively, or plain text — with every character
// the model wrote made safe first, and finds the shell commands the answer
// proposes.
//
// The Markdown is parsed by goldmark (CommonMark, with GitHub's tables,
// strikethrough and task lists) and its AST laid out here for a terminal:
// colours through termenv, the widths of wide and combining characters
// through uniseg. It is not rendered by glamour, as it first was, because
// of what glamour costs every start of hookd, which is one binary: glamour
// brings in chroma, whose package initialization (its registries of
// lexers and styles) took about 15 ms (GODEBUG=inittrace=1) and added
// about 18 ms of wall time to a program that links this package, on the
// machine it was measured on — `hookd suggest --inline` and `hookd
// history` included, which never render an answer. goldmark's
// initialization takes about 1 ms, most of it the regular expressions of
// its extensions. So a code block is coloured as one block, its language
// shown as a label, and not highlighted token by token: syntax
// highlighting is what chroma's registries are for.
package render
