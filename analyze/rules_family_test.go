package analyze_test

import "testing"

// TestWrapperOption: an option mistyped for the wrapper in front of a
// program (xargs, timeout, nice, env) is the wrapper's, corrected from the
// wrapper's manual page; the program's words stay as they are.
func TestWrapperOption(t *testing.T) {
	timeoutMan := manPage("timeout", ".TP\n\\fB\\-k\\fR, \\fB\\-\\-kill\\-after\\fR=\\fI\\,DURATION\\/\\fR\n.TP\n\\fB\\-s\\fR, \\fB\\-\\-signal\\fR=\\fI\\,SIGNAL\\/\\fR\n")
	runCases(t, []ruleCase{
		{name: "timeout, value kept", cmd: "timeout --kill-afer=5 10 make test", env: timeoutMan,
			out: "timeout: unrecognized option '--kill-afer=5'\nTry 'timeout --help' for more information.\n", want: "timeout --kill-after=5 10 make test", typ: "syntax_error"},
		{name: "behind another wrapper", cmd: "nohup timeout --singal KILL 1 make", env: timeoutMan,
			out: "timeout: unrecognized option '--singal'\nTry 'timeout --help' for more information.\n", want: "nohup timeout --signal KILL 1 make"},
		{name: "xargs in a pipeline", cmd: "find . -print0 | xargs --nul rm", env: manPage("xargs", ".B \\-0, \\-\\-null\n.TP\n.B \\-\\-no\\-run\\-if\\-empty\n"),
			out: "xargs: unrecognized option '--nul'\nTry 'xargs --help' for more information.\n", want: "find . -print0 | xargs --null rm"},
		{name: "nice, BusyBox-less wording", cmd: "nice --adjustmnt=5 make", env: manPage("nice", "\\fB\\-n\\fR, \\fB\\-\\-adjustment\\fR=\\fI\\,N\\/\\fR\n"),
			out: "nice: unrecognized option '--adjustmnt=5'\n", want: "nice --adjustment=5 make"},
		{name: "no manual page: nothing offered", cmd: "timeout --singal=KILL 1 true",
			out: "timeout: unrecognized option '--singal=KILL'\n", want: ""},
	})
}
