package promptfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/hookd/hookd/internal/ai/frontmatter"
	"github.com/hookd/hookd/internal/ai/project"
	"github.com/hookd/hookd/internal/shellwords"
)

// Limits.
const (
	// DefaultTimeout bounds one ``!`cmd` ``.
	DefaultTimeout = 5 * time.Second
	// MaxFile is the largest `@file` included.
	MaxFile = 256 << 10
	// MaxOutput is the most of one command's output kept.
	MaxOutput = 64 << 10
	// maxPrompt is the largest prompt file read.
	maxPrompt = 256 << 10
	// maxDepth bounds prompt files pulling in prompt files.
	maxDepth = 8
)

// Error codes.
const (
	CodeNotFound = "COMMAND_NOT_FOUND"
	CodeInvalid  = "INVALID_COMMAND"
	CodeCycle    = "CIRCULAR_REFERENCE"
)

// Result is the JSON result of `hookd expand --json`.
type Result struct {
	Success    bool        `json:"success"`
	Command    *Command    `json:"command,omitempty"`
	Expansions *Expansions `json:"expansions,omitempty"`
	Metadata   *Metadata   `json:"metadata,omitempty"`
	Error      *Error      `json:"error,omitempty"`
	// Warnings say what was wrong but did not stop the expansion
	// (frontmatter that is not a mapping, in the file or one it pulled in).
	Warnings []string `json:"warnings,omitempty"`
}

// Command is the prompt file, expanded.
type Command struct {
	Name string `json:"name"`
	// Path is relative to the project's root when the file is in it.
	Path        string         `json:"path"`
	Frontmatter map[string]any `json:"frontmatter"`
	// Content is the body, arguments substituted and references expanded.
	Content string `json:"content"`
	// Raw is the body as written (without its frontmatter).
	Raw string `json:"raw"`
}

// Expansions are every `@file` and “!`cmd` “ met, in order.
type Expansions struct {
	Files []FileRef `json:"files"`
	Bash  []BashRef `json:"bash"`
}

// FileRef is one `@path`.
type FileRef struct {
	Reference string `json:"reference"`
	Resolved  bool   `json:"resolved"`
	Content   string `json:"content,omitempty"`
	Error     string `json:"error,omitempty"`
}

// BashRef is one “!`cmd` “.
type BashRef struct {
	Command  string `json:"command"`
	Executed bool   `json:"executed"`
	Output   string `json:"output,omitempty"`
	Error    string `json:"error,omitempty"`
}

// Metadata says when, and about how many tokens the content is.
type Metadata struct {
	ExpandedAt          time.Time `json:"expandedAt"`
	TotalTokensEstimate int       `json:"totalTokensEstimate"`
}

// Error is why there is no expansion.
type Error struct {
	Code          string   `json:"code"`
	Message       string   `json:"message"`
	SearchedPaths []string `json:"searchedPaths,omitempty"`
}

// Options say how to expand.
type Options struct {
	Places Places
	// Cwd is where a NAME given as a relative path is read from.
	Cwd   string
	Allow Allowlist
	// Timeout bounds each command (DefaultTimeout when 0).
	Timeout time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Env is the commands' environment (nil: this process's).
	Env []string
}

// Question expands the prompt file a question starts with: words[0]
// beginning with /NAME, NAME a prompt file found from o.Cwd, the rest of
// its words and of words its arguments. ok is false when the question
// does not start with a prompt file's name (it is asked as it is).
func Question(ctx context.Context, words []string, o Options) (r Result, ok bool) {
	if len(words) == 0 {
		return r, false
	}
	first, rest, _ := strings.Cut(strings.TrimSpace(words[0]), " ")
	name, slash := strings.CutPrefix(first, "/")
	if !slash || !IsName(name) {
		return r, false
	}
	if _, _, found := o.Places.Find(name, o.Cwd); !found {
		return r, false
	}
	return Expand(ctx, name, append(shellwords.Fields(rest), words[1:]...), o), true
}

// Expand finds name (see Places.Find) and expands it with args.
func Expand(ctx context.Context, name string, args []string, o Options) Result {
	path, searched, ok := o.Places.Find(name, o.Cwd)
	if !ok {
		return Result{Error: &Error{Code: CodeNotFound, Message: fmt.Sprintf("Command '%s' not found", name), SearchedPaths: searched}}
	}
	return ExpandFile(ctx, path, args, o)
}

// ExpandFile expands the prompt file at path with args.
func ExpandFile(ctx context.Context, path string, args []string, o Options) Result {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	x := &expander{o: o, args: args, exp: &Expansions{Files: []FileRef{}, Bash: []BashRef{}}}
	for _, i := range o.Places.Ignored {
		x.warnings = append(x.warnings, i.Warning().String())
	}
	if why := o.Places.Refuse(path); why != "" {
		return Result{Error: &Error{Code: CodeInvalid, Message: why}, Warnings: x.warnings}
	}
	data, err := readPrompt(path)
	if err != nil {
		return Result{Error: &Error{Code: CodeInvalid, Message: err.Error()}, Warnings: x.warnings}
	}
	doc, ferr := frontmatter.Parse(data)
	if ferr != nil {
		x.warnings = append(x.warnings, fmt.Sprintf("%s: %v; read as if it had none", path, ferr))
	}
	x.stack = []string{abs(path)}
	content, err := x.expand(doc.Body, argNames(doc), 0)
	if err != nil {
		return Result{Error: &Error{Code: CodeCycle, Message: err.Error()}, Warnings: x.warnings}
	}
	return Result{
		Success:    true,
		Command:    &Command{Name: nameOf(path, o.Places), Path: o.Places.rel(path), Frontmatter: doc.Fields, Content: content, Raw: doc.Body},
		Expansions: x.exp,
		Metadata:   &Metadata{ExpandedAt: now().UTC().Truncate(time.Second), TotalTokensEstimate: (len(content) + 3) / 4},
		Warnings:   x.warnings,
	}
}

type expander struct {
	o        Options
	args     []string
	exp      *Expansions
	warnings []string
	stack    []string // the prompt files being expanded, outermost first
}

// CycleError is a prompt file that pulls itself in, through others or not.
type CycleError struct{ Files []string }

func (e *CycleError) Error() string {
	return "circular reference: " + strings.Join(e.Files, " → ")
}

// expand substitutes the arguments in body (names are those its
// frontmatter declares), then expands its references.
func (x *expander) expand(body string, names []string, depth int) (string, error) {
	body = Substitute(body, x.args, names)
	var b strings.Builder
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '!' && strings.HasPrefix(body[i:], "!`"):
			end := strings.IndexAny(body[i+2:], "`\n")
			if end <= 0 || body[i+2+end] != '`' {
				break
			}
			cmd := body[i+2 : i+2+end]
			out, ran := x.bash(cmd)
			if ran {
				b.WriteString(out)
			} else {
				b.WriteString(body[i : i+3+end])
			}
			i += 3 + end
			continue
		case c == '@' && (i == 0 || isSpace(body[i-1]) || body[i-1] == '(') && i+1 < len(body) && !isSpace(body[i+1]):
			j := i + 1
			for j < len(body) && !isSpace(body[j]) && body[j] != '`' {
				j++
			}
			ref := strings.TrimRight(body[i+1:j], ".,;:!?)]}\"'")
			j = i + 1 + len(ref)
			if ref == "" {
				break
			}
			text, ok, err := x.file(ref, depth)
			if err != nil {
				return "", err
			}
			if ok {
				b.WriteString(text)
			} else {
				b.WriteString(body[i:j])
			}
			i = j
			continue
		}
		b.WriteByte(c)
		i++
	}
	return b.String(), nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// file expands one `@ref`: the file's content, or a prompt file's
// expansion when it lies in one of the places.
func (x *expander) file(ref string, depth int) (string, bool, error) {
	r := FileRef{Reference: "@" + ref}
	fail := func(msg string) (string, bool, error) {
		r.Error = msg
		x.exp.Files = append(x.exp.Files, r)
		return "", false, nil
	}
	root := x.o.Places.Root
	p := ref
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	real, err := filepath.EvalSymlinks(p)
	if errors.Is(err, os.ErrNotExist) {
		return fail("not found: " + ref)
	} else if err != nil {
		return fail(err.Error())
	}
	rroot, err := filepath.EvalSymlinks(root)
	if err != nil {
		rroot = root
	}
	if !within(real, rroot) {
		return fail("refused: " + ref + " is outside the project")
	}
	fi, err := os.Stat(real)
	switch {
	case err != nil:
		return fail(err.Error())
	case fi.IsDir():
		return fail("refused: " + ref + " is a directory")
	case !fi.Mode().IsRegular():
		return fail("refused: " + ref + " is not a regular file")
	case fi.Size() > MaxFile:
		return fail(fmt.Sprintf("refused: %s is too large (%d bytes; the limit is %d KiB)", ref, fi.Size(), MaxFile>>10))
	}
	data, err := readCapped(real, MaxFile)
	if err != nil {
		return fail(err.Error())
	}
	if binary(data) {
		return fail("refused: " + ref + " is a binary file")
	}
	text := string(data)
	if strings.HasSuffix(real, ".md") && x.o.Places.inPlace(real) {
		for i, s := range x.stack {
			if s == real {
				return "", false, &CycleError{Files: append(x.o.Places.rels(x.stack[i:]), x.o.Places.rel(real))}
			}
		}
		if depth+1 > maxDepth {
			return fail(fmt.Sprintf("refused: prompt files nested more than %d deep", maxDepth))
		}
		doc, ferr := frontmatter.Parse(data)
		if ferr != nil {
			x.warnings = append(x.warnings, fmt.Sprintf("%s: %v; read as if it had none", ref, ferr))
		}
		x.stack = append(x.stack, real)
		// The file's own entry comes before what it pulls in.
		at := len(x.exp.Files)
		x.exp.Files = append(x.exp.Files, r)
		t, err := x.expand(doc.Body, argNames(doc), depth+1)
		x.stack = x.stack[:len(x.stack)-1]
		if err != nil {
			return "", false, err
		}
		x.exp.Files[at].Resolved, x.exp.Files[at].Content = true, t
		return t, true, nil
	}
	r.Resolved, r.Content = true, text
	x.exp.Files = append(x.exp.Files, r)
	return text, true, nil
}

// bash runs cmd when the allowlist lets it.
func (x *expander) bash(cmd string) (string, bool) {
	r := BashRef{Command: cmd}
	defer func() { x.exp.Bash = append(x.exp.Bash, r) }()
	if err := x.o.Allow.Check(cmd, x.o.Places.Root); err != nil {
		r.Error = err.Error()
		return "", false
	}
	out, err := Run(cmd, x.o.Places.Root, x.o.Env, x.o.Timeout)
	if err != nil {
		r.Error = err.Error()
		if out != "" {
			r.Error += "\n" + out
		}
		return "", false
	}
	r.Executed, r.Output = true, out
	return out, true
}

// Run runs an allowed command line with sh in dir, in env (nil: this
// process's environment), stdin empty, for at most timeout (the whole process group is killed then), and returns its
// output (stdout and stderr together, at most MaxOutput bytes, without a
// final newline).
func Run(line, dir string, env []string, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c := exec.CommandContext(ctx, "/bin/sh", "-c", line)
	c.Dir = dir
	if env == nil {
		env = os.Environ()
	}
	c.Env = append(env[:len(env):len(env)], "GIT_PAGER=cat", "PAGER=cat", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	c.WaitDelay = time.Second
	w := &capped{max: MaxOutput}
	c.Stdout, c.Stderr = w, w
	err := c.Run()
	out := strings.TrimRight(w.buf.String(), "\n")
	if w.cut > 0 {
		out += fmt.Sprintf("\n[… %d more bytes cut: output is capped at %d KiB]", w.cut, MaxOutput>>10)
	}
	if ctx.Err() == context.DeadlineExceeded {
		return out, fmt.Errorf("timeout: killed after %s", timeout)
	}
	if err != nil {
		return out, err
	}
	return out, nil
}

type capped struct {
	buf bytes.Buffer
	max int
	cut int
}

func (c *capped) Write(p []byte) (int, error) {
	room := c.max - c.buf.Len()
	if room >= len(p) {
		return c.buf.Write(p)
	}
	if room > 0 {
		c.buf.Write(p[:room])
	}
	c.cut += len(p) - max(room, 0)
	return len(p), nil
}

// argRE matches $ARGUMENTS[N], $ARGUMENTS and $N.
var argRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS|\$(\d+)`) })

// Substitute puts args in body as Claude Code does: $ARGUMENTS is all of
// them joined by spaces, $ARGUMENTS[N] and its shorthand $N the one at N
// from 0 ($0 is the first), and $NAME the one at NAME's position in names
// (the frontmatter's `arguments`). A missing one stays as written. When
// body uses none and there are arguments, they are appended as a last
// line, "ARGUMENTS: …".
func Substitute(body string, args, names []string) string {
	used := false
	if len(names) > 0 {
		// Longest names first, so that $issue-id is not $issue then -id.
		sorted := slices.Clone(names)
		slices.SortFunc(sorted, func(a, b string) int { return len(b) - len(a) })
		quoted := make([]string, len(sorted))
		for i, n := range sorted {
			quoted[i] = regexp.QuoteMeta(n)
		}
		re := regexp.MustCompile(`\$(` + strings.Join(quoted, "|") + `)([^A-Za-z0-9_-]|$)`)
		body = re.ReplaceAllStringFunc(body, func(m string) string {
			sm := re.FindStringSubmatch(m)
			used = true
			if i := slices.Index(names, sm[1]); i < len(args) {
				return args[i] + sm[2]
			}
			return m
		})
	}
	out := argRE().ReplaceAllStringFunc(body, func(m string) string {
		used = true
		sm := argRE().FindStringSubmatch(m)
		switch {
		case sm[1] != "":
			if n, err := strconv.Atoi(sm[1]); err == nil && n < len(args) {
				return args[n]
			}
			return m
		case sm[2] != "":
			if n, err := strconv.Atoi(sm[2]); err == nil && n < len(args) {
				return args[n]
			}
			return m
		}
		return strings.Join(args, " ")
	})
	if !used && len(args) > 0 {
		out = strings.TrimRight(out, "\n") + "\n\nARGUMENTS: " + strings.Join(args, " ") + "\n"
	}
	return out
}

// argNames are the argument names a prompt file declares, Claude Code's
// way: `arguments: [issue, branch]` or `arguments: issue branch`. Names
// that are not words are left out.
func argNames(doc frontmatter.Doc) []string {
	var names []string
	switch v := doc.Fields["arguments"].(type) {
	case string:
		names = strings.Fields(v)
	case []any:
		for _, n := range v {
			if s, ok := n.(string); ok {
				names = append(names, s)
			}
		}
	}
	return slices.DeleteFunc(names, func(n string) bool { return !argNameRE().MatchString(n) })
}

var argNameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`) })

// readPrompt reads a prompt file: a regular file of text, at most
// maxPrompt bytes.
func readPrompt(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.Size() > maxPrompt {
		return nil, fmt.Errorf("%s is too large for a prompt file (%d bytes; the limit is %d KiB)", path, fi.Size(), maxPrompt>>10)
	}
	data, err := readCapped(path, maxPrompt)
	if err != nil {
		return nil, err
	}
	if binary(data) {
		return nil, fmt.Errorf("%s is a binary file, not a prompt file", path)
	}
	return data, nil
}

// readCapped reads at most n bytes of the regular file at path; anything
// else (a FIFO, a device) is refused without blocking.
func readCapped(path string, n int64) ([]byte, error) {
	return project.ReadRegular(path, n)
}

// binary: a NUL byte, or text that is not UTF-8.
func binary(data []byte) bool {
	return bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data)
}

func abs(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

// inPlace: path lies in one of the places.
func (p Places) inPlace(path string) bool {
	for _, pl := range p.Dirs {
		if d, err := filepath.EvalSymlinks(pl.Dir); err == nil && within(path, d) {
			return true
		}
	}
	return false
}

// rel returns path relative to the project's root when it is in it.
func (p Places) rel(path string) string {
	r := abs(p.Root)
	if a := abs(path); within(a, r) {
		if rel, err := filepath.Rel(r, a); err == nil {
			return rel
		}
	}
	return path
}

func (p Places) rels(paths []string) []string {
	var out []string
	for _, s := range paths {
		out = append(out, p.rel(s))
	}
	return out
}

// nameOf is the name a file is called by: its path under its place.
func nameOf(path string, p Places) string {
	a := abs(path)
	for _, pl := range p.Dirs {
		d, err := filepath.EvalSymlinks(pl.Dir)
		if err != nil || !within(a, d) {
			continue
		}
		rel, _ := filepath.Rel(d, a)
		n := strings.TrimSuffix(filepath.ToSlash(rel), ".md")
		n, _ = strings.CutSuffix(n, "/index")
		return n
	}
	return strings.TrimSuffix(filepath.Base(path), ".md")
}
