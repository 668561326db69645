//go:build !linux

package main

import (
	"fmt"
	"os"
)

// noReapInit needs Linux's child subreaper (prctl); elsewhere it refuses,
// and the test that uses it fails rather than test nothing.
func noReapInit([]string) int {
	fmt.Fprintln(os.Stderr, "noreap: no child subreaper on this system")
	return 1
}
