// Package redact replaces secrets in command lines and terminal output with
// a marker before they are stored or sent anywhere.
//
// A [Redactor] applies a fixed set of built-in rules plus optional user
// regular expressions. The built-in rules cover well-known token formats
// (AWS, GitHub, GitLab, Slack, Stripe, npm, OpenAI-style, Google, JWTs,
// private key blocks), credentials embedded in URLs, HTTP authorization
// headers, "key=value" style assignments whose key names a secret
// (password, token, api_key, FOO_SECRET, ...), YAML/JSON fields, and
// secret-carrying command-line flags. Only the secret value is replaced;
// the surrounding command, including quotes, is kept, so that
//
//	curl -H "Authorization: Bearer abc.def" https://x
//
// becomes
//
//	curl -H "Authorization: Bearer [REDACTED]" https://x
//
// Values that are shell expansions ($VAR, ${VAR}, $(cmd)), empty values and
// values that are already the marker are left alone.
//
// The input is treated as bytes: invalid UTF-8 and control characters such
// as terminal escape sequences are copied through unchanged unless they are
// part of a secret.
//
// Every built-in rule has trigger substrings, and one pass over the input
// finds all of them (ASCII case-insensitively). Text without a trigger is
// returned as is after that pass. Most rules then match their regular
// expression anchored at each trigger, after a cheap check of the text
// before it; a line with many triggers of one rule is scanned as a whole
// instead. Go regular expressions run in linear time and only a fixed number
// of anchored attempts run per line and rule, so redaction takes time
// linear in the input size.
//
// Redaction is applied until the text no longer changes (at most a few
// passes), so redacting an already redacted text is a no-op.
package redact
