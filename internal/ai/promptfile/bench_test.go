package promptfile

import (
	"context"
	"strings"
	"testing"
)

// BenchmarkExpand: a prompt file with three @files and two allowed
// commands (echo, pwd), as `hookd expand` does it.
func BenchmarkExpand(b *testing.B) {
	files := map[string]string{
		".hookd/commands/bench.md": "---\ndescription: bench\n---\nReview $ARGUMENTS\n@a.go\n@docs/b.md\n@c.txt\n!`echo hello`\n!`pwd`\n",
		"a.go":                     strings.Repeat("package a\n", 400),
		"docs/b.md":                strings.Repeat("# doc\n", 400),
		"c.txt":                    strings.Repeat("line\n", 400),
	}
	p := benchProject(b, files)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := Expand(context.Background(), "bench", []string{"x"}, Options{Places: p})
		if !r.Success || len(r.Expansions.Files) != 3 || !r.Expansions.Bash[1].Executed {
			b.Fatalf("%+v", r)
		}
	}
}

func benchProject(b *testing.B, files map[string]string) Places {
	root := b.TempDir()
	for p, c := range files {
		writeB(b, root, p, c)
	}
	writeB(b, root, ".git/HEAD", "")
	return PlacesFor(root, b.TempDir(), b.TempDir())
}

func writeB(b *testing.B, root, p, c string) {
	b.Helper()
	full := root + "/" + p
	if err := mkdirFile(full, c); err != nil {
		b.Fatal(err)
	}
}
