// Command searchgen writes a history database for the search benchmarks
// (bench/search.sh, docs/benchmarks.md §11): by default 1,000,000 commands
// with about 1 GB of captured output, through the history package's own
// write path, so that both full-text indexes are what hookd builds.
//
// The commands follow a Zipf distribution over a pool of distinct command
// lines shaped like a developer's (git, go, make, docker, kubectl, cd, ssh,
// editors…), so that about a third of them are distinct, as in real
// histories; a few per cent fail. Outputs are lines of words from a fixed
// vocabulary, plus rare marker words (needle-N) that the benchmarks look for.
//
//	go run -tags sqlite_fts5 ./bench/searchgen -db /tmp/h.db -n 1000000 -output 1G
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hookd/hookd/history"
)

func main() {
	db := flag.String("db", "", "the database to write (must not exist)")
	n := flag.Int("n", 1_000_000, "commands")
	outSize := flag.String("output", "1G", "total output text (K, M, G suffixes)")
	distinct := flag.Int("distinct", 0, "size of the pool of distinct command lines (default n/3)")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	if *db == "" {
		fmt.Fprintln(os.Stderr, "usage: searchgen -db FILE [-n N] [-output SIZE]")
		os.Exit(2)
	}
	if _, err := os.Stat(*db); err == nil {
		fmt.Fprintf(os.Stderr, "searchgen: %s exists\n", *db)
		os.Exit(1)
	}
	total, err := parseSize(*outSize)
	if err != nil {
		fmt.Fprintln(os.Stderr, "searchgen:", err)
		os.Exit(2)
	}
	if *distinct == 0 {
		*distinct = *n / 3
	}
	if err := generate(context.Background(), *db, *n, *distinct, total, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "searchgen:", err)
		os.Exit(1)
	}
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	}
	v, err := strconv.ParseInt(s, 10, 64)
	return v * mult, err
}

var (
	verbs    = []string{"status", "log --oneline", "diff", "add -p", "commit -m", "checkout", "push origin", "pull --rebase", "stash pop", "rebase -i", "fetch", "branch -d"}
	gotools  = []string{"test", "build", "vet", "run", "mod tidy", "generate", "test -race", "test -run"}
	programs = []string{"make", "npm run", "cargo", "python3", "docker", "kubectl", "ssh", "vim", "less", "grep -rn", "rg", "curl -sS", "terraform", "ls -la", "cat", "tail -f", "journalctl -u", "systemctl status", "jq", "find . -name"}
	words    []string
)

func init() {
	syll := []string{"ka", "lo", "mi", "ne", "pu", "ra", "si", "to", "ve", "zu", "dor", "fen", "gal", "hix", "jor", "lem", "mur", "nax", "pol", "quin", "ser", "tav", "ulm", "wex"}
	r := rand.New(rand.NewPCG(7, 7))
	seen := map[string]bool{}
	for len(words) < 6000 {
		k := 2 + r.IntN(3)
		var b strings.Builder
		for range k {
			b.WriteString(syll[r.IntN(len(syll))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
}

func word(r *rand.Rand) string { return words[int(r.ExpFloat64()*600)%len(words)] }

// commandLine makes the i-th distinct command line of the pool.
func commandLine(r *rand.Rand, i int) string {
	w := word(r)
	switch r.IntN(7) {
	case 0:
		v := verbs[r.IntN(len(verbs))]
		if v == "commit -m" {
			return fmt.Sprintf("git commit -m '%s %s %d'", w, word(r), i)
		}
		return fmt.Sprintf("git %s %s-%d", v, w, i%97)
	case 1:
		return fmt.Sprintf("go %s ./%s/%s/...", gotools[r.IntN(len(gotools))], w, word(r))
	case 2:
		return fmt.Sprintf("cd ~/src/%s/%s", w, word(r))
	case 3:
		return fmt.Sprintf("%s %s %s-%d", programs[r.IntN(len(programs))], w, word(r), i%1000)
	case 4:
		return fmt.Sprintf("docker run --rm -it %s/%s:%d.%d", w, word(r), i%9, i%17)
	case 5:
		return fmt.Sprintf("kubectl -n %s get pods -l app=%s | grep %s", w, word(r), word(r))
	}
	return fmt.Sprintf("%s --%s=%d %s.txt", programs[r.IntN(len(programs))], w, i, word(r))
}

func output(r *rand.Rand, size int, needle string) []byte {
	var b strings.Builder
	b.Grow(size + 100)
	line := 0
	for b.Len() < size {
		n := 6 + r.IntN(10)
		for j := range n {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(word(r))
		}
		line++
		if needle != "" && line == 3 {
			b.WriteString(" " + needle)
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

func generate(ctx context.Context, path string, n, distinct int, total int64, seed uint64) error {
	s, err := history.Open(ctx, path, 10*time.Second)
	if err != nil {
		return err
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	pool := make([]string, distinct)
	for i := range pool {
		pool[i] = commandLine(r, i)
	}
	zipf := rand.NewZipf(r, 1.07, 8, uint64(distinct-1))
	dirs := make([]string, 400)
	for i := range dirs {
		dirs[i] = fmt.Sprintf("/home/dev/src/%s/%s", word(r), word(r))
	}
	// Three hosts: this installation's sessions, and two synced in from
	// other installations (their sessions' ids carry the installation's
	// id, as sync names them); one session in twenty a coding agent's.
	hosts := []string{"workstation", "laptop", "build-1"}
	hostIDs := []string{"", "3f9a61c2d07b4e58", "b81e0c77a2946d13"}
	const sessions = 3000
	perOut := int(total / int64(n))
	start := time.Now().Add(-365 * 24 * time.Hour).UnixMicro()
	step := int64(365*24*time.Hour/time.Microsecond) / int64(n)
	began := time.Now()
	var written int64
	const batch = 5000
	prev, seq := "", int64(0)
	for lo := 0; lo < n; lo += batch {
		tx, err := s.Begin(ctx)
		if err != nil {
			return err
		}
		for i := lo; i < min(n, lo+batch); i++ {
			sess := fmt.Sprintf("s%04d", i*sessions/n)
			if id := hostIDs[i*sessions/n%len(hosts)]; id != "" {
				sess += history.HostSep + id
			}
			author := ""
			if i*sessions/n%20 == 19 {
				author = "claude-code"
			}
			if sess != prev {
				prev, seq = sess, 0
			}
			seq++
			if seq == 1 || i == lo {
				if err := tx.AddSession(ctx, history.Session{ID: sess, Shell: []string{"bash", "zsh"}[i*sessions/n%2],
					Host: hosts[i*sessions/n%len(hosts)], User: "dev", StartedAt: start + int64(i)*step, Capture: "pty",
					Author: author}); err != nil {
					return err
				}
			}
			cmd := pool[zipf.Uint64()]
			exit := 0
			if r.IntN(100) < 4 {
				exit = 1 + r.IntN(2)
			}
			at := start + int64(i)*step
			size := perOut/2 + r.IntN(perOut+1)
			needle := ""
			if i%1000 == 7 {
				needle = fmt.Sprintf("needle%d", i/1000)
			}
			out := output(r, size, needle)
			if _, err := tx.AddCommand(ctx, history.Entry{Session: sess, Seq: seq, Command: cmd, ExitCode: exit,
				Cwd: dirs[int(r.ExpFloat64()*40)%len(dirs)], StartedAt: at, DurationUS: int64(r.IntN(2_000_000)),
				OutputBytes: int64(len(out))}); err != nil {
				return err
			}
			if err := tx.AddOutput(ctx, history.Output{Session: sess, Seq: seq, Text: out, Bytes: int64(len(out)), CreatedAt: at}); err != nil {
				return err
			}
			written += int64(len(out))
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		if lo%(batch*20) == 0 {
			fmt.Fprintf(os.Stderr, "\r%d commands, %d MB of output, %s", lo+batch, written>>20, time.Since(began).Round(time.Second))
		}
	}
	fmt.Fprintf(os.Stderr, "\ndone: %d commands, %d MB of output, %s\n", n, written>>20, time.Since(began).Round(time.Second))
	return nil
}
