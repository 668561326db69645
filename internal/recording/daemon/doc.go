// Package daemon moves the shell hooks' spool records into the history, and
// runs as `hookd daemon`: it ingests on a timer and on request, removes the
// spools of ended sessions, and answers status requests on a unix socket that
// only its own user may use.
package daemon
