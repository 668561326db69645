package analyze_test

import (
	"testing"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/analyzetest"
)

// TestAlternativeFamilies: the fixes from another family of cause than the
// usual one (the project's virtualenv, Debian's package, a commit instead
// of a stash) come first when the facts say so, else second, never
// instead of a first fix that the facts do not contradict.
func TestAlternativeFamilies(t *testing.T) {
	venv := files("/w/.venv/bin/activate", "/w/.venv/pyvenv.cfg", "/w/.venv/lib/python3.11/site-packages/")
	noModule := "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\nModuleNotFoundError: No module named 'requests'\n"
	runCases(t, []ruleCase{
		{name: "venv-has-module", cmd: "python3 app.py", out: noModule,
			env:  files("/w/.venv/bin/activate", "/w/.venv/pyvenv.cfg", "/w/.venv/lib/python3.11/site-packages/requests/"),
			want: "source .venv/bin/activate", also: "pip install requests"},
		{name: "venv-has-module-fish", cmd: "python3 app.py", out: noModule, shell: "fish",
			env:  files("/w/.venv/bin/activate", "/w/.venv/pyvenv.cfg", "/w/.venv/lib/python3.11/site-packages/requests/"),
			want: "source .venv/bin/activate.fish", also: "pip install requests"},
		{name: "venv-without-module", cmd: "python3 app.py", out: noModule, env: venv,
			want: "pip install requests", also: "source .venv/bin/activate"},
		{name: "venv-above", cmd: "python3 app.py", out: noModule,
			env:  files("/w/../venv/bin/activate", "/w/../venv/pyvenv.cfg", "/w/../venv/lib/python3.11/site-packages/requests.py"),
			want: "source ../venv/bin/activate"},
		{name: "venv-active", cmd: "python3 app.py", out: noModule,
			env:  func(f *analyzetest.Facts) { venv(f); f.Venv = "/w/.venv"; exes("python")(f) },
			want: "python -m pip install requests"},
		// A venv known active, yet no python on the PATH (it was
		// deactivated): python3's pip, never python's.
		{name: "venv-active-no-python", cmd: "python3 app.py", out: noModule,
			env:  func(f *analyzetest.Facts) { venv(f); f.Venv = "/w/.venv" },
			want: "pip install requests", also: "python3 -m pip install requests"},
		{name: "venv-has-tool", cmd: "pytest -q", exit: 127, out: "bash: pytest: command not found\n",
			env: func(f *analyzetest.Facts) {
				files("/w/.venv/bin/activate", "/w/.venv/pyvenv.cfg", "/w/.venv/bin/pytest")(f)
				f.ExecFiles = append(f.ExecFiles, "/w/.venv/bin/pytest")
			},
			want: "source .venv/bin/activate"},
		{name: "debian-package", cmd: "python3 app.py", out: noModule,
			env:  func(f *analyzetest.Facts) { f.AptNames = []string{"python3-requests", "python3-requests-oauthlib"} },
			want: "pip install requests", also: "apt install python3-requests"},
		{name: "commit-instead-of-stash", cmd: "git pull",
			out:  "error: Your local changes to the following files would be overwritten by merge:\n\tREADME\nPlease commit your changes or stash them before you merge.\nAborting\n",
			want: "git stash && git pull && git stash pop", also: "git commit -am WIP && git pull"},
	})
}

// TestSameActionAndRunnable: the shared checks that keep a list of fixes to
// one fix per action, of programs that exist.
func TestSameActionAndRunnable(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"source .venv/bin/activate", "source /home/u/app/.venv/bin/activate", true},
		{"source .venv/bin/activate", "source ~/app/.venv/bin/activate", true},
		{". ./.venv/bin/activate", "source .venv/bin/activate", true},
		{"source ../.venv/bin/activate", "source /home/u/.venv/bin/activate", true},
		{"source .venv/bin/activate", "source venv/bin/activate", false},
		{"pip install x", "pip install y", false},
		{"rm -r build", "rm build", false},
	} {
		if got := analyze.SameAction(tc.a, tc.b, "/home/u/app", "/home/u", "bash"); got != tc.same {
			t.Errorf("SameAction(%q, %q) = %v; want %v", tc.a, tc.b, got, tc.same)
		}
	}
	facts := baseFacts()
	for cmd, want := range map[string]bool{
		"python -m pip install x": false, "python3 -m pip install x": true, "sudo python -V": false,
		"./run.sh": true, "cd /tmp": true, "FOO=1": true, "FOO=1 python3 x.py": true, "nosuch && ls": false,
	} {
		if got := analyze.Runnable(t.Context(), facts, cmd, "bash"); got != want {
			t.Errorf("Runnable(%q) = %v; want %v", cmd, got, want)
		}
	}
}
