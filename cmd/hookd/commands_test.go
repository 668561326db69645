package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/hookd/hookd/cmd/hookd/complete"
)

// TestCompleteReadsDeclaredFlags: `hookd __complete CMD --` lists exactly
// the flags CMD declares in its table entry, for every command, read
// from the declaration (command.define) in this process: nothing is run.
func TestCompleteReadsDeclaredFlags(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	for _, c := range commands {
		fs, cmd := c.define(io.Discard)
		if cmd == nil {
			t.Errorf("%s: flags returned no command", c.name)
			continue
		}
		var want bytes.Buffer
		complete.Write(&want, "--", complete.Flags(fs))
		var out, errOut bytes.Buffer
		if code := run(context.Background(), []string{completeCommand, "--", c.name, "--"}, strings.NewReader(""), &out, &errOut); code != 0 {
			t.Fatalf("__complete %s --: exit %d, %s", c.name, code, errOut.String())
		}
		if out.String() != want.String() {
			t.Errorf("__complete %s --:\n got %q\nwant %q", c.name, out.String(), want.String())
		}
	}
}

// TestRefsBeforeFlags: a command that takes REFs gets its -N arguments
// first, not read as flags; one that does not gets a usage error.
func TestRefsBeforeFlags(t *testing.T) {
	for _, c := range commands {
		_, pos, err := c.parse(io.Discard, []string{"-2", "x"})
		switch {
		case c.refs && (err != nil || strings.Join(pos, " ") != "-2 x"):
			t.Errorf("%s -2 x: %q, %v; want the REF -2 and x", c.name, pos, err)
		case !c.refs && err == nil:
			t.Errorf("%s -2 x: %q, no error; want -2 an unknown flag", c.name, pos)
		}
	}
}
