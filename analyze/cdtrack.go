package analyze

import (
	"path/filepath"
	"strings"
)

// dirOf returns the directory call c ran in: the line's directory, changed
// by each cd before c that ran first for sure (at top level, followed by ;
// or && or a newline: "cd ~; cd srcc" analyses srcc in the home). ok is
// false when an earlier cd went somewhere hookd cannot tell (cd -, cd $X,
// cd ~ with the home unknown).
func (f *Failure) dirOf(c *Call) (dir string, ok bool) {
	dir = f.Cwd
	cmd := f.Input.Command
	for i := range f.Calls {
		p := &f.Calls[i]
		if p == c {
			return dir, true
		}
		if p.Nested || p.Name() != "cd" || p.Sudo {
			continue
		}
		next := len(cmd)
		if i+1 < len(f.Calls) {
			next = f.Calls[i+1].span[0]
		}
		if sep := strings.TrimSpace(cmd[min(p.span[1], next):next]); sep != ";" && sep != "&&" && sep != "" {
			continue // a pipe, ||, a subshell: the cd may not have changed this shell's directory
		}
		args := p.Args[1:]
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		var t string
		switch {
		case len(args) > 1:
			return "", false
		case len(args) == 0 || args[0] == "~":
			t = f.Input.Home
		case strings.HasPrefix(args[0], "~/"):
			if f.Input.Home == "" {
				return "", false
			}
			t = filepath.Join(f.Input.Home, args[0][2:])
		case args[0] == "-" || strings.HasPrefix(args[0], "-") || strings.ContainsAny(args[0], "$`~*?["):
			return "", false
		case filepath.IsAbs(args[0]):
			t = args[0]
		case dir == "":
			return "", false
		default:
			t = filepath.Join(dir, args[0])
		}
		if t == "" {
			return "", false
		}
		dir = filepath.Clean(t)
	}
	return dir, true
}
