package frontmatter

import (
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		name, in    string
		fields      int
		body        string
		bodyLine    int
		errLine     int
		wantErr     bool
		description string
	}{
		{name: "none", in: "just text\n", body: "just text\n", bodyLine: 1},
		{name: "empty file", in: "", body: "", bodyLine: 1},
		{name: "fields", in: "---\ndescription: Review code\nargument-hint: [file]\n---\nBody $ARGUMENTS\n", fields: 2, body: "Body $ARGUMENTS\n", bodyLine: 5, description: "Review code"},
		{name: "crlf", in: "---\r\ndescription: x\r\n---\r\nB\r\n", fields: 1, body: "B\r\n", bodyLine: 4, description: "x"},
		{name: "empty frontmatter", in: "---\n---\nB", body: "B", bodyLine: 3},
		{name: "unclosed", in: "---\ndescription: x\nno end", body: "---\ndescription: x\nno end", bodyLine: 1},
		{name: "a list", in: "---\n- a\n- b\n---\nB", body: "B", bodyLine: 5, wantErr: true, errLine: 2},
		{name: "bad yaml", in: "---\ndescription: ok\nkey: [unclosed\n---\nB", body: "B", bodyLine: 5, wantErr: true, errLine: 3},
		{name: "dashes later", in: "text\n---\nmore\n---\n", body: "text\n---\nmore\n---\n", bodyLine: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := Parse([]byte(c.in))
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, want error %v", err, c.wantErr)
			}
			var fe *Error
			if c.wantErr && (!errors.As(err, &fe) || fe.Line != c.errLine) {
				t.Errorf("err = %#v, want line %d", err, c.errLine)
			}
			if d.Fields == nil || len(d.Fields) != c.fields || d.Body != c.body || d.BodyLine != c.bodyLine {
				t.Errorf("got %d fields, body %q at line %d; want %d, %q at %d", len(d.Fields), d.Body, d.BodyLine, c.fields, c.body, c.bodyLine)
			}
			if s, _ := d.String("description"); s != c.description {
				t.Errorf("description %q, want %q", s, c.description)
			}
		})
	}
	d, _ := Parse([]byte("---\nname: x\npattern: 'deploy'\n---\n"))
	if d.Line("pattern") != 3 || d.Line("missing") != 0 {
		t.Errorf("Line(pattern) = %d, Line(missing) = %d", d.Line("pattern"), d.Line("missing"))
	}
}

// TestText: Claude Code's argument hints, often a YAML list as written.
func TestText(t *testing.T) {
	doc, err := Parse([]byte("---\nargument-hint: [message]\nother: add [tagId] | list\nn: 3\ndescription: 'quoted: yes'\nlist:\n  - a\n---\nbody\n"))
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{"argument-hint": "[message]", "other": "add [tagId] | list", "n": "3",
		"description": "quoted: yes", "list": "", "missing": ""} {
		if got := doc.Text(key); got != want {
			t.Errorf("Text(%q) = %q; want %q", key, got, want)
		}
	}
}
