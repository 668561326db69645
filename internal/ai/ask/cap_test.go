package ask

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/ai/llm"
	"github.com/hookd/hookd/internal/ai/llm/llmtest"
)

// countingRenderer counts what it is given, holding none of it.
type countingRenderer struct{ n int }

func (c *countingRenderer) Text(d string) error      { c.n += len(d); return nil }
func (c *countingRenderer) Reasoning(d string) error { return nil }
func (c *countingRenderer) Close() error             { return nil }

// TestAnswerCap (issue 20, item 12): an answer past MaxAnswer ends the
// stream with ErrAnswerTooLong, what came (up to the cap) kept and shown.
func TestAnswerCap(t *testing.T) {
	s := llmtest.NewOpenAI(t)
	chunk := strings.Repeat("x", 64<<10-1) + "\n"
	var chunks []string
	for n := 0; n < MaxAnswer+(1<<20); n += len(chunk) {
		chunks = append(chunks, chunk)
	}
	s.SetReply(llmtest.Reply{Text: chunks})
	p, err := llm.New(llm.Config{Provider: llm.OpenAI, Model: "m", BaseURL: s.URL + "/v1", APIKey: "k", Timeout: time.Minute}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := &countingRenderer{}
	a, err := Stream(t.Context(), p, llm.Request{Messages: []llm.Message{{Role: "user", Content: "loop"}}}, r, time.Now)
	if !errors.Is(err, ErrAnswerTooLong) || !strings.Contains(err.Error(), "was cut there") {
		t.Fatalf("err = %v", err)
	}
	if len(a.Answer) != MaxAnswer || r.n != MaxAnswer || a.Status != history.AskError || a.Error != ErrAnswerTooLong.Error() {
		t.Errorf("answer %d bytes, shown %d, status %s %q", len(a.Answer), r.n, a.Status, a.Error)
	}
}
