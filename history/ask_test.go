package history_test

import (
	"errors"
	"testing"

	"github.com/hookd/hookd/history"
)

func TestAsks(t *testing.T) {
	ctx := t.Context()
	s := openAt(t, t.TempDir()+"/history.db")
	first, err := s.AddAsk(ctx, history.Ask{Session: "s1", Question: "why?", Context: "ctx", Answer: "because", Provider: "openai",
		Model: "m", InputTokens: 10, OutputTokens: 3, FirstTokenUS: 1000, DurationUS: 5000, StartedAt: 100})
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.AddAsk(ctx, history.Ask{Session: "s1", Parent: first, Question: "and then?", Status: history.AskCancelled, StartedAt: 200})
	if err != nil {
		t.Fatal(err)
	}
	s.AddAsk(ctx, history.Ask{Session: "s2", Question: "other", StartedAt: 300})
	got, err := s.GetAsk(ctx, first)
	if err != nil || got.Answer != "because" || got.Status != history.AskOK || got.InputTokens != 10 {
		t.Errorf("GetAsk = %+v, %v", got, err)
	}
	if _, err := s.GetAsk(ctx, 999); !errors.Is(err, history.ErrNotFound) {
		t.Errorf("GetAsk(999) = %v; want ErrNotFound", err)
	}
	list, err := s.Asks(ctx, "s1", 0)
	if err != nil || len(list) != 2 || list[0].ID != second {
		t.Errorf("Asks(s1) = %+v, %v; want 2, newest first", list, err)
	}
	if all, _ := s.Asks(ctx, "", 2); len(all) != 2 {
		t.Errorf("Asks(all, 2) = %d; want 2", len(all))
	}
	th, err := s.Thread(ctx, second, 10)
	if err != nil || len(th) != 2 || th[0].ID != first || th[1].Status != history.AskCancelled {
		t.Errorf("Thread = %+v, %v", th, err)
	}
	if a, err := s.AskDuring(ctx, "s1", 150, 250); err != nil || a.ID != second {
		t.Errorf("AskDuring = %+v, %v", a, err)
	}
	if _, err := s.AskDuring(ctx, "s1", 400, 500); !errors.Is(err, history.ErrNotFound) {
		t.Errorf("AskDuring(none) = %v", err)
	}
}

func TestSalvageAsks(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	old := openAt(t, dir+"/old.db")
	first, _ := old.AddAsk(ctx, history.Ask{Session: "s", Question: "why?", Context: "ctx", Answer: "because", Provider: "openai",
		Model: "m", InputTokens: 10, StartedAt: 100})
	old.AddAsk(ctx, history.Ask{Session: "s", Parent: first, Question: "and?", Status: history.AskCancelled, StartedAt: 200})
	old.Close()
	s := openAt(t, dir+"/new.db")
	s.AddAsk(ctx, history.Ask{Session: "t", Question: "taken id", StartedAt: 50}) // id 1 is taken in the new store
	st, err := s.Salvage(ctx, dir+"/old.db")
	if err != nil || st.Asks != 2 {
		t.Fatalf("Salvage = %+v, %v; want 2 questions", st, err)
	}
	got, _ := s.Asks(ctx, "s", 0)
	if len(got) != 2 || got[1].Question != "why?" || got[1].Answer != "because" || got[0].Status != history.AskCancelled {
		t.Errorf("salvaged questions: %+v", got)
	}
	if st, _ := s.Salvage(ctx, dir+"/old.db"); st.Asks != 0 {
		t.Errorf("salvaging again added %d questions", st.Asks)
	}
}
