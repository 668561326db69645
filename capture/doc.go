// Package capture cuts a shell's terminal output into per-command
// captures and turns each capture into the plain text the user saw.
//
// It is the pure-library core of hookd's output capture; the PTY proxy
// (hookd shell) feeds it the bytes the inner shell writes to its terminal.
// The package has three parts, used in this order:
//
//   - [Scanner] reads the stream as it passes, forwards it to the real
//     terminal minus hookd's private marks, and reports each command's
//     output to a [Sink] chunk by chunk, tied to the history row named by
//     the private marks (see [Scanner] for the mark format and the rule
//     that keeps commands from spoofing it).
//   - [Buffer] keeps a bounded part of one command's raw output (head and
//     tail around an elision marker), so that no output, however large,
//     is held whole in memory; [Collector] is a [Sink] that gives every
//     command its own [Buffer].
//   - [Render] turns the kept raw bytes into plain text when the output is
//     read, not while it streams, so rendering never slows the terminal.
//
// All three work on byte slices, io.Writer and plain values only: the
// package starts no process and touches no file. (Reading the last output
// back from tmux, kitty or WezTerm when capture is off is package
// scrollback's job.)
package capture
