// Package required is for tests: what a test needs from the machine (a
// shell, tmux, strace, shellcheck, versitygw, node and the SDKs) may be
// missing on a developer's machine, where the test is skipped, but not
// where a REQUIRE_* variable says it must run (CI sets them all: .ci/run),
// where the same check fails the test instead. The one place that reads
// those variables.
package required

import (
	"os"
	"strings"
	"testing"
)

// Skip ends t because something it needs is missing, which why says
// ("tmux is not installed"): a skip, unless one of vars (REQUIRE_SHELLS,
// REQUIRE_S3, REQUIRE_SDKCHECK) is set, which says the test must run here:
// then a failure.
func Skip(t testing.TB, why string, vars ...string) {
	t.Helper()
	if v := Set(vars...); v != "" {
		t.Fatalf("%s, and %s says this test must run here", why, v)
	}
	t.Skip(why)
}

// Set returns the first of vars that is set to anything but "" or "0"
// (as "NAME=value"), or "".
func Set(vars ...string) string {
	for _, v := range vars {
		if val := strings.TrimSpace(os.Getenv(v)); val != "" && val != "0" {
			return v + "=" + val
		}
	}
	return ""
}
