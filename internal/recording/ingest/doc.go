// Package ingest moves what the recorders wrote into the history: the
// records the shell hooks append to their spools, the outputs the capturing
// proxy and `hookd run` leave in the outbox, and history files imported by
// hand. Every write into the history from outside comes through here, with
// the same rules (what is ignored, what is redacted).
//
// Spools and output streams are logs: append-only files read by offset.
// They share one protocol (see log.go): the new bytes are read from the
// offset committed last, decoded, stored, and the new offset is committed in
// the same transaction, so that a crash at any point neither loses nor
// repeats anything; what was read is then punched out of the file, so that
// raw command lines and outputs do not linger on disk; the log of a writer
// that has ended is removed once it is read to the end. Several processes
// may ingest at once (the daemon, and any hookd command that reads).
package ingest
