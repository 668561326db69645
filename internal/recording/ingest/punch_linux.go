package ingest

import (
	"os"
	"syscall"
)

// punch frees the file's blocks before end, so that what was ingested (raw,
// unredacted command lines and outputs) does not stay on disk. The file
// keeps its size, so offsets stay valid. File systems without hole punching
// keep the bytes until the log is removed (as every system but Linux does:
// punch_other.go).
func punch(f *os.File, end int64) {
	const punchHole, keepSize = 0x02, 0x01
	syscall.Fallocate(int(f.Fd()), punchHole|keepSize, 0, end) // best effort
}
