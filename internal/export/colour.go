package export

import (
	"html/template"

	"github.com/hookd/hookd/internal/ui/termhtml"
)

// Colours renders an output for an HTML page: its SGR colours and
// attributes as spans with classes (termhtml.Stylesheet draws them), every
// other character escaped for HTML, and every other control character,
// escape sequence and invisible or bidirectional formatting character
// shown by its code, inert. hookd serve draws outputs the same way.
func Colours(s string) template.HTML { return termhtml.Render(s) }
