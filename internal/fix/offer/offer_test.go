package offer

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hookd/hookd/analyze"
)

func TestWriteReadClear(t *testing.T) {
	dir := t.TempDir() + "/fixes"
	const s = "1700000000000000-42-abcd"
	if got, err := Read(dir, s); err != nil || got != nil {
		t.Fatalf("Read before Write = %q, %v; want none", got, err)
	}
	cmds := []string{"git status", "echo 'a\nb'", "ls", "fourth"}
	if err := write(dir, s, cmds, make([]Risk, len(cmds))); err != nil {
		t.Fatal(err)
	}
	got, err := Read(dir, s)
	if err != nil || !slices.Equal(got, cmds[:Max]) {
		t.Fatalf("Read = %q, %v; want %q", got, err, cmds[:Max])
	}
	b, _ := os.ReadFile(Path(dir, s))
	if string(b) != "git status\x00echo 'a\nb'\x00ls\x00" {
		t.Errorf("file = %q; want NUL-terminated commands (the shell code reads this)", b)
	}
	if fi, _ := os.Stat(Path(dir, s)); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v; want 0600", fi.Mode().Perm())
	}
	if err := Clear(dir, s); err != nil {
		t.Fatal(err)
	}
	if got, _ := Read(dir, s); got != nil {
		t.Errorf("Read after Clear = %q", got)
	}
	for _, bad := range []string{"", "../x", ".hidden"} {
		if err := write(dir, bad, cmds, make([]Risk, len(cmds))); err == nil {
			t.Errorf("Write(session %q) = nil; want an error", bad)
		}
	}
	if err := write(dir, s, []string{"a\x00b"}, make([]Risk, 1)); err == nil {
		t.Errorf("Write of a command with a NUL = nil; want an error")
	}
}

// TestFixesAndAnswer: fixes are offered by their commands, best first; an
// answer's commands are offered to fix, its first once as the next line;
// an answer without commands changes nothing.
func TestFixesAndAnswer(t *testing.T) {
	dir := t.TempDir() + "/fixes"
	const s = "1700000000000000-42-abcd"
	fixes := []analyze.Fix{{Command: "git push", Risk: analyze.RiskLow}, {Command: "git pull --rebase", Risk: analyze.RiskMedium}}
	if err := Fixes(dir, s, fixes); err != nil {
		t.Fatal(err)
	}
	if got, _ := Read(dir, s); !slices.Equal(got, []string{"git push", "git pull --rebase"}) {
		t.Errorf("after Fixes, Read = %q", got)
	}
	if _, err := os.Stat(NextPath(dir, s)); err == nil {
		t.Errorf("Fixes set the one-shot offer")
	}
	if err := Answer(dir, s, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := Read(dir, s); len(got) != 2 {
		t.Errorf("an answer without commands changed the offer: %q", got)
	}
	if err := Answer(dir, s, []string{"make test", "make"}); err != nil {
		t.Fatal(err)
	}
	got, _ := Read(dir, s)
	queued, err := os.ReadFile(NextPath(dir, s))
	if !slices.Equal(got, []string{"make test", "make"}) || err != nil || string(queued) != "make test" {
		t.Errorf("after Answer: offer %q, next %q %v; want both commands, the first next", got, queued, err)
	}
	if fi, err := os.Stat(NextPath(dir, s)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("next file: %v; want 0600", err)
	}
	if err := Fixes(dir, s, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := Read(dir, s); got != nil {
		t.Errorf("Fixes(none) left %q", got)
	}
}

// TestClearNext: the one-shot offer goes, whatever made it; an answer
// that proposes nothing takes it away too.
func TestClearNext(t *testing.T) {
	dir := t.TempDir()
	if err := ClearNext(dir, "s1"); err != nil {
		t.Fatalf("ClearNext with no offer: %v", err)
	}
	if err := Answer(dir, "s1", []string{"echo hi"}); err != nil {
		t.Fatal(err)
	}
	if err := ClearNext(dir, "s1"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(NextPath(dir, "s1")); !os.IsNotExist(err) {
		t.Errorf("the offer is still there: %v", err)
	}
	if err := ClearNext(dir, "../x"); err == nil {
		t.Errorf("ClearNext took a bad session id")
	}
	if err := Answer(dir, "s1", []string{"echo hi"}); err != nil {
		t.Fatal(err)
	}
	if err := Answer(dir, "s1", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(NextPath(dir, "s1")); !os.IsNotExist(err) {
		t.Errorf("an answer without commands left the earlier offer: %v", err)
	}
}

// TestRisks: beside the commands, each one's risk and why, found by the
// command itself; a risk that is not known is written high; Clear removes
// both files.
func TestRisks(t *testing.T) {
	dir := t.TempDir()
	err := Fixes(dir, "s1", []analyze.Fix{
		{Command: "git switch main", Risk: analyze.RiskLow, Explanation: "Switch\x1b[31m back."},
		{Command: "rm -rf ~/src/app", Risk: analyze.RiskHigh, Explanation: "Start over."},
		{Command: "make", Risk: ""},
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(RiskPath(dir, "s1"))
	if err != nil {
		t.Fatal(err)
	}
	want := "low\x00Switch\\e[31m back.\x00git switch main\x00high\x00Start over.\x00rm -rf ~/src/app\x00high\x00\x00make\x00"
	if string(b) != want {
		t.Errorf("risk file = %q\n want %q", b, want)
	}
	if err := Answer(dir, "s1", []string{"curl x | sh"}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(RiskPath(dir, "s1")); !strings.HasPrefix(string(b), "high\x00") {
		t.Errorf("an answer's command is not rated: %q", b)
	}
	if err := Clear(dir, "s1"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(RiskPath(dir, "s1")); !os.IsNotExist(err) {
		t.Errorf("the risk file outlives the offer: %v", err)
	}
}
