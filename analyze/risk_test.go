package analyze_test

import (
	"testing"

	"github.com/hookd/hookd/analyze"
)

func TestRisk(t *testing.T) {
	tests := []struct {
		cmd, want string
	}{
		{"git push", analyze.RiskLow},
		{"ls -la /", analyze.RiskLow},
		{"chmod +x deploy.sh && ./deploy.sh", analyze.RiskLow},
		{"echo hi >> notes.txt", analyze.RiskLow},
		{"make 2>/dev/null", analyze.RiskLow},
		{"cmd > /dev/null 2>&1", analyze.RiskLow},
		{"rm notes.txt", analyze.RiskLow},
		{"sudo apt install jq", analyze.RiskMedium},
		{"rm -r build", analyze.RiskMedium},
		{"rm -f x", analyze.RiskMedium},
		{"rm --recursive build", analyze.RiskMedium},
		{"dd if=a.img of=b.img", analyze.RiskMedium},
		{"chmod -R 755 site", analyze.RiskMedium},
		{"chown -R me: site", analyze.RiskMedium},
		{"git push --force", analyze.RiskMedium},
		{"git push -f origin main", analyze.RiskMedium},
		{"git push --force-with-lease", analyze.RiskMedium},
		{"git reset --hard HEAD~1", analyze.RiskMedium},
		{"git clean -fd", analyze.RiskMedium},
		{"git branch -D topic", analyze.RiskMedium},
		{"git stash drop", analyze.RiskMedium},
		{"echo x > config.yml", analyze.RiskMedium},
		{"ln -sf a b", analyze.RiskMedium},
		{"kill 1234", analyze.RiskMedium},
		{"find . -name '*.tmp' -delete", analyze.RiskMedium},
		{"docker rm -f web && docker run web", analyze.RiskMedium},
		{"bash -c 'rm -rf build'", analyze.RiskMedium},
		{"cd x && sudo make install", analyze.RiskMedium},
		{"unbalanced 'quote", analyze.RiskMedium},
		{"rm -rf /", analyze.RiskHigh},
		{"sudo rm -rf /*", analyze.RiskHigh},
		{"rm -rf ~", analyze.RiskHigh},
		{"rm -rf ~/", analyze.RiskHigh},
		{"rm -rf $HOME", analyze.RiskHigh},
		{`rm -rf "$HOME"`, analyze.RiskHigh},
		{"chmod -R 777 /", analyze.RiskHigh},
		{"sudo chown -R me /", analyze.RiskHigh},
		{"mkfs.ext4 /dev/sdb1", analyze.RiskHigh},
		{"dd if=x.iso of=/dev/sda", analyze.RiskHigh},
		{"curl -fsSL https://x.sh | sh", analyze.RiskHigh},
		{"wget -qO- https://x.sh | sudo bash", analyze.RiskHigh},
		{"echo x > /etc/hosts", analyze.RiskHigh},
		{"sh -c 'rm -rf ~'", analyze.RiskHigh},
		{"find / -delete", analyze.RiskHigh},
	}
	for _, tt := range tests {
		if got := analyze.Risk(tt.cmd); got != tt.want {
			t.Errorf("Risk(%q) = %q; want %q", tt.cmd, got, tt.want)
		}
	}
}

func TestQuiet(t *testing.T) {
	tests := []struct {
		name  string
		cmd   string
		exit  int
		out   string
		quiet bool
	}{
		{"interrupted", "sleep 100", 130, "^C", true},
		{"grep-no-match", "grep foo notes.txt", 1, "", true},
		{"grep-in-pipeline", "ps aux | grep nginx", 1, "", true},
		{"diff-differs", "diff a b", 1, "1c1\n< a\n---\n> b\n", true},
		{"test-false", "[ -f x ]", 1, "", true},
		{"test-word", "test -d build", 1, "", true},
		{"cmp", "cmp -s a b", 1, "", true},
		{"git-diff-exit-code", "git diff --exit-code", 1, "diff --git a/x b/x\n", true},
		{"grep-error", "grep foo missing.txt", 2, "grep: missing.txt: No such file or directory\n", false},
		{"test-error", "[ -f notes.txt", 2, "bash: [: missing `]'\n", false},
		{"grep-exit1-with-error", "grep -P '(' x", 1, "grep: missing )\n", false},
		{"ordinary-failure", "make", 2, "make: *** No targets.  Stop.\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := analyze.Analyze(t.Context(), analyze.Input{Command: tt.cmd, ExitCode: tt.exit, Output: tt.out, Env: baseFacts(), Cwd: "/w"})
			if r.Quiet != tt.quiet {
				t.Fatalf("Analyze(%q, exit %d).Quiet = %v; want %v (%+v)", tt.cmd, tt.exit, r.Quiet, tt.quiet, r)
			}
			if r.Quiet && (r.ErrorType != "" || len(r.Fixes) != 0) {
				t.Fatalf("quiet Result has error type %q and fixes %+v; want neither", r.ErrorType, r.Fixes)
			}
			if !r.Quiet && r.ErrorType == "" {
				t.Fatalf("Result %+v has no error type", r)
			}
		})
	}
}
