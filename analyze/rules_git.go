package analyze

import (
	"context"
	"fmt"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

var (
	gitSetUpstreamRe = lazyRegexp(`(?m)^\s*git push --set-upstream (\S+) (\S+)\s*$`)
	gitNoUpstreamRe  = lazyRegexp(`The current branch (\S+) has no upstream branch`)
	gitPathspecRe    = lazyRegexp(`pathspec '([^']+)' did not match any file`)
	gitInvalidRefRe  = lazyRegexp(`fatal: (?:invalid reference|a branch named '[^']+' already exists|ambiguous argument|couldn't find remote ref|bad revision|not a valid object name|Needed a single revision|branch '[^']+' not found)[: ]*'?([^'\s:]*)'?`)
	gitNotMergeable  = lazyRegexp(`merge: (\S+) - not something we can merge`)
	gitNotRepoRe     = lazyRegexp(`'([^']+)' does not appear to be a git repository`)
	gitTagExistsRe   = lazyRegexp(`fatal: tag '([^']+)' already exists`)
	gitBranchExists  = lazyRegexp(`fatal: a branch named '([^']+)' already exists`)
	gitNotMergedRe   = lazyRegexp(`run 'git branch -D ([^']+)'`)
	gitRemoteURLRe   = lazyRegexp(`(?:fatal|error): remote (\S+) already exists`)
	gitRefspecRe     = lazyRegexp(`error: src refspec (\S+) does not match any`)
	gitCloneDestRe   = lazyRegexp(`destination path '([^']+)' already exists and is not an empty directory`)
	gitConflictRe    = lazyRegexp(`(?m)^CONFLICT \([^)]*\): (?:Merge conflict in )?(.+)$`)
	gitIgnoredRe     = lazyRegexp(`The following paths are ignored by one of your .gitignore files:\n(\S+)`)
)

// git returns the repository facts, or the zero value when unknown.
func (f *Failure) git(ctx context.Context) GitInfo {
	g, err := f.Env.Git(ctx, f.Cwd)
	if err != nil {
		return GitInfo{}
	}
	return g
}

func ruleGit(ctx context.Context, f *Failure) *Finding {
	c := f.call("git")
	if c == nil {
		return nil
	}
	sub := c.sub()
	idx := c.subIndex()
	cmd := strings.TrimSpace(f.Command)
	switch {
	case f.has("not a git repository"):
		return gitNotRepo(ctx, f, c)
	case f.has("has no upstream branch"):
		if m := f.find(gitSetUpstreamRe); m != nil && !strings.HasPrefix(m[1], "-") && !strings.HasPrefix(m[2], "-") {
			// Rebuilt from the remote and branch names, not the output's text.
			return found(ConfigurationError, 0.95, "The branch has no upstream on the remote yet.",
				fix(f.replaceWords(c, 0, len(c.Args), "git push --set-upstream "+shellwords.QuoteWord(m[1])+" "+shellwords.QuoteWord(m[2])), 0.95, "Push and make the remote branch its upstream."))
		}
		branch := ""
		if m := f.find(gitNoUpstreamRe); m != nil {
			branch = m[1]
		}
		g := f.git(ctx)
		if branch == "" {
			branch = g.Branch
		}
		remote := "origin"
		if len(g.Remotes) > 0 && !contains(g.Remotes, "origin") {
			remote = g.Remotes[0]
		}
		if branch != "" {
			return found(ConfigurationError, 0.9, "The branch has no upstream on the remote yet.",
				fix("git push --set-upstream "+endOfOptions(remote, branch)+shellwords.Join(remote, branch), 0.9, "Push and make the remote branch its upstream."))
		}
	case f.has("no tracking information for the current branch"):
		g := f.git(ctx)
		fd := found(ConfigurationError, 0.9, "The current branch has no upstream, so git does not know what to pull.")
		if g.Branch != "" && len(g.Remotes) == 0 {
			// No remote at all: there is nothing to track or pull from.
			return explain(ConfigurationError, 0.9, "The repository has no remote, so there is nothing to pull from; add one with git remote add origin URL, then git branch --set-upstream-to=origin/%s.", g.Branch)
		}
		if g.Branch != "" {
			remote := "origin"
			if len(g.Remotes) > 0 && !contains(g.Remotes, "origin") {
				remote = g.Remotes[0]
			}
			if contains(g.RemoteBranches, remote+"/"+g.Branch) || len(g.RemoteBranches) == 0 {
				fd.Fixes = append(fd.Fixes,
					fix("git branch --set-upstream-to="+shellwords.QuoteWord(remote+"/"+g.Branch)+" "+endOfOptions(g.Branch)+shellwords.QuoteWord(g.Branch)+" && git pull", 0.85, "Track %s/%s, then pull.", remote, g.Branch))
				// git pull takes no --end-of-options (git 2.39): a name
				// that would be read as an option is not offered there.
				if endOfOptions(remote, g.Branch) == "" {
					fd.Fixes = append(fd.Fixes, fix("git pull "+shellwords.Join(remote, g.Branch), 0.8, "Pull the same-named remote branch once."))
				}
			} else {
				fd.RootCause = fmt.Sprintf("The branch %s exists only here (not on %s), so there is nothing to pull; push it with git push -u %s %s.", g.Branch, remote, remote, g.Branch)
			}
		}
		return fd
	case f.has("you are not currently on a branch"), f.has("head detached") && sub != "status":
		return explain(ConfigurationError, 0.9, "HEAD is detached (you checked out a commit, not a branch), so there is no branch to %s; create one with git switch -c NAME or go back with git switch -.", sub)
	case f.has("no configured push destination"):
		return explain(ConfigurationError, 0.92, "The repository has no remote to push to; add one with git remote add origin URL, then push.")
	case f.has("does not appear to be a git repository"):
		return gitBadRemote(ctx, f, c)
	case f.has("would be overwritten by merge", "would be overwritten by checkout", "cannot pull with rebase: you have unstaged changes", "cannot rebase: you have unstaged changes", "your local changes would be overwritten", "please commit or stash them", "would be overwritten by"):
		return gitDirty(f, c, sub, cmd)
	case f.has("refusing to merge unrelated histories"):
		return found(ConfigurationError, 0.9, "The two branches share no history; git merges them only when told to.",
			fix(f.replaceWords(c, idx+1, idx+1, "--allow-unrelated-histories"), 0.9, "Allow merging unrelated histories."))
	case !f.has("usage: git ") && // an option's help ("ignore unmerged entries") is no conflict
		(f.find(gitConflictRe) != nil || f.has("automatic merge failed", "resolve all conflicts manually", "could not apply", "you have unmerged paths", "unmerged files", "you need to resolve your current index first", "fix conflicts and then commit")):
		files := []string{}
		for _, m := range gitConflictRe.FindAllStringSubmatch(f.Output, 5) {
			files = append(files, m[1])
		}
		what := "the conflicted files"
		if len(files) > 0 {
			what = strings.Join(files, ", ")
		}
		next := "git add them and git commit (or git merge --abort to give up)"
		if f.has("rebase") {
			next = "git add them and git rebase --continue (or git rebase --abort)"
		}
		return explain(ConfigurationError, 0.92, "Merge conflict: the same lines changed on both sides; edit %s to resolve the conflict markers, then %s.", what, next)
	case f.has("tip of your current branch is behind", "updates were rejected because the remote contains work", "(fetch first)", "(non-fast-forward)"):
		fd := found(ConfigurationError, 0.9, "The remote has commits you do not have; integrate them before pushing.")
		force := fix(f.replaceWords(c, idx+1, idx+1, "--force-with-lease"), 0.5, "Overwrite the remote branch (discards the remote's new commits).")
		force.alternative = true // another cause: you rewrote your commits on purpose
		fd.Fixes = append(fd.Fixes,
			fix("git pull --rebase && "+cmd, 0.88, "Replay your commits on top of the remote's, then push."),
			fix("git pull && "+cmd, 0.8, "Merge the remote's commits, then push."),
			force)
		return fd
	case f.has("divergent branches") || f.has("not possible to fast-forward"):
		return found(ConfigurationError, 0.88, "Your branch and its upstream have both moved; tell git whether to rebase or merge.",
			fix(f.replaceWords(c, idx+1, idx+1, "--rebase"), 0.88, "Rebase your commits onto the upstream."),
			fix(f.replaceWords(c, idx+1, idx+1, "--no-rebase"), 0.8, "Merge the upstream into your branch."))
	case f.has("nothing added to commit but untracked files present"):
		return found(ConfigurationError, 0.9, "Nothing is staged: the new files are untracked.",
			fix("git add . && "+cmd, 0.88, "Stage all new and changed files, then commit."))
	case f.has("no changes added to commit"):
		fd := found(ConfigurationError, 0.9, "Nothing is staged for the commit; the changes are not added yet.")
		if j := indexOf(c.Args, "-m"); j > 0 {
			fd.Fixes = append(fd.Fixes, fix(f.replaceWord(c, j, "-am"), 0.88, "Stage all tracked changes and commit."))
		} else {
			fd.Fixes = append(fd.Fixes, fix(f.replaceWords(c, idx+1, idx+1, "-a"), 0.85, "Stage all tracked changes and commit."))
		}
		fd.Fixes = append(fd.Fixes, fix("git add . && "+cmd, 0.8, "Stage everything, new files included, then commit."))
		return fd
	case f.has("nothing to commit, working tree clean", "nothing to commit (working directory clean)"):
		return explain(ConfigurationError, 0.9, "There is nothing to commit: the working tree has no changes.")
	case f.has("please tell me who you are", "author identity unknown"):
		return explain(ConfigurationError, 0.92, "git does not know your name and email; set them with git config --global user.name \"Your Name\" and git config --global user.email you@example.com.")
	case f.has("permission denied (publickey)") || f.has("could not read from remote repository") && f.has("access rights"):
		return explain(PermissionDenied, 0.85, "The remote refused your credentials (SSH key not authorized or wrong URL); check ssh -T with the host and your keys.")
	case f.has("authentication failed for", "invalid username or password", "terminal prompts disabled"):
		return explain(PermissionDenied, 0.85, "The remote rejected your credentials; use a personal access token or an SSH URL instead of a password.")
	}
	if m := f.find(gitTagExistsRe); m != nil {
		return found(ConfigurationError, 0.9, fmt.Sprintf("The tag %s already exists.", m[1]),
			fix(f.replaceWords(c, idx+1, idx+1, "-f"), 0.85, "Move the existing tag to the new commit."))
	}
	if m := f.find(gitBranchExists); m != nil {
		b := m[1]
		return found(ConfigurationError, 0.88, fmt.Sprintf("The branch %s already exists.", b),
			gitSwitchFixes(b)...)
	}
	if m := f.find(gitNotMergedRe); m != nil {
		return found(ConfigurationError, 0.88, fmt.Sprintf("The branch %s has commits that are not merged anywhere; git keeps it unless forced.", m[1]),
			Fix{Command: "git branch -D " + endOfOptions(m[1]) + shellwords.QuoteWord(m[1]), Confidence: 0.85, Risk: RiskHigh, Explanation: "Delete the branch anyway (its unmerged commits are lost)."})
	}
	if f.has("has local modifications", "has changes staged in the index", "have changes staged in the index", "have local modifications") && sub == "rm" {
		return found(ConfigurationError, 0.9, "The file has changes git would lose; choose to keep the file or to force its removal.",
			fix(f.replaceWords(c, idx+1, idx+1, "--cached"), 0.88, "Stop tracking the file but keep it on disk."),
			fix(f.replaceWords(c, idx+1, idx+1, "-f"), 0.8, "Remove the file and its changes."))
	}
	if f.has("not removing") && f.has("recursively without -r") {
		return found(FileNotFound, 0.9, "It is a directory; git rm removes directories only with -r.",
			fix(f.replaceWords(c, idx+1, idx+1, "-r"), 0.9, "Remove the directory recursively."))
	}
	if m := f.find(gitIgnoredRe); m != nil && sub == "add" {
		return found(ConfigurationError, 0.85, fmt.Sprintf("%s is ignored by .gitignore.", m[1]),
			fix(f.replaceWords(c, idx+1, idx+1, "-f"), 0.8, "Add the ignored file anyway."))
	}
	if m := f.find(gitRemoteURLRe); m != nil && sub == "remote" && c.Arg(idx+1) == "add" && len(c.Args) > idx+3 {
		return found(ConfigurationError, 0.88, fmt.Sprintf("A remote named %s already exists.", m[1]),
			fix(f.replaceWord(c, idx+1, "set-url"), 0.88, "Change the existing remote's URL instead."))
	}
	if m := f.find(gitCloneDestRe); m != nil {
		return explain(FileNotFound, 0.85, "%s already exists and is not empty; clone into another directory (git clone URL NEWDIR) or remove it first.", m[1])
	}
	if m := f.find(gitRefspecRe); m != nil {
		return gitRefspec(ctx, f, c, m[1])
	}
	if m := f.find(gitPathspecRe); m != nil {
		return gitMissingRef(ctx, f, c, sub, m[1])
	}
	if m := f.find(gitNotMergeable); m != nil {
		return gitMissingRef(ctx, f, c, sub, m[1])
	}
	if m := f.find(gitInvalidRefRe); m != nil && m[1] != "" {
		return gitMissingRef(ctx, f, c, sub, m[1])
	}
	if f.has("unable to create") && f.has("index.lock") {
		return explain(ConfigurationError, 0.88, "Another git process holds the index lock (.git/index.lock); wait for it, or delete the lock file if no git is running.")
	}
	return nil
}

// endOfOptions returns "--end-of-options " when one of names (a branch or
// a remote, from git's lists or its output) starts with "-", so that git
// reads it as a name, never as an option (a branch named --orphan=x or
// -fCmain); "" otherwise, so that the usual fix reads as one would type
// it. git switch, push and branch take it (git 2.24 and later); checkout
// and pull do not, and are not offered such a name.
func endOfOptions(names ...string) string {
	for _, n := range names {
		if strings.HasPrefix(n, "-") {
			return "--end-of-options "
		}
	}
	return ""
}

// operands returns the names that can take the place of a word of the
// user's command: not one that starts with "-", which git would read as
// an option there.
func operands(names []string) []string {
	out := names[:0:0]
	for _, n := range names {
		if !strings.HasPrefix(n, "-") {
			out = append(out, n)
		}
	}
	return out
}

// GitSwitch is the command that switches to the existing branch b, whatever
// its name holds: quoted, and after --end-of-options when it starts with
// "-".
func GitSwitch(b string) string {
	return "git switch " + endOfOptions(b) + shellwords.QuoteWord(b)
}

// gitSwitchFixes goes to the existing branch b: git switch, and git
// checkout unless b would be read as an option (checkout takes no
// --end-of-options, and after -- it takes b for a path).
func gitSwitchFixes(b string) []Fix {
	fixes := []Fix{fix(GitSwitch(b), 0.85, "Switch to the existing branch.")}
	if endOfOptions(b) == "" {
		fixes = append(fixes, fix("git checkout "+shellwords.QuoteWord(b), 0.84, "Check out the existing branch."))
	}
	return fixes
}

func contains(list []string, s string) bool { return indexOf(list, s) >= 0 }

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// gitNotRepo handles a git command run outside any repository.
func gitNotRepo(ctx context.Context, f *Failure, c *Call) *Finding {
	fd := explain(ConfigurationError, 0.9, "This directory is not inside a git repository; cd into one, or create one here with git init.")
	es, err := f.Env.ReadDir(ctx, f.path("."))
	if err != nil {
		return fd
	}
	var repos []string
	for _, e := range es {
		if e.Dir && f.exists(ctx, e.Name+"/.git") {
			repos = append(repos, e.Name)
		}
	}
	if len(repos) == 1 {
		fd.RootCause = fmt.Sprintf("This directory is not a git repository, but %s is.", repos[0])
		fd.Fixes = []Fix{fix("cd "+shellwords.QuotePath(repos[0])+" && "+strings.TrimSpace(f.Command), 0.75, "Run the command in the repository %s.", repos[0])}
	}
	return fd
}

// gitBadRemote handles a remote name that does not exist.
func gitBadRemote(ctx context.Context, f *Failure, c *Call) *Finding {
	m := f.find(gitNotRepoRe)
	if m == nil {
		return nil
	}
	bad := m[1]
	g := f.git(ctx)
	if strings.ContainsAny(bad, "/:") {
		return explain(NetworkError, 0.8, "%s is not a reachable git repository: check the URL and your access rights.", bad)
	}
	j := -1
	for i := 1; i < len(c.Args); i++ {
		if c.Args[i] == bad {
			j = i
		}
	}
	if len(g.Remotes) == 0 {
		return explain(ConfigurationError, 0.9, "There is no remote named %s (this repository has no remotes); add one with git remote add %s URL.", bad, bad)
	}
	fd := found(ConfigurationError, 0.9, fmt.Sprintf("There is no remote named %s; the remotes are %s.", bad, strings.Join(g.Remotes, ", ")))
	if j < 0 {
		return fd
	}
	g.Remotes = operands(g.Remotes)
	ms := closest(bad, g.Remotes, nil)
	if len(ms) > 0 {
		fd.Fixes = append(fd.Fixes, fix(f.putWord(c, j, ms[0].word), min(ms[0].score, 0.92), "The remote %s exists.", ms[0].word))
	}
	if len(g.Remotes) == 1 {
		fd.Fixes = append(fd.Fixes, fix(f.putWord(c, j, g.Remotes[0]), 0.88, "The only remote is %s.", g.Remotes[0]))
	} else if contains(g.Remotes, "origin") {
		fd.Fixes = append(fd.Fixes, fix(f.replaceWord(c, j, "origin"), 0.7, "Use origin."))
	}
	return fd
}

// gitDirty handles local changes in the way of pull, merge, rebase or
// checkout.
func gitDirty(f *Failure, c *Call, sub, cmd string) *Finding {
	fd := found(ConfigurationError, 0.9, fmt.Sprintf("You have uncommitted changes that git %s would overwrite; stash or commit them first.", sub))
	switch sub {
	case "pull", "rebase":
		fd.Fixes = append(fd.Fixes,
			fix("git stash && "+cmd+" && git stash pop", 0.9, "Put your changes aside, %s, then bring them back.", sub),
			fix(f.replaceWords(c, c.subIndex()+1, c.subIndex()+1, "--autostash"), 0.86, "Let git stash and restore the changes itself."))
	case "merge", "cherry-pick", "revert", "am":
		fd.Fixes = append(fd.Fixes, fix("git stash && "+cmd+" && git stash pop", 0.9, "Put your changes aside, %s, then bring them back.", sub))
	case "checkout", "switch":
		fd.Fixes = append(fd.Fixes,
			fix("git stash && "+cmd, 0.88, "Put your changes aside (git stash pop brings them back), then switch."),
			fix("git stash && "+cmd+" && git stash pop", 0.84, "Carry the changes over to the other branch."))
	default:
		fd.Fixes = append(fd.Fixes, fix("git stash && "+cmd, 0.8, "Put your changes aside first."))
	}
	return fd
}

// gitRefspec handles pushing a branch that does not exist (often master
// for main), or a repository without commits.
func gitRefspec(ctx context.Context, f *Failure, c *Call, ref string) *Finding {
	g := f.git(ctx)
	if len(g.Branches) == 0 && g.Branch != "" {
		return explain(ConfigurationError, 0.88, "The branch %s has no commits yet, so there is nothing to push; commit first.", g.Branch)
	}
	fd := found(ConfigurationError, 0.88, fmt.Sprintf("There is no local branch %s to push.", ref))
	for i := 1; i < len(c.Args); i++ {
		if c.Args[i] != ref {
			continue
		}
		ms := closest(ref, operands(g.Branches), nil)
		for k, m := range ms {
			if k == 2 {
				break
			}
			fd.Fixes = append(fd.Fixes, fix(f.putWord(c, i, m.word), min(m.score, 0.9), "The branch %s exists.", m.word))
		}
		if g.Branch != "" && endOfOptions(g.Branch) == "" && (ref == "master" || ref == "main") {
			fd.Fixes = append(fd.Fixes, fix(f.putWord(c, i, g.Branch), 0.85, "Push the current branch, %s.", g.Branch))
		}
	}
	return fd
}

// gitMissingRef handles a branch, tag or file name git does not know.
func gitMissingRef(ctx context.Context, f *Failure, c *Call, sub, ref string) *Finding {
	j := -1
	for i := c.subIndex() + 1; i < len(c.Args) && i > 0; i++ {
		if c.Args[i] == ref {
			j = i
		}
	}
	if j < 0 {
		return found(ConfigurationError, 0.6, fmt.Sprintf("git does not know %s.", ref))
	}
	fd := found(ConfigurationError, 0.88, fmt.Sprintf("There is no branch, tag or file named %s.", ref))
	fileMode := indexOf(c.Args, "--") > 0 && indexOf(c.Args, "--") < j || sub == "restore" || sub == "add" || sub == "rm" || sub == "mv"
	if !fileMode && (sub == "checkout" || sub == "switch") && strings.ContainsAny(ref, "./") {
		fileMode = len(nearPath(ctx, f, ref, false)) > 0
	}
	if fileMode {
		sub = "file"
	}
	switch sub {
	case "checkout", "switch", "merge", "rebase", "branch", "log", "diff", "show", "reset", "pull", "push", "cherry-pick", "fetch":
		g := f.git(ctx)
		var names []string
		names = append(names, g.Branches...)
		for _, rb := range g.RemoteBranches {
			names = append(names, rb)
			if _, b, ok := strings.Cut(rb, "/"); ok && (sub == "checkout" || sub == "switch" || sub == "pull" || sub == "fetch" || sub == "push") {
				names = append(names, b) // git checkout NAME tracks origin/NAME
			}
		}
		names = operands(names)
		ms := closest(ref, names, nil)
		for k, m := range ms {
			if k == 2 {
				break
			}
			fd.Fixes = append(fd.Fixes, fix(f.putWord(c, j, m.word), min(m.score, 0.92)-0.01*float64(k), "The branch %s exists.", m.word))
		}
		// main and master are each other's usual mistake.
		if other := map[string]string{"master": "main", "main": "master"}[ref]; other != "" && len(ms) == 0 && contains(names, other) {
			ms = []match{{word: other, score: 0.92, dist: 2}}
			fd.Fixes = append(fd.Fixes, fix(f.putWord(c, j, other), 0.92, "This repository's main branch is %s.", other))
		}
		if len(ms) > 0 {
			fd.RootCause = fmt.Sprintf("There is no branch %s; did you mean %s?", ref, ms[0].word)
		}
		// A path that is not in the work tree (deleted, or not yet
		// created) must follow "--", or git takes it for a revision.
		if len(ms) == 0 && f.has("use '--' to separate paths") && indexOf(c.Args, "--") < 0 {
			fd.RootCause = fmt.Sprintf("%s is neither a revision nor a file in the work tree; if it is a path (a deleted file), put it after --.", ref)
			fd.Fixes = append(fd.Fixes, fix(f.replaceWords(c, j, j, "--"), 0.8, "Take %s as a path, as in the history.", ref))
		}
		if sub == "checkout" || sub == "switch" {
			flag := "-b"
			if sub == "switch" {
				flag = "-c"
			}
			conf := 0.6
			if len(ms) == 0 {
				conf = 0.8
				fd.RootCause = fmt.Sprintf("There is no branch %s.", ref)
			}
			fd.Fixes = append(fd.Fixes, fix(f.replaceWords(c, j, j, flag), conf, "Create the branch %s.", ref))
		}
	default:
		// A file: rules_files.go's near-name search works from the work tree.
		for k, m := range nearPath(ctx, f, ref, false) {
			if k == 2 {
				break
			}
			fd.Fixes = append(fd.Fixes, fix(f.replaceWord(c, j, shellwords.QuotePath(m.word)), min(m.score, 0.92), "%s exists.", m.word))
		}
	}
	return fd
}
