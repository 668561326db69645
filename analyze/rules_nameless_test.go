package analyze_test

import "testing"

// TestNamelessOption: tools that reject an option without naming it (zstd
// and procps's ps, their output as they printed it on this machine); the
// option the command line has and the tool does not is corrected from the
// usage printed or the manual page.
func TestNamelessOption(t *testing.T) {
	zstdOut := "Incorrect parameters \nCompress or decompress the INPUT file(s); reads from STDIN if INPUT is `-` or not provided.\n\n" +
		"Usage: zstd [OPTIONS...] [INPUT... | -] [-o OUTPUT]\n\nOptions:\n  -o OUTPUT                     Write output to a single file, OUTPUT.\n" +
		"  -k, --keep                    Preserve INPUT file(s). [Default] \n  --rm                          Remove INPUT file(s) after successful (de)compression.\n" +
		"  -d, --decompress              Perform decompression.\n  -f, --force                   Disable input and output checks.\n"
	psOut := "error: unknown gnu long option\n\nUsage:\n ps [options]\n\n Try 'ps --help <simple|list|output|threads|misc|all>'\n  or 'ps --help <s|l|o|t|m|a>'\n for additional help text.\n\nFor more details see ps(1).\n"
	psMan := manPage("ps", ".TP\n.BI \\-\\-sort \\ spec\nSpecify sorting order.\n.TP\n.BI \\-\\-pid \\ pidlist\nSelect by process ID.\n.TP\n.B \\-\\-forest\nASCII art process tree.\n")
	runCases(t, []ruleCase{
		{name: "zstd, the usage it printed", cmd: "zstd --decomprss notes.txt.zst", exit: 1, out: zstdOut, want: "zstd --decompress notes.txt.zst", typ: "syntax_error"},
		{name: "ps, its manual page, the value kept", cmd: "ps aux --sotr=-%mem", exit: 1, env: psMan, out: psOut, want: "ps aux --sort=-%mem"},
		{name: "ps without its manual page: nothing", cmd: "ps aux --sotr=-%mem", exit: 1, out: psOut, want: ""},
		{name: "every option known: another word failed", cmd: "zstd --decompress --keep -19x notes.txt.zst", exit: 1, out: zstdOut, want: ""},
		{name: "nothing near", cmd: "zstd --qqqqqqqq notes.txt", exit: 1, out: zstdOut, want: ""},
	})
}
