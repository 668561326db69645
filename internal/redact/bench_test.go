package redact

import (
	"fmt"
	"strings"
	"testing"
)

// buildLog returns about n bytes of typical build output: compiler lines,
// downloads with URLs, test results and colored status lines.
func buildLog(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		switch i % 8 {
		case 0:
			fmt.Fprintf(&b, "go: downloading github.com/example/module%d v1.%d.3\n", i, i%17)
		case 1:
			fmt.Fprintf(&b, "[ %2d%%] Building CXX object src/CMakeFiles/core.dir/file_%d.cpp.o\n", i%100, i)
		case 2:
			fmt.Fprintf(&b, "gcc -O2 -Wall -Wextra -Iinclude -c src/parser%d.c -o build/parser%d.o\n", i, i)
		case 3:
			fmt.Fprintf(&b, "npm WARN deprecated inflight@1.0.6: This module is not supported, see https://registry.npmjs.org/inflight/-/inflight-1.0.%d.tgz\n", i%9)
		case 4:
			fmt.Fprintf(&b, "\x1b[32m--- PASS\x1b[0m: TestHandler/case_%d (0.%02ds)\n", i, i%100)
		case 5:
			fmt.Fprintf(&b, "src/lexer.go:%d:%d: warning: unused variable 'tokenCount'\n", i%900, i%80)
		case 6:
			fmt.Fprintf(&b, "Step %d/40 : RUN apt-get install -y --no-install-recommends libssl-dev\n", i%40)
		default:
			fmt.Fprintf(&b, "    ok  \tgithub.com/example/pkg%d\t0.%03ds\tcoverage: %d.%d%% of statements\n", i, i%1000, i%100, i%10)
		}
	}
	return b.String()
}

func BenchmarkString(b *testing.B) {
	cases := []struct{ name, in string }{
		{"clean-notrigger-40B", "ls -la /var/log | grep error | wc -l >x"},
		{"clean-40B", "git commit -am 'update readme' && git push"},
		{"clean-upper-40B", "LC_ALL=C sort -u Makefile | head -n 20 >x"},
		{"secret-40B", "mysql -u root --password=hunter2 db -e q"},
		{"bearer-60B", `curl -H "Authorization: Bearer abc.def" https://x/api`},
		{"buildlog-1MiB", buildLog(1 << 20)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.in)))
			b.ReportAllocs()
			for b.Loop() {
				(*Redactor)(nil).String(c.in)
			}
		})
	}
}
