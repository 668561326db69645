package analyze

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestRootIsOneFact: whether the failing user is root is one fact,
// Failure.root, which knows that a described failure's user is unknown;
// no rule asks Env.IsRoot itself (issue 32 item 6), where it would treat a
// described failure as this user's, or this user's as unknown.
func TestRootIsOneFact(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			if fn.Name.Name == "root" && fn.Recv != nil {
				continue // the fact itself
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "IsRoot" {
					t.Errorf("%s: %s asks IsRoot itself; ask Failure.root", fset.Position(sel.Pos()), fn.Name.Name)
				}
				return true
			})
		}
	}
}
