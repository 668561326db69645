package analyze_test

import (
	"testing"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/analyzetest"
)

func repo(g analyze.GitInfo) func(*analyzetest.Facts) {
	return func(f *analyzetest.Facts) { f.GitRepo = &g }
}

func TestRulesGit(t *testing.T) {
	feature := repo(analyze.GitInfo{Root: "/w", Branch: "feature", Branches: []string{"develop", "feature", "main"}, RemoteBranches: []string{"origin/main"}, Remotes: []string{"origin"}})
	runCases(t, []ruleCase{
		{name: "similar-command", cmd: "git psuh", out: "git: 'psuh' is not a git command. See 'git --help'.\n\nThe most similar command is\n\tpush\n", want: "git push"},
		{name: "similar-keeps-args", cmd: "git chekcout develop", out: "git: 'chekcout' is not a git command. See 'git --help'.\n\nThe most similar command is\n\tcheckout\n", want: "git checkout develop"},
		{name: "subcommand-without-output", cmd: "git comit -m x", want: "git commit -m x"},
		{name: "negative-real-subcommand", cmd: "git status", want: "", out: ""},
		{name: "upstream-from-output", cmd: "git push", exit: 128, out: "fatal: The current branch feature has no upstream branch.\nTo push the current branch and set the remote as upstream, use\n\n    git push --set-upstream origin feature\n\n", want: "git push --set-upstream origin feature"},
		{name: "upstream-from-facts", cmd: "git push", exit: 128, out: "fatal: The current branch has no upstream branch.\n", env: feature, want: "git push --set-upstream origin feature"},
		{name: "checkout-close-branch", cmd: "git checkout feture", out: "error: pathspec 'feture' did not match any file(s) known to git\n", env: feature, want: "git checkout feature"},
		{name: "switch-close-branch", cmd: "git switch mian", exit: 128, out: "fatal: invalid reference: mian\n", env: feature, want: "git switch main"},
		{name: "switch-no-close-branch", cmd: "git switch topic", exit: 128, out: "fatal: invalid reference: topic\n", env: feature, want: "git switch -c topic"},
		{name: "pull-no-tracking", cmd: "git pull", out: "There is no tracking information for the current branch.\n", env: repo(analyze.GitInfo{Branch: "dev", Branches: []string{"dev"}, RemoteBranches: []string{"origin/dev"}, Remotes: []string{"origin"}}), want: "git branch --set-upstream-to=origin/dev dev && git pull"},
		{name: "nothing-staged", cmd: `git commit -m "fix bug"`, out: "no changes added to commit (use \"git add\" and/or \"git commit -a\")\n", want: `git commit -am "fix bug"`},
		{name: "untracked-only", cmd: "git commit -m add", out: "nothing added to commit but untracked files present (use \"git add\" to track)\n", want: "git add . && git commit -m add"},
		{name: "nothing-to-commit", cmd: "git commit -m x", out: "On branch main\nnothing to commit, working tree clean\n", want: "", cause: "nothing to commit"},
		{name: "not-a-repository", cmd: "git status", exit: 128, out: "fatal: not a git repository (or any of the parent directories): .git\n", want: "", cause: "not inside a git repository"},
		{name: "not-a-repository-child", cmd: "git log", exit: 128, out: "fatal: not a git repository (or any of the parent directories): .git\n", env: files("/w/app/.git/"), want: "cd app && git log"},
		{name: "conflict", cmd: "git merge feature", out: "Auto-merging README.md\nCONFLICT (content): Merge conflict in README.md\nAutomatic merge failed; fix conflicts and then commit the result.\n", want: "", cause: "conflict"},
		{name: "detached", cmd: "git push", exit: 128, out: "fatal: You are not currently on a branch.\n", want: "", cause: "detached"},
		{name: "no-remote", cmd: "git push", exit: 128, out: "fatal: No configured push destination.\n", want: "", cause: "remote"},
		{name: "missing-remote", cmd: "git fetch upstream", exit: 128, out: "fatal: 'upstream' does not appear to be a git repository\nfatal: Could not read from remote repository.\n", env: feature, want: "git fetch origin"},
		{name: "overwritten-by-pull", cmd: "git pull", out: "error: Your local changes to the following files would be overwritten by merge:\n\tREADME.md\nPlease commit your changes or stash them before you merge.\nAborting\n", want: "git stash && git pull && git stash pop"},
		{name: "rebase-unstaged", cmd: "git rebase main", out: "error: cannot rebase: You have unstaged changes.\nerror: Please commit or stash them.\n", want: "git stash && git rebase main && git stash pop"},
		{name: "unrelated", cmd: "git merge docs", exit: 128, out: "fatal: refusing to merge unrelated histories\n", want: "git merge --allow-unrelated-histories docs"},
		{name: "tag-exists", cmd: "git tag v1.0", exit: 128, out: "fatal: tag 'v1.0' already exists\n", want: "git tag -f v1.0"},
		{name: "rm-modified", cmd: "git rm config.yml", out: "error: the following file has local modifications:\n    config.yml\n(use --cached to keep the file, or -f to force removal)\n", want: "git rm --cached config.yml"},
		{name: "unknown-option", cmd: "git commit --ammend", exit: 129, out: "error: unknown option `ammend'\nusage: git commit [-a | --interactive | --patch] [-s] [-v] [-u<mode>] [--amend]\n    --[no-]verify   bypass hooks\n", want: "git commit --amend"},
		{name: "push-rejected", cmd: "git push", out: " ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs\n", want: "git pull --rebase && git push"},
		{name: "refspec-master", cmd: "git push origin master", out: "error: src refspec master does not match any\n", env: repo(analyze.GitInfo{Branch: "main", Branches: []string{"main"}, Remotes: []string{"origin"}}), want: "git push origin main"},
		{name: "not-merged", cmd: "git branch -d topic", out: "error: The branch 'topic' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D topic'.\n", want: "git branch -D topic"},
		{name: "negative-other-tool", cmd: "hg push", out: "abort: no repository found\n", want: ""},
	})
	// The force-delete is labelled as the destructive fix it is.
	r := analyze.Analyze(t.Context(), analyze.Input{Command: "git branch -d topic", ExitCode: 1, Output: "error: The branch 'topic' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D topic'.\n"})
	if len(r.Fixes) == 0 || r.Fixes[0].Risk != analyze.RiskHigh {
		t.Errorf("git branch -D fix = %+v; want risk high", r.Fixes)
	}
}
