// Package export writes commands with their outputs for a bug report or a
// pull request (hookd export): Markdown with a fenced block, a
// self-contained HTML page with the output's colours, JSON with the
// history's fields, or plain text. Every command line and output is
// redacted again on its way out and sanitized: no control character,
// escape sequence or bidirectional formatting character reaches the
// reader, no text can close a fence or an HTML element.
package export

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"github.com/hookd/hookd/internal/ui/units"
	"html/template"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/redact"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/shellwords"
	"github.com/hookd/hookd/internal/ui/termhtml"
)

// Formats are the formats Write knows, as --format names them.
var Formats = []string{"md", "html", "json", "text"}

// Command is one command to export, with its output as stored.
type Command struct {
	Entry  history.Entry
	Output string
	// Missing says why there is no output ("" when there is one, or it
	// printed nothing).
	Missing string
	// Truncated is true when only the output's start was kept.
	Truncated bool
	// Colours are the output's colours (capture.Colours; nil: none),
	// which the HTML page draws.
	Colours capture.Colours
	// Notes are the user's notes on it (hookd note), oldest first.
	Notes []history.Note
}

// Options says how commands are written.
type Options struct {
	// Redactor hides secrets in command lines and outputs (nil: the
	// built-in rules).
	Redactor *redact.Redactor
	// Home is shown as ~ in directories.
	Home string
	// Title heads the HTML page ("" for one made of the commands).
	Title string
}

func (o Options) redact(s string) string {
	r := o.Redactor
	if r == nil {
		r, _ = redact.New(nil)
	}
	s, _ = r.String(s)
	return s
}

// Write writes cmds in format (Formats).
func Write(w io.Writer, format string, cmds []Command, o Options) error {
	for i := range cmds {
		cmds[i].Entry.Command = o.redact(cmds[i].Entry.Command)
		plain := cmds[i].Output
		cmds[i].Output = o.redact(plain)
		if cmds[i].Output != plain {
			cmds[i].Colours = cmds[i].Colours.Remap(plain, cmds[i].Output, redact.Marker)
		}
		ns := make([]history.Note, len(cmds[i].Notes))
		for j, n := range cmds[i].Notes {
			n.Text = o.redact(n.Text)
			ns[j] = n
		}
		cmds[i].Notes = ns
	}
	switch format {
	case "md", "markdown":
		return markdown(w, cmds, o)
	case "html":
		return page(w, cmds, o)
	case "json":
		return jsonLines(w, cmds)
	case "text", "txt":
		return text(w, cmds, o)
	}
	return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
}

// about is a command's facts on one line: id, status, duration, directory
// and time, sanitized.
func about(c Command, o Options) string {
	en := c.Entry
	status := "exit 0"
	switch {
	case !en.StatusKnown():
		status = "status unknown"
	case en.ExitCode != 0:
		status = fmt.Sprintf("failed: exit %d", en.ExitCode)
	}
	took := "not measured"
	if en.DurationKnown() {
		took = units.Micros(en.DurationUS)
	}
	s := fmt.Sprintf("#%d · %s · %s · in %s · %s", en.ID, status, took,
		shellwords.Tilde(en.Cwd, o.Home), time.UnixMicro(en.StartedAt).Format("2006-01-02 15:04:05"))
	if en.Author != "" {
		s += " · by " + en.Author
	}
	return sanitize.Line(s)
}

// note is what is said under an output that is not whole or not there.
func note(c Command) string {
	switch {
	case c.Missing != "":
		return "(no output: " + sanitize.Line(c.Missing) + ")"
	case c.Truncated:
		return "(output cut: only its start was kept)"
	}
	return ""
}

// outputText is the output as plain text: sanitized, colours and other
// escapes shown as \e…, and ending in a newline when not empty.
func outputText(c Command) string {
	s := sanitize.Text(c.Output)
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}

func text(w io.Writer, cmds []Command, o Options) error {
	var b strings.Builder
	for i, c := range cmds {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("$ " + sanitize.Line(c.Entry.Command) + "\n")
		b.WriteString(outputText(c))
		if n := note(c); n != "" {
			b.WriteString(n + "\n")
		}
		b.WriteString("[" + about(c, o) + "]\n")
		for _, n := range c.Notes {
			b.WriteString("note: " + sanitize.Line(n.Text) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdSpecial are the characters that mean something in Markdown's inline
// text (and raw HTML's <), escaped with a backslash in the lines about a
// command.
var mdSpecial = sync.OnceValue(func() *strings.Replacer {
	return strings.NewReplacer(`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`,
		`<`, `\<`, `>`, `\>`, `#`, `\#`, `|`, `\|`, `~`, `\~`, `!`, `\!`, `&`, `\&`)
})

// Fence is a Markdown code fence for text: backticks, one more than the
// longest run of them in text and never fewer than three, so that nothing
// in text closes it.
func Fence(text string) string {
	longest, run := 0, 0
	for i := 0; i < len(text); i++ {
		if text[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

func markdown(w io.Writer, cmds []Command, o Options) error {
	var b strings.Builder
	for i, c := range cmds {
		if i > 0 {
			b.WriteString("\n")
		}
		body := "$ " + sanitize.Line(c.Entry.Command) + "\n" + outputText(c)
		f := Fence(body)
		b.WriteString(mdSpecial().Replace(about(c, o)) + "\n\n")
		for _, n := range c.Notes {
			b.WriteString("> Note: " + mdSpecial().Replace(sanitize.Line(n.Text)) + "\n\n")
		}
		b.WriteString(f + "console\n" + body + f + "\n")
		if n := note(c); n != "" {
			b.WriteString("\n" + mdSpecial().Replace(n) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// JSON is c as hookd show --json prints a command: the history's fields
// (DESIGN.md), with output, output_missing and output_truncated.
func JSON(c Command) map[string]any {
	m := c.Entry.JSON()
	m["output"] = c.Output
	if !utf8.ValidString(c.Output) {
		m["output_base64"] = base64.StdEncoding.EncodeToString([]byte(c.Output))
	}
	if c.Missing != "" {
		m["output_missing"] = c.Missing
	}
	if c.Truncated {
		m["output_truncated"] = true
	}
	notes := []map[string]any{}
	for _, n := range c.Notes {
		notes = append(notes, map[string]any{"id": n.ID, "text": n.Text,
			"created_at": time.UnixMicro(n.CreatedAt).UTC().Format(time.RFC3339Nano)})
	}
	m["notes"] = notes
	return m
}

// jsonLines writes one object per command; the characters that hide or
// reorder text are written as \u escapes (sanitize.JSON), HTML's are not
// escaped: the file is data.
func jsonLines(w io.Writer, cmds []Command) error {
	enc := json.NewEncoder(sanitize.JSON(w))
	enc.SetEscapeHTML(false)
	for _, c := range cmds {
		if err := enc.Encode(JSON(c)); err != nil {
			return err
		}
	}
	return nil
}

type htmlCommand struct {
	Command string
	Failed  bool
	About   string
	Output  template.HTML
	Note    string
	Notes   []string
}

// pageTmpl is parsed on first use: nothing at start-up (TestInitCost).
var pageTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Parse(pageHTML))
})

const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; padding: 0 1em; color: #1f2328; background: #fff; }
section { margin-bottom: 2em; }
.about { color: #59636e; font-size: 0.9em; margin: 0.3em 0; }
.failed .status { color: #cf222e; font-weight: bold; }
pre { background: #0d1117; color: #e6edf3; padding: 1em; border-radius: 6px; overflow-x: auto; line-height: 1.35; }
pre .cmd { color: #7ee787; font-weight: bold; }
{{.Palette}}
.note { border-left: 3px solid #d29922; padding-left: 0.6em; margin: 0.4em 0; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
{{range .Commands}}<section{{if .Failed}} class="failed"{{end}}>
<pre><span class="cmd">$ {{.Command}}</span>
{{.Output}}</pre>
<p class="about">{{.About}}</p>{{range .Notes}}
<p class="note">Note: {{.}}</p>{{end}}{{if .Note}}
<p class="about">{{.Note}}</p>{{end}}
</section>
{{end}}<p class="about">Exported by hookd.</p>
</body>
</html>
`

func page(w io.Writer, cmds []Command, o Options) error {
	data := struct {
		Title    string
		Commands []htmlCommand
		Palette  template.CSS // the output's colours (termhtml)
	}{Title: o.Title, Palette: template.CSS(termhtml.Stylesheet())}
	if data.Title == "" {
		switch len(cmds) {
		case 1:
			data.Title = sanitize.Line(cmds[0].Entry.Command)
		default:
			data.Title = fmt.Sprintf("%d commands", len(cmds))
		}
	}
	for _, c := range cmds {
		hc := htmlCommand{Command: sanitize.Line(c.Entry.Command),
			Failed: c.Entry.ExitCode != 0, About: about(c, o), Output: Colours(c.Colours.Apply(c.Output)), Note: note(c)}
		for _, n := range c.Notes {
			hc.Notes = append(hc.Notes, sanitize.Line(n.Text))
		}
		data.Commands = append(data.Commands, hc)
	}
	return pageTmpl().Execute(w, data)
}
