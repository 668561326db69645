package suggest

import (
	"testing"

	"github.com/hookd/hookd/analyze"
)

// TestMergeOneFixPerAction: the rules' "source .venv/bin/activate" and the
// comparison's "source ~/src/app/.venv/bin/activate", in ~/src/app, are one
// action, shown once (issue 32: after deactivate, the same activate was
// offered twice).
func TestMergeOneFixPerAction(t *testing.T) {
	rules := []analyze.Fix{{Command: "source .venv/bin/activate", Confidence: 0.6}, {Command: "pip install mymod", Confidence: 0.9}}
	restore := []analyze.Fix{{Command: "source ~/src/app/.venv/bin/activate", Confidence: 0.9}, {Command: "cd ~/src/app", Confidence: 0.7}}
	same := func(a, b string) bool { return analyze.SameAction(a, b, "/home/u/src/app", "/home/u", "bash") }
	got := merge(rules, restore, same)
	n := 0
	for _, f := range got {
		if f.Command == "source .venv/bin/activate" || f.Command == "source ~/src/app/.venv/bin/activate" {
			n++
			if f.Confidence != 0.9 {
				t.Errorf("activate confidence %v; want the restoring fix's 0.9", f.Confidence)
			}
		}
	}
	if n != 1 || len(got) != 3 {
		t.Errorf("merge = %+v; want activate once, among 3 fixes", got)
	}
}
