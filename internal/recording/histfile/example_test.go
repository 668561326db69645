package histfile_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/hookd/hookd/internal/recording/histfile"
)

func ExampleParseZsh() {
	file := ": 1700000000:3;make test\n" +
		": 1700000010:0;for f in *.go; do\\\n  gofmt -l $f\\\ndone\n" +
		"echo \xe6\x83\xb7\xa5\n" + // "echo 日", metafied, in a plain line
		"binary\x00junk\n"
	res, err := histfile.ParseZsh(strings.NewReader(file))
	if err != nil {
		panic(err)
	}
	for _, e := range res.Entries {
		when := "no time"
		if !e.Time.IsZero() {
			when = e.Time.Format(time.RFC3339)
		}
		fmt.Printf("line %d, %s, took %v: %q\n", e.Line, when, e.Duration, e.Command)
	}
	fmt.Println(res.Skipped, "skipped:", res.Problems)
	// Output:
	// line 1, 2023-11-14T22:13:20Z, took 3s: "make test"
	// line 2, 2023-11-14T22:13:30Z, took 0s: "for f in *.go; do\n  gofmt -l $f\ndone"
	// line 5, no time, took 0s: "echo 日"
	// 1 skipped: [line 6: contains a NUL byte]
}

func ExampleParseBash() {
	file := "#1700000000\n" +
		"for i in 1 2; do\n  echo $i\ndone\n" + // saved with shopt -s lithist
		"#1700000042\n" +
		"git status\n"
	res, _ := histfile.ParseBash(strings.NewReader(file))
	for _, e := range res.Entries {
		fmt.Printf("line %d, %s: %q\n", e.Line, e.Time.Format(time.RFC3339), e.Command)
	}
	// Output:
	// line 2, 2023-11-14T22:13:20Z: "for i in 1 2; do\n  echo $i\ndone"
	// line 6, 2023-11-14T22:14:02Z: "git status"
}
