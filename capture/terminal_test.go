package capture

import "testing"

func TestLastOutput(t *testing.T) {
	tests := []struct{ name, screen, cmd, want string }{
		{"simple", "[st=0] $ ls\na b\n[st=0] $ gti status\nbash: gti: command not found\n", "gti status", "bash: gti: command not found\n"},
		{"last of two", "$ make\nerror 1\n$ make\nerror 2\n\n\n", "make", "error 2\n"},
		{"multi-line", "$ for i in 1 2; do\n> echo $i\n> done\n1\n2\n", "for i in 1 2; do\necho $i\ndone", "1\n2\n"},
		{"not on screen", "$ other\nout\n", "gti status", ""},
		{"no output", "$ false\n", "false", ""},
		{"empty command", "$ x\n", "", ""},
	}
	for _, tt := range tests {
		if got := LastOutput(tt.screen, tt.cmd); got != tt.want {
			t.Errorf("%s: LastOutput(%q, %q) = %q; want %q", tt.name, tt.screen, tt.cmd, got, tt.want)
		}
	}
}
