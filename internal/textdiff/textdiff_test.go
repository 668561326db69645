package textdiff

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// unified writes hunks as diff -u does (without the file header).
func unified(hs []Hunk) string {
	var b strings.Builder
	for _, h := range hs {
		b.WriteString(h.Header() + "\n")
		for _, l := range h.Lines {
			b.WriteString(string(l.Op) + l.Text + "\n")
		}
	}
	return b.String()
}

func TestDiff(t *testing.T) {
	tests := []struct {
		name, old, new, want string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"one line changed", "a\nb\nc\n", "a\nB\nc\n", "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"added at the end", "a\n", "a\nb\n", "@@ -1 +1,2 @@\n a\n+b\n"},
		{"from nothing", "", "x\n", "@@ -0,0 +1 @@\n+x\n"},
		{"to nothing", "x\ny\n", "", "@@ -1,2 +0,0 @@\n-x\n-y\n"},
		{"two hunks far apart",
			"1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\nX\n3\n4\n5\n6\n7\n8\nY\n10\n",
			"@@ -1,3 +1,3 @@\n 1\n-2\n+X\n 3\n@@ -8,3 +8,3 @@\n 8\n-9\n+Y\n 10\n"},
		{"close changes are one hunk",
			"1\n2\n3\n4\n5\n", "1\nX\n3\nY\n5\n", "@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n-4\n+Y\n 5\n"},
	}
	for _, tt := range tests {
		hs, exact := Diff(Lines(tt.old), Lines(tt.new), 1)
		if got := unified(hs); got != tt.want || !exact {
			t.Errorf("%s: Diff =\n%s\nwant\n%s", tt.name, got, tt.want)
		}
	}
}

// TestDiffAgreesWithDiffU: on made-up texts, the hunks apply: the new text
// is the old with the hunks' changes, checked with patch(1) when there is
// one; otherwise by replaying them.
func TestDiffReplays(t *testing.T) {
	old := Lines("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n")
	news := [][]string{
		Lines("a\nc\nd\nE\nf\ng\nh\nI\nj\nk\nl\n"),
		Lines("x\ny\n"),
		Lines("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\n"),
		nil,
	}
	for _, nw := range news {
		hs, _ := Diff(old, nw, 3)
		if got := replay(old, hs); strings.Join(got, "\n") != strings.Join(nw, "\n") {
			t.Errorf("replaying the hunks gives %q; want %q", got, nw)
		}
	}
	if p, err := exec.LookPath("patch"); err == nil {
		dir := t.TempDir()
		f := filepath.Join(dir, "f")
		os.WriteFile(f, []byte(strings.Join(old, "\n")+"\n"), 0o644)
		hs, _ := Diff(old, news[0], 3)
		patch := "--- f\n+++ f\n" + unified(hs)
		cmd := exec.Command(p, "-s", f)
		cmd.Stdin = strings.NewReader(patch)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("patch: %v\n%s\n%s", err, out, patch)
		}
		if b, _ := os.ReadFile(f); string(b) != strings.Join(news[0], "\n")+"\n" {
			t.Errorf("patched: %q", b)
		}
	}
}

func replay(old []string, hs []Hunk) []string {
	var out []string
	next := 0 // index in old
	for _, h := range hs {
		start := h.OldStart - 1
		if h.OldCount == 0 {
			start = h.OldStart
		}
		out = append(out, old[next:start]...)
		next = start
		for _, l := range h.Lines {
			switch l.Op {
			case Keep:
				out = append(out, l.Text)
				next++
			case Remove:
				next++
			case Add:
				out = append(out, l.Text)
			}
		}
	}
	return append(out, old[next:]...)
}

func TestDiffLarge(t *testing.T) {
	var a, b []string
	for i := 0; i < 5000; i++ {
		a = append(a, "old line "+string(rune('a'+i%26)))
		b = append(b, "new line "+string(rune('a'+i%26)))
	}
	hs, exact := Diff(a, b, 3)
	if exact || len(hs) != 1 || len(hs[0].Lines) != 10000 {
		t.Errorf("texts too far apart: exact %v, %d hunks", exact, len(hs))
	}
}
