package llm_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/ai/llm"
	"github.com/hookd/hookd/internal/shelltest"
)

func TestCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		command string
		req     llm.Request
		text    string
		kind    llm.ErrorKind // -1: no error
		hint    string
	}{
		{"stdin to stdout", "tr a-z A-Z", llm.Request{Messages: []llm.Message{{Role: "user", Content: "why?"}}}, "WHY?\n", -1, ""},
		{"system prompt first", "cat", llm.Request{System: "sys", Messages: []llm.Message{{Role: "user", Content: "q"}}}, "sys\n\nq\n", -1, ""},
		{"non-zero exit", "echo partial; echo first >&2; echo 'model not found' >&2; exit 3", question, "partial\n",
			llm.CommandFailed, "model not found"},
		{"not found", "no-such-llm-command-here", question, "", llm.CommandFailed, "not found"},
		{"timeout", "echo started; exec sleep 30", question, "started\n", llm.Timeout, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// A timeout that only bounds a hang, but for the case that
			// hits it: its command must have started and printed first,
			// which on a loaded machine can take a second or more.
			timeout := shelltest.Scale(30 * time.Second)
			if tt.kind == llm.Timeout {
				timeout = shelltest.Scale(3 * time.Second)
			}
			p, err := llm.New(llm.Config{Provider: llm.Command, Command: tt.command, Timeout: timeout}, nil)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			_, res, err := collect(t.Context(), p, tt.req)
			t.Log(err)
			if res.Text != tt.text {
				t.Errorf("text = %q; want %q", res.Text, tt.text)
			}
			var e *llm.Error
			switch {
			case tt.kind < 0 && err != nil:
				t.Errorf("Stream: %v", err)
			case tt.kind >= 0 && (!errors.As(err, &e) || e.Kind != tt.kind || !strings.Contains(e.Hint, tt.hint)):
				t.Errorf("Stream error = %v; want kind %v, hint with %q", err, tt.kind, tt.hint)
			}
			// The timeout ends `sleep 30` long before it would end.
			if d := time.Since(start); d > timeout+shelltest.Scale(10*time.Second) {
				t.Errorf("Stream took %v", d)
			}
		})
	}
}

// TestCommandCancel checks that a cancel ends the command's whole process
// group at once, with the text so far.
func TestCommandCancel(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	// A child in the background that would outlive a kill of sh alone.
	script := "sleep 30 & echo $! > " + pidFile + "; echo one; wait"
	p, err := llm.New(llm.Config{Provider: llm.Command, Command: script}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var at time.Time
	var evs []llm.Event
	res, err := p.Stream(ctx, question, func(e llm.Event) error {
		evs = append(evs, e)
		at = time.Now()
		cancel()
		return nil
	})
	// The command waits for a 30 s sleep: without the kill of the group,
	// Stream would return that much later.
	if d := time.Since(at); d > shelltest.Scale(5*time.Second) {
		t.Errorf("Stream returned %v after the cancel; want it at once", d)
	}
	if llm.KindOf(err) != llm.Canceled || res.Text != "one\n" || !reflect.DeepEqual(evs, []llm.Event{{Kind: llm.Text, Text: "one\n"}}) {
		t.Errorf("Stream = %q, %v, %+v; want a Canceled error and the text so far", res.Text, err, evs)
	}
	pid, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	// The background sleep must be gone: poll for it with a deadline.
	proc := "/proc/" + strings.TrimSpace(string(pid))
	var stat []byte
	shelltest.Eventually(t, 10*time.Second, func() bool {
		stat, err = os.ReadFile(proc + "/stat")
		return err != nil || strings.Contains(string(stat), ") Z ")
	}, func() string { return fmt.Sprintf("the command's child %s is still running: %s", pid, stat) })
}

// TestCommandUTF8 checks that a character split across two writes reaches
// the callback whole.
func TestCommandUTF8(t *testing.T) {
	p, err := llm.New(llm.Config{Provider: llm.Command, Command: `printf '\342\202'; sleep 0.1; printf '\254 ok'`}, nil)
	if err != nil {
		t.Fatal(err)
	}
	evs, res, err := collect(t.Context(), p, question)
	if err != nil || res.Text != "€ ok" {
		t.Fatalf("Stream = %q, %v", res.Text, err)
	}
	for _, e := range evs {
		if !strings.HasPrefix(e.Text, "€") && !strings.HasPrefix(e.Text, " ") {
			t.Errorf("event %q starts in the middle of a character", e.Text)
		}
	}
}
