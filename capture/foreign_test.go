package capture

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// cmdSink keeps each command's output as it was captured.
type cmdSink struct {
	ids  []ID
	outs []*bytes.Buffer
	ends []string
}

func (c *cmdSink) Begin(id ID) { c.ids = append(c.ids, id); c.outs = append(c.outs, new(bytes.Buffer)) }
func (c *cmdSink) Output(p []byte) {
	if n := len(c.outs); n > 0 {
		c.outs[n-1].Write(p)
	}
}
func (c *cmdSink) End(id ID, status int, complete bool) {
	c.ends = append(c.ends, fmt.Sprintf("%s %d %s", id, status, map[bool]string{true: "complete", false: "cut"}[complete]))
}

// TestForeignMarks: the marks that a shell or a terminal's shell
// integration prints besides hookd's (fish 4's own OSC 133 with its
// parameters, VS Code's OSC 633, kitty's, Ghostty's and WezTerm's
// variants, and any mark printed twice) neither start nor end a command:
// each command hookd marked is captured once, whole, and renders to
// exactly what it printed, whichever side of hookd's marks the others
// fall on and however the stream is cut into writes.
func TestForeignMarks(t *testing.T) {
	c1, d1 := BeginMark(testNonce, s1), EndMark(testNonce, s1, 0)
	c2, d2 := BeginMark(testNonce, s2), EndMark(testNonce, s2, 1)
	const (
		// fish 4.
		fishA = "\x1b]133;A;click_events=1\a"
		fishC = "\x1b]133;C;cmdline_url=ls%20-l\a"
		fishD = "\x1b]133;D;0\a"
		// VS Code's shell integration (its own 633 numbers).
		vsA, vsB, vsE, vsC, vsD, vsP = "\x1b]633;A\a", "\x1b]633;B\a", "\x1b]633;E;ls -l;f00d\a", "\x1b]633;C\a", "\x1b]633;D;0\a", "\x1b]633;P;Cwd=/w\a"
		// kitty, Ghostty, WezTerm.
		kittyA, ghostA, wezP = "\x1b]133;A;k=s\x1b\\", "\x1b]133;A;cl=line\a", "\x1b]133;P;k=i\a"
	)
	hookdA, hookdC, hookdD := a133, c133, "\x1b]133;D;0\a"
	tests := []struct {
		name   string
		stream string
		outs   []string // each command's output, rendered
		status []int    // each command's status
	}{
		{
			name: "fish 4's marks outside hookd's",
			stream: fishA + hookdA + "$ " + b133 + "ls -l\r\n" + fishC + hookdC + c1 + "a  b\r\n" + d1 + hookdD + fishD +
				fishA + hookdA + "$ " + b133 + "false\r\n" + fishC + hookdC + c2 + d2 + "\x1b]133;D;1\a" + fishD,
			outs: []string{"a  b\n", ""}, status: []int{0, 1},
		},
		{
			name:   "fish 4's marks inside hookd's",
			stream: fishA + hookdA + "$ ls -l\r\n" + hookdC + c1 + fishC + "a  b\r\n" + fishD + d1 + hookdD + fishA + hookdA + "$ ",
			outs:   []string{"a  b\n"}, status: []int{0},
		},
		{
			// Ghostty's bash integration reports 0 for every command:
			// hookd's own status is the one kept.
			name:   "a foreign mark with a wrong status",
			stream: hookdC + c2 + "no\r\n" + "\x1b]133;D;0\a" + d2 + "\x1b]133;D;0\a",
			outs:   []string{"no\n"}, status: []int{1},
		},
		{
			name: "VS Code's 633 sequences everywhere",
			stream: vsA + hookdA + "$ " + vsB + "ls -l\r\n" + vsE + vsC + hookdC + c1 + vsP + "a  b\r\n" + vsD + d1 + hookdD + vsD +
				vsA + "$ ",
			outs: []string{"a  b\n"}, status: []int{0},
		},
		{
			name: "doubled marks",
			stream: hookdA + hookdA + "$ " + hookdC + hookdC + c1 + "one\r\n" + c133 + c133 + d133 + d133 + "two\r\n" + a133 +
				d1 + hookdD + hookdD + hookdA + hookdA + "$ " + hookdC + c2 + "three\r\n" + d2 + "\x1b]133;D;1\a",
			outs: []string{"one\ntwo\n", "three\n"}, status: []int{0, 1},
		},
		{
			name:   "kitty, Ghostty, WezTerm",
			stream: kittyA + ghostA + wezP + "$ " + hookdC + c1 + "x\r\n" + kittyA + ghostA + wezP + "y\r\n" + d1 + hookdD,
			outs:   []string{"x\ny\n"}, status: []int{0},
		},
	}
	for _, tt := range tests {
		// Whole, and one byte per write (a mark cut anywhere).
		for _, split := range []bool{false, true} {
			var out bytes.Buffer
			var sink cmdSink
			s := NewScanner(&out, &sink, testNonce)
			if split {
				for i := 0; i < len(tt.stream); i++ {
					s.Write([]byte{tt.stream[i]})
				}
			} else {
				s.Write([]byte(tt.stream))
			}
			s.Close()
			if len(sink.ids) != len(tt.outs) || len(sink.ends) != len(tt.outs) {
				t.Errorf("%s (split %v): %d commands begun, ends %q; want %d, each once", tt.name, split, len(sink.ids), sink.ends, len(tt.outs))
				continue
			}
			for i, want := range tt.outs {
				if !strings.HasSuffix(sink.ends[i], fmt.Sprintf(" %d complete", tt.status[i])) {
					t.Errorf("%s (split %v): command %d ended %q", tt.name, split, i, sink.ends[i])
				}
				if got, _ := Render(sink.outs[i].Bytes()); got != want {
					t.Errorf("%s (split %v): command %d rendered %q; want %q (raw %q)", tt.name, split, i, got, want, sink.outs[i])
				}
			}
			// Every foreign mark reaches the terminal; hookd's private ones do not.
			if strings.Contains(out.String(), "6973;hookd") {
				t.Errorf("%s: a private mark was forwarded", tt.name)
			}
			for _, m := range []string{fishA, vsE, kittyA, ghostA, wezP} {
				if strings.Count(tt.stream, m) != strings.Count(out.String(), m) {
					t.Errorf("%s: %q not forwarded as often as it came", tt.name, m)
				}
			}
		}
	}
}
