package analyze

import (
	"bytes"
	"compress/gzip"
	"context"
	"reflect"
	"testing"
)

// pageFacts holds files for ReadHead and knows nothing else.
type pageFacts struct {
	noFacts
	files map[string]string
}

func (p pageFacts) ReadHead(_ context.Context, path string, n int) ([]byte, error) {
	s, ok := p.files[path]
	if !ok {
		return nil, errNoFacts
	}
	return []byte(s[:min(n, len(s))]), nil
}

// TestEquivalentFixesOnce: fixes that run the same command, spelt with an
// option's short and long names (as the manual page pairs them) or with
// options reordered, are one fix, the more confident kept; options that
// may take the next word, or that the page does not pair, are not
// reordered or renamed (issue 37 item 5).
func TestEquivalentFixesOnce(t *testing.T) {
	var man bytes.Buffer
	zw := gzip.NewWriter(&man)
	zw.Write([]byte(".TP\n\\fB\\-f\\fR, \\fB\\-\\-force\\fR\nignore nonexistent files\n.TP\n.BR \\-r , \" \\-\\-recursive\"\nremove directories\n.TP\n\\fB\\-v\\fR\nexplain\n"))
	zw.Close()
	var tarMan bytes.Buffer
	zw = gzip.NewWriter(&tarMan)
	zw.Write([]byte(".TP\n\\fB\\-c\\fR, \\fB\\-\\-create\\fR\n.TP\n\\fB\\-f\\fR, \\fB\\-\\-file\\fR=\\fIARCHIVE\\fR\n"))
	zw.Close()
	facts := pageFacts{files: map[string]string{"/usr/share/man/man1/rm.1.gz": man.String(), "/usr/share/man/man1/tar.1.gz": tarMan.String()}}
	f := &Failure{Input: Input{Shell: "bash", Env: facts}, Env: facts}
	fx := func(cmds ...string) []Fix {
		var out []Fix
		for i, c := range cmds {
			out = append(out, Fix{Command: c, Confidence: 0.9 - 0.1*float64(i)})
		}
		return out
	}
	for _, tc := range []struct {
		in, want []string
	}{
		{[]string{"rm -f build.log", "rm --force build.log", "rm -i build.log"}, []string{"rm -f build.log", "rm -i build.log"}},
		{[]string{"rm -rf build", "rm -f -r build", "rm --recursive --force build", "rm -fr build"}, []string{"rm -rf build"}},
		{[]string{"rm -v -f x && make", "rm -f -v x && make"}, []string{"rm -v -f x && make"}},
		// Not the same: another operand, another option, an option the
		// page does not pair, an option that takes the next word.
		{[]string{"rm -f a b", "rm -f b a"}, []string{"rm -f a b", "rm -f b a"}},
		{[]string{"rm -f x", "rm -v x"}, []string{"rm -f x", "rm -v x"}},
		{[]string{"rm -x x", "rm --xtra x"}, []string{"rm -x x", "rm --xtra x"}},
		{[]string{"tar -c -f out.tar src", "tar -f -c out.tar src"}, []string{"tar -c -f out.tar src", "tar -f -c out.tar src"}},
		{[]string{"tar -c -f out.tar src", "tar --create --file out.tar src"}, []string{"tar -c -f out.tar src"}},
		{[]string{"rm -f x", "cp -f x"}, []string{"rm -f x", "cp -f x"}},
	} {
		var got []string
		for _, x := range dropEquivalent(t.Context(), f, fx(tc.in...)) {
			got = append(got, x.Command)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: kept %q; want %q", tc.in, got, tc.want)
		}
	}
}
