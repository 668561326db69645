// Package required is for tests, and the one place a test skips: what a
// test needs from the machine (a shell, tmux, git, strace, versitygw,
// node and the SDKs) may be missing on a developer's machine, where the
// test is skipped, but not in CI (CI set) or where a REQUIRE_* variable
// says it must run (.ci/run sets them all): there the same check fails
// the test instead. A test that cannot run somewhere by its nature (it
// needs root, /proc, a build tag, or input only given when asked) says so
// with Cannot, which skips everywhere; a long test skips under -short with
// Long. TestNoBareSkip holds the rule: no t.Skip outside this package.
package required

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Skip ends t because something it needs is missing, which why says
// ("tmux is not installed"): a skip, unless CI or one of vars
// (REQUIRE_SHELLS, REQUIRE_S3, REQUIRE_SDKCHECK, REQUIRE_BROWSER) is set,
// which says the test must run here: then a failure.
func Skip(t testing.TB, why string, vars ...string) {
	t.Helper()
	if v := Set(append([]string{"CI"}, vars...)...); v != "" {
		t.Fatalf("%s, and %s says this test must run here", why, v)
		return
	}
	t.Skip(why)
}

// Tool returns the path of the program name, or ends t through Skip
// ("name is not installed") where it is missing.
func Tool(t testing.TB, name string, vars ...string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		Skip(t, name+" is not installed", vars...)
	}
	return path
}

// Cannot ends t with a skip, in CI as anywhere, because the test cannot
// run here by its nature, which why says: it needs root (or not to be
// root), /proc, a file system or kernel feature this machine lacks, a
// build tag, or input that is only given when asked (a flag, a data set,
// the parent of a child process). Nothing installing a tool would change.
func Cannot(t testing.TB, why string) {
	t.Helper()
	if strings.TrimSpace(why) == "" {
		t.Fatal("required.Cannot: a test that cannot run must say why")
		return
	}
	t.Skip(why)
}

// Long skips t under go test -short: a long test, run in full otherwise
// (CI does not pass -short).
func Long(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("a long test, skipped under -short")
	}
}

// Set returns the first of vars that is set to anything but "", "0" or
// "false" (as "NAME=value"), or "".
func Set(vars ...string) string {
	for _, v := range vars {
		val := strings.TrimSpace(os.Getenv(v))
		if val != "" && val != "0" && !strings.EqualFold(val, "false") {
			return v + "=" + val
		}
	}
	return ""
}
