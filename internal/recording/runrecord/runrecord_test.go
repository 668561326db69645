package runrecord

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/hookd/hookd/internal/recording/outbox"
	"github.com/hookd/hookd/internal/recording/spool"
)

func TestText(t *testing.T) {
	for _, c := range []struct {
		argv []string
		want string
	}{
		{[]string{"make", "test"}, "make test"},
		{[]string{"echo", "a b", "it's", ""}, `echo 'a b' "it's" ''`},
		{[]string{"printf", "\x1b[31m\n"}, `printf $'\x1b[31m\n'`},
		{[]string{"ls", "-la", "./x/y.go", "k=v", "--set=x"}, "ls -la ./x/y.go 'k=v' --set=x"}, // k=v would assign where a command name goes
	} {
		if got := Text(c.argv); got != c.want {
			t.Errorf("Text(%q) = %s; want %s", c.argv, got, c.want)
		}
	}
}

func TestRunAndSave(t *testing.T) {
	var out, errOut strings.Builder
	c, err := Exec{Argv: []string{"sh", "-c", "echo out; echo err >&2; exit 3"}, Stdout: &out, Stderr: &errOut, Limit: 1 << 20}.Run()
	if err != nil || c.Status != 3 || out.String() != "out\n" || errOut.String() != "err\n" {
		t.Fatalf("Run = %+v, %v; stdout %q, stderr %q", c, err, out.String(), errOut.String())
	}
	if string(c.Stdout.Bytes()) != "out\n" || string(c.Stderr.Bytes()) != "err\n" || !strings.Contains(string(c.Output.Bytes()), "out\n") {
		t.Errorf("kept %q %q %q", c.Stdout.Bytes(), c.Stderr.Bytes(), c.Output.Bytes())
	}
	dir := t.TempDir()
	session, err := Save(dir+"/spool", dir+"/out", Writer{Shell: "run", PID: os.Getpid()}, c)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(spool.Path(dir+"/spool", session))
	recs, _, bad := spool.Decode(b, true)
	if len(bad) != 0 || len(recs) != 2 || recs[1].Command == nil || recs[1].Command.Exit != 3 {
		t.Errorf("spool holds %+v (bad %v)", recs, bad)
	}
	l, _ := outbox.Scan(dir + "/out")
	if len(l.Items) != 3 {
		t.Errorf("outbox holds %d items; want the output, stdout and stderr", len(l.Items))
	}
	_, err = Exec{Argv: []string{"/nonexistent/cmd"}, Stdout: &out, Stderr: &errOut}.Run()
	var se *StartError
	if !errors.As(err, &se) {
		t.Errorf("a command that cannot start: %v; want a StartError", err)
	}
}
