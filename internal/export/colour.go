package export

import (
	"html/template"
	"strconv"
	"strings"

	"github.com/hookd/hookd/internal/sanitize"
)

// attrs are the SGR attributes export draws: the sixteen colours (-1: the
// default), bold, dim, italic, underline.
type attrs struct {
	fg                     int
	bold, dim, italic, und bool
}

func (a attrs) class() string {
	var c []string
	if a.fg >= 0 {
		c = append(c, "c"+strconv.Itoa(a.fg))
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{a.bold, "b"}, {a.dim, "d"}, {a.italic, "i"}, {a.und, "u"}} {
		if f.on {
			c = append(c, f.name)
		}
	}
	return strings.Join(c, " ")
}

// apply reads one SGR sequence's parameters; what export does not draw
// (backgrounds, 256 and 24-bit colours) is skipped.
func (a attrs) apply(params string) attrs {
	ps := strings.Split(params, ";")
	for i := 0; i < len(ps); i++ {
		n, err := strconv.Atoi(ps[i])
		if ps[i] == "" {
			n, err = 0, nil
		}
		if err != nil {
			continue
		}
		switch {
		case n == 0:
			a = attrs{fg: -1}
		case n == 1:
			a.bold = true
		case n == 2:
			a.dim = true
		case n == 3:
			a.italic = true
		case n == 4:
			a.und = true
		case n == 22:
			a.bold, a.dim = false, false
		case n == 23:
			a.italic = false
		case n == 24:
			a.und = false
		case n >= 30 && n <= 37:
			a.fg = n - 30
		case n >= 90 && n <= 97:
			a.fg = n - 90 + 8
		case n == 39:
			a.fg = -1
		case n == 38 || n == 48:
			// 38;5;N (a colour of 256: the first sixteen are drawn) or
			// 38;2;R;G;B, skipped whole.
			if i+1 < len(ps) && ps[i+1] == "5" && i+2 < len(ps) {
				if c, err := strconv.Atoi(ps[i+2]); err == nil && n == 38 {
					if c < 16 {
						a.fg = c
					} else {
						a.fg = -1
					}
				}
				i += 2
			} else if i+1 < len(ps) && ps[i+1] == "2" {
				i += 4
			}
		}
	}
	return a
}

// Colours renders an output for an HTML page: its SGR colours and
// attributes as spans with classes (the page's style sheet draws them),
// every other character escaped for HTML, and every other control
// character, escape sequence and invisible or bidirectional formatting
// character shown by its code (sanitize.Text), inert.
func Colours(s string) template.HTML {
	var b strings.Builder
	cur := attrs{fg: -1}
	open := false
	text := func(t string) {
		if t == "" {
			return
		}
		if c := cur.class(); c != "" && !open {
			b.WriteString(`<span class="` + c + `">`)
			open = true
		}
		b.WriteString(template.HTMLEscapeString(sanitize.Text(t)))
	}
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			text(s)
			break
		}
		// CSI: parameters, then one final byte; only m (SGR) is drawn.
		j := i + 2
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
			j++
		}
		if j >= len(s) || s[j] != 'm' {
			text(s[:i+2]) // shown as \e[ and the rest as text
			s = s[i+2:]
			continue
		}
		text(s[:i])
		next := cur.apply(strings.ReplaceAll(s[i+2:j], ":", ";"))
		if next != cur && open {
			b.WriteString("</span>")
			open = false
		}
		cur = next
		s = s[j+1:]
	}
	if open {
		b.WriteString("</span>")
	}
	return template.HTML(b.String())
}
