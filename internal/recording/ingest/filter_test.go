package ingest_test

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/hookd/hookd/internal/recording/ingest"
	"github.com/hookd/hookd/internal/recording/spool"
	"github.com/hookd/hookd/internal/redact"

	"github.com/hookd/hookd/internal/required"
)

// token is a GitHub token's shape: ghp_ and 36 letters and digits.
const token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"

func testRules(t *testing.T) *ingest.Rules {
	t.Helper()
	red, err := redact.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &ingest.Rules{
		Redactor:   red,
		Ignore:     []*regexp.Regexp{regexp.MustCompile(`^(ls|pwd)\b`), regexp.MustCompile(`password`)},
		IgnoreDirs: []string{"/home/u/private/", "/srv/vault"},
	}
}

func TestFilter(t *testing.T) {
	r := testRules(t)
	tests := []struct {
		text, cwd string
		want      string // "" means left out
		redacted  bool
	}{
		{"make test", "/home/u", "make test", false},
		{" secret command", "/home/u", "", false},
		{"\tsecret command", "/home/u", "", false},
		{"", "/home/u", "", false},
		{"ls -la", "/home/u", "", false},
		{"lsblk", "/home/u", "lsblk", false},
		{"echo pwd", "/home/u", "echo pwd", false},
		{"mysql --password=x", "/home/u", "", false},
		{"cat notes", "/home/u/private", "", false},
		{"cat notes", "/home/u/private/sub/dir", "", false},
		{"cat notes", "/home/u/privateer", "cat notes", false},
		{"cat notes", "/srv/vault", "", false},
		{"cat notes", "/srv/vaults", "cat notes", false},
		{"cat notes", "/srv", "cat notes", false},
		{"export GITHUB_TOKEN=" + token, "/home/u", "export GITHUB_TOKEN=" + redact.Marker, true},
		{"curl -H 'Authorization: Bearer " + token + "' https://api.github.com", "/home/u", "", true},
	}
	for _, tt := range tests {
		got, ok, n := r.Filter(tt.text, tt.cwd)
		if tt.want == "" && !tt.redacted {
			if ok {
				t.Errorf("Filter(%q, %q) = %q, kept; want it left out", tt.text, tt.cwd, got)
			}
			continue
		}
		if !ok {
			t.Errorf("Filter(%q, %q) left it out; want it kept", tt.text, tt.cwd)
			continue
		}
		if tt.want != "" && got != tt.want {
			t.Errorf("Filter(%q, %q) = %q; want %q", tt.text, tt.cwd, got, tt.want)
		}
		if (n > 0) != tt.redacted || strings.Contains(got, token) {
			t.Errorf("Filter(%q, %q) = %q, %d redacted; want redacted=%v and no token", tt.text, tt.cwd, got, n, tt.redacted)
		}
	}
}

func TestIngestFilters(t *testing.T) {
	e := newEnv(t)
	e.rules = testRules(t)
	s := sessionID(livePID, 1)
	var b []byte
	add := func(text, cwd string) {
		c := command(int64(len(b)+1), text) // any increasing seq will do
		c.Cwd = cwd
		b = spool.AppendCommand(b, c)
	}
	add("git status", "/home/u")
	add(" echo hidden", "/home/u")
	add("ls -la", "/home/u")
	add("cat diary", "/home/u/private/2024")
	add("export GITHUB_TOKEN="+token, "/home/u")
	add("make", "/home/u/privateer")
	e.write(s, b)
	c := command(9999, "echo "+token) // bash's form too
	b = spool.AppendHistoryCommand(nil, c, 12)
	c = command(10000, " echo "+token)
	b = spool.AppendHistoryCommand(b, c, 13)
	e.write(s, b)

	st := e.ingest()
	if st.Added != 4 || st.Ignored != 4 || st.Redacted != 2 || st.Bad != 0 {
		t.Errorf("Ingest = %+v; want 4 added, 4 ignored, 2 redacted", st)
	}
	want := []string{"git status", "export GITHUB_TOKEN=" + redact.Marker, "make", "echo " + redact.Marker}
	if got := e.texts(s); !reflect.DeepEqual(got, want) {
		t.Errorf("history = %q; want %q", got, want)
	}
	if st := e.ingest(); st.Ignored != 0 || st.Redacted != 0 {
		t.Errorf("second pass = %+v; want nothing counted again", st)
	}
	e.store.Close() // checkpoint: everything in the main file
	for _, secret := range []string{token, "echo hidden", "cat diary"} {
		if raw := rawDB(t, e.db); bytes.Contains(raw, []byte(secret)) {
			t.Errorf("%q is in the database file", secret)
		}
	}
}

// TestIngestPunchesHoles: the raw command lines, unredacted, must not stay
// in the spool once they are in the history.
func TestIngestPunchesHoles(t *testing.T) {
	e := newEnv(t)
	if !punchSupported(t, e.dir) {
		required.Cannot(t, fmt.Sprintf("the file system of %s cannot punch holes", e.dir))
	}
	s := sessionID(livePID, 1)
	first := append(header(livePID), records(1, 200, "export GITHUB_TOKEN="+token+" # %d")...)
	e.write(s, first)
	pending := spool.AppendCommand(nil, command(201, "echo pending "+token))
	e.write(s, pending[:len(pending)-5]) // not finished yet
	st := e.ingest()
	if st.Added != 200 {
		t.Fatalf("Ingest = %+v; want 200 added", st)
	}
	b, err := os.ReadFile(e.path(s))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != len(first)+len(pending)-5 {
		t.Errorf("spool is %d bytes after Ingest; want its size kept, %d", len(b), len(first)+len(pending)-5)
	}
	if i := bytes.IndexFunc(b[:len(first)], func(r rune) bool { return r != 0 }); i >= 0 {
		t.Errorf("ingested bytes still in the spool: byte %d of %d is %q", i, len(first), b[i])
	}
	if !bytes.Equal(b[len(first):], pending[:len(pending)-5]) {
		t.Errorf("the pending record was damaged: %q", b[len(first):])
	}
	e.write(s, pending[len(pending)-5:])
	if st := e.ingest(); st.Added != 1 || st.Bad != 0 {
		t.Errorf("Ingest after the record was finished = %+v; want 1 added", st)
	}
	if b, err := os.ReadFile(e.path(s)); err != nil || bytes.Contains(b, []byte(token)) {
		t.Errorf("the token is still in the spool (err %v)", err)
	}
}
