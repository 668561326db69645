package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoStateFilesWritten: cmd/hookd writes no file of its own: a file's
// format belongs to the package that owns it (offer, capturer, ask's
// notice, ingest), which writes and reads it. cmd/hookd holds flags,
// output and wiring. Nor does it pick colours: they are the palette's
// named styles (internal/ui/style).
func TestNoStateFilesWritten(t *testing.T) {
	banned := map[string]bool{"WriteFile": true, "Create": true, "Remove": true, "RemoveAll": true, "Rename": true, "MkdirAll": true}
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, isIdent := sel.X.(*ast.Ident); isIdent && id.Name == "os" && banned[sel.Sel.Name] {
				t.Errorf("%s: os.%s: a file's format belongs to the package that owns it", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			if sel.Sel.Name == "Color" || sel.Sel.Name == "Foreground" {
				t.Errorf("%s: %s: a colour is one of the palette's named styles", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
}
