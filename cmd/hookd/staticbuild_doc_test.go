package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestStaticBuildLineAsRelease checks that the static go build line
// docs/install.md gives for a checkout (about 1 ms faster in every hookd
// process than the dynamic build, docs/benchmarks.md §37) links as make
// release does: the Makefile's tags and its static link flags.
func TestStaticBuildLineAsRelease(t *testing.T) {
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/install.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^TAGS\s*:=\s*(.+)$`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("Makefile: no TAGS := line")
	}
	tags := strings.TrimSpace(string(m[1]))
	line := regexp.MustCompile(`go build -tags '([^']*)' \\\s*\n\s*-ldflags '([^']*)'`).FindSubmatch(doc)
	if line == nil {
		t.Fatal("docs/install.md: no static go build line (go build -tags '…' \\ -ldflags '…')")
	}
	if string(line[1]) != tags {
		t.Errorf("docs/install.md builds with tags %q, make release with %q", line[1], tags)
	}
	for _, f := range []string{"-linkmode=external", "-extldflags=-static"} {
		if !strings.Contains(string(mk), f) {
			t.Errorf("Makefile: make release no longer links with %s: say what docs/install.md should", f)
		}
		if !strings.Contains(string(line[2]), f) {
			t.Errorf("docs/install.md's static line lacks %s", f)
		}
	}
}
