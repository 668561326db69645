// Package analyzetest provides a fake analyze.Facts for tests: an
// environment described by plain values, which records every question asked
// of it.
package analyzetest

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/hookd/hookd/analyze"
)

// Facts is a fake environment. Files maps slash-separated paths to their
// contents; a path ending in "/" is a directory, and parent directories are
// implied. Paths are matched as given, so tests usually use a Cwd such as
// "/w" and absolute paths under it.
type Facts struct {
	Exes      []string          // executables on the PATH
	Shell     []string          // builtins
	AliasList []string          // aliases
	FuncList  []string          // functions
	Root      bool              // the user is root
	Files     map[string]string // path → contents ("" for an empty file); "dir/" for a directory
	ExecFiles []string          // paths of files with the execute bit
	GitRepo   *analyze.GitInfo  // the repository of every directory; nil: not a repository
	Scripts   []string          // package.json scripts; nil: no package.json
	Targets   []string          // makefile targets; nil: no makefile
	Venv      string            // the active virtual environment
	Ports     map[int]analyze.Listener
	AptNames  []string                 // every package apt knows
	Vocabs    map[string]analyze.Vocab // tool → what its completion files name
	Helps     map[string]string        // "docker run --help" → what it prints

	mu    sync.Mutex
	calls []string
}

var _ analyze.Facts = (*Facts)(nil)

func (f *Facts) record(call string) {
	f.mu.Lock()
	f.calls = append(f.calls, call)
	f.mu.Unlock()
}

// Calls returns the questions asked so far, sorted (rules ask concurrently,
// so the order of asking is not meaningful).
func (f *Facts) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := append([]string(nil), f.calls...)
	sort.Strings(out)
	return out
}

// LookPath reports whether name is one of Exes.
func (f *Facts) LookPath(_ context.Context, name string) bool {
	f.record("LookPath " + name)
	for _, e := range f.Exes {
		if e == name {
			return true
		}
	}
	return false
}

// Executables returns Exes, sorted.
func (f *Facts) Executables(context.Context) []string {
	f.record("Executables")
	out := append([]string(nil), f.Exes...)
	sort.Strings(out)
	return out
}

// Builtins returns Shell.
func (f *Facts) Builtins(context.Context) []string { f.record("Builtins"); return f.Shell }

// Aliases returns AliasList.
func (f *Facts) Aliases(context.Context) []string { f.record("Aliases"); return f.AliasList }

// Functions returns FuncList.
func (f *Facts) Functions(context.Context) []string { f.record("Functions"); return f.FuncList }

// IsRoot returns Root.
func (f *Facts) IsRoot(context.Context) bool { f.record("IsRoot"); return f.Root }

func clean(p string) string { return path.Clean(p) }

// kind returns whether p exists and whether it is a directory.
func (f *Facts) kind(p string) (exists, dir bool) {
	p = clean(p)
	if p == "/" || p == "." {
		return true, true
	}
	for name := range f.Files {
		n := clean(name)
		switch {
		case n == p:
			return true, strings.HasSuffix(name, "/")
		case strings.HasPrefix(n, p+"/"):
			return true, true
		}
	}
	return false, false
}

func (f *Facts) isExec(p string) bool {
	for _, e := range f.ExecFiles {
		if clean(e) == clean(p) {
			return true
		}
	}
	return false
}

// ReadDir lists the entries under dir.
func (f *Facts) ReadDir(_ context.Context, dir string) ([]analyze.Entry, error) {
	f.record("ReadDir " + dir)
	dir = clean(dir)
	if ok, isDir := f.kind(dir); !ok || !isDir {
		return nil, &fs.PathError{Op: "readdir", Path: dir, Err: fs.ErrNotExist}
	}
	seen := map[string]analyze.Entry{}
	prefix := dir + "/"
	if dir == "/" {
		prefix = "/"
	}
	for name := range f.Files {
		n := clean(name)
		rest, ok := strings.CutPrefix(n, prefix)
		if !ok || rest == "" {
			continue
		}
		first, more, _ := strings.Cut(rest, "/")
		e := analyze.Entry{Name: first, Dir: more != "" || strings.HasSuffix(name, "/")}
		if !e.Dir {
			e.Exec = f.isExec(prefix + first)
			e.Size = int64(len(f.Files[name]))
		}
		if old, ok := seen[first]; !ok || e.Dir && !old.Dir {
			seen[first] = e
		}
	}
	out := make([]analyze.Entry, 0, len(seen))
	for _, e := range seen {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Stat describes p.
func (f *Facts) Stat(_ context.Context, p string) (analyze.Entry, error) {
	f.record("Stat " + p)
	ok, dir := f.kind(p)
	if !ok {
		return analyze.Entry{}, &fs.PathError{Op: "stat", Path: p, Err: fs.ErrNotExist}
	}
	e := analyze.Entry{Name: path.Base(clean(p)), Dir: dir}
	if !dir {
		e.Exec = f.isExec(p)
		e.Size = int64(len(f.Files[clean(p)]))
	}
	return e, nil
}

// ReadHead returns the start of a file's contents.
func (f *Facts) ReadHead(_ context.Context, p string, n int) ([]byte, error) {
	f.record("ReadHead " + p)
	for name, data := range f.Files {
		if clean(name) == clean(p) && !strings.HasSuffix(name, "/") {
			if len(data) > n {
				data = data[:n]
			}
			return []byte(data), nil
		}
	}
	return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
}

// errNone is returned for facts the fake was not given.
var errNone = errors.New("analyzetest: no such fact")

// Git returns GitRepo.
func (f *Facts) Git(_ context.Context, dir string) (analyze.GitInfo, error) {
	f.record("Git " + dir)
	if f.GitRepo == nil {
		return analyze.GitInfo{}, errNone
	}
	return *f.GitRepo, nil
}

// PackageScripts returns Scripts.
func (f *Facts) PackageScripts(_ context.Context, dir string) ([]string, error) {
	f.record("PackageScripts " + dir)
	if f.Scripts == nil {
		return nil, errNone
	}
	return f.Scripts, nil
}

// MakeTargets returns Targets.
func (f *Facts) MakeTargets(_ context.Context, dir string) ([]string, error) {
	f.record("MakeTargets " + dir)
	if f.Targets == nil {
		return nil, errNone
	}
	return f.Targets, nil
}

// PythonVenv returns Venv.
func (f *Facts) PythonVenv(context.Context) string { f.record("PythonVenv"); return f.Venv }

// ListeningPort looks port up in Ports.
func (f *Facts) ListeningPort(_ context.Context, port int) (analyze.Listener, bool) {
	f.record("ListeningPort " + strconv.Itoa(port))
	l, ok := f.Ports[port]
	return l, ok
}

// AptPackages returns the names in AptNames that start with prefix.
func (f *Facts) AptPackages(_ context.Context, prefix string) []string {
	f.record("AptPackages " + prefix)
	var out []string
	for _, n := range f.AptNames {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Completion returns Vocabs[tool].
func (f *Facts) Completion(_ context.Context, tool string) analyze.Vocab {
	f.record("Completion " + tool)
	return f.Vocabs[tool]
}

// Help returns Helps[argv joined by spaces].
func (f *Facts) Help(_ context.Context, argv []string) string {
	key := strings.Join(argv, " ")
	f.record("Help " + key)
	return f.Helps[key]
}
