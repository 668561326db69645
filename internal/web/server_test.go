package web

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/recall"
	"github.com/hookd/hookd/internal/required"
	"github.com/hookd/hookd/internal/search"
)

const t0 = int64(1_800_000_000_000_000)

type cmdSpec struct {
	text, out string
	exit      int
	ago       time.Duration // started this long before the fixture's now
	took      time.Duration
}

// serve starts a server over a history of cmds (one session, in order)
// and returns it with a client that carries no cookie.
func serve(t *testing.T, cmds ...cmdSpec) *Server {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "history.db")
	st, err := history.Open(ctx, path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	tx, err := st.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx.AddSession(ctx, history.Session{ID: "bash-1", Shell: "bash", Capture: "pty"})
	for i, c := range cmds {
		seq := int64(i + 1)
		if _, err := tx.AddCommand(ctx, history.Entry{Session: "bash-1", Seq: seq, Command: c.text, ExitCode: c.exit,
			Cwd: "/src", StartedAt: t0 + seq*1_000_000 - c.ago.Microseconds(), DurationUS: max(1500, c.took.Microseconds())}); err != nil {
			t.Fatal(err)
		}
		if err := tx.AddOutput(ctx, history.Output{Session: "bash-1", Seq: seq, Text: []byte(c.out), Bytes: int64(len(c.out)), CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	eng := search.New(st, search.Here{Cwd: "/src", Now: time.UnixMicro(t0 + 100_000_000)}, "")
	srv, l, err := Listen(Options{Now: func() time.Time { return time.UnixMicro(t0 + 100_000_000) }, Store: st, Engine: eng, Reader: &recall.Reader{Store: st, Outbox: filepath.Join(t.TempDir(), "outbox")}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx, l) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return srv
}

// get requests path with the headers given (pairs), returns status and body.
func do(t *testing.T, s *Server, method, path string, body url.Values, headers ...string) (int, string, http.Header) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = strings.NewReader(body.Encode())
	}
	req, err := http.NewRequest(method, "http://"+s.Addr()+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

func (s *Server) cookie() string { return s.cookieName() + "=" + s.token }

func TestRefused(t *testing.T) {
	s := serve(t, cmdSpec{text: "make build", out: "compiling zebrafish\n", exit: 2})
	ok := s.cookie()
	for _, c := range []struct {
		name    string
		path    string
		headers []string
	}{
		{"no token", "/", nil},
		{"no token, command page", "/c/1", nil},
		{"no token, static file", "/static/app.js", nil},
		{"wrong token", "/?token=" + strings.Repeat("0", 64), nil},
		{"wrong cookie", "/", []string{"Cookie", s.cookieName() + "=" + strings.Repeat("a", 64)}},
		{"foreign Host (DNS rebinding)", "/", []string{"Cookie", ok, "Host", "evil.example:" + strings.Split(s.Addr(), ":")[1]}},
		{"foreign Host with the token", "/?token=" + s.token, []string{"Host", "attacker.test"}},
		{"another port's Host", "/", []string{"Cookie", ok, "Host", "127.0.0.1:1"}},
		{"foreign Origin", "/", []string{"Cookie", ok, "Origin", "http://evil.example"}},
		{"Origin null", "/", []string{"Cookie", ok, "Origin", "null"}},
		{"Origin null, cross-site (a sandboxed frame, a data: URL)", "/", []string{"Cookie", ok, "Origin", "null", "Sec-Fetch-Site", "cross-site"}},
		{"another port's Origin", "/", []string{"Cookie", ok, "Origin", "http://127.0.0.1:1"}},
		{"cross-site fetch", "/c/1", []string{"Cookie", ok, "Sec-Fetch-Site", "cross-site"}},
		{"same-site fetch (another local port)", "/c/1", []string{"Cookie", ok, "Sec-Fetch-Site", "same-site"}},
	} {
		code, body, h := do(t, s, "GET", c.path, nil, c.headers...)
		if code != http.StatusForbidden {
			t.Errorf("%s: status %d, want 403", c.name, code)
		}
		if strings.Contains(body, "zebrafish") || strings.Contains(body, "make build") {
			t.Errorf("%s: the answer shows the history: %q", c.name, body)
		}
		if h.Get("Set-Cookie") != "" {
			t.Errorf("%s: a cookie was set", c.name)
		}
	}
	// And what is let in: the token once (then the cookie), localhost.
	code, _, h := do(t, s, "GET", "/?token="+s.token+"&q=zebrafish", nil)
	if code != http.StatusSeeOther || h.Get("Location") != "/?q=zebrafish" || !strings.Contains(h.Get("Set-Cookie"), "HttpOnly") ||
		!strings.Contains(h.Get("Set-Cookie"), "SameSite=Strict") {
		t.Errorf("the token: status %d, Location %q, Set-Cookie %q; want a redirect without it and a strict cookie", code, h.Get("Location"), h.Get("Set-Cookie"))
	}
	if code, _, h := do(t, s, "GET", "//evil.example/?token="+s.token, nil); code != http.StatusSeeOther || h.Get("Location") != "/evil.example/" {
		t.Errorf("the token on //evil.example/: status %d, Location %q; want a path of this server", code, h.Get("Location"))
	}
	for _, hs := range [][]string{
		{"Cookie", ok},
		{"Cookie", ok, "Host", "localhost:" + strings.Split(s.Addr(), ":")[1]},
		{"Cookie", ok, "Origin", "http://" + s.Addr(), "Sec-Fetch-Site", "same-origin"},
	} {
		if code, body, _ := do(t, s, "GET", "/?q=zebrafish", nil, hs...); code != 200 || !strings.Contains(body, "make build") {
			t.Errorf("%v: status %d, want the search's page", hs, code)
		}
	}
}

func TestHeaders(t *testing.T) {
	s := serve(t, cmdSpec{text: "ls", out: "a\n", exit: 0})
	for _, p := range []string{"/", "/c/1", "/static/app.js", "/nowhere"} {
		_, _, h := do(t, s, "GET", p, nil, "Cookie", s.cookie())
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: Content-Security-Policy %q lacks %q", p, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe") || strings.Contains(csp, "http") {
			t.Errorf("%s: Content-Security-Policy %q allows inline code or another site", p, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: headers %v", p, h)
		}
	}
	// No inline script or style in the pages: the policy would block it.
	for _, p := range []string{"/", "/c/1"} {
		_, body, _ := do(t, s, "GET", p, nil, "Cookie", s.cookie())
		if regexp.MustCompile(`<script>|<script [^>]*>[^<]|<style|style=|\son[a-z]+=`).MatchString(body) {
			t.Errorf("%s has inline script or style:\n%s", p, body)
		}
	}
}

func TestForgetNeedsCSRF(t *testing.T) {
	s := serve(t, cmdSpec{text: "ls", out: "a\n", exit: 0}, cmdSpec{text: "rm -rf build", out: "", exit: 0})
	ck := s.cookie()
	origin := "http://" + s.Addr()
	for _, c := range []struct {
		name string
		form url.Values
		hs   []string
	}{
		{"no CSRF token", url.Values{}, []string{"Cookie", ck, "Origin", origin}},
		{"wrong CSRF token", url.Values{"csrf": {strings.Repeat("1", 64)}}, []string{"Cookie", ck, "Origin", origin}},
		{"the access token as CSRF token", url.Values{"csrf": {s.token}}, []string{"Cookie", ck, "Origin", origin}},
		{"CSRF token, foreign Origin", url.Values{"csrf": {s.csrf}}, []string{"Cookie", ck, "Origin", "http://evil.example"}},
		{"CSRF token, no access token", url.Values{"csrf": {s.csrf}}, []string{"Origin", origin}},
		{"CSRF token, Origin null", url.Values{"csrf": {s.csrf}}, []string{"Cookie", ck, "Origin", "null"}},
		{"CSRF token, Origin null, cross-site", url.Values{"csrf": {s.csrf}}, []string{"Cookie", ck, "Origin", "null", "Sec-Fetch-Site", "cross-site"}},
	} {
		if code, _, _ := do(t, s, "POST", "/c/2/forget", c.form, c.hs...); code != http.StatusForbidden {
			t.Errorf("%s: status %d, want 403", c.name, code)
		}
		if _, err := s.o.Store.Get(context.Background(), 2); err != nil {
			t.Fatalf("%s: the command was forgotten: %v", c.name, err)
		}
	}
	if code, _, _ := do(t, s, "GET", "/c/2/forget", nil, "Cookie", ck); code == http.StatusSeeOther || code == 200 {
		t.Errorf("GET forgets: status %d", code)
	}
	// The page's own form.
	_, page, _ := do(t, s, "GET", "/c/2", nil, "Cookie", ck)
	m := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no CSRF token in the command's page:\n%s", page)
	}
	// As a browser posts the page's form under Referrer-Policy: no-referrer.
	if code, _, _ := do(t, s, "POST", "/c/2/forget", url.Values{"csrf": {m[1]}}, "Cookie", ck, "Origin", "null", "Sec-Fetch-Site", "same-origin"); code != http.StatusSeeOther {
		t.Fatalf("forget with the page's form: status %d", code)
	}
	if _, err := s.o.Store.Get(context.Background(), 2); err == nil {
		t.Error("the command is still there")
	}
}

func TestLoopbackOnly(t *testing.T) {
	s := serve(t, cmdSpec{text: "ls", out: "a\n", exit: 0})
	host, port, _ := net.SplitHostPort(s.Addr())
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() || ip.To4() == nil {
		t.Fatalf("listening on %s, want 127.0.0.1", s.Addr())
	}
	// Every other address of the machine is refused.
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	tried := 0
	for _, a := range addrs {
		ipn, ok := a.(*net.IPNet)
		if !ok || ipn.IP.IsLoopback() || ipn.IP.IsLinkLocalUnicast() {
			continue
		}
		tried++
		c, err := net.DialTimeout("tcp", net.JoinHostPort(ipn.IP.String(), port), 5*time.Second)
		if err == nil {
			c.Close()
			t.Errorf("reached on %s", ipn.IP)
		}
	}
	t.Logf("%d other addresses tried", tried)
	if _, _, err := Listen(Options{}, 70000); err == nil {
		t.Error("port 70000 accepted")
	}
}

func TestInert(t *testing.T) {
	out := "<script>alert('x')</script>\n\x1b]0;title\x07\x1b[2J\x1b[31mred\x1b[0m <img src=x onerror=alert(1)>\n" +
		"access = \u202eadmin\u2066 \u200b\n\x07\x08 \\x1b[\u0085\n"
	s := serve(t, cmdSpec{text: "echo '<b>hi</b>' \u202e", out: out, exit: 0})
	_, page, _ := do(t, s, "GET", "/c/1", nil, "Cookie", s.cookie())
	for _, bad := range []string{"<script>alert", "<img", "<b>", "\u202e", "\u2066", "\u200b", "\x1b", "\x07", "\x08", "\u0085"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page carries %q as it is", bad)
		}
	}
	for _, want := range []string{"&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;", `<span class="f1">red</span>`, "&lt;img src=x onerror=alert(1)&gt;",
		`<span class="esc">\u202e</span>admin<span class="esc">\u2066</span>`, `<span class="esc">\x07</span>`, "&lt;b&gt;hi&lt;/b&gt;"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q:\n%s", want, page)
		}
	}
	_, res, _ := do(t, s, "GET", "/?q=admin&in=output&frag=1", nil, "Cookie", s.cookie())
	if strings.Contains(res, "\u202e") || !strings.Contains(res, "/c/1") {
		t.Errorf("the search's results carry a bidi control, or miss the command:\n%s", res)
	}
	// The raw output is plain text that no browser runs.
	_, _, h := do(t, s, "GET", "/c/1/raw", nil, "Cookie", s.cookie())
	if !strings.HasPrefix(h.Get("Content-Type"), "text/plain") || h.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("raw output served as %q", h.Get("Content-Type"))
	}
}

// TestNotes: a note takes a POST with the page's CSRF token; it is stored
// redacted and shown inert.
func TestNotes(t *testing.T) {
	s := serve(t, cmdSpec{text: "make deploy", out: "ok\n"})
	ck, origin := s.cookie(), "http://"+s.Addr()
	note := "flaky on CI <script>alert(1)</script> \u202eevil token ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	if code, _, _ := do(t, s, "POST", "/c/1/note", url.Values{"text": {note}}, "Cookie", ck, "Origin", origin); code != http.StatusForbidden {
		t.Errorf("a note without the CSRF token: status %d, want 403", code)
	}
	if code, _, _ := do(t, s, "POST", "/c/1/note", url.Values{"text": {note}, "csrf": {s.csrf}}, "Origin", origin); code != http.StatusForbidden {
		t.Errorf("a note without the access token: status %d, want 403", code)
	}
	if _, page, _ := do(t, s, "GET", "/c/1", nil, "Cookie", ck); strings.Contains(page, "flaky on CI") {
		t.Fatal("a refused note was stored")
	}
	if code, _, h := do(t, s, "POST", "/c/1/note", url.Values{"text": {note}, "csrf": {s.csrf}}, "Cookie", ck, "Origin", origin); code != http.StatusSeeOther || h.Get("Location") != "/c/1#notes" {
		t.Fatalf("the note: status %d, Location %q", code, h.Get("Location"))
	}
	_, page, _ := do(t, s, "GET", "/c/1", nil, "Cookie", ck)
	for _, bad := range []string{"ghp_abcdefghijklmnopqrstuvwxyz0123456789", "<script>alert", "\u202e"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page shows %q of the note as it is", bad)
		}
	}
	if !strings.Contains(page, `flaky on CI &lt;script&gt;alert(1)&lt;/script&gt; <span class="esc">\u202e</span>evil token`) || !strings.Contains(page, "REDACTED") {
		t.Errorf("the note is not on the page, escaped and redacted:\n%s", regexp.MustCompile(`(?s)<section id="notes">.*?</section>`).FindString(page))
	}
	// Found by a word of the note, as Ctrl-R finds it.
	if _, res, _ := do(t, s, "GET", "/?frag=1&q=flaky", nil, "Cookie", ck); !strings.Contains(res, `href="/c/1"`) || !strings.Contains(res, "matched in note") {
		t.Errorf("the search does not find the command by its note:\n%s", res)
	}
	if code, _, _ := do(t, s, "POST", "/c/1/note", url.Values{"text": {"  "}, "csrf": {s.csrf}}, "Cookie", ck, "Origin", origin); code != http.StatusBadRequest {
		t.Errorf("an empty note: status %d, want 400", code)
	}
}

// TestSupersededSearch: a page's next key cancels its search in flight,
// which stops waiting for the engine at once (204, nothing drawn) rather
// than holding the next key behind it; another page's search is not
// touched, and the next key's search answers once the engine is free.
func TestSupersededSearch(t *testing.T) {
	s := serve(t)
	if err := s.lock(t.Context()); err != nil { // the engine busy with a slow search
		t.Fatal(err)
	}
	type answer struct {
		code int
		body string
	}
	get := func(q string) chan answer {
		c := make(chan answer, 1)
		go func() {
			code, body, _ := do(t, s, "GET", "/?frag=1&in=command&"+q, nil, "Cookie", s.cookie())
			c <- answer{code, body}
		}()
		return c
	}
	waiting := func(page string) {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			s.typingMu.Lock()
			_, ok := s.typing[page]
			s.typingMu.Unlock()
			if ok {
				return
			}
		}
		t.Fatalf("no search in flight for page %s", page)
	}
	first := get("q=ma&p=one")
	waiting("one")
	other := get("q=ma&p=two")
	waiting("two")
	second := get("q=mak&p=one")
	select {
	case a := <-first:
		if a.code != http.StatusNoContent || a.body != "" {
			t.Errorf("the superseded search answered %d %q; want 204 and nothing", a.code, a.body)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the superseded search still waits for the engine")
	}
	s.unlock()
	for name, c := range map[string]chan answer{"the next key": second, "another page": other} {
		if a := <-c; a.code != 200 || !strings.Contains(a.body, `id="results"`) {
			t.Errorf("%s: %d %.200q; want its results", name, a.code, a.body)
		}
	}
}

// TestTypedSearchCut: a key's search (the page's p) whose outputs' prefix
// lookup runs out of time answers with the whole words' matches, marked
// partial with a note; the page's request for every match (all=1) is not
// cut, and neither is a search without p (a form submitted, a link).
func TestTypedSearchCut(t *testing.T) {
	s := serve(t, cmdSpec{text: "make a", out: "pushed it\n"}, cmdSpec{text: "make b", out: "git pus\n"})
	if !s.o.Store.HasOutputIndex() {
		required.Cannot(t, "this SQLite has no FTS5 (built without -tags sqlite_fts5)")
	}
	old := search.TypedPrefixTime
	search.TypedPrefixTime = time.Nanosecond
	t.Cleanup(func() { search.TypedPrefixTime = old })
	get := func(q string) string {
		code, body, _ := do(t, s, "GET", "/?frag=1&in=output&"+q, nil, "Cookie", s.cookie())
		if code != 200 {
			t.Fatalf("%s: %d %.200q", q, code, body)
		}
		return body
	}
	typed := get("q=pus&p=page1")
	if !strings.Contains(typed, `data-partial="1"`) || !strings.Contains(typed, "more outputs may match") {
		t.Errorf("a cut key's answer is not marked partial: %.400q", typed)
	}
	if !strings.Contains(typed, "make b") || strings.Contains(typed, "make a") {
		t.Errorf("a cut key's answer is not the whole word's matches (make b only): %.600q", typed)
	}
	for _, q := range []string{"q=pus&p=page1&all=1", "q=pus"} {
		body := get(q)
		if strings.Contains(body, `data-partial`) || !strings.Contains(body, "make a") || !strings.Contains(body, "make b") {
			t.Errorf("%s: want every match, not partial: %.600q", q, body)
		}
	}
}
