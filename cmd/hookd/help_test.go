package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestHelpGolden pins `hookd --help` and every subcommand's --help, so that
// a change to the CLI shows up in review.
func TestHelpGolden(t *testing.T) {
	cases := [][]string{{"--help"}}
	for _, c := range commands {
		cases = append(cases, []string{c.name, "--help"})
	}
	var all bytes.Buffer
	for _, args := range cases {
		var out, errOut bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &out, &errOut)
		if code != 0 || errOut.Len() != 0 {
			t.Errorf("hookd %s: exit %d, stderr %q", strings.Join(args, " "), code, errOut.String())
		}
		all.WriteString("$ hookd " + strings.Join(args, " ") + "\n" + out.String() + "\n")
	}
	golden := filepath.Join("testdata", "help.golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		os.WriteFile(golden, all.Bytes(), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if all.String() != string(want) {
		t.Errorf("help text differs from %s (go test -run TestHelpGolden -update if intended):\n%s", golden, all.String())
	}
}

func TestNoArgsIsUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run(context.Background(), nil, strings.NewReader(""), &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "Usage: hookd COMMAND") {
		t.Errorf("hookd with no arguments: exit %d, stderr %q", code, errOut.String())
	}
}
