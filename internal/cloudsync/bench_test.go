package cloudsync_test

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hookd/hookd/internal/cloudsync"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/cloudsync/s3test"
)

// synthetic fills h's history with n commands like a person's: a few
// hundred per session, commands from templates with varying arguments,
// directories from a small set, about 10% failed, realistic timing; with
// contexts, what ingestion notes of each ("it worked before"): its key,
// the work tree and branch under ~/src, the changes, and an environment
// that switches a virtualenv on and off every 25 commands.
func synthetic(b testing.TB, h *host, n int, seed uint64, contexts bool) {
	rng := rand.New(rand.NewPCG(seed, 99))
	crng := rand.New(rand.NewPCG(seed, 7)) // the contexts' own: the commands are the same either way
	words := strings.Fields("api auth build cache config db deploy docs fix handler http index lint log main metrics parser proxy queue retry router schema server store sync test token ui user worker")
	dirs := []string{"~/src/hookd", "~/src/hookd/cmd/hookd", "~/src/web", "~/src/web/frontend", "~/infra", "/tmp", "~", "~/notes", "~/src/api", "~/src/api/internal/db"}
	tmpl := []func() string{
		func() string { return "git status" },
		func() string { return "git diff" },
		func() string {
			return fmt.Sprintf("git commit -m '%s: %s the %s'", words[rng.IntN(len(words))], words[rng.IntN(len(words))], words[rng.IntN(len(words))])
		},
		func() string { return fmt.Sprintf("git checkout -b %s-%d", words[rng.IntN(len(words))], rng.IntN(500)) },
		func() string { return fmt.Sprintf("go test ./internal/%s/...", words[rng.IntN(len(words))]) },
		func() string {
			return fmt.Sprintf("vim %s/%s.go", words[rng.IntN(len(words))], words[rng.IntN(len(words))])
		},
		func() string { return fmt.Sprintf("grep -rn %s .", words[rng.IntN(len(words))]) },
		func() string {
			return fmt.Sprintf("kubectl logs %s-%x -n prod --tail=%d", words[rng.IntN(len(words))], rng.Uint32(), 50*(1+rng.IntN(10)))
		},
		func() string { return fmt.Sprintf("cd %s", dirs[rng.IntN(len(dirs))]) },
		func() string { return "ls -la" },
		func() string { return fmt.Sprintf("make %s", words[rng.IntN(len(words))]) },
		func() string {
			return fmt.Sprintf("curl -s https://%s.example.com/v1/%s/%d | jq .%s", words[rng.IntN(len(words))], words[rng.IntN(len(words))], rng.IntN(100000), words[rng.IntN(len(words))])
		},
		func() string {
			return fmt.Sprintf("docker run --rm -it %s:%d.%d", words[rng.IntN(len(words))], rng.IntN(5), rng.IntN(20))
		},
		func() string {
			return fmt.Sprintf("ssh deploy@%s-%d.internal", words[rng.IntN(len(words))], rng.IntN(40))
		},
	}
	ctx := b.Context()
	s := h.store()
	defer s.Close()
	tx, err := s.Begin(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	t := time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC).UnixMicro()
	var sess string
	var seq int64
	for i := range n {
		if i%300 == 0 {
			sess = fmt.Sprintf("%d-%d-%d", t, 1000+rng.IntN(60000), rng.IntN(32768))
			seq = 0
			if err := tx.AddSession(ctx, history.Session{ID: sess, Shell: "zsh", Version: "5.9", PID: 4242, Host: h.s.Label, User: "me", UID: 1000, TTY: "/dev/pts/3", StartedAt: t}); err != nil {
				b.Fatal(err)
			}
		}
		seq++
		exit := 0
		if rng.IntN(10) == 0 {
			exit = 1 + rng.IntN(2)
		}
		t += int64(2+rng.IntN(120)) * 1e6
		cmd, dir := tmpl[rng.IntN(len(tmpl))](), dirs[rng.IntN(len(dirs))]
		if _, err := tx.AddCommand(ctx, history.Entry{Session: sess, Seq: seq, Command: cmd, ExitCode: exit,
			Pipestatus: []int{exit}, Cwd: dir, StartedAt: t, DurationUS: int64(rng.ExpFloat64() * 800000)}); err != nil {
			b.Fatal(err)
		}
		if !contexts {
			continue
		}
		if seq%25 == 1 {
			env := map[string]string{"PATH": "/home/me/go/bin:/usr/local/bin:/usr/bin:/bin"}
			if seq%50 == 26 {
				env["VIRTUAL_ENV"] = "/home/me/src/api/.venv"
				env["PATH"] = "/home/me/src/api/.venv/bin:" + env["PATH"]
			}
			if err := tx.AddEnv(ctx, sess, seq, env); err != nil {
				b.Fatal(err)
			}
		}
		key := fnv.New64a()
		key.Write([]byte(strings.Join(strings.Fields(cmd)[:min(2, len(strings.Fields(cmd)))], " ")))
		c := history.Context{Key: int64(key.Sum64() >> 1), Dirty: -1}
		if parts := strings.SplitN(dir, "/", 4); len(parts) >= 3 && parts[1] == "src" {
			c.Repo = "/home/me/src/" + parts[2]
			c.Branch = []string{"main", "main", "main", "feature-" + words[int(seq/40)%len(words)]}[int(seq/40)%4]
			c.Dirty = crng.IntN(2)
		}
		if err := tx.AddContext(ctx, sess, seq, exit == 0, t, c); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}

// bucketBytes sums the sizes of host's objects in the store.
func bucketBytes(b testing.TB, srv *s3test.Server, h *host) (n int64, objects int) {
	for p, data := range srv.Files() {
		if strings.HasPrefix(p, srv.Root) && strings.Contains(p, "/h/"+h.s.HostID+"/") {
			n += int64(len(data))
			objects++
		}
	}
	return n, objects
}

// BenchmarkFirstSync100k: the first sync of 100,000 commands (no outputs)
// up from one installation and down to another, against versitygw on
// this machine; the bytes stored per command; then a pass with 100 new
// commands (up, then down). Run with -benchtime 1x.
func BenchmarkFirstSync100k(b *testing.B) {
	for _, contexts := range []bool{false, true} {
		b.Run(map[bool]string{false: "commands", true: "contexts"}[contexts], func(b *testing.B) { firstSync(b, contexts) })
	}
}

func firstSync(b *testing.B, contexts bool) {
	const n = 100000
	for range b.N {
		srv := s3test.Start(b)
		hs := cluster(b, srv, 2)
		synthetic(b, hs[0], n, 1, contexts)
		start := time.Now()
		m := hs[0].pass()
		up := time.Since(start)
		if m.UpCommands != n {
			b.Fatalf("up: %s", m)
		}
		start = time.Now()
		m = hs[1].pass()
		down := time.Since(start)
		if m.DownCommands != n {
			b.Fatalf("down: %s", m)
		}
		size, objects := bucketBytes(b, srv, hs[0])
		synthetic(b, hs[0], 100, 2, contexts)
		start = time.Now()
		hs[0].pass()
		up100 := time.Since(start)
		start = time.Now()
		if m := hs[1].pass(); m.DownCommands != 100 {
			b.Fatalf("down 100: %s", m)
		}
		down100 := time.Since(start)
		b.ReportMetric(up.Seconds(), "s-up-100k")
		b.ReportMetric(down.Seconds(), "s-down-100k")
		b.ReportMetric(float64(size)/n, "stored-B/cmd")
		b.ReportMetric(float64(objects), "objects")
		b.ReportMetric(up100.Seconds()*1000, "ms-up-100")
		b.ReportMetric(down100.Seconds()*1000, "ms-down-100")
	}
}

// BenchmarkHostileBucket measures the memory a pass takes over a bucket
// prepared by an attacker (issue 30 items 7 and 9): "huge", four objects
// listed at 1 GiB each in a fake installation's series (no key needed:
// files of the store's directory, sparse); "bomb", a segment sealed with
// the key whose body inflates to 1 GiB (a little over 1 MB in the
// bucket); "rows", a segment sealed with the key whose 64 MiB of plain
// text list 3.3 million commands of 20 bytes each. The pass runs once; peak-RSS-MB is the process's resident
// peak during it (VmHWM, reset before), alloc-MB what it allocated. Run
// with -benchtime 1x.
func BenchmarkHostileBucket(b *testing.B) {
	b.Run("huge", func(b *testing.B) {
		for range b.N {
			srv := s3test.Start(b)
			hs := cluster(b, srv, 2)
			hs[1].record("", "echo real")
			hs[1].pass()
			fake := "0000000000000000"
			for i := int64(1); i <= 4; i++ {
				sparse(b, srv, hs[0], cloudsync.SegmentName(fake, i, i), 1<<30)
			}
			put(b, bucketClient(b, srv, hs[0]), cloudsync.HeadName(fake, 4), nil)
			hostilePass(b, hs[0])
		}
	})
	b.Run("rows", func(b *testing.B) {
		for range b.N {
			srv := s3test.Start(b)
			hs := cluster(b, srv, 2)
			sealed := sealAs(b, hs[1], hs[1].s.HostID, 1, 1, manyRows(hs[1].s.HostID, (cloudsync.MaxPlain()-200)/20), false)
			plant(b, srv, hs[0], hs[1].s.HostID, 1, sealed)
			b.ReportMetric(float64(len(sealed))/1e6, "object-MB")
			hostilePass(b, hs[0])
		}
	})
	b.Run("bomb", func(b *testing.B) {
		for range b.N {
			srv := s3test.Start(b)
			hs := cluster(b, srv, 2)
			sealed := sealAs(b, hs[1], hs[1].s.HostID, 1, 1, deflatedZeros(1<<30), true)
			plant(b, srv, hs[0], hs[1].s.HostID, 1, sealed)
			b.ReportMetric(float64(len(sealed))/1e6, "object-MB")
			hostilePass(b, hs[0])
		}
	})
}

// hostilePass runs one pass of h and reports its peak memory.
func hostilePass(b *testing.B, h *host) {
	runtime.GC()
	debug.FreeOSMemory()
	os.WriteFile("/proc/self/clear_refs", []byte("5"), 0o200) // resets VmHWM
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := h.s.Pass(b.Context(), time.Minute)
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	status, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(status), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			b.ReportMetric(kb/1024, "peak-RSS-MB")
		}
	}
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/(1<<20), "alloc-MB")
	b.ReportMetric(took.Seconds(), "s")
	b.Logf("pass: %v", err)
}
