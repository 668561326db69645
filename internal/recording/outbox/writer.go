package outbox

import (
	"time"

	"github.com/hookd/hookd/capture"
)

// Writer puts the outputs a capturer (the proxy of `hookd shell`) cuts into
// the outbox, off the path between the shell and the terminal: captures are
// handed over a channel and one goroutine writes them, at once (a proxy
// killed a moment later loses nothing already captured).
//
// The output of a successful command is appended to the writer's stream:
// one write. A failed command's gets a file of its own, which the failure
// path (`hookd suggest --inline`, started by the same prompt) looks for by
// name (Path).
type Writer struct {
	dir      string
	ch       chan capture.Capture
	finished chan struct{}
	stream   *Stream
}

// NewWriter starts a writer into the outbox directory dir.
func NewWriter(dir string) *Writer {
	w := &Writer{dir: dir, ch: make(chan capture.Capture, 16), finished: make(chan struct{})}
	go w.loop()
	return w
}

// Add hands over one capture (a capture.Collector's callback). Only
// complete outputs are kept: one cut short belongs to a command whose end
// was never seen.
func (w *Writer) Add(c capture.Capture) {
	if c.Complete {
		w.ch <- c
	}
}

// Close waits until every output handed over is written.
func (w *Writer) Close() {
	close(w.ch)
	<-w.finished
}

func (w *Writer) loop() {
	defer close(w.finished)
	for c := range w.ch {
		w.write(c)
	}
	if w.stream != nil {
		w.stream.Close()
	}
}

// write stores one output. A failed write (a full disk) loses this output,
// not the shell: there is nowhere to report it but the next hookd status.
func (w *Writer) write(c capture.Capture) {
	it := Item{Session: c.ID.Session, Seq: int64(c.ID.Seq), Status: c.Status, Size: c.Size,
		Time: time.Now().UnixMicro(), Raw: c.Raw}
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
