package required

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSet: a REQUIRE_* variable (or CI) counts when it is set to anything
// but "", "0" or "false" (the tests read "1", "yes" and "true" alike, as
// CI may set any).
func TestSet(t *testing.T) {
	for _, c := range []struct {
		val  string
		want string
	}{{"", ""}, {"0", ""}, {"false", ""}, {"1", "REQUIRE_TEST_X=1"}, {"yes", "REQUIRE_TEST_X=yes"}, {"true", "REQUIRE_TEST_X=true"}} {
		t.Setenv("REQUIRE_TEST_X", c.val)
		if got := Set("REQUIRE_TEST_Y", "REQUIRE_TEST_X"); got != c.want {
			t.Errorf("REQUIRE_TEST_X=%q: Set = %q; want %q", c.val, got, c.want)
		}
	}
}

// ending records how a helper ended a test, in place of testing.T.
type ending struct {
	testing.TB
	fatal, skip string
}

func (e *ending) Helper()                        {}
func (e *ending) Fatal(args ...any)              { e.fatal = fmt.Sprint(args...) }
func (e *ending) Fatalf(format string, a ...any) { e.fatal = fmt.Sprintf(format, a...) }
func (e *ending) Skip(args ...any)               { e.skip = fmt.Sprint(args...) }

// TestSkipInCI: a missing tool is a skip on a developer's machine and a
// failure in CI (CI set, as .ci/run and every CI service set it) or where
// a REQUIRE_* variable names the test's need; a test that cannot run here
// by its nature skips in CI as well, and must say why.
func TestSkipInCI(t *testing.T) {
	for _, c := range []struct {
		ci, req string
		cannot  bool
		fatal   bool
	}{
		{ci: "", req: "", fatal: false},
		{ci: "true", req: "", fatal: true},
		{ci: "false", req: "", fatal: false},
		{ci: "", req: "1", fatal: true},
		{ci: "true", req: "", cannot: true, fatal: false},
		{ci: "", req: "1", cannot: true, fatal: false},
	} {
		t.Setenv("CI", c.ci)
		t.Setenv("REQUIRE_TEST_X", c.req)
		e := &ending{TB: t}
		if c.cannot {
			Cannot(e, "needs root")
		} else {
			Skip(e, "frob is not installed", "REQUIRE_TEST_X")
		}
		if got := e.fatal != ""; got != c.fatal {
			t.Errorf("CI=%q REQUIRE_TEST_X=%q cannot=%v: failed %v (%q), skipped %q; want failed %v", c.ci, c.req, c.cannot, got, e.fatal, e.skip, c.fatal)
		}
		if !c.fatal && e.skip == "" {
			t.Errorf("CI=%q REQUIRE_TEST_X=%q cannot=%v: neither failed nor skipped", c.ci, c.req, c.cannot)
		}
	}
	t.Setenv("CI", "true")
	e := &ending{TB: t}
	Cannot(e, " ")
	if e.fatal == "" {
		t.Error("Cannot without a reason did not fail")
	}
	e = &ending{TB: t}
	Tool(e, "hookd-no-such-tool-here")
	if !strings.Contains(e.fatal, "hookd-no-such-tool-here is not installed") {
		t.Errorf("Tool of a missing program under CI: failed %q, skipped %q", e.fatal, e.skip)
	}
}

// TestNoBareSkip reads every Go file of the module: a test skips only
// through this package (Skip or Tool for what is missing, which fails in
// CI; Cannot for what cannot run here by nature; Long for -short), never
// by t.Skip, Skipf or SkipNow, which would hide a failure in CI.
func TestNoBareSkip(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root %s: %v", root, err)
	}
	self, _ := filepath.Abs(".")
	fset := token.NewFileSet()
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata", "vendor":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || filepath.Dir(path) == self {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			switch sel.Sel.Name {
			case "Skip", "Skipf", "SkipNow":
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "required" {
					return true
				}
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d: %s.%s: skip through internal/required (Skip/Tool for a missing tool, Cannot for what cannot run here, Long for -short)",
					rel, fset.Position(sel.Pos()).Line, recv(sel.X), sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d Go files under %s; the walk missed the tree", files, root)
	}
}

// recv names the receiver of a selector for the message.
func recv(x ast.Expr) string {
	if id, ok := x.(*ast.Ident); ok {
		return id.Name
	}
	return "…"
}
