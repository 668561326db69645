package probe

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// A tool without a manual page or completion files (docker's static binary,
// rustup's rustc) still knows its options: its message says "Run 'docker run
// --help' for more information". Help runs exactly that, on the failure
// path only, and keeps the text under the stamp of the program.

// helpTimeout bounds a tool's help (docker's takes 150 ms, most far less);
// longer than the other facts, since it is asked once per tool and version.
const helpTimeout = 2 * time.Second

// maxHelp bounds the help text kept (docker run's is 9 KB).
const maxHelp = 128 << 10

// helpHeader starts a cached help text, followed by its stamp.
const helpHeader = "hookd help 2 "

// Help returns the option words of what argv prints (optionWords; nothing
// else of it is kept): argv[0] a program name found in an absolute
// directory of the PATH (never a path, never the current directory), the
// words after it subcommands (no option, no path), the last "--help" or
// "-h". The program runs with no input, in "/", its output bounded and
// its time limited, its process group killed when over; "" when it cannot
// be run or answers nothing.
func (p *Probe) Help(ctx context.Context, argv []string) string {
	if !helpArgs(argv) {
		return ""
	}
	prog := p.program(argv[0])
	if prog == "" || !filepath.IsAbs(prog) {
		return ""
	}
	text, err := p.helps.get(strings.Join(argv, "\x00"), func() (string, error) {
		return within(ctx, helpTimeout, func(ctx context.Context) (string, error) {
			return helpText(ctx, prog, argv, p.opts.VocabDir, p.opts.Environ)
		})
	})
	if err != nil {
		return ""
	}
	return text
}

// helpArgs reports whether argv is a program's name, its subcommands and a
// request for help, and nothing else.
func helpArgs(argv []string) bool {
	if len(argv) < 2 || len(argv) > 5 {
		return false
	}
	if last := argv[len(argv)-1]; last != "--help" && last != "-h" {
		return false
	}
	for i, w := range argv[:len(argv)-1] {
		if w == "" || len(w) > 64 || strings.HasPrefix(w, "-") || w == "." || w == ".." {
			return false
		}
		for _, r := range w {
			ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
				r == '-' || r == '_' || r == '.' || r == '+' || i > 0 && r == ':'
			if !ok {
				return false
			}
		}
	}
	return true
}

// helpText runs prog with argv[1:], or reads the text it printed before
// from dir, kept under the program's path, size and time.
func helpText(ctx context.Context, prog string, argv []string, dir string, env []string) (string, error) {
	fi, err := os.Stat(prog)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return "", fmt.Errorf("probe: %s is not a program", prog)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s %d %d\n%s", prog, fi.Size(), fi.ModTime().UnixNano(), strings.Join(argv, "\x00"))
	sum := hex.EncodeToString(h.Sum(nil)[:12])
	header := helpHeader + sum + "\n"
	cache := ""
	if dir != "" {
		cache = filepath.Join(dir, "help-"+sum)
		if b, err := os.ReadFile(cache); err == nil {
			if rest, ok := strings.CutPrefix(string(b), header); ok {
				return rest, nil
			}
		}
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	cmd := exec.CommandContext(ctx, prog, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Dir = "/"
	cmd.Env = helpEnviron(env)
	out := limitedBuffer{max: maxHelp, full: stop}
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 100 * time.Millisecond
	_ = cmd.Run() // many tools exit 1 or 2 after their help, or print it on stderr
	if ctx.Err() != nil && out.buf.Len() < out.max {
		return "", ctx.Err() // killed for its time, not for having said enough
	}
	// Only the words that look like options are kept (and handed on):
	// nothing else of the help, which may show a default taken from the
	// environment, is written to disk.
	text := optionWords(strings.ToValidUTF8(out.buf.String(), ""))
	if cache != "" {
		writeCacheFile(cache, header+text)
	}
	return text, nil
}

// helpKept are the variables a tool's help run keeps: what finds its files
// and speaks its language. Anything else (a display, a browser, a bus, the
// user's tokens) is left out, so that no help opens a window or a browser
// (git's help.format=web, npm's viewer) or sees a secret; a pager is cat.
var helpKept = map[string]bool{"PATH": true, "HOME": true, "USER": true, "LOGNAME": true, "LANG": true, "LANGUAGE": true,
	"LC_ALL": true, "LC_CTYPE": true, "LC_MESSAGES": true, "TMPDIR": true, "XDG_CONFIG_HOME": true, "XDG_DATA_HOME": true,
	"XDG_CACHE_HOME": true, "XDG_DATA_DIRS": true, "XDG_CONFIG_DIRS": true, "DOCKER_CONFIG": true}

func helpEnviron(env []string) []string {
	out := []string{"TERM=dumb", "PAGER=cat", "MANPAGER=cat", "GIT_PAGER=cat", "NO_COLOR=1",
		"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=help.format", "GIT_CONFIG_VALUE_0=man"}
	for _, kv := range env {
		if k, _, ok := strings.Cut(kv, "="); ok && helpKept[k] {
			out = append(out, kv)
		}
	}
	return out
}

// optionWords returns the words of text that start with a dash and a
// letter (-v, --rm, --format=json cut at "="), one a line, each once.
func optionWords(text string) string {
	var b strings.Builder
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || strings.ContainsRune(",;[](){}|\"'`<>", r)
	}) {
		w, _, _ = strings.Cut(w, "=")
		n := strings.TrimLeft(w, "-")
		if d := len(w) - len(n); d < 1 || d > 2 || n == "" || !(n[0] >= 'a' && n[0] <= 'z' || n[0] >= 'A' && n[0] <= 'Z') || seen[w] {
			continue
		}
		seen[w] = true
		b.WriteString(w)
		b.WriteByte('\n')
	}
	return b.String()
}

// limitedBuffer keeps the first max bytes written to it and calls full once
// it has them, so that a program that prints without end is stopped. (The
// buffer is a field, not embedded: its ReadFrom would let io.Copy read
// past max.)
type limitedBuffer struct {
	buf  bytes.Buffer
	max  int
	full func()
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
		if b.buf.Len() == b.max {
			b.full()
		}
	}
	return len(p), nil
}
