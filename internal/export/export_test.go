package export

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
)

var update = flag.Bool("update", false, "rewrite golden files")

// The goldens show times in UTC, wherever they run.
func init() { time.Local = time.UTC }

const token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"

// hostile is an output that tries everything: HTML, a terminal's escape
// sequences (colours, a title, a cursor move), bidirectional overrides,
// backtick runs longer than a fence, and a secret.
var hostile = "<script>alert(1)</script> & <b>bold</b>\n" +
	"\x1b[1;31mred bold\x1b[0m plain \x1b[32mgreen\x1b[39m \x1b]0;pwned\x07 \x1b[2J\n" +
	"abc\u202edcba\u2066x\u2069 zero\u200bwidth\n" +
	"```\n````` inside\n" +
	"token " + token + "\n"

func commands() []Command {
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC).UnixMicro()
	return []Command{
		{Entry: history.Entry{ID: 41, Session: "s1", Seq: 1, Command: "make test </pre><script>x</script> `id`", ExitCode: 2,
			Cwd: "/home/u/src/*app*", StartedAt: at, DurationUS: 1_500_000, Shell: "bash", Host: "box", OutputBytes: int64(len(hostile))},
			Output: hostile, Notes: []history.Note{{ID: 1, Command: 41, Text: "flaky on CI </p><script>n</script> *not* `me` " + token, CreatedAt: at}}},
		{Entry: history.Entry{ID: 42, Session: "s1", Seq: 2, Command: "echo " + token, Cwd: "/home/u", StartedAt: at + 5e6, Shell: "bash", Host: "box"},
			Missing: "it was not captured"},
	}
}

func TestExportGolden(t *testing.T) {
	for _, f := range Formats {
		t.Run(f, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, f, commands(), Options{Home: "/home/u"}); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			path := filepath.Join("testdata", "export."+f+".golden")
			if *update {
				os.MkdirAll("testdata", 0o755)
				os.WriteFile(path, buf.Bytes(), 0o644)
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test -run TestExportGolden -update)", err)
			}
			if out != string(want) {
				t.Errorf("%s differs (go test -run TestExportGolden -update if intended):\n%s", path, out)
			}
			if strings.Contains(out, token) || strings.Contains(out, "hunter2") {
				t.Errorf("%s: the secret is in the export", f)
			}
			if f != "json" {
				// JSON keeps the text exact (\u001b in a string is
				// inert); every other format shows it by its code.
				for _, bad := range []string{"\x1b", "\x07", "\u202e", "\u2066", "\u200b"} {
					if strings.Contains(out, bad) {
						t.Errorf("%s: %q reaches the reader", f, bad)
					}
				}
			}
			switch f {
			case "html":
				for _, bad := range []string{"<script>", "</pre><script>", "<b>"} {
					if strings.Contains(out, bad) {
						t.Errorf("html: %q not escaped", bad)
					}
				}
				if !strings.Contains(out, `<span class="f1 bo">red bold</span>`) || !strings.Contains(out, `<span class="f2">green</span>`) {
					t.Errorf("html: the colours are not drawn")
				}
			case "md":
				// The fence outruns the five backticks inside.
				if !strings.Contains(out, "``````console\n") {
					t.Errorf("md: the fence is not longer than the output's backtick runs")
				}
			case "json":
				for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
					var m map[string]any
					if err := json.Unmarshal([]byte(l), &m); err != nil {
						t.Fatal(err)
					}
					for _, k := range []string{"id", "session", "command", "exit_code", "cwd", "started_at", "duration_ms", "shell", "output_bytes", "output"} {
						if _, ok := m[k]; !ok {
							t.Errorf("json: no %q in %s", k, l)
						}
					}
				}
			}
		})
	}
}

func TestFence(t *testing.T) {
	for in, want := range map[string]string{"": "```", "a`b": "```", "``` x": "````", "x ````` y ``": "``````"} {
		if got := Fence(in); got != want {
			t.Errorf("Fence(%q) = %q, want %q", in, got, want)
		}
	}
}
