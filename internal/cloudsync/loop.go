package cloudsync

import (
	"context"
	"errors"
	"log/slog"
	"time"
)

// Loop runs passes in the background, for the daemon: every interval,
// soon after a burst of new commands, and after an error again only after
// a pause that doubles each time (30 s up to 30 min). Recording never
// waits on it: the daemon only tells it how many commands it ingested.
type Loop struct {
	// New builds the Syncer from the configuration as it is now (it is
	// read again before each pass); nil and no error when sync is not
	// configured.
	New func() (*Syncer, error)
	Log *slog.Logger
	// Burst is how many new commands make a pass start soon (0: 20).
	Burst int
	// First is the pause before the first pass (0: 5 s).
	First time.Duration

	kick chan int
}

// Kick tells the loop that n commands were recorded. It never blocks.
func (l *Loop) Kick(n int) {
	if l.kick == nil {
		return
	}
	select {
	case l.kick <- n:
	default:
	}
}

// Backoff bounds.
const (
	minBackoff = 30 * time.Second
	maxBackoff = 30 * time.Minute
)

// Init prepares the loop to take kicks; Run calls it too.
func (l *Loop) Init() {
	if l.kick == nil {
		l.kick = make(chan int, 64)
	}
}

// Run runs until ctx ends.
func (l *Loop) Run(ctx context.Context) {
	l.Init()
	burst := l.Burst
	if burst <= 0 {
		burst = 20
	}
	first := l.First
	if first <= 0 {
		first = 5 * time.Second
	}
	timer := time.NewTimer(first)
	defer timer.Stop()
	due := time.Now().Add(first)
	var backoff time.Duration
	pending := 0
	for {
		select {
		case <-ctx.Done():
			return
		case n := <-l.kick:
			pending += n
			if pending >= burst && backoff == 0 {
				if soon := time.Now().Add(2 * time.Second); soon.Before(due) {
					due = soon
					timer.Reset(time.Until(due))
				}
			}
			continue
		case <-timer.C:
		}
		wait := l.pass(ctx, &backoff)
		if wait > 0 && backoff == 0 {
			pending = 0
		}
		due = time.Now().Add(wait)
		timer.Reset(wait)
	}
}

// pass runs one pass and returns how long to wait for the next.
func (l *Loop) pass(ctx context.Context, backoff *time.Duration) time.Duration {
	s, err := l.New()
	if err != nil {
		l.Log.Warn("sync: configuration", "error", err)
		return time.Minute
	}
	if s == nil {
		return time.Minute // not configured: look again later
	}
	interval := s.Settings.Interval
	if interval <= 0 {
		return time.Minute // sync.interval: 0 turns background sync off
	}
	start := time.Now()
	m, err := s.Pass(ctx, 0)
	switch {
	case errors.Is(err, ErrNotSetUp):
		return time.Minute
	case errors.Is(err, ErrBusy):
		return minBackoff // `hookd sync` is running one
	case err != nil:
		if ctx.Err() != nil {
			return time.Second
		}
		*backoff = min(max(minBackoff, 2**backoff), maxBackoff)
		l.Log.Warn("sync failed", "error", err, "retry_in", backoff.String())
		return *backoff
	}
	*backoff = 0
	for _, w := range m.Warnings {
		l.Log.Warn("sync: skipped or changed", "warning", w)
	}
	if m.UpCommands+m.DownCommands+m.UpForgotten+m.DownForgotten+m.UpOutputs+m.DownOutputs > 0 {
		l.Log.Info("synced", "moved", m.String(), "took", time.Since(start).Round(time.Millisecond).String())
	}
	return interval
}
