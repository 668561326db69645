// Package probe gathers environment facts for package analyze: lazily (only
// when a rule asks), once (answers are cached), concurrently, and within a
// short timeout per fact. It only reads: directory listings, a few project
// files, /proc, and read-only git and apt-cache queries; the one program it
// runs is a tool on the PATH asked for its help, in the words its own message
// gave (Help).
package probe

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hookd/hookd/analyze"
)

// DefaultTimeout bounds the gathering of each fact.
const DefaultTimeout = 200 * time.Millisecond

// Options describes the user's environment; the caller fills it from the
// process (PATH, VIRTUAL_ENV, the uid) so that the probe itself never reads
// the environment.
type Options struct {
	Shell      string        // "bash" or "zsh", for the list of builtins
	Path       string        // the PATH, colon-separated
	VirtualEnv string        // VIRTUAL_ENV, if a venv is active
	UID        int           // the user's uid; -1 when unknown
	Aliases    []string      // the user's alias names, when the shell told them
	Functions  []string      // the user's function names, likewise
	Timeout    time.Duration // per fact; DefaultTimeout when zero
	Git        string        // the git binary; "git" when empty
	AptLists   string        // apt's package lists; /var/lib/apt/lists when empty
	AptIndex   string        // a file caching the names the lists hold; none when empty
	// ExeIndex is a file caching the names in the PATH directories (see
	// Executables); none kept when empty.
	ExeIndex string
	// VocabDir keeps the vocabularies read from completion files, one file
	// per tool (Completion); none kept when empty.
	VocabDir string
	// Environ is the environment of the process (os.Environ()), from
	// which the one program the probe may run, a tool asked for its help,
	// gets only what locates and configures it (helpEnviron): never a
	// display, a browser or a secret.
	Environ []string
	// BashCompletions and ZshDirs replace bash-completion's directory and
	// zsh's completion directories (tests); the system's when empty.
	BashCompletions string
	ZshDirs         []string
}

// Probe is the real analyze.Facts. It is safe for concurrent use; create one
// per analysis, as it caches what it learns.
type Probe struct {
	opts Options

	exeOnce sync.Once
	exes    []string

	dirs    memo[[]analyze.Entry]
	stats   memo[analyze.Entry]
	gits    memo[analyze.GitInfo]
	scripts memo[[]string]
	targets memo[[]string]
	ports   memo[analyze.Listener]
	apt     memo[string] // the index of apt's package names (aptIndex)
	vocabs  memo[analyze.Vocab]
	helps   memo[string] // a tool's --help (Help)
	looks   memo[bool]
}

var _ analyze.Facts = (*Probe)(nil)

// New returns a probe of the environment that opts describes.
func New(opts Options) *Probe {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Git == "" {
		opts.Git = "git"
	}
	if opts.AptLists == "" {
		opts.AptLists = "/var/lib/apt/lists"
	}
	return &Probe{opts: opts}
}

// memo caches one value per key, computing each at most once even when
// asked concurrently.
type memo[T any] struct {
	mu    sync.Mutex
	cells map[string]*cell[T]
}

type cell[T any] struct {
	once sync.Once
	v    T
	err  error
}

func (m *memo[T]) get(key string, compute func() (T, error)) (T, error) {
	m.mu.Lock()
	if m.cells == nil {
		m.cells = map[string]*cell[T]{}
	}
	c, ok := m.cells[key]
	if !ok {
		c = &cell[T]{}
		m.cells[key] = c
	}
	m.mu.Unlock()
	c.once.Do(func() { c.v, c.err = compute() })
	return c.v, c.err
}

// errTimeout is returned for a fact that took longer than its timeout.
var errTimeout = errors.New("probe: timed out")

// within runs fn with a deadline; a slow fn is abandoned (it finishes in
// the background, its result discarded).
func within[T any](ctx context.Context, d time.Duration, fn func(ctx context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	go func() {
		v, err := fn(ctx)
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		cancel()
		return r.v, r.err
	case <-ctx.Done():
		cancel()
		var zero T
		return zero, errTimeout
	}
}

func (p *Probe) pathDirs() []string {
	var dirs []string
	seen := map[string]bool{}
	for _, d := range filepath.SplitList(p.opts.Path) {
		if d == "" || seen[d] || !filepath.IsAbs(d) {
			continue
		}
		seen[d] = true
		dirs = append(dirs, d)
	}
	return dirs
}

// LookPath reports whether name is an executable file in a PATH directory.
func (p *Probe) LookPath(ctx context.Context, name string) bool {
	if name == "" || strings.Contains(name, "/") {
		return false
	}
	ok, err := p.looks.get(name, func() (bool, error) {
		return within(ctx, p.opts.Timeout, func(context.Context) (bool, error) {
			for _, d := range p.pathDirs() {
				if fi, err := os.Stat(filepath.Join(d, name)); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
					return true, nil
				}
			}
			return false, nil
		})
	})
	return err == nil && ok
}

// Executables returns the names in the PATH directories, sorted. Entries
// are not stat'ed one by one: PATH directories hold programs. With
// Options.ExeIndex set, the names are kept in that file, made again when a
// directory changes (the directories, their inodes and modification times
// are its stamp: a program installed or removed changes its directory's),
// so that a command-not-found failure reads one file instead of listing a
// few thousand entries (~3.5 ms, docs/benchmarks.md §38).
func (p *Probe) Executables(ctx context.Context) []string {
	p.exeOnce.Do(func() {
		names, err := within(ctx, p.opts.Timeout, func(ctx context.Context) ([]string, error) {
			dirs := p.pathDirs()
			header := exeIndexHeader + exeStamp(dirs)
			if p.opts.ExeIndex != "" {
				if b, err := os.ReadFile(p.opts.ExeIndex); err == nil {
					if rest, ok := strings.CutPrefix(string(b), header+"\n"); ok {
						if rest == "" {
							return []string{}, nil
						}
						return strings.Split(strings.TrimSuffix(rest, "\n"), "\n"), nil
					}
				}
			}
			set := map[string]bool{}
			for _, d := range dirs {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				es, err := os.ReadDir(d)
				if err != nil {
					continue // a PATH entry that does not exist is common
				}
				for _, e := range es {
					if (e.Type().IsRegular() || e.Type()&os.ModeSymlink != 0) && !strings.Contains(e.Name(), "\n") {
						set[e.Name()] = true
					}
				}
			}
			out := make([]string, 0, len(set))
			for n := range set {
				out = append(out, n)
			}
			sort.Strings(out)
			if p.opts.ExeIndex != "" {
				text := header + "\n"
				if len(out) > 0 {
					text += strings.Join(out, "\n") + "\n"
				}
				writeCacheFile(p.opts.ExeIndex, text)
			}
			return out, nil
		})
		if err == nil {
			p.exes = names
		}
	})
	return p.exes
}

// exeIndexHeader starts the PATH names' cache file, followed by the stamp
// of the directories.
const exeIndexHeader = "hookd path names 1 "

// exeStamp describes the PATH directories as they are now: each one's
// name, inode and modification time (a missing one as missing), hashed.
func exeStamp(dirs []string) string {
	h := sha256.New()
	for _, d := range dirs {
		info, err := os.Stat(d)
		if err != nil {
			fmt.Fprintf(h, "%s -\n", d)
			continue
		}
		var ino any
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			ino = fmt.Sprint(st.Dev, st.Ino)
		}
		fmt.Fprintf(h, "%s %v %d\n", d, ino, info.ModTime().UnixNano())
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// builtins are the shells' builtins, split into words on first use (a
// hookd command that analyses nothing does not pay for it).
var builtins struct {
	once      sync.Once
	bash, zsh []string
}

func shellBuiltins(zsh bool) []string {
	builtins.once.Do(func() {
		builtins.bash = strings.Fields(`. : [ alias bg bind break builtin caller cd command compgen complete
		compopt continue declare dirs disown echo enable eval exec exit export false fc fg getopts hash
		help history jobs kill let local logout mapfile popd printf pushd pwd read readarray readonly
		return set shift shopt source suspend test times trap true type typeset ulimit umask unalias
		unset wait`)
		builtins.zsh = strings.Fields(`. : [ alias autoload bg bindkey break builtin bye cd chdir command
		compadd compdef declare dirs disable disown echo emulate enable eval exec exit export false fc
		fg float functions getopts hash history integer jobs kill let local logout noglob popd print
		printf pushd pwd r read readonly rehash return set setopt shift source suspend test times trap
		true ttyctl type typeset ulimit umask unalias unfunction unhash unset unsetopt wait whence where
		which zcompile zle zmodload zparseopts zstyle`)
	})
	if zsh {
		return builtins.zsh
	}
	return builtins.bash
}

// Builtins returns the builtins of the user's shell.
func (p *Probe) Builtins(context.Context) []string {
	return shellBuiltins(p.opts.Shell == "zsh")
}

// Aliases returns the alias names the caller supplied.
func (p *Probe) Aliases(context.Context) []string { return p.opts.Aliases }

// Functions returns the function names the caller supplied.
func (p *Probe) Functions(context.Context) []string { return p.opts.Functions }

// IsRoot reports whether the uid is 0.
func (p *Probe) IsRoot(context.Context) bool { return p.opts.UID == 0 }

// maxEntries bounds a directory listing.
const maxEntries = 5000

// ReadDir lists a directory, sorted by name, following symbolic links to
// tell directories apart.
func (p *Probe) ReadDir(ctx context.Context, dir string) ([]analyze.Entry, error) {
	dir = filepath.Clean(dir)
	return p.dirs.get(dir, func() ([]analyze.Entry, error) {
		return within(ctx, p.opts.Timeout, func(ctx context.Context) ([]analyze.Entry, error) {
			es, err := os.ReadDir(dir)
			if err != nil {
				return nil, fmt.Errorf("read directory %s: %w", dir, err)
			}
			if len(es) > maxEntries {
				es = es[:maxEntries]
			}
			out := make([]analyze.Entry, 0, len(es))
			for _, e := range es {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				out = append(out, entryOf(filepath.Join(dir, e.Name()), e))
			}
			return out, nil
		})
	})
}

func entryOf(path string, e os.DirEntry) analyze.Entry {
	en := analyze.Entry{Name: e.Name(), Dir: e.IsDir(), Symlink: e.Type()&os.ModeSymlink != 0}
	fi, err := e.Info()
	if en.Symlink {
		fi, err = os.Stat(path)
	}
	if err == nil {
		en.Dir = fi.IsDir()
		en.Exec = fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
		en.Size = fi.Size()
	}
	return en
}

// Stat describes one path, following symbolic links.
func (p *Probe) Stat(ctx context.Context, path string) (analyze.Entry, error) {
	path = filepath.Clean(path)
	return p.stats.get(path, func() (analyze.Entry, error) {
		return within(ctx, p.opts.Timeout, func(context.Context) (analyze.Entry, error) {
			fi, err := os.Stat(path)
			if err != nil {
				return analyze.Entry{}, err
			}
			lfi, lerr := os.Lstat(path)
			return analyze.Entry{
				Name:    filepath.Base(path),
				Dir:     fi.IsDir(),
				Exec:    fi.Mode().IsRegular() && fi.Mode()&0o111 != 0,
				Symlink: lerr == nil && lfi.Mode()&os.ModeSymlink != 0,
				Size:    fi.Size(),
			}, nil
		})
	})
}

// ReadHead returns up to n bytes from the start of a regular file.
func (p *Probe) ReadHead(ctx context.Context, path string, n int) ([]byte, error) {
	if n <= 0 {
		return nil, nil
	}
	n = min(n, 1<<20)
	return within(ctx, p.opts.Timeout, func(context.Context) ([]byte, error) {
		fi, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("read %s: not a regular file", path)
		}
		fh, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		buf := make([]byte, n)
		k, err := io.ReadFull(fh, buf)
		cerr := fh.Close()
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
		if cerr != nil {
			return nil, fmt.Errorf("close %s: %w", path, cerr)
		}
		return buf[:k], nil
	})
}

// gitRoot returns the nearest directory at or above dir holding .git.
func gitRoot(dir string) (string, bool) {
	dir = filepath.Clean(dir)
	for i := 0; i < 64; i++ {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", false
}

// Git describes the repository dir belongs to, with read-only git commands
// that take no optional locks.
func (p *Probe) Git(ctx context.Context, dir string) (analyze.GitInfo, error) {
	root, ok := gitRoot(dir)
	if !ok {
		return analyze.GitInfo{}, fmt.Errorf("git: %s is not in a repository", dir)
	}
	return p.gits.get(root, func() (analyze.GitInfo, error) {
		return within(ctx, p.opts.Timeout, func(ctx context.Context) (analyze.GitInfo, error) {
			return p.gitInfo(ctx, root)
		})
	})
}

func (p *Probe) git(ctx context.Context, dir string, args ...string) (string, error) {
	argv := append([]string{"--no-optional-locks", "-C", dir}, args...)
	cmd := exec.CommandContext(ctx, p.opts.Git, argv...)
	cmd.Stdin = nil
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

func (p *Probe) gitInfo(ctx context.Context, root string) (analyze.GitInfo, error) {
	info := analyze.GitInfo{Root: root}
	var (
		wg                 sync.WaitGroup
		refs, head, remote string
		refsErr, remoteErr error
		headErr            error
	)
	wg.Add(3)
	go func() {
		defer wg.Done()
		refs, refsErr = p.git(ctx, root, "for-each-ref", "--format=%(refname)%00%(upstream:short)%00%(HEAD)", "refs/heads", "refs/remotes")
	}()
	go func() {
		defer wg.Done()
		head, headErr = p.git(ctx, root, "symbolic-ref", "-q", "--short", "HEAD")
	}()
	go func() {
		defer wg.Done()
		remote, remoteErr = p.git(ctx, root, "remote")
	}()
	wg.Wait()
	if refsErr != nil {
		return info, refsErr
	}
	for _, line := range strings.Split(strings.TrimSpace(refs), "\n") {
		parts := strings.Split(line, "\x00")
		if len(parts) != 3 {
			continue
		}
		ref, upstream, current := parts[0], parts[1], parts[2] == "*"
		switch {
		case strings.HasPrefix(ref, "refs/heads/"):
			name := strings.TrimPrefix(ref, "refs/heads/")
			info.Branches = append(info.Branches, name)
			if current {
				info.Branch, info.Upstream = name, upstream
			}
		case strings.HasPrefix(ref, "refs/remotes/") && !strings.HasSuffix(ref, "/HEAD"):
			info.RemoteBranches = append(info.RemoteBranches, strings.TrimPrefix(ref, "refs/remotes/"))
		}
	}
	if headErr == nil && info.Branch == "" {
		info.Branch = strings.TrimSpace(head) // a branch without commits yet
	}
	info.Detached = headErr != nil && strings.TrimSpace(head) == ""
	if remoteErr == nil {
		info.Remotes = strings.Fields(remote)
	}
	sort.Strings(info.Branches)
	sort.Strings(info.RemoteBranches)
	sort.Strings(info.Remotes)
	return info, nil
}

// PackageScripts returns the script names of the nearest package.json.
func (p *Probe) PackageScripts(ctx context.Context, dir string) ([]string, error) {
	dir = filepath.Clean(dir)
	return p.scripts.get(dir, func() ([]string, error) {
		return within(ctx, p.opts.Timeout, func(context.Context) ([]string, error) {
			for d, i := dir, 0; i < 64; i++ {
				data, err := os.ReadFile(filepath.Join(d, "package.json"))
				if err == nil {
					var pkg struct {
						Scripts map[string]json.RawMessage `json:"scripts"`
					}
					if err := json.Unmarshal(data, &pkg); err != nil {
						return nil, fmt.Errorf("parse %s: %w", filepath.Join(d, "package.json"), err)
					}
					names := make([]string, 0, len(pkg.Scripts))
					for n := range pkg.Scripts {
						names = append(names, n)
					}
					sort.Strings(names)
					return names, nil
				}
				parent := filepath.Dir(d)
				if parent == d {
					break
				}
				d = parent
			}
			return nil, fmt.Errorf("no package.json at or above %s", dir)
		})
	})
}

// makeTargetRe finds a target in a Makefile; compiled on first use.
var makeTargetRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([^\s:=#][^:=#]*?)\s*::?(?:[^=]|$)`) })

// MakeTargets returns the explicit targets of the makefile in dir, the way
// make looks for it (GNUmakefile, makefile, Makefile).
func (p *Probe) MakeTargets(ctx context.Context, dir string) ([]string, error) {
	dir = filepath.Clean(dir)
	return p.targets.get(dir, func() ([]string, error) {
		return within(ctx, p.opts.Timeout, func(context.Context) ([]string, error) {
			for _, name := range []string{"GNUmakefile", "makefile", "Makefile"} {
				data, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					continue
				}
				return parseTargets(data), nil
			}
			return nil, fmt.Errorf("no makefile in %s", dir)
		})
	})
}

func parseTargets(data []byte) []string {
	set := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '\t' || line[0] == '#' || line[0] == ' ' {
			continue
		}
		m := makeTargetRe().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, t := range strings.Fields(m[1]) {
			if strings.HasPrefix(t, ".") || strings.ContainsAny(t, "%$()") {
				continue
			}
			set[t] = true
		}
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// PythonVenv returns the active virtual environment.
func (p *Probe) PythonVenv(context.Context) string { return p.opts.VirtualEnv }

// ListeningPort reports whether a local TCP port is in the LISTEN state,
// from /proc/net/tcp and tcp6, and which process holds it when the socket's
// owner is visible in /proc.
func (p *Probe) ListeningPort(ctx context.Context, port int) (analyze.Listener, bool) {
	l, err := p.ports.get(strconv.Itoa(port), func() (analyze.Listener, error) {
		return within(ctx, p.opts.Timeout, func(ctx context.Context) (analyze.Listener, error) {
			return listener(ctx, port)
		})
	})
	return l, err == nil
}

var errNotListening = errors.New("probe: port not listening")

func listener(ctx context.Context, port int) (analyze.Listener, error) {
	var inodes []string
	read := 0
	for _, f := range []string{procRoot + "/net/tcp", procRoot + "/net/tcp6"} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		read++
		for _, line := range strings.Split(string(data), "\n")[1:] {
			fields := strings.Fields(line)
			if len(fields) < 10 || fields[3] != "0A" {
				continue
			}
			_, hexPort, ok := strings.Cut(fields[1], ":")
			if !ok {
				continue
			}
			if n, err := strconv.ParseInt(hexPort, 16, 32); err == nil && int(n) == port {
				inodes = append(inodes, fields[9])
			}
		}
	}
	if read == 0 {
		// No /proc (macOS, a sandbox): a port is listening when a
		// connection to it on the loopback is accepted; its holder is
		// unknown.
		return dialListener(ctx, port)
	}
	if len(inodes) == 0 {
		return analyze.Listener{}, errNotListening
	}
	want := map[string]bool{}
	for _, in := range inodes {
		want["socket:["+in+"]"] = true
	}
	procs, err := os.ReadDir(procRoot)
	if err != nil {
		return analyze.Listener{}, nil // listening, holder unknown
	}
	for _, pr := range procs {
		pid, err := strconv.Atoi(pr.Name())
		if err != nil {
			continue
		}
		if ctx.Err() != nil {
			break
		}
		fds, err := os.ReadDir(filepath.Join(procRoot, pr.Name(), "fd"))
		if err != nil {
			continue // another user's process
		}
		for _, fd := range fds {
			target, err := os.Readlink(filepath.Join(procRoot, pr.Name(), "fd", fd.Name()))
			if err == nil && want[target] {
				comm, err := os.ReadFile(filepath.Join(procRoot, pr.Name(), "comm"))
				if err != nil {
					return analyze.Listener{PID: pid}, nil
				}
				return analyze.Listener{PID: pid, Command: strings.TrimSpace(string(comm))}, nil
			}
		}
	}
	return analyze.Listener{}, nil
}

// procRoot is where /proc is: tests point it at an empty directory.
var procRoot = "/proc"

// dialListener finds a listener on port by connecting to it on 127.0.0.1
// and ::1, for where /proc/net/tcp cannot be read.
func dialListener(ctx context.Context, port int) (analyze.Listener, error) {
	d := net.Dialer{Timeout: 200 * time.Millisecond}
	for _, host := range []string{"127.0.0.1", "::1"} {
		c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(host, strconv.Itoa(port)))
		if err == nil {
			c.Close()
			return analyze.Listener{}, nil
		}
	}
	return analyze.Listener{}, errNotListening
}

// AptPackages returns the package names starting with prefix from apt's
// package lists (Options.AptLists): see aptIndex. The answer may be nil.
func (p *Probe) AptPackages(ctx context.Context, prefix string) []string {
	if prefix == "" {
		return nil
	}
	index, err := p.apt.get("", func() (string, error) {
		return within(ctx, aptBuildTimeout, func(ctx context.Context) (string, error) {
			return aptIndex(ctx, p.opts.AptLists, p.opts.AptIndex)
		})
	})
	if err != nil {
		return nil
	}
	return namesWithPrefix(index, prefix)
}

// aptNames returns the package names in the lists of dir that start with
// prefix, sorted, reading the lists themselves.
func aptNames(ctx context.Context, dir, prefix string) ([]string, error) {
	all, err := readAptLists(ctx, dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range all {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	return out, nil
}
