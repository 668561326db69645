// Package shellwords owns hookd's shell words: every command hookd offers,
// prints or keys is split into words and built back from words here, so
// that a name read from a repository, a history or another machine is
// always one word of the command and never code.
package shellwords
