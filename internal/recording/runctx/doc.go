// Package runctx notes the context a command ran in, beyond what the hooks
// write (its directory, and the environment records of package spool): the
// git repository it ran in, the branch checked out when it started and
// whether the work tree had changes, read by the daemon from the
// repository's files at ingest (HEAD, the HEAD reflog, the index), never
// by running git; and the key under which the same command, or the same
// program and subcommand, is found again (Key).
//
// It is a leaf: plain values in, plain values out, so that ingest can note
// the facts and the failure path can compare them without either knowing
// how git lays out its files.
package runctx
