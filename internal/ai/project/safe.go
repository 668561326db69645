package project

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// A project's files come from whoever wrote the directory, so hookd reads
// them the way git reads a repository's config since safe.directory:
// a file or folder that another user owns, or that sits in a directory
// anyone may write to (/tmp), is ignored, and said so; a project file that
// is a symbolic link must point inside its own directory; and only regular
// files are opened, checked without blocking, so a FIFO never hangs hookd.

// Unsafe says why hookd ignores the project file or folder at path ("owned
// by uid 65534, not by you"): it is owned by another user (root
// excepted), or sits in a directory any user may write to; "" when
// neither. A path that does not exist is "" (there
// is nothing to ignore).
func Unsafe(path string) string {
	fi, err := os.Lstat(path)
	if err != nil {
		return ""
	}
	if who := otherOwner(fi); who != "" {
		return "owned by " + who + ", not by you"
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		if ti, err := os.Stat(path); err == nil {
			if who := otherOwner(ti); who != "" {
				return "a link to a file owned by " + who + ", not by you"
			}
		}
	}
	dir := filepath.Dir(path)
	if di, err := os.Stat(dir); err == nil && di.Mode().Perm()&0o002 != 0 {
		return "in " + dir + ", which any user may write to"
	}
	return ""
}

// otherOwner names the owner of fi when it is neither the user nor root.
func otherOwner(fi os.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	if int(st.Uid) == os.Geteuid() || st.Uid == 0 {
		return ""
	}
	return fmt.Sprintf("uid %d", st.Uid)
}

// Outside says why the project file at path, a symbolic link, is refused
// ("a symbolic link to …, outside its own directory"): it resolves outside
// the directory it is in; "" when it is no link or
// points inside its directory.
func Outside(path string) string {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return ""
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return ""
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "a symbolic link that leads nowhere"
	}
	if !Within(real, dir) {
		return "a symbolic link to " + real + ", outside its own directory (a project file must be in its project)"
	}
	return ""
}

// Within reports whether p is root or lies under it (both clean and
// absolute).
func Within(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// ErrNotRegular is a path that is not a regular file (a FIFO, a device, a
// directory): hookd does not open it.
var ErrNotRegular = errors.New("not a regular file")

// ReadRegular reads at most limit bytes of the regular file at path. It
// opens without blocking and checks what it opened, so a FIFO or a device
// (swapped in at any moment) is refused, never waited on.
func ReadRegular(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, ErrNotRegular)
	}
	return io.ReadAll(io.LimitReader(f, limit))
}

// IsRegular reports whether path is a regular file (a link to one
// counts), without opening it.
func IsRegular(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
