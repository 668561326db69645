//go:build !linux

package ingest_test

import "testing"

// punchSupported: ingest punches holes on Linux only (punch_other.go).
func punchSupported(*testing.T, string) bool { return false }
