package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"testing"

	"github.com/creack/pty"

	"github.com/hookd/hookd/internal/ai/llm/llmtest"
)

// streamChunks is an answer of about size bytes in chunks of about 64
// bytes: Markdown prose, a list and a code block in each paragraph, so
// that the renderer does all it does.
func streamChunks(size int) []string {
	var chunks []string
	n := 0
	for i := 0; n < size; i++ {
		var c string
		switch i % 40 {
		case 10:
			c = "\n\n- an item with **bold** and `code` in it\n"
		case 20:
			c = "\n```sh\necho line " + fmt.Sprint(i) + "\n```\n\n"
		case 39:
			c = "paragraph ends here.\n\n"
		default:
			c = fmt.Sprintf("word%05d and a few more words to fill a chunk of text ", i%100000)
		}
		chunks = append(chunks, c)
		n += len(c)
	}
	return chunks
}

// askRSS runs hookd ask against a fake that streams an answer of size
// bytes, stdout on a terminal (rendering on) or a pipe, and returns its
// peak resident set size in MiB and the answer's bytes it printed.
func askRSS(tb testing.TB, size int, terminal bool, extra ...string) (float64, int) {
	fake := llmtest.NewOpenAI(tb)
	fake.SetReply(llmtest.Reply{Text: streamChunks(size)})
	home := tb.TempDir()
	cmd := exec.Command(hookdBin, "ask", "write a long answer")
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home+"/c", "XDG_DATA_HOME="+home+"/d",
		"XDG_STATE_HOME="+home+"/s", "XDG_RUNTIME_DIR="+home+"/r", "HOOKD_SESSION=",
		"HOOKD_LLM_PROVIDER=openai", "HOOKD_LLM_BASE_URL="+fake.URL, "HOOKD_LLM_API_KEY=k", "TERM=xterm-256color")
	cmd.Env = append(cmd.Env, extra...)
	var printed int
	if terminal {
		f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 120, Rows: 40})
		if err != nil {
			tb.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, f)
		printed = int(n)
		cmd.Wait()
		f.Close()
	} else {
		out, err := cmd.StdoutPipe()
		if err != nil {
			tb.Fatal(err)
		}
		cmd.Stderr = io.Discard
		if err := cmd.Start(); err != nil {
			tb.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, out)
		printed = int(n)
		cmd.Wait()
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return float64(ru.Maxrss) / 1024, printed
}

// BenchmarkAskStreamRSS measures hookd ask's peak RSS while a local server
// streams an answer of 1 and 5 MB in 64-byte chunks, to a terminal
// (rendered) and to a pipe (plain): memory must stay linear in the answer
// (issue 20).
//
//	go test -tags sqlite_fts5 ./cmd/hookd -run XXX -bench AskStreamRSS -benchtime 3x
func BenchmarkAskStreamRSS(b *testing.B) {
	for _, mb := range []int{1, 5} {
		for _, terminal := range []bool{true, false} {
			name := fmt.Sprintf("%dMB-%s", mb, map[bool]string{true: "terminal", false: "pipe"}[terminal])
			b.Run(name, func(b *testing.B) {
				var peak float64
				for b.Loop() {
					rss, _ := askRSS(b, mb<<20, terminal)
					peak = max(peak, rss)
				}
				b.ReportMetric(peak, "peak-MiB")
			})
		}
	}
}

// TestAskStreamMemory (issue 20, item 12): a 5 MB answer streamed to a
// pipe keeps hookd ask under 100 MiB of RSS (it took 460 when appending
// to a string, quadratic in the answer), and all of it is printed.
func TestAskStreamMemory(t *testing.T) {
	rss, printed := askRSS(t, 5<<20, false)
	if rss > 100 {
		t.Errorf("peak RSS %.0f MiB; want under 100", rss)
	}
	if printed < 5<<20 {
		t.Errorf("printed %d bytes of a 5 MiB answer", printed)
	}
	t.Logf("peak RSS %.1f MiB", rss)
}
