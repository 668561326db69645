package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestManPage checks that the manual page the packages install is made
// from the commands' declarations: every command with its synopsis, every
// visible flag of each, as --help shows them.
func TestManPage(t *testing.T) {
	var out, errOut strings.Builder
	if code := run(context.Background(), []string{manCommand}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("hookd %s: exit %d: %s", manCommand, code, errOut.String())
	}
	page := out.String()
	if !strings.HasPrefix(page, ".TH HOOKD 1 ") {
		t.Fatalf("not a section 1 page:\n%.200s", page)
	}
	for _, c := range commands {
		if want := ".SS \"" + roff("hookd "+c.name+" "+c.args) + "\"\n"; !strings.Contains(page, want) {
			t.Errorf("no section for %s (%q)", c.name, want)
		}
		fs, _ := c.define(io.Discard)
		fs.VisitAll(func(f *pflag.Flag) {
			if f.Hidden {
				return
			}
			left, _ := flagUsage(f)
			if !strings.Contains(page, ".B "+roff(left)+"\n") {
				t.Errorf("hookd %s: flag %s missing from the manual page", c.name, left)
			}
		})
	}
	if strings.Contains(page, manCommand) || strings.Contains(page, completeCommand) {
		t.Error("the manual page lists a hidden command")
	}
}

// TestVersionJSON checks hookd version --json's contract (docs/install.md).
func TestVersionJSON(t *testing.T) {
	var out, errOut strings.Builder
	if code := run(context.Background(), []string{"version", "--json"}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, key := range []string{`"version":`, `"commit":`, `"go":"go`, `"sqlite":"3.`, `"fts5":`} {
		if !strings.Contains(out.String(), key) {
			t.Errorf("hookd version --json lacks %s: %s", key, out.String())
		}
	}
}
