package analyze

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestRegexpsCompile compiles every pattern the rules declare, including
// those no other test reaches.
func TestRegexpsCompile(t *testing.T) {
	allRegexps := declaredRegexps(t)
	if len(allRegexps) < 100 {
		t.Fatalf("only %d patterns registered", len(allRegexps))
	}
	t.Logf("%d patterns", len(allRegexps))
	for _, l := range allRegexps {
		if _, err := regexp.Compile(string(l)); err != nil {
			t.Errorf("pattern %q: %v", l, err)
		}
	}
}

// declaredRegexps are the patterns the package's source declares: every
// lazyRegexp(…) conversion, whose argument must be a constant.
func declaredRegexps(t *testing.T) []lazyRegexp {
	t.Helper()
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	consts := map[string]ast.Expr{}
	var parsed []*ast.File
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
				for _, s := range g.Specs {
					vs := s.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if i < len(vs.Values) {
							consts[n.Name] = vs.Values[i]
						}
					}
				}
			}
		}
	}
	var eval func(e ast.Expr) (string, error)
	eval = func(e ast.Expr) (string, error) {
		switch e := e.(type) {
		case *ast.BasicLit:
			return strconv.Unquote(e.Value)
		case *ast.ParenExpr:
			return eval(e.X)
		case *ast.BinaryExpr:
			x, err := eval(e.X)
			if err != nil || e.Op != token.ADD {
				return "", fmt.Errorf("not a constant string")
			}
			y, err := eval(e.Y)
			return x + y, err
		case *ast.Ident:
			if c, ok := consts[e.Name]; ok {
				return eval(c)
			}
		}
		return "", fmt.Errorf("not a constant string")
	}
	var out []lazyRegexp
	for _, f := range parsed {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			if fn, ok := call.Fun.(*ast.Ident); !ok || fn.Name != "lazyRegexp" {
				return true
			}
			src, err := eval(call.Args[0])
			if err != nil {
				t.Errorf("%s: lazyRegexp(…) of %v", fset.Position(call.Pos()), err)
				return true
			}
			out = append(out, lazyRegexp(src))
			return true
		})
	}
	return out
}
