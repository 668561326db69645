package analyze

import (
	"context"
	"strings"
)

// exitMeaning is what an exit status says: the error type, and why.
type exitMeaning struct{ typ, why string }

// exitMeanings documents the exit statuses of tools that often fail
// silently (curl -s, wget -q), for when there is no output to read.
var exitMeanings = lazyValue[map[string]map[int]exitMeaning]{make: func() map[string]map[int]exitMeaning {
	return map[string]map[int]exitMeaning{
		"curl": {
			3:  {SyntaxError, "the URL is malformed"},
			6:  {NetworkError, "the host name could not be resolved (DNS)"},
			7:  {NetworkError, "it failed to connect: the connection was refused or the host is unreachable"},
			22: {NetworkError, "the server answered with an HTTP error (400 or above)"},
			28: {NetworkError, "the operation timed out"},
			35: {NetworkError, "the TLS handshake failed"},
			47: {NetworkError, "there were too many redirects"},
			52: {NetworkError, "the server closed the connection without replying"},
			56: {NetworkError, "receiving data failed (connection reset)"},
			60: {NetworkError, "the server's TLS certificate is not trusted"},
		},
		"wget": {
			2: {SyntaxError, "the command line could not be parsed"},
			3: {FileNotFound, "a file could not be written"},
			4: {NetworkError, "a network failure: the connection was refused, the name did not resolve, or it timed out"},
			5: {NetworkError, "the server's TLS certificate could not be verified"},
			6: {PermissionDenied, "the server refused the credentials"},
			8: {NetworkError, "the server answered with an error (such as 404 Not Found)"},
		},
		"ssh":     {255: {NetworkError, "ssh could not connect (refused, unreachable, unknown host) or authenticate"}},
		"ping":    {1: {NetworkError, "no reply came back"}, 2: {NetworkError, "the host could not be resolved or the network is unreachable"}},
		"timeout": {124: {Unknown, "the command ran out of time and was stopped"}},
		"grep":    {2: {FileNotFound, "an error occurred (a missing or unreadable file, or a bad pattern)"}},
		"rsync":   {23: {FileNotFound, "some files could not be transferred"}, 255: {NetworkError, "the remote shell could not connect"}},
		"nc":      {1: {NetworkError, "the connection failed"}},
	}
}}

func ruleExitStatus(ctx context.Context, f *Failure) *Finding {
	if strings.TrimSpace(f.Output) != "" {
		return nil
	}
	for i := len(f.Calls) - 1; i >= 0; i-- {
		c := &f.Calls[i]
		m, ok := exitMeanings.get()[c.Name()][f.ExitCode]
		if !ok {
			continue
		}
		return explain(m.typ, 0.6, "%s exited with status %d: %s.", c.Name(), f.ExitCode, m.why)
	}
	return nil
}
