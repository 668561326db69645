package probe

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// aptBuildTimeout bounds reading apt's lists when the index must be made
// again (after apt update): about 0.3 s for Debian's main list; every later
// analysis reads the index, a few milliseconds.
const aptBuildTimeout = 3 * time.Second

// aptIndexHeader starts the index file, followed by the stamp of the lists.
const aptIndexHeader = "hookd apt names 1 "

// aptIndex returns every package name in apt's lists in dir, sorted, one
// a line, each line ending in a newline and the first one preceded by one
// (so that "\n"+prefix finds the first name with prefix). With cache set,
// the names are kept in that file, made again when the lists change (their
// names, sizes and times are its stamp), so that an analysis reads one
// small file instead of decompressing the lists.
func aptIndex(ctx context.Context, dir, cache string) (string, error) {
	stamp, err := aptStamp(dir)
	if err != nil || stamp == "" {
		return "", err
	}
	header := aptIndexHeader + stamp
	if cache != "" {
		if b, err := os.ReadFile(cache); err == nil {
			if rest, ok := strings.CutPrefix(string(b), header+"\n"); ok {
				return "\n" + rest, nil
			}
		}
	}
	names, err := readAptLists(ctx, dir)
	if err != nil {
		return "", err
	}
	text := "\n" + strings.Join(names, "\n") + "\n"
	if cache != "" {
		writeAptIndex(cache, header+text)
	}
	return text, nil
}

// namesWithPrefix returns the names of an index that start with prefix.
func namesWithPrefix(index, prefix string) []string {
	i := strings.Index(index, "\n"+prefix)
	if i < 0 {
		return nil
	}
	var out []string
	for rest := index[i+1:]; strings.HasPrefix(rest, prefix); {
		line, after, _ := strings.Cut(rest, "\n")
		out = append(out, line)
		rest = after
	}
	return out
}

// isAptList reports whether a file of apt's lists directory is a package
// list hookd can read.
func isAptList(name string) bool {
	for _, suf := range []string{"_Packages", "_Packages.lz4", "_Packages.gz"} {
		if strings.HasSuffix(name, suf) {
			return true
		}
	}
	return false
}

// aptStamp describes the package lists in dir (names, sizes, times), or ""
// when there are none.
func aptStamp(dir string) (string, error) {
	es, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("read apt lists: %w", err)
	}
	h := sha256.New()
	n := 0
	for _, e := range es {
		if !isAptList(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		n++
		fmt.Fprintf(h, "%s %d %d\n", e.Name(), info.Size(), info.ModTime().UnixNano())
	}
	if n == 0 {
		return "", nil
	}
	return hex.EncodeToString(h.Sum(nil)[:12]), nil
}

// writeAptIndex saves the index; a failure only costs the next analysis
// the reading of the lists.
func writeAptIndex(path, text string) { writeCacheFile(path, text) }

// readAptLists reads the package names of every list in dir, sorted. A
// list that cannot be read is left out.
func readAptLists(ctx context.Context, dir string) ([]string, error) {
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read apt lists: %w", err)
	}
	set := map[string]bool{}
	for _, e := range es {
		if !isAptList(e.Name()) {
			continue
		}
		if err := scanPackages(ctx, filepath.Join(dir, e.Name()), set); err != nil && ctx.Err() != nil {
			return nil, err
		}
	}
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}

// scanPackages adds the Package: names of one list, plain, lz4 or gzip, to set.
func scanPackages(ctx context.Context, path string, set map[string]bool) error {
	fh, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	defer fh.Close()
	var r io.Reader = bufio.NewReaderSize(fh, 256<<10)
	switch {
	case strings.HasSuffix(path, ".lz4"):
		r = newLZ4Reader(r)
	case strings.HasSuffix(path, ".gz"):
		gz, err := gzip.NewReader(r)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		r = gz
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 256<<10), 4<<20)
	want := []byte("Package: ")
	n := 0
	for sc.Scan() {
		line := sc.Bytes()
		if bytes.HasPrefix(line, want) {
			if name := bytes.TrimSpace(line[len(want):]); len(name) > 0 && !set[string(name)] {
				set[string(name)] = true
			}
		}
		if n++; n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("scan %s: %w", path, err)
	}
	return nil
}
