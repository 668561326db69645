package sync

import (
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
