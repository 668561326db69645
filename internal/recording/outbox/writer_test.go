package outbox

import (
	"os"
	"testing"

	"github.com/hookd/hookd/capture"
)

func TestWriter(t *testing.T) {
	dir := t.TempDir()
	w := NewWriter(dir)
	ok := capture.Capture{ID: capture.ID{Session: "1-2-3", Seq: 1}, Status: 0, Size: 3, Raw: []byte("ok\n"), Complete: true}
	failed := capture.Capture{ID: capture.ID{Session: "1-2-3", Seq: 2}, Status: 2, Size: 5, Raw: []byte("fail\n"), Complete: true}
	cut := capture.Capture{ID: capture.ID{Session: "1-2-3", Seq: 3}, Status: 0, Size: 4, Raw: []byte("cut\n")}
	w.Add(ok)
	w.Add(failed)
	w.Add(cut)
	w.Close()
	l, err := Scan(dir)
	if err != nil {
		t.Fatal(err)
	}
	// The failure has a file of its own, where the failure path looks.
	if len(l.Items) != 1 || l.Items[0] != Path(dir, "1-2-3", 2, Terminal) {
		t.Errorf("items = %q; want the failed command's file only", l.Items)
	}
	if len(l.Streams) != 1 {
		t.Fatalf("streams = %v; want one", l.Streams)
	}
	for path := range l.Streams {
		buf, _ := os.ReadFile(path)
		items, _, err := DecodeStream(buf)
		if err != nil || len(items) != 1 || items[0].Seq != 1 || string(items[0].Raw) != "ok\n" {
			t.Errorf("stream holds %+v, %v; want the successful command's output only (the cut one is not kept)", items, err)
		}
	}
}
