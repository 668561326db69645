package probe

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookd/hookd/analyze"
)

// vocabHeader starts a cached vocabulary, followed by the stamp of the
// files it was read from.
const vocabHeader = "hookd vocab 1 "

// maxCompletion bounds a completion file read (zsh's _git is 270 KB).
const maxCompletion = 1 << 20

// zshFunctions holds zsh's own completion functions, one directory per
// system (Unix, Linux, Debian, …).
const zshFunctions = "/usr/share/zsh/functions/Completion"

// Completion returns what the completion files of tool name: see
// analyze.ParseCompletion. With Options.VocabDir set, the answer is kept
// there per tool, made again when a completion file or the tool's program
// on the PATH (its version) changes size or time.
func (p *Probe) Completion(ctx context.Context, tool string) analyze.Vocab {
	v, err := p.vocabs.get(tool, func() (analyze.Vocab, error) {
		return within(ctx, p.opts.Timeout, func(context.Context) (analyze.Vocab, error) {
			return completionVocab(tool, p.completionFiles(tool), p.program(tool), p.opts.VocabDir)
		})
	})
	if err != nil {
		return analyze.Vocab{}
	}
	return v
}

// completionFiles are the paths that may complete tool.
func (p *Probe) completionFiles(tool string) []string {
	dirs := p.opts.ZshDirs
	if dirs == nil {
		es, _ := os.ReadDir(zshFunctions)
		for _, e := range es {
			if e.IsDir() {
				dirs = append(dirs, filepath.Join(zshFunctions, e.Name()))
			}
		}
		dirs = append(dirs, analyze.ZshCompletionDirs...)
	}
	paths := analyze.CompletionPaths(tool, dirs)
	if p.opts.BashCompletions != "" && len(paths) > 0 {
		paths[0] = filepath.Join(p.opts.BashCompletions, tool)
	}
	return paths
}

// program is the path of tool on the PATH, or "".
func (p *Probe) program(tool string) string {
	for _, d := range filepath.SplitList(p.opts.Path) {
		if d == "" {
			continue
		}
		path := filepath.Join(d, tool)
		if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
			return path
		}
	}
	return ""
}

// completionVocab reads the completion files that exist among paths, or
// their vocabulary cached in dir under the stamp of those files and of
// program.
func completionVocab(tool string, paths []string, program, dir string) (analyze.Vocab, error) {
	h := sha256.New()
	var found []string
	for _, path := range append([]string{program}, paths...) {
		if path == "" {
			continue
		}
		fi, err := os.Stat(path)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		fmt.Fprintf(h, "%s %d %d\n", path, fi.Size(), fi.ModTime().UnixNano())
		if path != program {
			found = append(found, path)
		}
	}
	if len(found) == 0 {
		return analyze.Vocab{}, nil
	}
	header := vocabHeader + hex.EncodeToString(h.Sum(nil)[:12]) + "\n"
	cache := ""
	if dir != "" && tool != "" && !strings.ContainsAny(tool, "/\x00") && !strings.HasPrefix(tool, ".") {
		cache = filepath.Join(dir, tool)
		if b, err := os.ReadFile(cache); err == nil {
			if rest, ok := strings.CutPrefix(string(b), header); ok {
				return decodeVocab(rest), nil
			}
		}
	}
	var v analyze.Vocab
	for _, path := range found {
		b, err := readHead(path, maxCompletion)
		if err != nil {
			continue
		}
		got := analyze.ParseCompletion(string(b))
		v.Options = append(v.Options, got.Options...)
		v.Commands = append(v.Commands, got.Commands...)
	}
	if cache != "" {
		writeCacheFile(cache, header+encodeVocab(v))
	}
	return v, nil
}

func readHead(path string, n int) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	buf := make([]byte, n)
	k, _ := fh.Read(buf)
	for k < n {
		m, err := fh.Read(buf[k:])
		k += m
		if err != nil || m == 0 {
			break
		}
	}
	return buf[:k], nil
}

// encodeVocab writes one word a line: "o --option" or "c command".
func encodeVocab(v analyze.Vocab) string {
	var b strings.Builder
	for _, o := range v.Options {
		b.WriteString("o " + o + "\n")
	}
	for _, c := range v.Commands {
		b.WriteString("c " + c + "\n")
	}
	return b.String()
}

func decodeVocab(s string) analyze.Vocab {
	var v analyze.Vocab
	for _, line := range strings.Split(s, "\n") {
		switch {
		case strings.HasPrefix(line, "o "):
			v.Options = append(v.Options, line[2:])
		case strings.HasPrefix(line, "c "):
			v.Commands = append(v.Commands, line[2:])
		}
	}
	return v
}

// writeCacheFile saves a cache (0600, in a 0700 directory), replacing the
// old one at once; a failure only costs the next analysis the reading of
// the files it caches.
func writeCacheFile(path, text string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return
	}
	_, werr := tmp.WriteString(text)
	if werr != nil || tmp.Close() != nil || os.Rename(tmp.Name(), path) != nil {
		tmp.Close()
		os.Remove(tmp.Name())
	}
}
