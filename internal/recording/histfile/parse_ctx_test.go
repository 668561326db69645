package histfile

import (
	"context"
	"crypto/rand"
	"errors"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/shelltest"
)

// endless is an endless stream of random bytes, like /dev/urandom.
type endless struct{}

func (endless) Read(p []byte) (int, error) { return rand.Read(p) }

func TestParseStopsWhenCanceled(t *testing.T) {
	for _, sh := range Shells {
		t.Run(sh, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			time.AfterFunc(100*time.Millisecond, cancel)
			done := make(chan error, 1)
			go func() {
				_, err := Parse(ctx, sh, endless{})
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("Parse(%s, endless) = %v; want context.Canceled", sh, err)
				}
			case <-time.After(shelltest.Scale(30 * time.Second)):
				t.Fatalf("Parse(%s, endless) did not stop within 30s of its context's end", sh)
			}
		})
	}
}
