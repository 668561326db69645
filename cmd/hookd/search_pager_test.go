package main

import "testing"

// TestSearchPagerFromTop: Ctrl-O's less repaints from the top (-c), so that a
// two-line output is not shown at the bottom of an empty screen (issue
// 32); another pager is left as it is.
func TestSearchPagerFromTop(t *testing.T) {
	for _, tc := range []struct {
		env  string
		less bool
		want string
	}{
		{"", true, "less -R -c"},
		{"", false, "more"},
		{"less", true, "less -c"},
		{"/usr/bin/less -R", true, "/usr/bin/less -R -c"},
		{"most", true, "most"},
		{"less -R | cat", true, "less -R | cat"},
	} {
		if got := searchPager(tc.env, tc.less); got != tc.want {
			t.Errorf("searchPager(%q, %v) = %q; want %q", tc.env, tc.less, got, tc.want)
		}
	}
}
