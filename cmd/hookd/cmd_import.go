package main

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hookd/hookd/histfile"
	"github.com/hookd/hookd/history"
)

func cmdImport(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "import")
	file := fs.String("file", "", "the history file `F` (default: ~/.bash_history, or ~/.zsh_history, $ZDOTDIR's if set)")
	if err := parse(fs, args); err != nil {
		return err
	}
	shell := filepath.Base(os.Getenv("SHELL"))
	switch fs.NArg() {
	case 0:
	case 1:
		shell = fs.Arg(0)
	default:
		return usagef("one shell at most")
	}
	var parseFn func(*os.File) (histfile.Result, error)
	def := ""
	switch shell {
	case "bash":
		parseFn = func(f *os.File) (histfile.Result, error) { return histfile.ParseBash(f) }
		def = filepath.Join(e.home, ".bash_history")
	case "zsh":
		parseFn = func(f *os.File) (histfile.Result, error) { return histfile.ParseZsh(f) }
		def = filepath.Join(e.home, ".zsh_history")
		if zd := os.Getenv("ZDOTDIR"); zd != "" {
			def = filepath.Join(zd, ".zsh_history")
		}
	default:
		return usagef("unsupported shell %q (supported: bash, zsh)", shell)
	}
	if *file == "" {
		*file = def
	}
	f, err := os.Open(*file)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	res, err := parseFn(f)
	if err != nil {
		return fmt.Errorf("import %s: %w", *file, err)
	}
	s, err := e.openStore(ctx, 10*time.Second)
	if err != nil {
		return err
	}
	defer s.Close()
	added, ignored, err := importEntries(ctx, s, e.rules(e.config()), shell, res.Entries, fi.ModTime())
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "imported %d commands from %s (%d already there or left out by your ignore rules: %d)\n",
		added, *file, len(res.Entries)-added, ignored)
	if res.Skipped > 0 {
		fmt.Fprintf(e.stderr, "hookd: skipped %d unreadable entries:\n", res.Skipped)
		for _, p := range res.Problems {
			fmt.Fprintf(e.stderr, "  %s\n", sanitizeLine(p))
		}
	}
	return nil
}

// importEntries adds entries under one session per shell. Each gets a
// sequence number derived from its time, text and how often that pair came
// before, so importing the same file again, or a longer version of it, adds
// nothing twice. Entries without a time get one just before the file's
// modification time, in file order.
func importEntries(ctx context.Context, s *history.Store, rules interface {
	Filter(text, cwd string) (string, bool, int)
}, shell string, entries []histfile.Entry, mtime time.Time) (added, ignored int, err error) {
	session := "import-" + shell
	tx, err := s.Begin(ctx)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	if err := tx.AddSession(ctx, history.Session{ID: session, Shell: shell}); err != nil {
		return 0, 0, err
	}
	seen := map[[32]byte]int{}
	for i, en := range entries {
		at := en.Time
		if at.IsZero() {
			at = mtime.Add(-time.Duration(len(entries)-i) * time.Microsecond)
		}
		key := sha256.Sum256([]byte(fmt.Sprintf("%d\x00%s", en.Time.Unix(), en.Command)))
		seen[key]++
		h := sha256.Sum256(append(key[:], byte(seen[key]), byte(seen[key]>>8), byte(seen[key]>>16)))
		seq := int64(binary.BigEndian.Uint64(h[:8]) >> 1)
		if seq == 0 {
			seq = 1
		}
		text, ok, _ := rules.Filter(en.Command, "")
		if !ok {
			ignored++
			continue
		}
		ok, err := tx.AddCommand(ctx, history.Entry{Session: session, Seq: seq, Command: text, StartedAt: at.UnixMicro(),
			DurationUS: en.Duration.Microseconds(), Source: "import"})
		if err != nil {
			return 0, 0, err
		}
		if ok {
			added++
		}
	}
	return added, ignored, tx.Commit()
}
