package promptfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
	"mvdan.cc/sh/v3/syntax"
)

// Allowlist decides which “!`cmd` “ expansions run. The built-in safe
// list is always there: git status, diff, log, branch (listing)
// and remote (listing); ls and cat of files inside the project; echo, pwd
// and date. Extra holds the user's own patterns (config.yaml's
// prompt_files.allow, never a project's file): a pattern is the command's
// words joined by single spaces, where * matches any run of characters
// (wc -l *). A pattern must not name a command that runs the project's own
// code (make, npm run, just): the project's Makefile is its author's.
//
// Every argument of an allowed command (git's and the user's patterns'
// included; echo, pwd and date take no paths) that is not an option is
// taken as a path and must lie inside the project once symbolic links are
// resolved, and so must a value attached to an option (--file=P): git
// diff with a path outside the work tree turns into git diff --no-index
// by itself and would read any file.
//
// A command line is parsed as the shell would parse it and refused as a
// whole unless every simple command in it is allowed and it has nothing
// but literal words: no redirections, substitutions, expansions,
// variables, assignments, globs, ~, backslashes or background jobs. Lists
// joined by ;, &&, || and | are allowed when each part is.
type Allowlist struct {
	Extra []string
}

// Check returns nil when line may run in root (the project's root, where
// it runs), else why not; the reason always contains "not allowed".
func (a Allowlist) Check(line, root string) error {
	f, err := shellwords.Parse(line, "bash")
	if err != nil {
		return fmt.Errorf("not allowed: not a valid command line (%v)", err)
	}
	if len(f.Stmts) == 0 {
		return errors.New("not allowed: empty command")
	}
	for _, st := range f.Stmts {
		if err := a.stmt(st, root); err != nil {
			return err
		}
	}
	return nil
}

func (a Allowlist) stmt(st *syntax.Stmt, root string) error {
	switch {
	case len(st.Redirs) > 0:
		return errors.New("not allowed: redirections")
	case st.Background || st.Coprocess || st.Disown:
		return errors.New("not allowed: background jobs")
	case st.Negated:
		return errors.New("not allowed: negation (!)")
	}
	switch c := st.Cmd.(type) {
	case *syntax.BinaryCmd:
		if c.Op != syntax.AndStmt && c.Op != syntax.OrStmt && c.Op != syntax.Pipe {
			return fmt.Errorf("not allowed: %s", c.Op)
		}
		if err := a.stmt(c.X, root); err != nil {
			return err
		}
		return a.stmt(c.Y, root)
	case *syntax.CallExpr:
		if len(c.Assigns) > 0 {
			return errors.New("not allowed: variable assignments")
		}
		var argv []string
		for _, w := range c.Args {
			s, err := literal(w)
			if err != nil {
				return err
			}
			argv = append(argv, s)
		}
		if len(argv) == 0 {
			return errors.New("not allowed: empty command")
		}
		return a.simple(argv, root)
	case nil:
		return errors.New("not allowed: empty command")
	}
	return fmt.Errorf("not allowed: only simple commands, joined by ;, &&, || or |")
}

// literal returns w's text when it is made only of plain text and quotes.
func literal(w *syntax.Word) (string, error) {
	var b strings.Builder
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[\\") {
				return "", fmt.Errorf("not allowed: globs and backslashes (%s)", p.Value)
			}
			if i == 0 && strings.HasPrefix(p.Value, "~") {
				return "", errors.New("not allowed: ~")
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", errors.New("not allowed: $'…'")
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", errors.New("not allowed: $\"…\"")
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", errors.New("not allowed: substitutions and expansions")
				}
				if strings.Contains(l.Value, "\\") {
					return "", errors.New("not allowed: backslashes")
				}
				b.WriteString(l.Value)
			}
		default:
			return "", errors.New("not allowed: substitutions and expansions")
		}
	}
	return b.String(), nil
}

// simple checks one command's words.
func (a Allowlist) simple(argv []string, root string) error {
	line := strings.Join(argv, " ")
	for _, p := range a.Extra {
		if glob(strings.Join(strings.Fields(p), " "), line) {
			return paths(line, argv[1:], root)
		}
	}
	args := argv[1:]
	no := fmt.Errorf("not allowed: %s (not in the allowlist; add a pattern to prompt_files.allow in your config.yaml)", line)
	switch argv[0] {
	case "echo":
		return nil
	case "pwd":
		for _, x := range args {
			if x != "-L" && x != "-P" {
				return no
			}
		}
		return nil
	case "date":
		for _, x := range args {
			if !(strings.HasPrefix(x, "+") || x == "-u" || x == "--utc" || x == "-R" || strings.HasPrefix(x, "-I") ||
				strings.HasPrefix(x, "--iso-8601") || strings.HasPrefix(x, "--rfc-3339=")) {
				return no
			}
		}
		return nil
	case "ls", "cat":
		for _, x := range args {
			if strings.HasPrefix(x, "-") && x != "-" {
				if argv[0] == "cat" && strings.Trim(x, "-nAbeEsStTuv") != "" {
					return no
				}
				continue
			}
			if err := inside(x, root); err != nil {
				return fmt.Errorf("not allowed: %s: %v", line, err)
			}
		}
		return nil
	case "git":
		if len(args) == 0 {
			return no
		}
		sub, rest := args[0], args[1:]
		for _, x := range rest {
			for _, bad := range []string{"--output", "--ext-diff", "--no-index", "--exec", "--upload-pack", "-O"} {
				if strings.HasPrefix(x, bad) {
					return no
				}
			}
		}
		if err := paths(line, rest, root); err != nil {
			return err
		}
		switch sub {
		case "status", "diff", "log":
			return nil
		case "branch":
			for _, x := range rest {
				switch {
				case x == "-a" || x == "-r" || x == "-v" || x == "-vv" || x == "--all" || x == "--remotes" ||
					x == "--verbose" || x == "--show-current" || x == "--no-color" || strings.HasPrefix(x, "--sort=") ||
					strings.HasPrefix(x, "--color"):
				default:
					return no
				}
			}
			return nil
		case "remote":
			switch {
			case len(rest) == 0, len(rest) == 1 && (rest[0] == "-v" || rest[0] == "--verbose"),
				len(rest) == 2 && rest[0] == "get-url":
				return nil
			}
		}
	}
	return no
}

// paths checks that every argument that is not an option, and every value
// attached to an option, lies inside the project (see inside). A revision
// (HEAD~1, main..topic) is no file, and lies inside as a name would.
func paths(line string, args []string, root string) error {
	for _, x := range args {
		if strings.HasPrefix(x, "-") {
			_, v, ok := strings.Cut(x, "=")
			if !ok || v == "" {
				continue
			}
			x = v
		}
		if err := inside(x, root); err != nil {
			return fmt.Errorf("not allowed: %s: %v", line, err)
		}
	}
	return nil
}

// inside says whether path, relative to root, is in the project once
// symbolic links are resolved.
func inside(path, root string) error {
	p := path
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			real = filepath.Clean(p) // cat says so itself; still refuse ../
		} else {
			return err
		}
	}
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		r = root
	}
	if !within(real, r) {
		return fmt.Errorf("%s is outside the project", path)
	}
	return nil
}

func within(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// glob matches s against pattern, where * matches any run of characters
// (spaces and slashes included) and everything else is itself.
func glob(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return strings.HasSuffix(s, parts[len(parts)-1])
}
