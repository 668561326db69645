package required

import "testing"

// TestSet: a REQUIRE_* variable counts when it is set to anything but ""
// or "0" (the tests read "1" and "yes" alike, as CI may set either).
func TestSet(t *testing.T) {
	for _, c := range []struct {
		val  string
		want string
	}{{"", ""}, {"0", ""}, {"1", "REQUIRE_TEST_X=1"}, {"yes", "REQUIRE_TEST_X=yes"}} {
		t.Setenv("REQUIRE_TEST_X", c.val)
		if got := Set("REQUIRE_TEST_Y", "REQUIRE_TEST_X"); got != c.want {
			t.Errorf("REQUIRE_TEST_X=%q: Set = %q; want %q", c.val, got, c.want)
		}
	}
}
