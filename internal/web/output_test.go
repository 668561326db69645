package web

import (
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hookd/hookd/internal/ui/termhtml"
)

// TestLongOutputPage: a 10 MB output's page holds its first part only;
// the next parts come one request each, the last one ending the output.
func TestLongOutputPage(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 10<<20; i++ {
		fmt.Fprintf(&b, "line %d of a long build log <x>\n", i)
	}
	text := b.String()
	starts := termhtml.Parts(text)
	tags := regexp.MustCompile(`<[^>]*>`)
	plain := text
	partSize := termhtml.PartSize
	s := serve(t, cmdSpec{text: "make -j8", out: text, exit: 2})
	code, page, _ := do(t, s, "GET", "/c/1", nil, "Cookie", s.cookie())
	if code != 200 || len(page) > 2*partSize || !strings.Contains(page, `data-parts="`+strconv.Itoa(len(starts))+`"`) {
		t.Fatalf("the page: status %d, %d bytes (want at most %d), parts %v", code, len(page), 2*partSize, regexp.MustCompile(`data-parts="\d+"`).FindString(page))
	}
	_, last, _ := do(t, s, "GET", "/c/1?part="+strconv.Itoa(len(starts)-1), nil, "Cookie", s.cookie())
	if !strings.HasSuffix(html.UnescapeString(tags.ReplaceAllString(last, "")), plain[len(plain)-200:]) {
		t.Errorf("the last part does not end the output: %q", last[max(0, len(last)-200):])
	}
	if code, _, _ := do(t, s, "GET", "/c/1?part="+strconv.Itoa(len(starts)), nil, "Cookie", s.cookie()); code != 404 {
		t.Errorf("a part past the end: status %d", code)
	}
}
