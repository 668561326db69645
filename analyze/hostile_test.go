package analyze_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/analyzetest"
	"github.com/hookd/hookd/internal/shellwords"
	"github.com/hookd/hookd/internal/shellwords/shellwordstest"
)

// hostileCase is a failure in which name comes from outside the user's
// command line: a branch or remote git lists, a directory's entries, a
// makefile's targets, package.json's scripts, the PATH, a tool's output.
// The user typed a near name (near), quoted.
type hostileCase struct {
	what string
	make func(name string) (analyze.Input, *analyzetest.Facts)
	// narrow: the rule takes only names of a few characters ([\w.-]),
	// so that no hostile name but one with a leading "-" (not offered)
	// gets through.
	narrow bool
}

func hostileCases() []hostileCase {
	in := func(cmd, out string, env func(*analyzetest.Facts)) (analyze.Input, *analyzetest.Facts) {
		f := baseFacts()
		if env != nil {
			env(f)
		}
		return analyze.Input{Command: cmd, ExitCode: 1, Output: out, Cwd: "/w", Shell: "bash", Env: f}, f
	}
	q := shellwords.QuoteWord
	repo := func(g analyze.GitInfo) func(*analyzetest.Facts) {
		return func(f *analyzetest.Facts) { f.GitRepo = &g }
	}
	return []hostileCase{
		{"push: the current branch has no upstream", func(n string) (analyze.Input, *analyzetest.Facts) {
			return in("git push", "fatal: The current branch "+n+" has no upstream branch.\n", repo(analyze.GitInfo{Branch: n, Branches: []string{n}, Remotes: []string{"origin"}}))
		}, false},
		{"push: a remote that is not origin", func(n string) (analyze.Input, *analyzetest.Facts) {
			return in("git push", "fatal: The current branch main has no upstream branch.\n", repo(analyze.GitInfo{Branch: "main", Branches: []string{"main"}, Remotes: []string{n}}))
		}, false},
		{"pull: no tracking information", func(n string) (analyze.Input, *analyzetest.Facts) {
			return in("git pull", "There is no tracking information for the current branch.\n", repo(analyze.GitInfo{Branch: n, Branches: []string{n}, Remotes: []string{"origin"}, RemoteBranches: []string{"origin/" + n}}))
		}, false},
		{"checkout: a branch near the typed name", func(n string) (analyze.Input, *analyzetest.Facts) {
			return in("git checkout "+q(near(n)), "error: pathspec '"+near(n)+"' did not match any file(s) known to git\n", repo(analyze.GitInfo{Branch: "main", Branches: []string{"main", n}}))
		}, false},
		{"switch: a remote branch near the typed name", func(n string) (analyze.Input, *analyzetest.Facts) {
			return in("git switch "+q(near(n)), "fatal: invalid reference: "+near(n)+"\n", repo(analyze.GitInfo{Branch: "main", Branches: []string{"main"}, RemoteBranches: []string{"origin/" + n}}))
		}, false},
		{"push: a branch near the typed refspec", func(n string) (analyze.Input, *analyzetest.Facts) {
			return in("git push origin "+q(near(n)), "error: src refspec "+near(n)+" does not match any\n", repo(analyze.GitInfo{Branch: "main", Branches: []string{"main", n}, Remotes: []string{"origin"}}))
		}, false},
		{"push: the current branch for master", func(n string) (analyze.Input, *analyzetest.Facts) {
			return in("git push origin master", "error: src refspec master does not match any\n", repo(analyze.GitInfo{Branch: n, Branches: []string{n}, Remotes: []string{"origin"}}))
		}, false},
		{"push: a remote near the typed one", func(n string) (analyze.Input, *analyzetest.Facts) {
			return in("git push "+q(near(n))+" main", "fatal: '"+near(n)+"' does not appear to be a git repository\n", repo(analyze.GitInfo{Branch: "main", Branches: []string{"main"}, Remotes: []string{n, "other"}}))
		}, false},
		{"checkout -b: the branch exists", func(n string) (analyze.Input, *analyzetest.Facts) {
			return in("git checkout -b "+q(n), "fatal: a branch named '"+n+"' already exists\n", repo(analyze.GitInfo{Branch: "main", Branches: []string{"main", n}}))
		}, false},
		{"branch -d: not fully merged", func(n string) (analyze.Input, *analyzetest.Facts) {
			return in("git branch -d "+q(n), "error: The branch '"+n+"' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D "+n+"'.\n", repo(analyze.GitInfo{Branch: "main", Branches: []string{"main", n}}))
		}, false},
		{"git: the repository is a subdirectory", func(n string) (analyze.Input, *analyzetest.Facts) {
			return in("git status", "fatal: not a git repository (or any of the parent directories): .git\n", files("/w/"+n+"/.git/"))
		}, false},
		{"cat: a file near the typed name", func(n string) (analyze.Input, *analyzetest.Facts) {
			return in("cat "+q(near(n)), "cat: "+near(n)+": No such file or directory\n", files("/w/"+n))
		}, false},
		{"cd: a directory near the typed name", func(n string) (analyze.Input, *analyzetest.Facts) {
			return in("cd "+q(near(n)), "bash: cd: "+near(n)+": No such file or directory\n", files("/w/"+n+"/"))
		}, false},
		{"make: a target near the typed one", func(n string) (analyze.Input, *analyzetest.Facts) {
			return in("make "+q(near(n)), "make: *** No rule to make target '"+near(n)+"'.  Stop.\n", func(f *analyzetest.Facts) { f.Targets = []string{n, "all"} })
		}, false},
		{"npm: a script near the typed one", func(n string) (analyze.Input, *analyzetest.Facts) {
			return in("npm run "+q(near(n)), "npm error Missing script: \""+near(n)+"\"\n", func(f *analyzetest.Facts) { f.Scripts = []string{n, "test"} })
		}, false},
		{"a command near the typed one", func(n string) (analyze.Input, *analyzetest.Facts) {
			return in(q(near(n))+" --version", "bash: "+near(n)+": command not found\n", func(f *analyzetest.Facts) { f.Exes = append(slices.Clone(f.Exes), n) })
		}, false},
		{"perl: a script near the one named in the output (any tool's operand)", func(n string) (analyze.Input, *analyzetest.Facts) {
			return in("perl "+q(near(n)), "Can't open perl script \""+near(n)+"\": No such file or directory\n", files("/w/"+n))
		}, false},
		{"pacman: another system's package manager, this one's install", func(n string) (analyze.Input, *analyzetest.Facts) {
			return in("pacman -S "+q(n), "bash: pacman: command not found\n", exes("apt-get", "sudo"))
		}, false},
		{"git: the subcommand the output proposes", func(n string) (analyze.Input, *analyzetest.Facts) {
			return in("git "+q(near(n)), "git: '"+near(n)+"' is not a git command. See 'git --help'.\n\nThe most similar command is\n\t"+n+"\n", nil)
		}, true},
	}
}

// TestHostileNames feeds every rule that takes a word from outside the
// user's command line hostile names, and checks that each fix is only
// words (shellwordstest.Calls: no substitution, no second command, no
// redirection) and exactly the words the same rule offers for a plain
// name, with the hostile name in its place; a name that starts with "-"
// never reaches a command as an option: it follows --end-of-options, is
// written ./-… as a path, or is not offered.
func TestHostileNames(t *testing.T) {
	const plain = "feature"
	ctx := context.Background()
	for _, hc := range hostileCases() {
		t.Run(hc.what, func(t *testing.T) {
			pin, _ := hc.make(plain)
			want := map[string]bool{}
			for _, fx := range analyze.Analyze(ctx, pin).Fixes {
				calls, err := shellwordstest.Calls(fx.Command)
				if err != nil {
					t.Fatalf("the plain name's fix %q: %v", fx.Command, err)
				}
				want[strings.Join(flatten(calls), "\x00")] = true
			}
			if len(want) == 0 {
				t.Fatalf("no fix for the plain name (%q): the case tests nothing", pin.Command)
			}
			offered := 0
			for _, name := range shellwordstest.Hostile {
				in, _ := hc.make(name)
				for _, fx := range analyze.Analyze(ctx, in).Fixes {
					calls, err := shellwordstest.Calls(fx.Command)
					if err != nil {
						t.Errorf("%q: the fix %q is not only words: %v", name, fx.Command, err)
						continue
					}
					if !hasName(calls, name) {
						continue // a fix that does not use the name
					}
					offered++
					if strings.HasPrefix(name, "-") {
						for _, c := range calls {
							for i, w := range c {
								if w == name && !slices.Contains(c[:i], "--end-of-options") {
									t.Errorf("%q: the fix %q gives the name as an option", name, fx.Command)
								}
							}
						}
					}
					got := strings.Join(flatten(calls), "\x00")
					got = strings.ReplaceAll(strings.ReplaceAll(got, "--end-of-options\x00", ""), "./"+name, name)
					got = strings.ReplaceAll(got, near(name), name+"x")
					mapped := false
					for w := range want {
						mapped = mapped || strings.ReplaceAll(w, plain, name) == got
					}
					if !mapped {
						t.Errorf("%q: the fix %q is not what the rule offers for a plain name with this one in its place (%q)", name, fx.Command, keys(want))
					}
				}
			}
			if offered == 0 && !hc.narrow {
				t.Errorf("no hostile name was offered at all: the case tests nothing")
			}
		})
	}
}

// near is the name the user typed instead of name: one letter more, where
// it keeps a name that is not an option (as the user typed) one.
func near(name string) string {
	if strings.HasPrefix(name, "-") {
		return "x" + name
	}
	return name + "x"
}

func flatten(calls [][]string) []string {
	var out []string
	for _, c := range calls {
		out = append(append(out, c...), "&&")
	}
	return out
}

func hasName(calls [][]string, name string) bool {
	for _, c := range calls {
		for _, w := range c {
			if strings.Contains(w, name) {
				return true
			}
		}
	}
	return false
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, strings.ReplaceAll(k, "\x00", " "))
	}
	return out
}
