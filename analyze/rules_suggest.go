package analyze

import (
	"context"
	"fmt"
	"strings"
)

// toolHint is a tool's own "did you mean" message: the word it rejected and
// what it proposes instead.
type toolHint struct {
	re      *lazyRegexp
	unknown int // submatch index of the rejected word, 0 if none
	hints   int // submatch index of the proposals
}

var toolHints = []toolHint{
	// git: 'psuh' is not a git command. … The most similar command is\n\tpush
	{lazy(`'([^']+)' is not a git command[\s\S]*?The most similar commands? (?:is|are)\n((?:[ \t]+\S+\n?)+)`), 1, 2},
	// cobra-based tools (docker, kubectl, gh, helm, hugo): unknown command "x" for "y" … Did you mean this?\n\tz
	{lazy(`unknown command "([^"]+)" for "[^"]+"\s*\n\s*Did you mean this\?\n((?:[ \t]+\S+\n?)+)`), 1, 2},
	// npm: Unknown command: "intsall" … Did you mean this?\n  npm install # Install a package
	{lazy(`Unknown command: "([^"]+)"[\s\S]*?Did you mean (?:this|one of these)\?\n((?:[ \t]+\S.*\n?)+)`), 1, 2},
	// cargo: no such command: `tset` … a command with a similar name exists: `test`
	{lazy("no such (?:sub)?command: `([^`]+)`[\\s\\S]*?(?:a command with a similar name exists|Did you mean): `([^`]+)`"), 1, 2},
	// pip: unknown command "instal" - maybe you meant "install"
	{lazy(`unknown command "([^"]+)" - maybe you meant "([^"]+)"`), 1, 2},
	// git: error: did you mean `--amend` (with two dashes)?
	{lazy("did you mean `(--[^`]+)` \\(with two dashes\\)"), 0, 1},
	// yarn, terraform, conda, systemctl, …: 'x' … Did you mean 'y'?
	{lazy("(?i)(?:command|verb|operation|named|task)[: ]+[\"'`‘]([^\"'`’]+)[\"'`’][^\n]*?[Dd]id you mean:? [\"'`‘]?([^\"'`’?\n]+?)[\"'`’]?\\?"), 1, 2},
}

// parseHints splits the proposals of a tool hint into commands or words.
func parseHints(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if i := strings.Index(l, " #"); i >= 0 {
			l = l[:i]
		}
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func ruleToolSuggestion(ctx context.Context, f *Failure) *Finding {
	for _, h := range toolHints {
		m := f.find(h.re)
		if m == nil {
			continue
		}
		unknown := ""
		if h.unknown > 0 {
			unknown = m[h.unknown]
		}
		hints := parseHints(m[h.hints])
		if len(hints) == 0 {
			continue
		}
		if unknown == "" && strings.HasPrefix(hints[0], "--") {
			unknown = hints[0][1:] // "-amend" was typed for "--amend"
		}
		var fixes []Fix
		// A swap of two letters is the likeliest typo, likelier than the
		// tool's own pick when the two differ (npm proposes set for tset).
		if known := subcommands[f.main().Name()]; unknown != "" && !strings.HasPrefix(unknown, "-") {
			for _, k := range known {
				if isTransposition(unknown, k) && !contains(hints, k) {
					if cmd := applyHint(f, unknown, k); cmd != "" {
						fixes = append(fixes, fix(cmd, 0.95, "%s is %s with two letters swapped.", unknown, k))
					}
				}
			}
		}
		for i, s := range hints {
			if cmd := applyHint(f, unknown, s); cmd != "" {
				fx := fix(cmd, 0.93-0.04*float64(i), "%s suggests %s.", f.main().Name(), s)
				fx.Untrusted = true // the hint is the output's text
				fixes = append(fixes, fx)
			}
		}
		if len(fixes) == 0 {
			continue
		}
		cause := fmt.Sprintf("%q is not a command %s knows; it suggests %s.", unknown, f.main().Name(), strings.Join(hints, ", "))
		if unknown == "" {
			cause = fmt.Sprintf("%s suggests %s.", f.main().Name(), hints[0])
		}
		return found(CommandNotFound, 0.9, cause, fixes...)
	}
	return nil
}

// applyHint replaces the rejected word with a tool's proposal, which may be
// a word ("push") or a command ("npm install").
func applyHint(f *Failure, unknown, hint string) string {
	for i := len(f.Calls) - 1; i >= 0; i-- {
		c := &f.Calls[i]
		for j := 1; j < len(c.Args); j++ {
			a := c.Args[j]
			if a != unknown && a != "-"+unknown && a != "--"+unknown {
				continue
			}
			words := strings.Fields(hint)
			if len(words) > 1 && words[0] == c.Name() {
				return f.replaceWords(c, 0, j+1, hint)
			}
			if strings.HasPrefix(a, "--") && !strings.HasPrefix(hint, "-") {
				hint = "--" + hint
			}
			return f.replaceWord(c, j, hint)
		}
	}
	return ""
}

// subcommands lists the subcommands of tools that are often mistyped, for
// when the tool itself proposes nothing (or printed nothing).
var subcommands = map[string][]string{
	"git": strings.Fields(`add am annotate apply archive bisect blame branch bundle checkout cherry-pick
		citool clean clone commit config describe diff difftool fetch format-patch fsck gc grep gui
		help init instaweb log ls-files ls-remote ls-tree merge mergetool mv notes pull push range-diff
		rebase reflog remote repack replace request-pull reset restore revert rm shortlog show
		show-branch sparse-checkout stage stash status submodule switch tag worktree cherry
		count-objects maintenance prune rev-parse rev-list var whatchanged`),
	"npm": strings.Fields(`access adduser audit bugs cache ci completion config dedupe deprecate diff
		dist-tag docs doctor edit exec explain explore find-dupes fund help hook init install
		install-ci-test install-test link ll login logout ls org outdated owner pack ping pkg prefix
		profile prune publish query rebuild repo restart root run run-script search shrinkwrap star
		stars start stop team test token uninstall unpublish unstar update version view whoami`),
	"docker": strings.Fields(`attach build builder buildx commit compose config container context cp
		create diff events exec export history image images import info init inspect kill load login
		logout logs manifest network node pause plugin port ps pull push rename restart rm rmi run save
		search secret service stack start stats stop swarm system tag top trust unpause update version
		volume wait`),
	"go": strings.Fields(`bug build clean doc env fix fmt generate get install list mod work run
		telemetry test tool version vet`),
	"cargo": strings.Fields(`add bench build check clean clippy doc fetch fix fmt generate-lockfile
		help init install locate-project login metadata new owner package pkgid publish remove
		report run rustc rustdoc search test tree uninstall update vendor verify-project version yank`),
	"apt": strings.Fields(`autoclean autoremove build-dep changelog clean depends download
		edit-sources full-upgrade install list moo policy purge rdepends reinstall remove search
		show showsrc source update upgrade satisfy`),
	"apt-get": strings.Fields(`autoclean autoremove build-dep changelog check clean dist-upgrade
		download dselect-upgrade install purge remove source update upgrade satisfy`),
	"systemctl": strings.Fields(`cat daemon-reload disable edit enable is-active is-enabled is-failed
		isolate kill list-dependencies list-timers list-unit-files list-units mask reboot reload
		reload-or-restart reset-failed restart show start status stop try-restart unmask poweroff
		suspend hibernate`),
	"pip": strings.Fields(`cache check completion config debug download freeze hash help index
		inspect install list search show uninstall wheel`),
	"kubectl": strings.Fields(`annotate api-resources api-versions apply attach auth autoscale certificate
		cluster-info completion config cordon cp create debug delete describe diff drain edit events
		exec explain expose get kustomize label logs patch plugin port-forward proxy replace rollout
		run scale set taint top uncordon version wait`),
	"brew": strings.Fields(`autoremove cleanup config deps desc doctor fetch home info install leaves
		link list log missing outdated pin postinstall reinstall search services tap uninstall unlink
		unpin untap update upgrade uses`),
}

func init() {
	subcommands["pip3"] = subcommands["pip"]
	subcommands["podman"] = subcommands["docker"]
}

var unknownSubRes = []*lazyRegexp{
	lazy(`'([^']+)' is not a (?:git|docker) command`),
	lazy(`(?m)^go (\S+): unknown command`),
	lazy("no such (?:sub)?command: `([^`]+)`"),
	lazy(`Unknown command: "?([^"\s]+)"?`),
	lazy(`E: Invalid operation (\S+)`),
	lazy(`Unknown (?:command verb|operation) '?([^',.\s]+)'?`),
	lazy(`unknown command "([^"]+)"`),
	lazy(`(?i)unknown command:? (?:docker )?'?([^'\s]+)'?`),
}

func ruleUnknownSubcommand(ctx context.Context, f *Failure) *Finding {
	var c *Call
	for i := len(f.Calls) - 1; i >= 0 && c == nil; i-- {
		if _, ok := subcommands[f.Calls[i].Name()]; ok && f.Calls[i].sub() != "" {
			c = &f.Calls[i]
		}
	}
	if c == nil {
		return nil
	}
	sub := c.sub()
	known := subcommands[c.Name()]
	for _, k := range known {
		if k == sub {
			return nil
		}
	}
	said := false
	for _, re := range unknownSubRes {
		if m := f.find(re); m != nil && m[1] == sub {
			said = true
			break
		}
	}
	conf := 0.85
	if !said {
		// Without output, a short unknown word may be one of the user's own
		// aliases (git lg): say nothing.
		if strings.TrimSpace(f.Output) != "" || len(sub) < 4 {
			return nil
		}
		conf = 0.65 // no output to go by: the subcommand is merely unknown to us
	}
	ms := closest(sub, known, func(w string) float64 {
		if popular[c.Name()+" "+w] > 0 {
			return 0.02
		}
		return 0
	})
	if len(ms) == 0 {
		if said {
			return explain(CommandNotFound, 0.6, "%s has no subcommand %q; see %s --help.", c.Name(), sub, c.Name())
		}
		return nil
	}
	idx := c.subIndex()
	fd := found(CommandNotFound, conf, fmt.Sprintf("%s has no subcommand %q; did you mean %s?", c.Name(), sub, ms[0].word))
	for i, m := range ms {
		if i == MaxFixes {
			break
		}
		fd.Fixes = append(fd.Fixes, fix(f.replaceWord(c, idx, m.word), min(m.score, conf)-0.02*float64(i), "Did you mean %s %s?", c.Name(), m.word))
	}
	return fd
}

var runHintRe = lazy("(?i)\\b(?:run|try|use|execute)(?: running)?:?\\s+['\"`‘]([a-z][^'\"`’\\n]{2,100})['\"`’]")

// ruleRunHint takes up a command that the failing tool itself says to run,
// as in "help: run 'rustup default stable'" or "Try 'apt --fix-broken
// install'", leaving out help, usage and placeholder hints.
func ruleRunHint(ctx context.Context, f *Failure) *Finding {
	for _, line := range strings.Split(f.Output, "\n") {
		low := strings.ToLower(line)
		if strings.Contains(low, "more information") || strings.Contains(low, "for details") || strings.Contains(low, "for usage") || strings.Contains(low, "to see") || strings.Contains(low, "to learn") {
			continue
		}
		m := runHintRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		cmd := strings.TrimSpace(m[1])
		words := strings.Fields(cmd)
		if strings.ContainsAny(cmd, "<>[]{}|…") || strings.Contains(cmd, "...") || len(words) < 2 {
			continue
		}
		bad := false
		for _, w := range words {
			switch w {
			case "--help", "-h", "help", "--explain", "--list", "man", "--version", "-X", "-e":
				bad = true
			}
		}
		if bad || !(f.Env.LookPath(ctx, words[0]) || f.call(words[0]) != nil || words[0] == "sudo") {
			continue
		}
		fx := fix(cmd, 0.6, "The tool itself suggests running this.")
		fx.Untrusted = true
		return found(Unknown, 0.55, "", fx)
	}
	return nil
}
