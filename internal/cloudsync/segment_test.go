package cloudsync

import (
	"reflect"
	"testing"

	"github.com/hookd/hookd/history"
)

// TestSegmentKeepsSessions checks that a session's facts, a coding agent's
// name among them, travel whole: another host keeps an agent's commands
// apart from the user's own as this one does.
func TestSegmentKeepsSessions(t *testing.T) {
	n := naming{self: "0123456789abcdef"}
	b := &history.SyncBatch{
		Sessions: []history.Session{
			{ID: "s1", Shell: "zsh", Host: "box", User: "ann", StartedAt: 10},
			{ID: "claude-code-x", Shell: "agent", Host: "box", Capture: "agent", Author: "claude-code", StartedAt: 20},
		},
		Commands: []history.Entry{
			{Session: "s1", Seq: 1, Command: "make", StartedAt: 11},
			{Session: "claude-code-x", Seq: 1, Command: "go test ./...", StartedAt: 21, Source: "agent"},
		},
	}
	plain, err := encode(wireSegment{}, b, n)
	if err != nil {
		t.Fatal(err)
	}
	_, got, err := decode(plain)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Sessions) != 2 {
		t.Fatalf("sessions: %+v", got.Sessions)
	}
	for i, want := range b.Sessions {
		g := got.Sessions[i]
		if g.ID != want.ID+history.HostSep+n.self || g.Author != want.Author || g.Shell != want.Shell || g.Capture != want.Capture {
			t.Errorf("session %d came back as %+v; want %+v (id with the host's suffix)", i, g, want)
		}
	}
}

// TestSegmentKeepsContexts: the context noted for a command travels with
// it (each environment once per segment), and a segment of a hookd that
// noted none decodes with none.
func TestSegmentKeepsContexts(t *testing.T) {
	n := naming{self: "0123456789abcdef"}
	env := map[string]string{"PATH": "/v/bin:/bin", "VIRTUAL_ENV": "/v"}
	b := &history.SyncBatch{
		Commands: []history.Entry{
			{Session: "s1", Seq: 1, Command: "./run.sh", StartedAt: 11},
			{Session: "s1", Seq: 2, Command: "./run.sh", ExitCode: 1, StartedAt: 12},
			{Session: "s1", Seq: 3, Command: "ls", StartedAt: 13},
		},
		Contexts: map[history.Key]history.Context{
			{Session: "s1", Seq: 1}: {Key: 42, Repo: "/r", Branch: "main", Dirty: 1, Env: env},
			{Session: "s1", Seq: 2}: {Key: 42, Repo: "/r", Head: "0123abcd", Dirty: -1, Env: env},
		},
	}
	plain, err := encode(wireSegment{}, b, n)
	if err != nil {
		t.Fatal(err)
	}
	seg, got, err := decode(plain)
	if err != nil {
		t.Fatal(err)
	}
	if len(seg.Envs) != 1 {
		t.Errorf("the segment holds %d environments; want the one both commands ran in, once", len(seg.Envs))
	}
	wire := "s1" + history.HostSep + n.self
	if len(got.Contexts) != 2 {
		t.Fatalf("contexts came back as %+v; want two", got.Contexts)
	}
	for seq := int64(1); seq <= 2; seq++ {
		want := b.Contexts[history.Key{Session: "s1", Seq: seq}]
		if c := got.Contexts[history.Key{Session: wire, Seq: seq}]; !reflect.DeepEqual(c, want) {
			t.Errorf("context of #%d came back as %+v; want %+v", seq, c, want)
		}
	}
	// An older hookd's segment: no contexts, and nothing refused.
	old := []byte(`{"v":1,"s":[{"id":"s1@0123456789abcdef"}],"c":[{"s":0,"q":1,"c":"ls","t":1}]}`)
	if _, b, err := decode(old); err != nil || len(b.Commands) != 1 || len(b.Contexts) != 0 {
		t.Errorf("decode(an older segment) = %+v, %v", b, err)
	}
	// An environment the segment does not hold is damage.
	bad := []byte(`{"v":1,"s":[{"id":"s1"}],"c":[{"s":0,"q":1,"c":"ls","t":1,"k":{"k":1,"e":2}}],"e":["{}"]}`)
	if _, _, err := decode(bad); err == nil {
		t.Error("a command naming a missing environment was accepted")
	}
}
