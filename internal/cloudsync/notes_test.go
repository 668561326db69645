package cloudsync_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/cloudsync/s3test"
)

// notes returns every note's text in h's history, by command line.
func (h *host) notes() map[string][]string {
	h.t.Helper()
	all := h.entries()
	s := h.store()
	defer s.Close()
	var ids []int64
	for _, e := range all {
		ids = append(ids, e.ID)
	}
	ns, err := s.Notes(h.t.Context(), ids)
	if err != nil {
		h.t.Fatal(err)
	}
	m := map[string][]string{}
	for _, e := range all {
		for _, n := range ns[e.ID] {
			m[e.Command] = append(m[e.Command], n.Text)
		}
	}
	return m
}

// note attaches text to the command cmd in h's history.
func (h *host) note(cmd, text string) {
	h.t.Helper()
	s := h.store()
	defer s.Close()
	all, err := s.List(h.t.Context(), history.Query{Text: cmd})
	if err != nil || len(all) == 0 {
		h.t.Fatalf("%s: no %q to note (%v)", h.s.Label, cmd, err)
	}
	if _, err := s.AddNote(h.t.Context(), all[0].ID, text, 1); err != nil {
		h.t.Fatal(err)
	}
}

// TestNotesEverywhere: a note travels with sync, sealed like the rest,
// to every installation, once; one written on another host's command
// comes back to the host that ran it; a tombstone takes the notes with
// the command everywhere.
func TestNotesEverywhere(t *testing.T) {
	srv := s3test.Start(t)
	hs := cluster(t, srv, 3)
	token := fmt.Sprint(rand.Int64())
	hs[0].record("", "make deploy", "make test")
	hs[0].note("make deploy", "needs the VPN "+token)
	hs[0].pass()
	hs[1].pass()
	hs[1].note("make test", "flaky on Mondays")
	hs[1].pass()
	hs[0].pass()
	hs[2].pass()
	hs[1].pass() // nothing new: nothing added twice
	want := map[string][]string{"make deploy": {"needs the VPN " + token}, "make test": {"flaky on Mondays"}}
	for _, h := range hs {
		got := h.notes()
		for cmd, w := range want {
			if !slices.Equal(got[cmd], w) {
				t.Errorf("%s: notes on %s = %q, want %q", h.s.Label, cmd, got[cmd], w)
			}
		}
	}
	for p, b := range srv.Files() {
		if bytes.Contains(b, []byte(token)) || bytes.Contains(b, []byte("Mondays")) {
			t.Errorf("%s holds a note in plaintext", p)
		}
	}
	s := hs[2].store()
	if _, err := s.ForgetCommand(t.Context(), "make deploy"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	hs[2].pass()
	hs[0].pass()
	hs[1].pass()
	for _, h := range hs {
		if got := h.notes(); len(got["make deploy"]) != 0 || len(got["make test"]) != 1 {
			t.Errorf("%s after forget: notes %q", h.s.Label, got)
		}
	}
}
