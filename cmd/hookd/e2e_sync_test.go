package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	gosync "sync"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/cloudsync/s3test"
	"github.com/hookd/hookd/internal/shelltest"
)

// syncHome makes a home whose config syncs to bucket on srv (through
// endpoint, when not "", instead of the server's own address), with the
// server's credentials in the environment.
func syncHome(t *testing.T, srv *s3test.Server, endpoint, url string, extra string) *shelltest.Home {
	t.Helper()
	h := newHome(t)
	if endpoint == "" {
		endpoint = srv.Endpoint
	}
	os.MkdirAll(h.Path(".config", "hookd"), 0o700)
	cfg := fmt.Sprintf("sync:\n  url: %s\n  endpoint: %s\n%s", url, endpoint, extra)
	if err := os.WriteFile(h.Path(".config", "hookd", "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	h.Env = append(h.Env, "AWS_ACCESS_KEY_ID="+s3test.AccessKey, "AWS_SECRET_ACCESS_KEY="+s3test.SecretKey)
	return h
}

// noAgentSync turns the agents' background passes off, for tests that
// decide when each pass runs.
const noAgentSync = "  interval: 0\n"

// syncInit runs hookd sync init and returns the recovery phrase: the last
// line of its output, alone.
func syncInit(t *testing.T, h *shelltest.Home) string {
	t.Helper()
	out := hookd(t, h, "sync", "init")
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	phrase := lines[len(lines)-1]
	if !regexp.MustCompile(`^hookd1(-[a-z2-7]{1,5})+$`).MatchString(phrase) {
		t.Fatalf("the last line of hookd sync init is %q, not a recovery phrase alone; output:\n%s", phrase, out)
	}
	return phrase
}

// syncJoin runs hookd sync join with the phrase on stdin.
func syncJoin(t *testing.T, h *shelltest.Home, phrase string) {
	t.Helper()
	if out, errOut, err := runHookdStdin(h, phrase+"\n", "sync", "join"); err != nil {
		t.Fatalf("hookd sync join: %v\n%s%s", err, out, errOut)
	}
}

func runHookdStdin(h *shelltest.Home, stdin string, args ...string) (string, string, error) {
	cmd := exec.Command(hookdBin, args...)
	cmd.Env = h.Env
	cmd.Dir = h.Dir
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	return out.String(), errOut.String(), err
}

// histJSON returns the history as hookd history --json prints it.
func histJSON(t *testing.T, h *shelltest.Home, args ...string) []map[string]any {
	t.Helper()
	out := hookd(t, h, append([]string{"history", "--json"}, args...)...)
	var es []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("bad JSON %q: %v", sc.Text(), err)
		}
		es = append(es, m)
	}
	return es
}

// matching returns the sorted commands of the history that re matches.
func matching(t *testing.T, h *shelltest.Home, re *regexp.Regexp) []string {
	t.Helper()
	var out []string
	for _, e := range histJSON(t, h) {
		if c, _ := e["command"].(string); re.MatchString(c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

func hostID(t *testing.T, h *shelltest.Home) string {
	t.Helper()
	b, err := os.ReadFile(h.Path(".local", "share", "hookd", "host-id"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// TestSyncThreeHosts: three installations (three HOMEs on this machine,
// one hostname), commands typed in real shells on each, syncs in a random
// order: all three end with exactly the same commands, each once; the
// host travels; the bucket holds no plaintext.
func TestSyncThreeHosts(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	url := "s3://" + srv.Bucket("three") + "/hist"
	shells := []string{"bash", "zsh", "bash"}
	var homes []*shelltest.Home
	var sh []*shelltest.Shell
	var phrase string
	for i, name := range shells {
		h := syncHome(t, srv, "", url, noAgentSync)
		if i == 0 {
			phrase = syncInit(t, h)
		} else {
			syncJoin(t, h, phrase)
		}
		homes = append(homes, h)
		sh = append(sh, shelltest.Start(t, h, name, shelltest.Options{RC: initLine(name)}))
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	token := fmt.Sprintf("tok%x", rng.Uint64())
	sh[0].Run("hookd run -- echo printed-" + token)
	want := []string{"echo printed-" + token} // hookd run's own record (the shell's line is ours too, but matched out)
	for round := range 6 {
		for i := range homes {
			for j := range rng.IntN(3) {
				c := fmt.Sprintf("echo round-%d-host-%d-%d", round, i, j)
				sh[i].Run(c)
				want = append(want, c)
			}
		}
		for _, i := range rng.Perm(3)[:1+rng.IntN(3)] {
			hookd(t, homes[i], "sync")
		}
	}
	for range 2 {
		for _, h := range homes {
			hookd(t, h, "sync")
		}
	}
	slices.Sort(want)
	ours := regexp.MustCompile(`^echo (round-|printed-)`)
	for i, h := range homes {
		if got := matching(t, h, ours); !slices.Equal(got, want) {
			t.Errorf("host %d has %d commands; want the %d typed anywhere, each once:\n got %q\nwant %q", i, len(got), len(want), got, want)
		}
	}
	// The host: host_id says which installation ran each command, and
	// --host selects by it.
	ids := []string{hostID(t, homes[0]), hostID(t, homes[1]), hostID(t, homes[2])}
	for _, e := range histJSON(t, homes[2]) {
		c, _ := e["command"].(string)
		m := regexp.MustCompile(`^echo round-\d+-host-(\d)`).FindStringSubmatch(c)
		if m == nil {
			continue
		}
		if e["host_id"] != ids[m[1][0]-'0'] || e["host"] != ids[m[1][0]-'0'] || e["host_name"] == "" {
			t.Errorf("%q on host 2: host_id %v, host %v; want %s", c, e["host_id"], e["host"], ids[m[1][0]-'0'])
		}
	}
	for _, e := range histJSON(t, homes[2], "--host", ids[1]) {
		if c, _ := e["command"].(string); !strings.HasPrefix(c, "echo round-") || !strings.Contains(c, "-host-1-") {
			t.Errorf("history --host %s lists %q", ids[1], c)
		}
	}
	// The output travelled (sync.outputs: small), as plain text here…
	var id float64
	for _, e := range histJSON(t, homes[1]) {
		if c, _ := e["command"].(string); strings.HasPrefix(c, "echo printed-") {
			id, _ = e["id"].(float64)
		}
	}
	if out := hookd(t, homes[1], "out", fmt.Sprint(int64(id))); !strings.Contains(out, "printed-"+token) {
		t.Errorf("the output on host 1 is %q", out)
	}
	// …and nowhere in the bucket.
	files := srv.Files()
	for p, b := range files {
		if bytes.Contains(b, []byte(token)) || bytes.Contains(b, []byte("round-")) {
			t.Errorf("%s holds plaintext of a command or output", p)
		}
	}
	if len(files) < 4 {
		t.Errorf("the bucket holds %d files; want the marker and segments of three hosts", len(files))
	}
}

// relayProxy is a TCP relay to the store that can stall one direction of the
// traffic once a connection has carried more than a given number of bytes
// that way: a transfer held mid-way, for the process to be killed there.
type relayProxy struct {
	ln       net.Listener
	upstream string
	mu       gosync.Mutex
	up, down int64         // stall after this many bytes (0: never)
	stalled  chan struct{} // closed when a stall begins
	once     *gosync.Once
}

func newProxy(t *testing.T, upstream string) *relayProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &relayProxy{ln: ln, upstream: strings.TrimPrefix(upstream, "http://")}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.relay(c)
		}
	}()
	return p
}

func (p *relayProxy) addr() string { return "http://" + p.ln.Addr().String() }

// arm makes the next connection that carries more than up bytes to the
// store (or down bytes back) stall there.
func (p *relayProxy) arm(up, down int64) chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.up, p.down = up, down
	p.stalled = make(chan struct{})
	p.once = new(gosync.Once)
	return p.stalled
}

func (p *relayProxy) relay(c net.Conn) {
	defer c.Close()
	u, err := net.Dial("tcp", p.upstream)
	if err != nil {
		return
	}
	defer u.Close()
	p.mu.Lock()
	up, down, stalled, once := p.up, p.down, p.stalled, p.once
	p.mu.Unlock()
	copyLimited := func(dst io.Writer, src io.Reader, limit int64) {
		if limit <= 0 {
			io.Copy(dst, src)
			return
		}
		io.CopyN(dst, src, limit)
		once.Do(func() { close(stalled) })
		io.Copy(io.Discard, src) // held: nothing more goes through
	}
	done := make(chan struct{}, 2)
	go func() { copyLimited(u, c, up); u.(*net.TCPConn).CloseWrite(); done <- struct{}{} }()
	go func() { copyLimited(c, u, down); done <- struct{}{} }()
	<-done
}

// startHookd starts hookd in home, for a test to kill.
func startHookd(t *testing.T, h *shelltest.Home, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(hookdBin, args...)
	cmd.Env, cmd.Dir = h.Env, h.Dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out
}

// importLines gives home a history of n distinct commands, imported from a
// bash history file.
func importLines(t *testing.T, h *shelltest.Home, tag string, n int) {
	t.Helper()
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "#%d\ngit commit -m 'change %s %d' && make test-%d\n", 1700000000+i, tag, i, i%97)
	}
	f := h.Path("import-" + tag)
	os.WriteFile(f, []byte(b.String()), 0o600)
	hookd(t, h, "import", "bash", "--file", f)
}

// TestSyncInterrupted: a pass killed mid-upload, one killed mid-download,
// and the store stopped and started again: each next pass completes, and
// nothing is lost or doubled.
func TestSyncInterrupted(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	px := newProxy(t, srv.Endpoint)
	url := "s3://" + srv.Bucket("interrupted") + "/h"
	a := syncHome(t, srv, px.addr(), url, noAgentSync)
	b := syncHome(t, srv, px.addr(), url, noAgentSync)
	phrase := syncInit(t, a)
	syncJoin(t, b, phrase)
	const n = 20000
	importLines(t, a, "a", n)

	// Killed mid-upload: the segment's PUT is held after 32 KiB.
	stalled := px.arm(32<<10, 0)
	cmd, out := startHookd(t, a, "sync")
	select {
	case <-stalled:
	case <-time.After(2 * time.Minute):
		t.Fatalf("the upload never reached 32 KiB; hookd said: %s", out)
	}
	cmd.Process.Kill()
	cmd.Wait()
	px.arm(0, 0)
	hookd(t, a, "sync")
	objects := 0
	for p := range srv.Files() {
		if strings.HasPrefix(p, filepath.Join(srv.Root, "interrupted", "h", "h", hostID(t, a))+"/") {
			objects++
		}
	}
	if objects != 1 {
		t.Errorf("host a's series holds %d segments after an interrupted and a whole upload; want 1", objects)
	}

	// Killed mid-download: the segment's GET is held after 32 KiB.
	stalled = px.arm(0, 32<<10)
	cmd, out = startHookd(t, b, "sync")
	select {
	case <-stalled:
	case <-time.After(2 * time.Minute):
		t.Fatalf("the download never reached 32 KiB; hookd said: %s", out)
	}
	cmd.Process.Kill()
	cmd.Wait()
	px.arm(0, 0)
	if got := len(matching(t, b, regexp.MustCompile(`^git commit`))); got != 0 {
		t.Errorf("a killed download left %d commands (a segment merges whole or not at all)", got)
	}
	hookd(t, b, "sync")
	got := matching(t, b, regexp.MustCompile(`^git commit`))
	if len(got) != n || len(slices.Compact(slices.Clone(got))) != n {
		t.Errorf("after the interrupted download host b has %d commands (%d distinct); want %d, each once", len(got), len(slices.Compact(slices.Clone(got))), n)
	}

	// The store stopped: a clear message, nothing lost, recording goes
	// on; started again: the next pass completes.
	s := shelltest.Start(t, a, "bash", shelltest.Options{RC: initLine("bash")})
	srv.Stop()
	s.Run("echo while-the-store-is-down")
	_, errOut, err := hookdRun(a, nil, "sync")
	if err == nil || !strings.Contains(errOut, "cannot reach the store") || !strings.Contains(errOut, "nothing was lost") {
		t.Errorf("hookd sync with the store down: %v, %q; want a failure that says the store cannot be reached", err, errOut)
	}
	if st := hookd(t, a, "status"); !strings.Contains(st, "the last pass failed: cannot reach the store") {
		t.Errorf("hookd status does not show the sync error:\n%s", st)
	}
	if got := matching(t, a, regexp.MustCompile(`^echo while-the-store`)); len(got) != 1 {
		t.Errorf("recording while the store is down: %q", got)
	}
	srv.Restart()
	hookd(t, a, "sync")
	hookd(t, b, "sync")
	if got := matching(t, b, regexp.MustCompile(`^echo while-the-store`)); len(got) != 1 {
		t.Errorf("after the store came back, host b has %q", got)
	}
	if got := len(matching(t, b, regexp.MustCompile(`^git commit`))); got != n {
		t.Errorf("host b has %d commands; want %d", got, n)
	}
}

// TestSyncForgetAndLateJoiner: hookd forget on one host removes the
// command on every host; a host joining late gets the whole history
// without it.
func TestSyncForgetAndLateJoiner(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	url := "s3://" + srv.Bucket("forget") + "/"
	a := syncHome(t, srv, "", url, noAgentSync)
	b := syncHome(t, srv, "", url, noAgentSync)
	phrase := syncInit(t, a)
	syncJoin(t, b, phrase)
	sa := shelltest.Start(t, a, "zsh", shelltest.Options{RC: initLine("zsh")})
	sb := shelltest.Start(t, b, "bash", shelltest.Options{RC: initLine("bash")})
	sa.Run("echo keep-a")
	sa.Run("echo oops-secret-4417")
	sb.Run("echo keep-b")
	hookd(t, a, "sync")
	hookd(t, b, "sync")
	if got := matching(t, b, regexp.MustCompile(`oops-secret`)); len(got) != 1 {
		t.Fatalf("host b did not get the command: %q", got)
	}
	// Forgotten on b, where it did not run.
	hookd(t, b, "forget", "--match", "oops-secret")
	hookd(t, b, "sync")
	hookd(t, a, "sync")
	for name, h := range map[string]*shelltest.Home{"a": a, "b": b} {
		if got := matching(t, h, regexp.MustCompile(`oops-secret`)); len(got) != 0 {
			t.Errorf("host %s still has %q after hookd forget on b", name, got)
		}
	}
	c := syncHome(t, srv, "", url, noAgentSync)
	syncJoin(t, c, phrase)
	hookd(t, c, "sync")
	if got := matching(t, c, regexp.MustCompile(`^echo (keep|oops)`)); !slices.Equal(got, []string{"echo keep-a", "echo keep-b"}) {
		t.Errorf("the late joiner has %q; want both hosts' commands and not the forgotten one", got)
	}
}

// TestSyncErrors: a wrong recovery phrase, refused credentials, a bucket
// that does not exist and a full disk each give a clear message and lose
// nothing; recording is not affected.
func TestSyncErrors(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	url := "s3://" + srv.Bucket("errors") + "/one"
	a := syncHome(t, srv, "", url, noAgentSync)
	phrase := syncInit(t, a)
	importLines(t, a, "full", 20000)
	hookd(t, a, "sync")

	// A phrase of another history, and one with a typo.
	other := syncHome(t, srv, "", "s3://errors/two", noAgentSync)
	otherPhrase := syncInit(t, other)
	b := syncHome(t, srv, "", url, noAgentSync)
	_, errOut, err := runHookdStdin(b, otherPhrase+"\n", "sync", "join")
	if err == nil || !strings.Contains(errOut, "not the key of the history") || !strings.Contains(errOut, "nothing was changed") {
		t.Errorf("join with another history's phrase: %v, %q", err, errOut)
	}
	typo := []byte(phrase)
	typo[10] = map[bool]byte{true: 'b', false: 'a'}[typo[10] == 'a']
	_, errOut, err = runHookdStdin(b, string(typo)+"\n", "sync", "join")
	if err == nil || !strings.Contains(errOut, "not a hookd recovery phrase") {
		t.Errorf("join with a typo: %v, %q", err, errOut)
	}
	if _, err := os.Stat(b.Path(".local", "share", "hookd", "sync-key")); !os.IsNotExist(err) {
		t.Errorf("a refused join left a key: %v", err)
	}
	syncJoin(t, b, phrase)
	sb := shelltest.Start(t, b, "bash", shelltest.Options{RC: initLine("bash")})

	// Refused (expired) credentials.
	_, errOut, err = hookdRun(b, []string{"AWS_SECRET_ACCESS_KEY=expired"}, "sync")
	if err == nil || !strings.Contains(errOut, "refused the credentials") {
		t.Errorf("sync with a wrong secret: %v, %q", err, errOut)
	}
	// A bucket that does not exist.
	nb := syncHome(t, srv, "", "s3://no-such-bucket/x", noAgentSync)
	_, errOut, err = hookdRun(nb, nil, "sync", "init")
	if err == nil || !strings.Contains(errOut, `the bucket "no-such-bucket" does not exist`) {
		t.Errorf("init on a missing bucket: %v, %q", err, errOut)
	}
	// A full disk (a file size limit the database cannot grow past).
	sb.Run("echo before-the-full-disk")
	db := b.Path(".local", "share", "hookd", "history.db")
	fi, _ := os.Stat(db)
	blocks := fi.Size()/512 + 64
	cmd := exec.Command("sh", "-c", fmt.Sprintf("trap '' XFSZ; ulimit -f %d; exec %s sync", blocks, hookdBin))
	cmd.Env, cmd.Dir = b.Env, b.Dir
	combined, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(combined), "disk is full") || !strings.Contains(string(combined), "next pass tries again") {
		t.Errorf("sync on a full disk: %v, %q", err, combined)
	}
	sb.Run("echo after-the-full-disk")
	hookd(t, b, "sync")
	if got := len(matching(t, b, regexp.MustCompile(`^git commit`))); got != 20000 {
		t.Errorf("after the disk had room again host b has %d commands; want 20000", got)
	}
	if got := matching(t, b, regexp.MustCompile(`the-full-disk$`)); len(got) != 2 {
		t.Errorf("recording around the full disk: %q", got)
	}
}

// TestSyncDaemon: the daemon syncs in the background (sync.interval), and
// hookd status says when it last did.
func TestSyncDaemon(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	url := "s3://" + srv.Bucket("agent") + "/"
	a := syncHome(t, srv, "", url, "  interval: 1s\n")
	b := syncHome(t, srv, "", url, "  interval: 1s\n")
	syncJoin(t, b, syncInit(t, a))
	sa := shelltest.Start(t, a, "bash", shelltest.Options{RC: initLine("bash")})
	sb := shelltest.Start(t, b, "zsh", shelltest.Options{RC: initLine("zsh")})
	sa.Run("echo typed-on-a")
	sb.Run("echo typed-on-b")
	var ga, gb []string
	shelltest.Eventually(t, 90*time.Second, func() bool {
		ga = matching(t, a, regexp.MustCompile(`^echo typed-on`))
		gb = matching(t, b, regexp.MustCompile(`^echo typed-on`))
		return len(ga) == 2 && len(gb) == 2
	}, func() string { return fmt.Sprintf("the agents did not sync: a has %q, b has %q", ga, gb) })
	if st := hookd(t, a, "sync", "--status"); !strings.Contains(st, "last sync") || strings.Contains(st, "last sync never") {
		t.Errorf("hookd sync --status after a background pass:\n%s", st)
	}
}

// TestSyncClonedHome: a home directory copied whole (history, key,
// installation id) syncs from both copies. The copy that finds the other's
// segment in "its" series says so on `hookd sync`, in `hookd sync
// --status` and `hookd status`, and takes a new id; each copy then shows
// the other's commands as another installation's, never as its own
// (issue 30 item 10).
func TestSyncClonedHome(t *testing.T) {
	t.Parallel()
	srv := s3test.Start(t)
	url := "s3://" + srv.Bucket("cloned") + "/h"
	a := syncHome(t, srv, "", url, noAgentSync)
	syncInit(t, a)
	importLines(t, a, "before", 3)
	hookd(t, a, "sync")
	c := syncHome(t, srv, "", url, noAgentSync)
	for _, f := range []string{"history.db", "history.db-wal", "history.db-shm", "sync-key", "host-id"} {
		data, err := os.ReadFile(a.Path(".local", "share", "hookd", f))
		if err != nil {
			continue
		}
		os.MkdirAll(c.Path(".local", "share", "hookd"), 0o700)
		if err := os.WriteFile(c.Path(".local", "share", "hookd", f), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := hostID(t, a)
	importLines(t, a, "on-a", 2)
	hookd(t, a, "sync")
	importLines(t, c, "on-copy", 2)
	_, errOut, err := hookdRun(c, nil, "sync")
	if err != nil || !strings.Contains(errOut, "two installations had the id "+old) {
		t.Fatalf("hookd sync on the copy: %v, stderr %q; want the shared id said", err, errOut)
	}
	if id := hostID(t, c); id == old {
		t.Errorf("the copy kept the id %s", id)
	}
	if st := hookd(t, c, "sync", "--status"); !strings.Contains(st, "two installations had the id") {
		t.Errorf("hookd sync --status on the copy:\n%s", st)
	}
	if st := hookd(t, c, "status"); !strings.Contains(st, "two installations had the id") {
		t.Errorf("hookd status on the copy:\n%s", st)
	}
	hookd(t, a, "sync")
	hookd(t, c, "sync")
	for _, h := range []*shelltest.Home{a, c} {
		here, elsewhere := map[string]int{}, map[string]int{}
		self := hostID(t, h)
		for _, e := range histJSON(t, h) {
			cmd, _ := e["command"].(string)
			tag := strings.Fields(strings.TrimPrefix(cmd, "git commit -m 'change "))[0]
			if id, _ := e["host_id"].(string); id == "" || id == self {
				here[tag]++
			} else {
				elsewhere[tag]++
			}
		}
		mine, theirs := "on-a", "on-copy"
		if h == c {
			mine, theirs = theirs, mine
		}
		if here["before"] != 3 || here[mine] != 2 || here[theirs] != 0 || elsewhere[theirs] != 2 || elsewhere["before"] != 0 {
			t.Errorf("%s: recorded here %v, from elsewhere %v; want its own and the 3 before the copy here, the other's 2 from elsewhere", h.Dir, here, elsewhere)
		}
	}
}

// TestSyncConfigWords: a sync.url that is set but wrong is called wrong,
// not "not set"; an endpoint without its scheme is refused rather than
// ignored; an installation without an id yet does not print an empty one
// (issue 32).
func TestSyncConfigWords(t *testing.T) {
	h := newHome(t)
	out, _, _ := hookdRun(h, nil, "sync", "--status")
	if strings.Contains(out, "(id )") {
		t.Errorf("sync --status unconfigured prints an empty id:\n%s", out)
	}
	for _, tc := range []struct{ yaml, want string }{
		{"sync:\n  url: s3:/bucket\n", "want s3://BUCKET"},
		{"sync:\n  url: s3://bucket/p\n  endpoint: localhost:9000\n", "sync.endpoint: \"localhost:9000\": want an http or https address"},
	} {
		writeConfig(t, h, tc.yaml)
		_, errOut, err := hookdRun(h, nil, "sync")
		if err == nil || strings.Contains(errOut, "is not set") || !strings.Contains(errOut, tc.want) {
			t.Errorf("hookd sync with\n%s: %v\n%s\nwant %q", tc.yaml, err, errOut, tc.want)
		}
	}
}
