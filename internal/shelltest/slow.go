package shelltest

import (
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// SlowEnv names the environment variable that scales every deadline of the
// harness (and of the tests that use Scale): HOOKD_TEST_SLOW=3 triples
// them, for a machine known to be slow or loaded. A deadline only bounds how
// long a broken test hangs before it fails; no test passes or fails because
// of its length.
const SlowEnv = "HOOKD_TEST_SLOW"

// MinWait is the shortest deadline the harness's waits use, whatever a test
// asks for: on a loaded two-core machine a shell can take seconds to start
// or to answer, and a wait that ends early only turns a slow run into a
// failed one. It is scaled by HOOKD_TEST_SLOW like everything else.
const MinWait = 30 * time.Second

var slow = sync.OnceValue(func() float64 {
	f, err := strconv.ParseFloat(os.Getenv(SlowEnv), 64)
	if err != nil || f < 1 {
		return 1
	}
	return f
})

// Slow returns the factor HOOKD_TEST_SLOW sets (at least 1).
func Slow() float64 { return slow() }

// Scale returns d multiplied by the HOOKD_TEST_SLOW factor. Tests use it for
// their own deadlines, so that one variable makes a whole run more patient.
func Scale(d time.Duration) time.Duration { return time.Duration(float64(d) * slow()) }

// deadline is how long a harness wait asked to last d really lasts: at least
// MinWait, scaled.
func deadline(d time.Duration) time.Duration { return Scale(max(d, MinWait)) }

// Eventually polls cond until it holds, failing the test with what() when it
// still does not after timeout (at least MinWait, scaled). It is for the
// states no event announces (a process gone, a row in a database, a file
// written by another process); the poll is every 10 ms at first, backing off
// to 100 ms, so that a long wait costs little CPU.
func Eventually(t testing.TB, timeout time.Duration, cond func() bool, what func() string) {
	t.Helper()
	if !Poll(timeout, cond) {
		t.Fatalf("not within %v: %s", deadline(timeout), what())
	}
}

// Poll is Eventually without the test: it reports whether cond held within
// timeout (at least MinWait, scaled).
func Poll(timeout time.Duration, cond func() bool) bool {
	end := time.Now().Add(deadline(timeout))
	pause := 10 * time.Millisecond
	for !cond() {
		if time.Now().After(end) {
			return cond()
		}
		time.Sleep(pause)
		pause = min(pause*3/2, 100*time.Millisecond)
	}
	return true
}

// WaitFile waits until the file at path exists and ok (if not nil) accepts
// its content, and returns the content.
func WaitFile(t testing.TB, path string, timeout time.Duration, ok func([]byte) bool) []byte {
	t.Helper()
	var b []byte
	var err error
	Eventually(t, timeout, func() bool {
		b, err = os.ReadFile(path)
		return err == nil && (ok == nil || ok(b))
	}, func() string {
		if err != nil {
			return err.Error()
		}
		return path + " holds " + strconv.Quote(string(b))
	})
	return b
}

// UnignoreSignals undoes, for the processes the tests start, what a
// launcher may have done to the test binary: nohup starts it with SIGHUP
// ignored, a non-interactive shell's `&` with SIGINT and SIGQUIT ignored,
// and an ignored signal stays ignored across exec, so a shell or command
// under test could not be hung up or interrupted (a POSIX shell cannot
// even trap a signal ignored on entry). A signal that is handled rather
// than ignored goes back to its default in a child at exec. Call it from
// TestMain; signals this process gets for them are then dropped, as they
// were ignored before.
func UnignoreSignals() {
	for _, sig := range []os.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT} {
		if signal.Ignored(sig) {
			signal.Notify(make(chan os.Signal, 1), sig)
		}
	}
}
