package render

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"mvdan.cc/sh/v3/syntax"

	"github.com/hookd/hookd/internal/sanitize"
)

// shells maps the languages of the fenced code blocks that hold commands to
// the shell that parses them; console blocks are a session: prompts and
// output.
var shells = map[string]syntax.LangVariant{
	"sh":      syntax.LangBash,
	"bash":    syntax.LangBash,
	"shell":   syntax.LangBash,
	"zsh":     syntax.LangZsh,
	"console": syntax.LangBash,
}

// Commands returns the shell commands of an answer, in order: those of its
// fenced code blocks marked sh, bash, zsh, shell or console.
//
// In a console block, and in any block where some lines begin with a "$ "
// prompt and others do not, a command is a line that begins with the
// prompt, prompt removed, with the lines its backslash continues (a "> "
// prompt removed); the other lines are output and are skipped.
//
// Otherwise the block is a script (a "$ " prompt that begins every line
// removed) and each of its top-level statements is a command, as it is
// written: a statement that spans lines — line continuations, a pipeline or
// a list broken after | or &&, if, for, while, case, a function, a
// here-document — is one command, and statements on one line ("cd x && ls",
// "a; b") are one command. Comments between statements are left out. A
// block the shell cannot parse gives one command per line, continuations
// joined.
//
// A command that holds a control character other than newline and tab,
// invalid UTF-8, or a hidden character (sanitize.Hidden) is left out: it
// would not read as what it runs.
func Commands(markdown string) []string {
	src := []byte(markdown)
	doc := newParser(false).Parse(text.NewReader(src))
	var cmds []string
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		b, ok := n.(*ast.FencedCodeBlock)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		lang := strings.ToLower(string(b.Language(src)))
		variant, ok := shells[lang]
		if !ok {
			return ast.WalkSkipChildren, nil
		}
		var body bytes.Buffer
		for i := 0; i < b.Lines().Len(); i++ {
			seg := b.Lines().At(i)
			body.Write(seg.Value(src))
		}
		for _, c := range blockCommands(body.String(), lang == "console", variant) {
			if c != "" && sanitize.Text(c) == c {
				cmds = append(cmds, c)
			}
		}
		return ast.WalkSkipChildren, nil
	})
	return cmds
}

func blockCommands(body string, console bool, variant syntax.LangVariant) []string {
	lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
	prompted, bare := 0, 0
	for _, l := range lines {
		switch {
		case strings.TrimSpace(l) == "":
		case hasPrompt(l):
			prompted++
		default:
			bare++
		}
	}
	if console || (prompted > 0 && bare > 0) {
		return sessionCommands(lines)
	}
	if prompted > 0 {
		for i, l := range lines {
			lines[i] = strings.TrimPrefix(strings.TrimPrefix(l, "$"), " ")
		}
	}
	return scriptCommands(lines, variant)
}

func hasPrompt(line string) bool { return strings.HasPrefix(line, "$ ") || line == "$" }

// sessionCommands returns the commands typed at the prompts of a terminal
// session.
func sessionCommands(lines []string) []string {
	var cmds []string
	for i := 0; i < len(lines); i++ {
		if !hasPrompt(lines[i]) {
			continue
		}
		cmd := []string{strings.TrimPrefix(strings.TrimPrefix(lines[i], "$"), " ")}
		for continues(cmd[len(cmd)-1]) && i+1 < len(lines) {
			i++
			cmd = append(cmd, strings.TrimPrefix(lines[i], "> "))
		}
		cmds = append(cmds, strings.TrimSpace(strings.Join(cmd, "\n")))
	}
	return cmds
}

// continues reports whether line ends with a backslash that continues it.
func continues(line string) bool {
	n := len(line) - len(strings.TrimRight(line, `\`))
	return n%2 == 1
}

// scriptCommands returns the top-level statements of a script, each with
// the lines it spans.
func scriptCommands(lines []string, variant syntax.LangVariant) []string {
	script := strings.Join(lines, "\n") + "\n"
	f, err := syntax.NewParser(syntax.Variant(variant)).Parse(strings.NewReader(script), "")
	if err != nil {
		return lineCommands(lines)
	}
	type span struct{ from, to int } // line numbers, from 1, both included
	var spans []span
	for _, st := range f.Stmts {
		// A statement ends after its here-documents' delimiters.
		s := span{int(st.Pos().Line()), int(st.End().Line())}
		if k := len(spans) - 1; k >= 0 && s.from <= spans[k].to {
			spans[k].to = max(spans[k].to, s.to)
			continue
		}
		spans = append(spans, s)
	}
	var cmds []string
	for _, s := range spans {
		cmds = append(cmds, strings.TrimSpace(strings.Join(lines[s.from-1:min(s.to, len(lines))], "\n")))
	}
	return cmds
}

// lineCommands returns a command a line, backslash continuations joined,
// blank lines and comments left out.
func lineCommands(lines []string) []string {
	var cmds []string
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		cmd := []string{lines[i]}
		for continues(cmd[len(cmd)-1]) && i+1 < len(lines) {
			i++
			cmd = append(cmd, lines[i])
		}
		cmds = append(cmds, strings.TrimSpace(strings.Join(cmd, "\n")))
	}
	return cmds
}
