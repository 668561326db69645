package yamlpos

import (
	"errors"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"
)

// TestPositions: a syntax error and a node are placed at their line and
// column; an error that is not YAML's has no place.
func TestPositions(t *testing.T) {
	_, err := parser.ParseBytes([]byte("a: 1\nb: [2\n"), 0)
	if msg, line, _, ok := Error(err); !ok || line == 0 || msg == "" {
		t.Errorf("Error(syntax) = %q, line %d, %v", msg, line, ok)
	}
	var v struct{ A int }
	err = yaml.UnmarshalWithOptions([]byte("\n\nA:   x\n"), &v, yaml.Strict())
	if _, line, col, ok := Error(err); !ok || line != 3 || col == 0 {
		t.Errorf("Error(type) at %d:%d, %v; want line 3", line, col, ok)
	}
	if msg, line, col, ok := Error(errors.New("other")); ok || msg != "other" || line != 0 || col != 0 {
		t.Errorf("Error(other) = %q %d:%d %v", msg, line, col, ok)
	}
	f, _ := parser.ParseBytes([]byte("x: 1\ny:\n  z: 2\n"), 0)
	if line, col := Node(f.Docs[0].Body); line == 0 || col == 0 {
		t.Errorf("Node = %d:%d", line, col)
	}
	if line, col := Node(nil); line != 0 || col != 0 {
		t.Errorf("Node(nil) = %d:%d", line, col)
	}
}

// TestMessage: the one form of a message about a place in a file.
func TestMessage(t *testing.T) {
	for _, c := range []struct {
		line, col int
		parts     []string
		want      string
	}{
		{3, 7, []string{"output.limit", "want a size"}, "c.yaml:3:7: output.limit: want a size"},
		{3, 0, []string{"", "step 2 (x)", "", "bad"}, "c.yaml:3: step 2 (x): bad"},
		{0, 5, []string{"not a mapping"}, "c.yaml: not a mapping"},
	} {
		if got := Message("c.yaml", c.line, c.col, c.parts...); got != c.want {
			t.Errorf("Message(%d, %d, %q) = %q; want %q", c.line, c.col, c.parts, got, c.want)
		}
	}
}
