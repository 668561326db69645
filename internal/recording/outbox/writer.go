package outbox

import (
	"time"

	"github.com/hookd/hookd/capture"
)

// Writer puts the outputs a capturer (the proxy of `hookd shell`) cuts into
// the outbox: captures are handed over a channel and one goroutine writes
// them, at once. Add waits for that write (a few microseconds: one write
// into the page cache), up to addWait, so that by the time the prompt that
// follows an output reaches the terminal the output is in the outbox: a
// proxy killed a moment later loses nothing already captured, and a
// stalled disk holds the terminal back at most addWait.
//
// The output of a successful command is appended to the writer's stream:
// one write. A failed command's gets a file of its own, which the failure
// path (`hookd suggest --inline`, started by the same prompt) looks for by
// name (Path).
type Writer struct {
	dir      string
	ch       chan job
	finished chan struct{}
	stream   *Stream
}

// job is one capture to write, and the channel closed once it is written.
type job struct {
	c    capture.Capture
	done chan struct{}
}

// addWait is how long Add waits for its capture to be written.
const addWait = 100 * time.Millisecond

// NewWriter starts a writer into the outbox directory dir.
func NewWriter(dir string) *Writer {
	w := &Writer{dir: dir, ch: make(chan job, 16), finished: make(chan struct{})}
	go w.loop()
	return w
}

// Add hands over one capture (a capture.Collector's callback). Only
// complete outputs are kept: one cut short belongs to a command whose end
// was never seen.
func (w *Writer) Add(c capture.Capture) {
	if !c.Complete {
		return
	}
	done := make(chan struct{})
	w.ch <- job{c, done}
	t := time.NewTimer(addWait)
	select {
	case <-done:
	case <-t.C:
	}
	t.Stop()
}

// Close waits until every output handed over is written.
func (w *Writer) Close() {
	close(w.ch)
	<-w.finished
}

func (w *Writer) loop() {
	defer close(w.finished)
	for j := range w.ch {
		w.write(j.c)
		close(j.done)
	}
	if w.stream != nil {
		w.stream.Close()
	}
}

// write stores one output. A failed write (a full disk) loses this output,
// not the shell: there is nowhere to report it but the next hookd status.
func (w *Writer) write(c capture.Capture) {
	it := Item{Session: c.ID.Session, Seq: int64(c.ID.Seq), Status: c.Status, Size: c.Size,
		Time: time.Now().UnixMicro(), Raw: c.Raw, Withheld: c.Withheld}
	if c.Status != 0 {
		Write(w.dir, it)
		return
	}
	if w.stream == nil || w.stream.Broken() {
		if w.stream != nil {
			w.stream.Close()
		}
		st, err := OpenStream(w.dir)
		if err != nil {
			w.stream = nil
			return
		}
		w.stream = st
	}
	w.stream.Append(it)
}
