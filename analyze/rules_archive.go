package analyze

import (
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

var (
	tarExecRe         = lazyRegexp(`(?:tar(?: \(child\))?: )?([a-z0-9]+): Cannot exec: No such file or directory`)
	tarNotInArchiveRe = lazyRegexp(`(?m)^tar: ([^:\n]+): Not found in archive`)
)

// archiveFormat tells what a file really is, from its first bytes, falling
// back to its name: "tar", "tar.gz", "tar.bz2", "tar.xz", "tar.zst", "zip",
// "gz", "bz2", "xz", "zst", "7z", "rar", or "".
func archiveFormat(ctx context.Context, f *Failure, name string) string {
	head, err := f.Env.ReadHead(ctx, f.path(name), 64<<10)
	if err == nil && len(head) > 0 {
		if fm := sniff(head, name); fm != "" {
			return fm
		}
	}
	return formatByName(name)
}

func sniff(head []byte, name string) string {
	isTar := func(b []byte) bool { return len(b) >= 262 && string(b[257:262]) == "ustar" }
	switch {
	case isTar(head):
		return "tar"
	case bytes.HasPrefix(head, []byte("PK\x03\x04")) || bytes.HasPrefix(head, []byte("PK\x05\x06")):
		return "zip"
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(bytes.NewReader(head))
		if err == nil {
			buf := make([]byte, 512)
			n, _ := io.ReadFull(zr, buf) // a truncated head still shows the tar header
			if isTar(buf[:n]) {
				return "tar.gz"
			}
			if n > 0 {
				return "gz"
			}
		}
		if strings.Contains(name, ".tar") || strings.HasSuffix(name, ".tgz") {
			return "tar.gz"
		}
		return "gz"
	case bytes.HasPrefix(head, []byte("BZh")):
		buf := make([]byte, 512)
		n, _ := io.ReadFull(bzip2.NewReader(bytes.NewReader(head)), buf) // likewise
		if isTar(buf[:n]) || strings.Contains(name, ".tar") || strings.HasSuffix(name, ".tbz2") {
			return "tar.bz2"
		}
		return "bz2"
	case bytes.HasPrefix(head, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		if strings.Contains(name, ".tar") || strings.HasSuffix(name, ".txz") {
			return "tar.xz"
		}
		return "xz"
	case bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		if strings.Contains(name, ".tar") {
			return "tar.zst"
		}
		return "zst"
	case bytes.HasPrefix(head, []byte{'7', 'z', 0xbc, 0xaf, 0x27, 0x1c}):
		return "7z"
	case bytes.HasPrefix(head, []byte("Rar!")):
		return "rar"
	}
	return ""
}

func formatByName(name string) string {
	n := strings.ToLower(name)
	for _, s := range []struct{ suffix, format string }{
		{".tar.gz", "tar.gz"}, {".tgz", "tar.gz"}, {".tar.bz2", "tar.bz2"}, {".tbz2", "tar.bz2"}, {".tbz", "tar.bz2"},
		{".tar.xz", "tar.xz"}, {".txz", "tar.xz"}, {".tar.zst", "tar.zst"}, {".tar", "tar"}, {".zip", "zip"},
		{".jar", "zip"}, {".whl", "zip"}, {".gz", "gz"}, {".bz2", "bz2"}, {".xz", "xz"}, {".zst", "zst"},
		{".7z", "7z"}, {".rar", "rar"},
	} {
		if strings.HasSuffix(n, s.suffix) {
			return s.format
		}
	}
	return ""
}

// extractCommand returns the command that unpacks a file of a format.
func extractCommand(format, file string) string {
	file = shellwords.QuotePath(file)
	switch format {
	case "tar":
		return "tar -xf " + file
	case "tar.gz":
		return "tar -xzf " + file
	case "tar.bz2":
		return "tar -xjf " + file
	case "tar.xz":
		return "tar -xJf " + file
	case "tar.zst":
		return "tar --zstd -xf " + file
	case "zip":
		return "unzip " + file
	case "gz":
		return "gunzip " + file
	case "bz2":
		return "bunzip2 " + file
	case "xz":
		return "unxz " + file
	case "zst":
		return "unzstd " + file
	case "7z":
		return "7z x " + file
	case "rar":
		return "unrar x " + file
	}
	return ""
}

// formatNames are how messages call the formats.
var formatNames = lazyValue[map[string]string]{make: func() map[string]string {
	return map[string]string{
		"tar": "an uncompressed tar archive", "tar.gz": "a gzip-compressed tar archive", "tar.bz2": "a bzip2-compressed tar archive",
		"tar.xz": "an xz-compressed tar archive", "tar.zst": "a zstd-compressed tar archive", "zip": "a zip archive",
		"gz": "a gzip-compressed file", "bz2": "a bzip2-compressed file", "xz": "an xz-compressed file", "zst": "a zstd-compressed file",
		"7z": "a 7-Zip archive", "rar": "a RAR archive",
	}
}}

// tarFile returns the index of tar's archive argument, or -1.
func tarFile(c *Call) int {
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		switch {
		case a == "-f" || a == "--file":
			if j+1 < len(c.Args) {
				return j + 1
			}
		case strings.HasPrefix(a, "--file="):
			return j
		case j == 1 && !strings.HasPrefix(a, "-") && strings.Contains(a, "f") && isLetters(a), strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "f"):
			if j+1 < len(c.Args) {
				return j + 1
			}
		}
	}
	return -1
}

func ruleArchive(ctx context.Context, f *Failure) *Finding {
	c := f.call("tar", "unzip", "gunzip", "gzip", "bunzip2", "unxz", "xz", "7z", "unrar", "zcat")
	if c == nil {
		return nil
	}
	switch c.Name() {
	case "tar":
		return tarFailure(ctx, f, c)
	case "gzip":
		if !hasFlag(c.Args[1:], "d", "decompress") {
			return nil
		}
	}
	if !f.has("not in gzip format", "unknown suffix", "end-of-central-directory", "not a zipfile", "cannot find zipfile directory", "is not a bzip2 file", "file format not recognized", "can not open the file as archive", "is not rar archive", "not a rar archive") {
		return nil
	}
	file := ""
	for _, a := range c.Args[1:] {
		if !strings.HasPrefix(a, "-") {
			file = a
			break
		}
	}
	if file == "" {
		return nil
	}
	fm := archiveFormat(ctx, f, file)
	cmd := extractCommand(fm, file)
	if cmd == "" || strings.Fields(cmd)[0] == c.Name() {
		if f.has("unknown suffix") && fm == "gz" {
			return found(FileNotFound, 0.8, fmt.Sprintf("%s is gzip-compressed but its name does not end in .gz.", file),
				fix("gunzip -c "+shellwords.QuotePath(file)+" > "+shellwords.QuotePath(strings.TrimSuffix(file, ".gz")+".out"), 0.6, "Decompress it to a new file."))
		}
		return explain(FileNotFound, 0.75, "%s is not in the format %s expects (or is damaged).", file, c.Name())
	}
	return found(FileNotFound, 0.92, fmt.Sprintf("%s is %s, not what %s reads.", file, formatNames.get()[fm], c.Name()),
		fix(cmd, 0.92, "Unpack it with the tool for %s.", formatNames.get()[fm]))
}

// tarFailure handles mistaken tar flags.
func tarFailure(ctx context.Context, f *Failure, c *Call) *Finding {
	noF := tarFile(c) < 0
	for _, a := range c.Args[1:] {
		if a == "--file" || strings.HasPrefix(a, "--file=") {
			noF = false
		}
	}
	fileArg := false
	for _, a := range c.Args[1:] {
		if !strings.HasPrefix(a, "-") && f.isFile(ctx, a) {
			fileArg = true
		}
	}
	if f.has("refusing to read archive contents from terminal", "refusing to write archive contents to terminal") || noF && fileArg && f.has("unexpected end of file", "not in gzip format", "error is not recoverable", "is not a bzip2 file") {
		for j := 1; j < len(c.Args); j++ {
			a := c.Args[j]
			if (j == 1 || strings.HasPrefix(a, "-")) && isLetters(strings.TrimPrefix(a, "-")) && !strings.Contains(a, "f") {
				return found(SyntaxError, 0.9, "tar needs -f to name the archive file; without it, it uses the terminal.",
					fix(f.putWord(c, j, a+"f"), 0.9, "Add f so that the next word names the archive."))
			}
		}
	}
	if f.has("cowardly refusing to create an empty archive") {
		return explain(SyntaxError, 0.88, "tar was asked to create an archive but given no files to put in it; name the files or directories after the archive name.")
	}
	if f.has("you must specify one of the") {
		for j := 1; j < len(c.Args); j++ {
			a := c.Args[j]
			if strings.HasPrefix(a, "-") || !f.isFile(ctx, a) {
				continue
			}
			if cmd := extractCommand(archiveFormat(ctx, f, a), a); strings.HasPrefix(cmd, "tar ") {
				return found(SyntaxError, 0.88, "tar needs to be told what to do: x extracts, c creates, t lists.",
					fix(cmd, 0.88, "Extract the archive."))
			}
		}
		return explain(SyntaxError, 0.85, "tar needs to be told what to do: -x extracts, -c creates, -t lists, with -f naming the archive.")
	}
	if m := f.find(tarExecRe); m != nil {
		prog := m[1]
		if pkg, ok := debianPackages.get()[prog]; ok {
			return found(MissingDependency, 0.9, fmt.Sprintf("tar needs %s to handle this compression, and it is not installed.", prog),
				fix(f.installCommand(ctx, pkg), 0.9, "Install %s.", pkg))
		}
	}
	if m := f.find(tarNotInArchiveRe); m != nil {
		return explain(FileNotFound, 0.85, "The archive holds no member named %s; tar -tf lists what it holds (paths are stored with their directories).", m[1])
	}
	j := tarFile(c)
	if j < 0 {
		return nil
	}
	file := c.Args[j]
	// Creating with the archive and the directory swapped.
	if f.has("cannot open: is a directory") && f.isDir(ctx, file) && j+1 < len(c.Args) {
		return found(SyntaxError, 0.88, "The archive name comes right after -f; the directory to archive comes after it.",
			fix(f.replaceWords(c, j, j+2, c.Raw[j+1]+" "+c.Raw[j]), 0.88, "Swap the archive name and the directory."))
	}
	if !f.has("not in gzip format", "is not a bzip2 file", "file format not recognized", "does not look like a tar archive", "child returned status", "unexpected eof", "archive is compressed", "error is not recoverable") {
		return nil
	}
	fm := archiveFormat(ctx, f, file)
	if fm == "" {
		return nil
	}
	if !strings.HasPrefix(fm, "tar") {
		cmd := extractCommand(fm, file)
		return found(FileNotFound, 0.9, fmt.Sprintf("%s is %s, not a tar archive.", file, formatNames.get()[fm]),
			fix(cmd, 0.9, "Unpack it with the tool for %s.", formatNames.get()[fm]))
	}
	// A tar archive read with the wrong compression flag: drop or correct it.
	want := map[string]string{"tar": "", "tar.gz": "z", "tar.bz2": "j", "tar.xz": "J", "tar.zst": ""}[fm]
	for k := 1; k < len(c.Args); k++ {
		a := c.Args[k]
		switch {
		case a == "--gzip" || a == "--bzip2" || a == "--xz" || a == "--zstd" || a == "-z" || a == "-j" || a == "-J" || a == "--gunzip":
			cmd := f.replaceWord(c, k, "")
			return found(FileNotFound, 0.9, fmt.Sprintf("%s is %s; the compression option does not match.", file, formatNames.get()[fm]),
				fix(cmd, 0.9, "Let tar detect the compression itself."))
		case (k == 1 || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--")) && isLetters(strings.TrimPrefix(a, "-")) && strings.ContainsAny(a, "zjJ"):
			fixed := strings.NewReplacer("z", want, "j", want, "J", want).Replace(a)
			if fixed == a {
				continue
			}
			return found(FileNotFound, 0.92, fmt.Sprintf("%s is %s; the compression flag in %s does not match.", file, formatNames.get()[fm], a),
				fix(f.putWord(c, k, fixed), 0.92, "Use the flags for %s.", formatNames.get()[fm]))
		}
	}
	return nil
}
