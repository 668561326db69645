package runctx

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Repo is a git work tree and where its files are.
type Repo struct {
	Root   string // the top of the work tree
	GitDir string // the work tree's git directory: HEAD, index, logs/HEAD
	Common string // the repository's shared directory: refs, packed-refs, config
}

// maxDepth bounds the walk up from a directory to its repository.
const maxDepth = 64

// FindRepo returns the repository whose work tree holds dir: the nearest
// directory at or above dir with a .git directory, or a .git file naming
// one (a linked work tree, a submodule).
func FindRepo(dir string) (Repo, bool) {
	if !filepath.IsAbs(dir) {
		return Repo{}, false
	}
	d := filepath.Clean(dir)
	for range maxDepth {
		g := filepath.Join(d, ".git")
		if fi, err := os.Stat(g); err == nil {
			switch {
			case fi.IsDir():
				if isGitDir(g) {
					return Repo{Root: d, GitDir: g, Common: g}, true
				}
			case fi.Mode().IsRegular():
				if r, ok := linked(d, g); ok {
					return r, true
				}
			}
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	return Repo{}, false
}

// isGitDir reports whether g looks like a git directory (it has a HEAD).
func isGitDir(g string) bool {
	fi, err := os.Stat(filepath.Join(g, "HEAD"))
	return err == nil && fi.Mode().IsRegular()
}

// linked reads a .git file ("gitdir: PATH") and the commondir file of the
// directory it names.
func linked(root, file string) (Repo, bool) {
	b, err := readSmall(file, 4096)
	if err != nil {
		return Repo{}, false
	}
	p, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return Repo{}, false
	}
	gd := strings.TrimSpace(p)
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(root, gd)
	}
	gd = filepath.Clean(gd)
	if !isGitDir(gd) {
		return Repo{}, false
	}
	r := Repo{Root: root, GitDir: gd, Common: gd}
	if c, err := readSmall(filepath.Join(gd, "commondir"), 4096); err == nil {
		cd := strings.TrimSpace(string(c))
		if !filepath.IsAbs(cd) {
			cd = filepath.Join(gd, cd)
		}
		r.Common = filepath.Clean(cd)
	}
	return r, true
}

// readSmall reads a file of at most max bytes.
func readSmall(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}

// Head is what HEAD names: a branch, or a commit when detached.
type Head struct {
	Branch string // "" when detached
	Commit string // the commit when detached (hex)
}

// String is the branch, or "detached at" the commit's first 12 digits.
func (h Head) String() string {
	if h.Branch != "" {
		return h.Branch
	}
	if h.Commit == "" {
		return ""
	}
	return "detached at " + short(h.Commit)
}

func short(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

// Head reads what HEAD names now.
func (r Repo) Head() (Head, error) {
	b, err := readSmall(filepath.Join(r.GitDir, "HEAD"), 4096)
	if err != nil {
		return Head{}, err
	}
	s := strings.TrimSpace(string(b))
	if ref, ok := strings.CutPrefix(s, "ref:"); ok {
		ref = strings.TrimSpace(ref)
		if br, ok := strings.CutPrefix(ref, "refs/heads/"); ok {
			return Head{Branch: br}, nil
		}
		return Head{}, errors.New("HEAD names " + ref)
	}
	if isHex(s) {
		return Head{Commit: s}, nil
	}
	return Head{}, errors.New("HEAD is not a ref or a commit")
}

func isHex(s string) bool {
	if len(s) < 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// reflogTail is how much of the end of logs/HEAD is read.
const reflogTail = 256 << 10

// entry is one line of the HEAD reflog.
type entry struct {
	sec int64 // when, in seconds since the epoch
	msg string
}

// reflog returns the last entries of the HEAD reflog, oldest first, and
// when the file was last written (µs): when its last entry was added.
func (r Repo) reflog() ([]entry, int64) {
	f, err := os.Open(filepath.Join(r.GitDir, "logs", "HEAD"))
	if err != nil {
		return nil, 0
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0
	}
	off := max(fi.Size()-reflogTail, 0)
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return nil, 0
	}
	b, err := io.ReadAll(io.LimitReader(f, reflogTail))
	if err != nil {
		return nil, 0
	}
	if off > 0 {
		// The first line read is cut: start after it.
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	var out []entry
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), reflogTail)
	for sc.Scan() {
		if e, ok := parseReflog(sc.Text()); ok {
			out = append(out, e)
		}
	}
	return out, fi.ModTime().UnixMicro()
}

// parseReflog reads "OLD NEW NAME <EMAIL> SECONDS ZONE\tMESSAGE".
func parseReflog(line string) (entry, bool) {
	head, msg, ok := strings.Cut(line, "\t")
	if !ok {
		return entry{}, false
	}
	f := strings.Fields(head)
	if len(f) < 4 {
		return entry{}, false
	}
	sec, err := strconv.ParseInt(f[len(f)-2], 10, 64)
	if err != nil {
		return entry{}, false
	}
	return entry{sec: sec, msg: msg}, true
}

// HeadAt returns what HEAD named when a command started at start
// (microseconds since the epoch): HEAD now, with the checkouts the reflog
// records since then undone. The reflog counts whole seconds: an entry in
// the very second the command started came after the start if it is the
// last one and the file was written after the start; an earlier one in
// that second is taken to come after the start when ownSecond says so
// (the command itself, or a later one started in that second, may have
// made it: the caller knows), else before.
func (r Repo) HeadAt(start int64, ownSecond bool) (Head, error) {
	s, err := r.Snapshot()
	if err != nil {
		return Head{}, err
	}
	return s.HeadAt(start, ownSecond), nil
}

// Snapshot is HEAD and the end of its reflog as read once, to answer
// HeadAt for many commands without reading them again.
type Snapshot struct {
	head    Head
	log     []entry
	written int64
}

// Snapshot reads HEAD and the end of its reflog.
func (r Repo) Snapshot() (Snapshot, error) {
	h, err := r.Head()
	if err != nil {
		return Snapshot{}, err
	}
	log, written := r.reflog()
	return Snapshot{head: h, log: log, written: written}, nil
}

// HeadAt is Repo.HeadAt, from what was read.
func (s Snapshot) HeadAt(start int64, ownSecond bool) Head {
	h := s.head
	sec := start / 1e6
	log, written := s.log, s.written
	for i := len(log) - 1; i >= 0; i-- {
		e := log[i]
		after := e.sec > sec
		if e.sec == sec {
			after = ownSecond
			if i == len(log)-1 && written/1e6 == sec {
				after = written > start
			}
		}
		if !after {
			break
		}
		if from, _, ok := checkout(e.msg); ok {
			h = headOf(from)
			continue
		}
		if old, nw, ok := renamed(e.msg); ok && h.Branch == nw {
			h = Head{Branch: old}
		}
	}
	return h
}

// checkout reads "checkout: moving from A to B".
func checkout(msg string) (from, to string, ok bool) {
	rest, ok := strings.CutPrefix(msg, "checkout: moving from ")
	if !ok {
		return "", "", false
	}
	i := strings.LastIndex(rest, " to ")
	if i < 0 {
		return "", "", false
	}
	return rest[:i], rest[i+4:], true
}

// renamed reads "Branch: renamed refs/heads/A to refs/heads/B".
func renamed(msg string) (old, nw string, ok bool) {
	rest, ok := strings.CutPrefix(msg, "Branch: renamed refs/heads/")
	if !ok {
		return "", "", false
	}
	o, n, ok := strings.Cut(rest, " to refs/heads/")
	return o, n, ok
}

// headOf is what a checkout's "from" names: a commit when it is one
// (detached), else a branch.
func headOf(name string) Head {
	if isHex(name) {
		return Head{Commit: name}
	}
	return Head{Branch: name}
}

// HasBranch reports whether the repository has a local branch called
// name (a loose ref, or one in packed-refs).
func (r Repo) HasBranch(name string) bool {
	if name == "" || strings.Contains(name, "..") {
		return false
	}
	if fi, err := os.Stat(filepath.Join(r.Common, "refs", "heads", filepath.FromSlash(name))); err == nil && fi.Mode().IsRegular() {
		return true
	}
	f, err := os.Open(filepath.Join(r.Common, "packed-refs"))
	if err != nil {
		return false
	}
	defer f.Close()
	want := " refs/heads/" + name
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasSuffix(sc.Text(), want) {
			return true
		}
	}
	return false
}

// Dirty says whether the work tree differs from the index: a tracked file
// modified (its size or modification time is not what the index noted) or
// deleted, or a merge conflict. It reads the index and stats the files,
// and gives up (known false) on an index of more than limit entries or
// one it cannot read. A file touched without being changed counts as
// modified; untracked files do not count.
func (r Repo) Dirty(limit int) (dirty, known bool) {
	b, err := os.ReadFile(filepath.Join(r.GitDir, "index"))
	if errors.Is(err, os.ErrNotExist) {
		return false, true // a repository with nothing added yet
	}
	if err != nil || len(b) < 12 || string(b[:4]) != "DIRC" {
		return false, false
	}
	ver := binary.BigEndian.Uint32(b[4:8])
	n := int(binary.BigEndian.Uint32(b[8:12]))
	if ver < 2 || ver > 4 || n > limit {
		return false, false
	}
	hashLen := 20
	if r.sha256() {
		hashLen = 32
	}
	fixed := 40 + hashLen + 2 // stat data, object name, flags
	pos := 12
	var prev []byte
	for i := 0; i < n; i++ {
		if pos+fixed > len(b) {
			return false, false
		}
		e := b[pos:]
		mtimeSec := binary.BigEndian.Uint32(e[8:12])
		mtimeNsec := binary.BigEndian.Uint32(e[12:16])
		mode := binary.BigEndian.Uint32(e[24:28])
		size := binary.BigEndian.Uint32(e[36:40])
		flags := binary.BigEndian.Uint16(e[40+hashLen:])
		p := pos + fixed
		skip := flags&0x8000 != 0 // assume-unchanged
		if flags&0x4000 != 0 {    // extended flags
			if p+2 > len(b) {
				return false, false
			}
			ext := binary.BigEndian.Uint16(b[p:])
			skip = skip || ext&(0x4000|0x2000) != 0 // skip-worktree, intent-to-add
			p += 2
		}
		var name []byte
		if ver == 4 {
			strip, k := binary.Uvarint(b[p:])
			if k <= 0 || int(strip) > len(prev) {
				return false, false
			}
			p += k
			end := bytes.IndexByte(b[p:], 0)
			if end < 0 {
				return false, false
			}
			name = append(append([]byte(nil), prev[:len(prev)-int(strip)]...), b[p:p+end]...)
			p += end + 1
		} else {
			end := bytes.IndexByte(b[p:], 0)
			if end < 0 {
				return false, false
			}
			name = b[p : p+end]
			// Padded with 1 to 8 NULs to a multiple of 8 from the entry's start.
			p = pos + (p+end-pos+8)&^7
		}
		prev = name
		pos = p
		if flags&0x3000 != 0 {
			return true, true // a conflict: the merge is unfinished
		}
		if skip || mode&0o170000 == 0o160000 || mode&0o170000 == 0o040000 {
			continue // submodules and sparse directories are not compared
		}
		var st syscall.Stat_t
		if err := syscall.Lstat(filepath.Join(r.Root, string(name)), &st); err != nil {
			return true, true // deleted
		}
		sec, nsec := mtime(&st)
		if uint32(st.Size) != size || uint32(sec) != mtimeSec || mtimeNsec != 0 && uint32(nsec) != mtimeNsec {
			return true, true
		}
	}
	return false, true
}

// sha256 reports a repository whose objects are named by SHA-256.
func (r Repo) sha256() bool {
	b, err := readSmall(filepath.Join(r.Common, "config"), 64<<10)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "objectformat") && strings.TrimSpace(v) == "sha256" {
			return true
		}
	}
	return false
}
