package main

import (
	"bufio"
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hookd/hookd/internal/shelltest"

	"github.com/hookd/hookd/internal/required"
)

// chromiumPath is the browser the web page's tests drive (Debian's
// chromium); "" when it is missing, which skips them unless
// REQUIRE_BROWSER is set (as .ci/run sets it).
func chromiumPath(t testing.TB) string {
	for _, p := range []string{"chromium", "chromium-browser"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	required.Skip(t, "chromium is not installed (apt-get install chromium)", "REQUIRE_BROWSER")
	return ""
}

// startServe starts hookd serve in h (with args) and returns the address
// it printed.
func startServe(t testing.TB, h *shelltest.Home, args ...string) string {
	t.Helper()
	cmd := exec.Command(hookdBin, append([]string{"serve"}, args...)...)
	cmd.Env, cmd.Dir = h.Env, h.Dir
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(shelltest.Scale(30 * time.Second)):
			cmd.Process.Kill()
			t.Error("hookd serve did not end on SIGINT")
		}
	})
	line := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(out).ReadString('\n')
		line <- strings.TrimSpace(l)
		io.Copy(io.Discard, out)
	}()
	select {
	case u := <-line:
		if !strings.HasPrefix(u, "http://127.0.0.1:") || !strings.Contains(u, "/?token=") {
			t.Fatalf("hookd serve printed %q first, want its address with the token", u)
		}
		return u
	case <-time.After(shelltest.Scale(60 * time.Second)):
		t.Fatal("hookd serve printed no address")
	}
	return ""
}

// browser starts one headless chromium for a test; every page of the
// test is a tab of it.
func browser(t testing.TB) context.Context {
	t.Helper()
	path := chromiumPath(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path),
		chromedp.Flag("headless", true), chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.UserDataDir(t.TempDir()))
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil { // the browser starts
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// within runs steps with a generous deadline (a loaded machine's).
func within(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, shelltest.Scale(60*time.Second))
	defer cancel()
	if err := chromedp.Do(c, steps...); err != nil {
		t.Fatalf("%s: %v\npage:\n%s", what, err, pageHTML(ctx))
	}
}

// value runs one action that returns a value.
func value[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, shelltest.Scale(60*time.Second))
	defer cancel()
	v, err := chromedp.Run(c, a)
	if err != nil {
		t.Fatalf("%s: %v\npage:\n%s", what, err, pageHTML(ctx))
	}
	return v
}

func pageHTML(ctx context.Context) string {
	c, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	html, _ := chromedp.Run(c, chromedp.OuterHTML(chromedp.CSS("body")))
	return html
}

// poll waits until the expression is true in the page.
func poll(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(shelltest.Scale(60*time.Second)), chromedp.WithPollingInterval(50*time.Millisecond))
}

// openFound searches (the search's address) and opens the first command
// found, then waits for the element id of its page.
func openFound(search, id string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		return chromedp.Void{}, chromedp.Do(ctx, chromedp.Navigate(search), chromedp.WaitVisible(chromedp.CSS("#results a.cmd")),
			chromedp.Click(chromedp.CSS("#results a.cmd")), chromedp.WaitVisible(chromedp.ID(id)))
	}
}

// TestServeInBrowser drives hookd serve's page in a real browser: a
// command found by a word of its output as the words are typed, its
// page, its output's colours, and the diff against the last time it
// worked, a note written on it, and the statistics' charts.
func TestServeInBrowser(t *testing.T) {
	h := newHome(t)
	state := filepath.Join(h.Dir, "state.txt")
	check := []string{"run", "--no-suggest", "--", "sh", "-c", "cat state.txt; grep -q healthy state.txt"}
	os.WriteFile(state, []byte("service healthy\nzebrafish ready\n"), 0o600)
	hookd(t, h, check...)
	os.WriteFile(state, []byte("service broken\nzebrafish ready\n"), 0o600)
	if _, _, err := hookdRun(h, nil, check...); err == nil {
		t.Fatal("the check did not fail")
	}
	hookd(t, h, "run", "--no-suggest", "--", "echo", "<script>document.title='owned'</script>")
	hookd(t, h, "run", "--no-suggest", "--", "seq", "1", "40000") // 229 KB: parts loaded as the page scrolls
	// Coloured outputs, captured through the PTY as a user's are.
	os.Mkdir(h.Path("zdir"), 0o700)
	os.WriteFile(h.Path("lint.txt"), []byte("error: the green light\n"), 0o600)
	sh := startCaptured(t, h, "bash", "")
	runPrompt(t, sh, "grep --color=always error lint.txt")
	runPrompt(t, sh, "ls --color=always -d zdir")
	sh.Exit()
	hookd(t, h, "history") // stored

	u := startServe(t, h)
	root := strings.SplitN(u, "?", 2)[0]
	b := browser(t)
	within(t, b, "open the page and type a word of an output",
		chromedp.Navigate(u),
		chromedp.WaitVisible(chromedp.ID("q")),
		chromedp.SendKeys(chromedp.ID("q"), "zebraf"),
		poll(`document.querySelector('#results .line') !== null && document.querySelector('#results').textContent.includes('grep -q healthy')`),
	)
	results := value(t, b, "the results", chromedp.Text(chromedp.ID("results")))
	if !strings.Contains(results, "zebrafish ready") || !strings.Contains(results, "matched in output") {
		t.Errorf("the results do not show the output's line:\n%s", results)
	}
	within(t, b, "open the command's page",
		chromedp.Click(chromedp.CSS("#results a.cmd")),
		chromedp.WaitVisible(chromedp.ID("worked")),
	)
	within(t, b, "write a note on it",
		chromedp.SendKeys(chromedp.ID("note-text"), "broke after the upgrade"),
		chromedp.Click(chromedp.ID("add-note")),
	)
	within(t, b, "the page again, with the note",
		chromedp.WaitVisible(chromedp.CSS("#notes p.note")),
		chromedp.WaitVisible(chromedp.ID("worked")),
	)
	if n := value(t, b, "the note", chromedp.Text(chromedp.CSS("#notes p.note"))); !strings.HasPrefix(n, "broke after the upgrade") {
		t.Errorf("the note reads %q", n)
	}
	status := value(t, b, "status", chromedp.Text(chromedp.ID("status")))
	del := value(t, b, "diff", chromedp.Text(chromedp.CSS("#worked .diff .del")))
	add := value(t, b, "diff", chromedp.Text(chromedp.CSS("#worked .diff .add")))
	if status != "exit 1" || !strings.Contains(del, "-service healthy") || !strings.Contains(add, "+service broken") {
		t.Errorf("the failed run's page: status %q, diff %q %q; want exit 1 and the lines against the last success", status, del, add)
	}
	within(t, b, "search the coloured output and open it",
		openFound(root+"?q=grep+--color&in=command", "output"),
	)
	red := value(t, b, "red", chromedp.Text(chromedp.CSS("#output span.f1.bo")))
	redColor := value(t, b, "red's colour", chromedp.Evaluate[string](`getComputedStyle(document.querySelector('#output span.f1')).color`))
	text := value(t, b, "the output", chromedp.Text(chromedp.ID("output")))
	if red != "error" || redColor != "rgb(205, 49, 49)" || !strings.Contains(text, "error: the green light") {
		t.Errorf("grep's colours: red span %q (%s) in %q; want the match in the style sheet's bold red", red, redColor, text)
	}
	within(t, b, "ls's coloured output",
		openFound(root+"?q=ls+--color&in=command", "output"),
	)
	if dir := value(t, b, "blue", chromedp.Text(chromedp.CSS("#output span.f4.bo"))); dir != "zdir" {
		t.Errorf("ls's directory in bold blue: %q", dir)
	}
	within(t, b, "an output with a script tag",
		openFound(root+"?q=document.title&in=output", "output"),
	)
	scripts := value(t, b, "scripts", chromedp.Evaluate[int](`document.querySelectorAll('#output script').length`))
	title := value(t, b, "title", chromedp.Title())
	if scripts != 0 || title == "owned" {
		t.Errorf("the output's script became an element (%d) or ran (title %q)", scripts, title)
	}
	within(t, b, "a long output, scrolled to its end",
		openFound(root+"?q=seq+1+40000&in=command", "more"),
		poll(`(window.scrollTo(0, document.body.scrollHeight), document.getElementById('more') === null)`),
	)
	if end := value(t, b, "the output's end", chromedp.Evaluate[string](`document.getElementById('output').textContent.slice(-12)`)); end != "39999\n40000\n" {
		t.Errorf("the long output ends %q once scrolled, want all its parts", end)
	}
	within(t, b, "the statistics page",
		chromedp.Navigate(root+"stats?since=7d"),
		chromedp.WaitVisible(chromedp.CSS("#calendar svg.heatmap")),
		chromedp.WaitVisible(chromedp.CSS("#rate svg")),
	)
	drawn := value(t, b, "the charts", chromedp.Evaluate[[]int](`[document.querySelectorAll('#calendar svg rect').length,
		document.querySelectorAll('#calendar svg rect:not(.h0)').length, document.querySelectorAll('#rate svg rect.runs').length,
		document.querySelectorAll('#failing svg rect.fails').length, Math.round(document.querySelector('#calendar svg').getBBox().width)]`))
	if len(drawn) != 5 || drawn[0] < 365 || drawn[1] < 1 || drawn[2] < 1 || drawn[3] == 0 || drawn[4] < 500 {
		t.Errorf("the charts: %v; want a year of days with today (and yesterday, at midnight) shaded, their bars, a failing command, a drawn calendar", drawn)
	}
}

// TestServeCLI: --port listens there (and a port taken is an error), --open
// hands the printed address to xdg-open.
func TestServeCLI(t *testing.T) {
	h := newHome(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	bin := filepath.Join(h.Dir, "bin")
	opened := filepath.Join(h.Dir, "opened")
	os.MkdirAll(bin, 0o700)
	os.WriteFile(filepath.Join(bin, "xdg-open"), []byte("#!/bin/sh\nprintf '%s' \"$1\" > "+opened+".tmp && mv "+opened+".tmp "+opened+"\n"), 0o700)
	for i, e := range h.Env {
		if p, ok := strings.CutPrefix(e, "PATH="); ok {
			h.Env[i] = "PATH=" + bin + ":" + p
		}
	}
	u := startServe(t, h, "--port", port, "--open")
	if !strings.HasPrefix(u, "http://127.0.0.1:"+port+"/?token=") {
		t.Fatalf("hookd serve --port %s printed %q", port, u)
	}
	shelltest.WaitFile(t, opened, shelltest.Scale(30*time.Second), func(b []byte) bool { return string(b) == u })
	if _, errOut, err := hookdRun(h, nil, "serve", "--port", port); err == nil || !strings.Contains(errOut, "address already in use") {
		t.Errorf("a second hookd serve on port %s: %v, %q; want an error saying the port is taken", port, err, errOut)
	}
}

// TestPermalinkHint: while hookd serve runs, hookd show and hookd out on a
// terminal name the command's page (/c/ID) without the access token; a
// pipe gets what it always got (TestPublished: no page once serve ends).
func TestPermalinkHint(t *testing.T) {
	h := newHome(t)
	hookd(t, h, "run", "--no-suggest", "--", "echo", "hello")
	id := strconv.FormatInt(entries(t, h)[0].ID, 10)
	u := startServe(t, h)
	root := strings.SplitN(u, "/?", 2)[0]
	token := strings.SplitN(u, "token=", 2)[1]
	s := shelltest.Start(t, h, "bash", shelltest.Options{RC: initLine("bash")})
	s.Run("hookd show " + id)
	s.WaitForPlain(regexp.MustCompile(`page +`+regexp.QuoteMeta(root)+`/c/`+id+`\b`), 20*time.Second)
	s.Run("hookd out " + id)
	s.WaitForPlain(regexp.MustCompile(`# page: `+regexp.QuoteMeta(root)+`/c/`+id+`\b`), 20*time.Second)
	if strings.Contains(s.Plain(), token) {
		t.Errorf("the access token reached the terminal:\n%s", s.Plain())
	}
	if out := hookd(t, h, "show", id); strings.Contains(out, "/c/") {
		t.Errorf("hookd show through a pipe names the page:\n%s", out)
	}
	if out, errOut, err := hookdRun(h, nil, "out", id); err != nil || out != "hello\n" || strings.Contains(errOut, "/c/") {
		t.Errorf("hookd out through a pipe = %q, %q, %v", out, errOut, err)
	}
	fi, err := os.Stat(h.Path(".run", "hookd", "serve"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the published address: %v, %v; want a 0600 file", fi, err)
	}
}
