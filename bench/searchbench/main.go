// Command searchbench times hookd search as a user meets it, on a history
// made by bench/searchgen (bench/search.sh runs it):
//
//   - Ctrl-R to the first screen: hookd search --widget bash started on a
//     pseudo-terminal (which answers no query, like an agent's), until its
//     first result row is drawn; then Esc. The baseline, in the same run,
//     is hookd version started the same way until its output.
//   - hookd search --output-only WORD -n 20 --json, run to its end, for
//     words of different rarity; the baseline is hookd version.
//
// Runs are interleaved with their baseline; medians are printed.
//
//	go run ./bench/searchbench -bin /tmp/hookd -home /tmp/home -n 21
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/creack/pty"
)

func main() {
	bin := flag.String("bin", "", "the hookd binary")
	home := flag.String("home", "", "a HOME whose $XDG_DATA_HOME/hookd/history.db is the generated history")
	n := flag.Int("n", 21, "runs of each")
	flag.Parse()
	if *bin == "" || *home == "" {
		fmt.Fprintln(os.Stderr, "usage: searchbench -bin HOOKD -home HOME [-n N]")
		os.Exit(2)
	}
	env := []string{"HOME=" + *home, "PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "LANG=C.UTF-8",
		"XDG_CONFIG_HOME=" + filepath.Join(*home, ".config"), "XDG_DATA_HOME=" + filepath.Join(*home, ".local/share"),
		"XDG_STATE_HOME=" + filepath.Join(*home, ".local/state"), "XDG_RUNTIME_DIR=" + filepath.Join(*home, ".run"),
		"HOOKD_SESSION=s0042"}
	// Warm: the page cache, and the search's corpus cache.
	for range 2 {
		if _, err := onPTY(*bin, env, []string{"search", "--widget", "bash"}, "▌1", true); err != nil {
			fmt.Fprintln(os.Stderr, "searchbench:", err)
			os.Exit(1)
		}
	}
	// The first search of a large history leaves its cache to a detached
	// hookd search --build-cache: wait for it (it would take the CPU).
	cache := filepath.Join(*home, ".local/state/hookd/search.cache")
	for i := 0; ; i++ {
		if _, err := os.Stat(cache); err == nil {
			break
		}
		if i == 600 {
			fmt.Fprintln(os.Stderr, "searchbench: no search cache after 60 s")
			os.Exit(1)
		}
		time.Sleep(100 * time.Millisecond)
	}
	var first, base []time.Duration
	var firstCPU []time.Duration
	for range *n {
		d, err := onPTY(*bin, env, []string{"search", "--widget", "bash"}, "▌1", true)
		if err != nil {
			fmt.Fprintln(os.Stderr, "searchbench:", err)
			os.Exit(1)
		}
		first = append(first, d)
		firstCPU = append(firstCPU, lastCPU)
		d, err = onPTY(*bin, env, []string{"version"}, "\n", false)
		if err != nil {
			fmt.Fprintln(os.Stderr, "searchbench:", err)
			os.Exit(1)
		}
		base = append(base, d)
	}
	fmt.Printf("Ctrl-R to the first screen (hookd search --widget bash on a pty): median %s, p90 %s (CPU of the whole run, Esc included: median %s); baseline hookd version on a pty: median %s\n",
		ms(median(first)), ms(pct(first, 0.9)), ms(median(firstCPU)), ms(median(base)))
	for _, w := range []string{"needle512", "needle7", "lotavhix"} {
		var t, b, cpu []time.Duration
		var hits int
		for range *n {
			d, out, err := run(*bin, env, "search", "--output-only", w, "-n", "20", "--json")
			if err != nil {
				fmt.Fprintln(os.Stderr, "searchbench:", err)
				os.Exit(1)
			}
			hits = strings.Count(out, "\n")
			t = append(t, d)
			cpu = append(cpu, lastCPU)
			d, _, _ = run(*bin, env, "version")
			b = append(b, d)
		}
		fmt.Printf("hookd search --output-only %s -n 20 --json (%d results): median %s, p90 %s (CPU median %s); baseline hookd version: median %s\n",
			w, hits, ms(median(t)), ms(pct(t, 0.9)), ms(median(cpu)), ms(median(b)))
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func median(d []time.Duration) time.Duration { return pct(d, 0.5) }

func pct(d []time.Duration, p float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[int(float64(len(s)-1)*p)]
}

// onPTY starts bin args on a new pty and returns the time until its output
// holds want; then it sends Esc (esc) and waits for it to end.
func onPTY(bin string, env, args []string, want string, esc bool) (time.Duration, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Dir = filepath.Dir(bin)
	start := time.Now()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 160, Rows: 40})
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var out bytes.Buffer
	buf := make([]byte, 64<<10)
	got := time.Duration(0)
	deadline := time.Now().Add(30 * time.Second)
	for got == 0 {
		f.SetReadDeadline(deadline)
		k, err := f.Read(buf)
		out.Write(buf[:k])
		if bytes.Contains(out.Bytes(), []byte(want)) {
			got = time.Since(start)
			break
		}
		if err != nil {
			cmd.Process.Kill()
			cmd.Wait()
			return 0, fmt.Errorf("%s %s: no %q: %v\n%q", bin, strings.Join(args, " "), want, err, out.String())
		}
	}
	if esc {
		f.Write([]byte{0x1b})
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	go func() {
		for {
			if _, err := f.Read(buf); err != nil {
				return
			}
		}
	}()
	select {
	case <-done:
		lastCPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		return 0, fmt.Errorf("%s did not end", strings.Join(args, " "))
	}
	return got, nil
}

func run(bin string, env []string, args ...string) (time.Duration, string, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout = &out
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if cmd.ProcessState != nil {
		lastCPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	return d, out.String(), err
}

// lastCPU is the CPU time (user and system) of the last run.
var lastCPU time.Duration
