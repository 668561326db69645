package analyze

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

// A tool's own "did you mean" message comes in one of a few dialects: the
// rejected word and one or more proposals, which are words to put in its
// place, whole command lines, or the list of every valid choice. One rule
// reads them all (ruleToolSuggestion); the dialects below say only where the
// rejected word and the proposals are.
const (
	hintWords    = iota // words (or "tool word" lines) that replace the rejected word
	hintCommands        // whole command lines; their words are the tool's vocabulary too
	hintChoices         // every valid choice: only those within a typo's distance count
)

// toolHint is one dialect.
type toolHint struct {
	re      lazyRegexp
	unknown int // submatch index of the rejected word, 0 if none
	hints   int // submatch index of the proposals
	kind    int
	key     string // lower-case text the output must hold, checked before the pattern
}

// toolHints are the dialects, the more specific first. "real" marks those
// recorded from the tool itself (bench/corpus/recorded.jsonl), "doc" those
// taken from the tool's documentation or source.
var toolHints = []toolHint{
	// git (real): 'psuh' is not a git command. … The most similar command is\n\tpush
	{lazyRegexp(`'([^']+)' is not a git command[\s\S]*?The most similar commands? (?:is|are)\n((?:[ \t]+\S+\n?)+)`), 1, 2, hintWords, "is not a git command"},
	// cobra-based tools, kubectl (real), docker before 24, gh, helm, hugo (doc):
	// unknown command "x" for "y" … Did you mean this?\n\tz
	{lazyRegexp(`unknown command "([^"]+)" for "[^"]+"\s*\n\s*Did you mean this\?\n((?:[ \t]+\S+\n?)+)`), 1, 2, hintWords, "did you mean this?"},
	// npm (real): Unknown command: "intsall" … Did you mean this?\n  npm install # Install a package
	{lazyRegexp(`Unknown command: "([^"]+)"[\s\S]*?Did you mean (?:this|one of these)\?\n((?:[ \t]+\S.*\n?)+)`), 1, 2, hintWords, "unknown command:"},
	// cargo (real): no such command: `tset` … a command with a similar name exists: `test`
	{lazyRegexp("no such (?:sub)?command: `([^`]+)`[\\s\\S]*?(?:a command with a similar name exists|Did you mean): `([^`]+)`"), 1, 2, hintWords, "no such"},
	// clap 3/4 tools, rustup (real): unrecognized subcommand 'lsit'\n\n  tip: a similar subcommand exists: 'list'
	{lazyRegexp(`unrecognized subcommand '([^']+)'\s*\n\s*tip: (?:a similar subcommand exists|some similar subcommands exist): ((?:'[^']+'(?:, )?)+)`), 1, 2, hintWords, "unrecognized subcommand"},
	// clap 2 (doc): The subcommand 'biuld' wasn't recognized\n\tDid you mean 'build'?
	{lazyRegexp(`[Ss]ubcommand '([^']+)' wasn't recognized\s*\n\s*Did you mean '([^']+)'`), 1, 2, hintWords, "wasn't recognized"},
	// pip (real): unknown command "instal" - maybe you meant "install"
	{lazyRegexp(`unknown command "([^"]+)" - maybe you meant "([^"]+)"`), 1, 2, hintWords, "maybe you meant"},
	// git (real): error: did you mean `--amend` (with two dashes)?
	{lazyRegexp("did you mean `(--[^`]+)` \\(with two dashes\\)"), 0, 1, hintWords, "with two dashes"},
	// aws CLI v1 (real): Invalid choice: 'lss', maybe you meant:\n\n  * ls
	{lazyRegexp(`Invalid choice: '([^']+)', maybe you meant:\s*\n((?:[ \t]*\*[ \t]*\S+\n?)+)`), 1, 2, hintWords, "maybe you meant"},
	// gcloud (real): Invalid choice: 'comptue'.\nMaybe you meant:\n  gcloud compute instances list
	{lazyRegexp(`Invalid choice: '([^']+)'\.\s*\nMaybe you meant:\n((?:[ \t]+\S.*\n?)+)`), 1, 2, hintCommands, "maybe you meant"},
	// az (doc): The most similar choice to 'vmm' is:\n\tvm
	{lazyRegexp(`The most similar choices? to '([^']+)' (?:is|are):\n((?:[ \t]+\S+\n?)+)`), 1, 2, hintWords, "the most similar choice"},
	// Python's argparse (real): invalid choice: 'migarte' (choose from 'migrate', 'serve')
	{lazyRegexp(`invalid choice: '([^']+)' \(choose from ([^)\n]+)\)`), 1, 2, hintChoices, "invalid choice"},
	// mercurial (real): hg: unknown command 'comit'\n(did you mean one of commit, incoming?)
	{lazyRegexp(`unknown command '([^']+)'\n\(did you mean (?:one of )?([^?\n]+)\?\)`), 1, 2, hintWords, "(did you mean"},
	// rake (real): Don't know how to build task 'tset' … Did you mean?  test
	{lazyRegexp(`Don't know how to build task '([^']+)'[\s\S]*?Did you mean\?((?:[ \t]+\S+\n?)+)`), 1, 2, hintWords, "don't know how to build task"},
	// maven (real): Unknown lifecycle phase "cmpile". … Available lifecycle phases are: validate, …, compile, …. ->
	{lazyRegexp(`Unknown lifecycle phase "([^"]+)"[\s\S]*?Available lifecycle phases are: ([^>\n]+?)\.? ->`), 1, 2, hintChoices, "unknown lifecycle phase"},
	// gradle (doc): Task 'biuld' not found in root project 'app'. Some candidates are: 'build', 'buildDependents'.
	{lazyRegexp(`(?m)[Tt]ask '([^']+)' not found in (?:root )?project '[^']*'\.\s*Some candidates are: (.+?)\.?$`), 1, 2, hintWords, "some candidates are"},
	// leiningen (doc): 'tset' is not a task. See 'lein help'.\n\nDid you mean this?\n         test
	{lazyRegexp(`'([^']+)' is not a task\.[^\n]*\n\s*Did you mean (?:this|one of these)\?\n((?:[ \t]+\S+\n?)+)`), 1, 2, hintWords, "is not a task"},
	// fabric 1 (doc): Warning: Command(s) not found:\n    deplyo\n\nAvailable commands:\n\n    deploy
	{lazyRegexp(`Command\(s\) not found:\n[ \t]+(\S+)\n\s*Available commands:\n\n?((?:[ \t]+\S.*\n?)+)`), 1, 2, hintChoices, "command(s) not found"},
	// symfony console: composer, artisan, bin/console (doc): Command "isntall" is not defined. … Did you mean this?\n    install
	{lazyRegexp(`Command "([^"]+)" is not defined\.[\s\S]*?Did you mean (?:this|one of these)\?[ \t]*\n((?:[ \t]+\S.*\n?)+)`), 1, 2, hintWords, "is not defined"},
	// oclif tools, heroku (doc): Warning: pss is not a heroku command.\nDid you mean ps? [y/n]
	{lazyRegexp(`(?m)(\S+) is not a [\w-]+ command\.\s*\n[^\n]*?Did you mean ([\w:-]+)\?`), 1, 2, hintWords, "did you mean"},
	// tsuru and other Go tools (doc): tsuru: "app-lst" is not a tsuru command. … Did you mean?\n\tapp-list
	{lazyRegexp(`"([^"]+)" is not a [\w-]+ command\.[\s\S]*?Did you mean\??\n((?:[ \t]+\S+\n?)+)`), 1, 2, hintWords, "did you mean"},
	// conda (doc): No command 'conda instal'.\nDid you mean 'conda install'?
	{lazyRegexp(`No command '[\w.-]+ ([^' ]+)'\.\s*\nDid you mean '([^']+)'\?`), 1, 2, hintWords, "did you mean"},
	// brew (doc): No available formula with the name "pyhton". Did you mean python?
	{lazyRegexp(`No available formula(?: or cask)? with the name "([^"]+)"\.?\s*Did you mean ([^?\n]+)\?`), 1, 2, hintWords, "did you mean"},
	// brew before 4 (doc): No available formula with the name "pyhton" \n==> Searching for similarly named formulae...\nThis similarly named formula was found:\npython
	{lazyRegexp(`No available formula(?: or cask)? with the name "([^"]+)"[\s\S]*?similarly named formulae? (?:was|were) found:\n((?:[\w@.+-]+\n)+)`), 1, 2, hintWords, "similarly named"},
	// just (doc): error: Justfile does not contain recipe `biuld`.\nDid you mean `build`?
	{lazyRegexp("does not contain recipe `([^`]+)`\\.?\\s*\\n\\s*Did you mean `([^`]+)`"), 1, 2, hintWords, "does not contain recipe"},
	// yarn 1, terraform (real), systemd tools, …: 'x' … Did you mean 'y'?
	{lazyRegexp("(?i)(?:command|verb|operation|named|task|recipe)[: ]+[\"'`‘]([^\"'`’]+)[\"'`’][^\n]*?[Dd]id you mean:? [\"'`‘]?([^\"'`’?\n]+?)[\"'`’]?\\?"), 1, 2, hintWords, "did you mean"},
}

// hintWordRe is what a proposed word may look like: a subcommand, task or
// option name, never shell syntax.
var hintWordRe = lazyRegexp(`^-{0,2}[A-Za-z0-9][\w.:/@+-]{0,63}$`)

// parseHints splits the proposals of a tool hint into commands or words:
// one a line, or a list separated by commas, "or" and bars, bullets, quotes
// and "# comments" dropped.
func parseHints(s string, kind int) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if i := strings.Index(l, " #"); i >= 0 {
			l = l[:i]
		}
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "*"))
		if l == "" {
			continue
		}
		if kind == hintCommands {
			out = append(out, l)
			continue
		}
		for _, part := range strings.FieldsFunc(l, func(r rune) bool { return r == ',' || r == '|' }) {
			for _, w := range strings.Split(strings.TrimSpace(part), " or ") {
				w = strings.Trim(strings.TrimSpace(w), "'\"`‘’.")
				if w != "" {
					out = append(out, w)
				}
			}
		}
	}
	return out
}

// hintCandidate is one proposal turned into a fix of the command line.
type hintCandidate struct {
	cmd   string
	word  string // the proposal, as shown in the explanation
	dist  int    // typo distance from what was typed
	known bool   // the word is known to exist (knownWord)
	pos   int    // the tool's own order
}

func ruleToolSuggestion(ctx context.Context, f *Failure) *Finding {
	for _, h := range toolHints {
		if !f.has(h.key) {
			continue // no need to compile and run the pattern
		}
		m := f.find(h.re)
		if m == nil {
			continue
		}
		unknown := ""
		if h.unknown > 0 {
			unknown = m[h.unknown]
		}
		hints := parseHints(m[h.hints], h.kind)
		if len(hints) == 0 {
			continue
		}
		if unknown == "" && strings.HasPrefix(hints[0], "--") {
			unknown = hints[0][1:] // "-amend" was typed for "--amend"
		}
		cands := hintCandidates(ctx, f, h.kind, unknown, hints)
		var fixes []Fix
		// A swap of two letters is the likeliest typo, likelier than the
		// tool's own pick when the two differ (npm proposes set for tset).
		if key, c, idx := subcommandSlot(f); c != nil && unknown != "" && !strings.HasPrefix(unknown, "-") && c.Arg(idx) == unknown {
			for _, k := range subcommands.get()[key] {
				if isTransposition(unknown, k) && !contains(hints, k) {
					fixes = append(fixes, fix(f.putWord(c, idx, k), 0.95, "%s is %s with two letters swapped.", unknown, k))
				}
			}
		}
		name := f.main().Name()
		// Several proposals, none a typo away (hg base: blame, phase): the
		// tool matched on something else than spelling; naming them is
		// the answer, running one is a guess.
		far := unknown != "" && len(hints) >= 2 && len(fixes) == 0 && len(cands) > 0
		for _, cd := range cands {
			w := strings.TrimPrefix(cd.word, name+" ")
			far = far && cd.dist > maxTypos(len(unknown)) && !strings.HasPrefix(w, unknown) && !strings.HasPrefix(unknown, w) // git stat: status
		}
		if far {
			return explain(CommandNotFound, 0.85, "%q is not a command %s knows; it suggests %s, none of them a typo of it.", unknown, name, strings.Join(hints[:min(len(hints), MaxFixes)], ", "))
		}
		for i, cd := range cands {
			if i == MaxFixes {
				break
			}
			// Ranked by typo distance, then by the tool's own order.
			fx := fix(cd.cmd, 0.93-0.04*float64(i)-0.02*float64(max(cd.dist-1, 0)), "%s suggests %s.", name, cd.word)
			fx.Untrusted = true // the proposal is the output's text
			fixes = append(fixes, fx)
		}
		if len(fixes) == 0 {
			continue
		}
		shown := hints
		if len(shown) > MaxFixes {
			shown = shown[:MaxFixes]
		}
		cause := fmt.Sprintf("%q is not a command %s knows; it suggests %s.", unknown, name, strings.Join(shown, ", "))
		if unknown == "" {
			cause = fmt.Sprintf("%s suggests %s.", name, hints[0])
		}
		return found(CommandNotFound, 0.9, cause, fixes...)
	}
	return nil
}

// hintCandidates turns a dialect's proposals into fixes of the command
// line, best first: the nearest to what was typed, then those known to
// exist (knownWord), then the tool's order.
// A proposal that does not look like a word of the tool is dropped.
func hintCandidates(ctx context.Context, f *Failure, kind int, unknown string, hints []string) []hintCandidate {
	var out []hintCandidate
	seen := map[string]bool{}
	add := func(cmd, word string, dist, pos int) {
		if cmd == "" || seen[cmd] {
			return
		}
		seen[cmd] = true
		out = append(out, hintCandidate{cmd: cmd, word: word, dist: dist, pos: pos})
	}
	switch kind {
	case hintChoices:
		for i, m := range closest(unknown, filterWords(hints), nil) {
			add(applyHint(f, unknown, m.word), m.word, m.dist, i)
		}
	case hintCommands:
		// Each proposal whose words differ from the typed ones by one
		// word, and each word of the proposals near the rejected one.
		var vocab []string
		for i, h := range hints {
			words := strings.Fields(h)
			if len(words) == 0 || !allWords(words) {
				continue
			}
			vocab = append(vocab, words[1:]...)
			if cmd := applyCommandHint(f, unknown, words); cmd != "" {
				add(cmd, h, distance(f.Input.Command, cmd), i)
			}
		}
		for i, m := range closest(unknown, vocab, nil) {
			if m.dist > 0 {
				add(applyHint(f, unknown, m.word), m.word, m.dist, len(hints)+i)
			}
		}
	default:
		for i, h := range hints {
			words := strings.Fields(h)
			if !allWords(words) {
				continue
			}
			d := distance(strings.ToLower(strings.TrimLeft(unknown, "-")), strings.ToLower(strings.TrimLeft(words[len(words)-1], "-")))
			add(applyHint(f, unknown, h), h, d, i)
		}
	}
	if len(out) > 1 {
		for i := range out {
			out[i].known = knownWord(ctx, f, out[i].word)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].dist != out[j].dist {
			return out[i].dist < out[j].dist
		}
		if out[i].known != out[j].known {
			return out[i].known
		}
		return out[i].pos < out[j].pos
	})
	return out
}

// knownWord reports whether a proposed word is one hookd knows to exist
// for the failed tool: a known subcommand, a package.json script, a make
// target or git branch, or what the user ran with the tool before.
func knownWord(ctx context.Context, f *Failure, word string) bool {
	c := f.main()
	if c == nil {
		return false
	}
	name := c.Name()
	words := strings.Fields(word)
	if len(words) == 0 {
		return false
	}
	w := words[len(words)-1]
	if contains(subcommands.get()[name], w) {
		return true
	}
	switch name {
	case "npm", "yarn", "pnpm", "bun":
		if s, err := f.Env.PackageScripts(ctx, f.Cwd); err == nil && contains(s, w) {
			return true
		}
	case "make":
		if t, err := f.Env.MakeTargets(ctx, f.Cwd); err == nil && contains(t, w) {
			return true
		}
	case "git":
		if contains(f.git(ctx).Branches, w) {
			return true
		}
	}
	for _, p := range f.History {
		if strings.HasPrefix(p.Command+" ", name+" "+w+" ") {
			return true
		}
	}
	return false
}

func allWords(words []string) bool {
	for _, w := range words {
		if !hintWordRe.MatchString(w) {
			return false
		}
	}
	return len(words) > 0
}

func filterWords(ws []string) []string {
	var out []string
	for _, w := range ws {
		if hintWordRe.MatchString(w) {
			out = append(out, w)
		}
	}
	return out
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
				return f.replaceWords(c, 0, j+1, shellwords.Join(words...))
			}
			if len(words) != 1 {
				return ""
			}
			if strings.HasPrefix(a, "--") && !strings.HasPrefix(hint, "-") {
				hint = "--" + hint
			}
			return f.putWord(c, j, hint)
		}
	}
	return ""
}

// applyCommandHint replaces the typed words of the command, as far as the
// rejected one and as many as the proposal has, with a whole proposed
// command line ("gcloud comptue instances list" → "gcloud compute instances
// list"). It gives "" unless the proposal is the same tool, and changes only
// the rejected word and words within a typo's distance of the typed ones.
func applyCommandHint(f *Failure, unknown string, words []string) string {
	c := f.main()
	if c == nil || words[0] != c.Name() {
		return ""
	}
	j := indexOf(c.Args, unknown)
	if j < 1 || len(words) <= j || len(c.Args) < len(words) {
		return ""
	}
	for k := 1; k < len(words); k++ {
		if k == j {
			continue
		}
		if a := c.Args[k]; a != words[k] && distance(a, words[k]) > maxTypos(len(a)) {
			return ""
		}
	}
	return f.replaceWords(c, 0, len(words), shellwords.Join(words...))
}

// subcommands lists the subcommands of tools that are often mistyped, for
// when the tool itself proposes nothing (or printed nothing).
var subcommands = lazyValue[map[string][]string]{make: func() map[string][]string {
	m := map[string][]string{
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
	m["pip3"] = m["pip"]
	m["podman"] = m["docker"]
	// Subcommands of subcommands, keyed "tool sub".
	for k, v := range map[string]string{
		"git bisect":    "bad good new old terms skip next reset visualize view replay log run help start",
		"git stash":     "list show drop pop apply branch push save clear create store",
		"git remote":    "add rename remove rm set-head set-branches get-url set-url show prune update",
		"git worktree":  "add list lock move prune remove repair unlock",
		"git submodule": "add status init deinit update set-branch set-url summary foreach sync absorbgitdirs",
		"go mod":        "download edit graph init tidy vendor verify why",
		"go work":       "edit init sync use vendor",
		"pyenv":         "commands completion exec global help hooks init install local prefix rehash root shell shims uninstall version version-file version-file-read version-file-write version-name version-origin versions whence which virtualenv virtualenvs activate deactivate update",
		"rbenv":         "commands completion exec global help hooks init install local prefix rehash root shell shims uninstall version version-file version-file-read version-file-write version-name version-origin versions whence which",
		"nodenv":        "commands completion exec global help hooks init install local prefix rehash root shell shims uninstall version version-file version-file-read version-file-write version-name version-origin versions whence which",
		"goenv":         "commands completion exec global help hooks init install local prefix rehash root shell shims uninstall version version-file version-file-read version-file-write version-name version-origin versions whence which",
		"hg":            "add addremove annotate archive backout bisect bookmarks branch branches bundle cat clone commit config copy diff export files forget graft grep heads help identify import incoming init log manifest merge outgoing parents paths phase pull push recover remove rename resolve revert rollback root serve shelve status summary tag tags tip unbundle unshelve update verify version",
		"gem":           "build cert check cleanup contents dependency environment fetch help info install list lock mirror open outdated owner pristine push query rdoc search server signin signout sources specification stale uninstall unpack update which yank",
		"composer":      "about archive audit browse bump check-platform-reqs clear-cache config create-project depends diagnose dump-autoload exec fund global help init install licenses list outdated prohibits reinstall remove require run-script search self-update show status suggests update validate",
		"yarn":          "add audit autoclean bin cache check config create dedupe generate-lock-entry global help import info init install licenses link list login logout outdated owner pack policies publish remove run tag team test unlink unplug upgrade upgrade-interactive version versions why workspace workspaces",
		"vagrant":       "autocomplete box cloud destroy global-status halt help init login package plugin port powershell provision push rdp reload resume serve snapshot ssh ssh-config status suspend up upload validate version winrm winrm-config",
		"terraform":     "init validate plan apply destroy console fmt force-unlock get graph import login logout metadata output providers refresh show state taint test untaint version workspace",
		"helm":          "completion create dependency env get history install lint list package plugin pull push registry repo rollback search show status template test uninstall upgrade verify version",
		"adb":           "devices connect disconnect pair forward reverse push pull sync shell emulator install install-multiple uninstall bugreport jdwp logcat disable-verity enable-verity keygen wait-for-device start-server kill-server reconnect root unroot usb tcpip reboot sideload remount get-state get-serialno get-devpath",
		"conda":         "clean compare config create info init install list package remove rename run search uninstall update upgrade activate deactivate env",
		"heroku":        "access addons apps auth authorizations buildpacks certs ci clients config container domains drains features git help keys labs local login logout logs maintenance members notifications orgs pg pipelines plugins ps redis regions releases reviewapps run sessions spaces status teams update webhooks",
	} {
		m[k] = strings.Fields(v)
	}
	return m
}}

// subcommandSlot finds the word of the command line that names a known
// tool's subcommand, or the subcommand of a known subcommand (git stash
// pop, go mod tidy): the key of its list in subcommands, its call and its
// index. The call is nil when there is none.
func subcommandSlot(f *Failure) (string, *Call, int) {
	for i := len(f.Calls) - 1; i >= 0; i-- {
		c := &f.Calls[i]
		key, idx := c.Name(), c.subIndex()
		if _, ok := subcommands.get()[key]; !ok || idx < 0 {
			continue
		}
		nested := key + " " + c.Args[idx]
		if _, ok := subcommands.get()[nested]; !ok {
			return key, c, idx
		}
		for j := idx + 1; j < len(c.Args); j++ {
			if !strings.HasPrefix(c.Args[j], "-") {
				return nested, c, j
			}
		}
		return "", nil, -1
	}
	return "", nil, -1
}

var unknownSubRes = []lazyRegexp{
	lazyRegexp(`'([^']+)' is not a (?:git|docker) command`),
	lazyRegexp(`(?m)^go (\S+): unknown command`),
	lazyRegexp("no such (?:sub)?command: `([^`]+)`"),
	lazyRegexp(`Unknown command: "?([^"\s]+)"?`),
	lazyRegexp(`E: Invalid operation (\S+)`),
	lazyRegexp(`Unknown (?:command verb|operation) '?([^',.\s]+)'?`),
	lazyRegexp(`unknown command "([^"]+)"`),
	lazyRegexp(`(?i)unknown command:? (?:docker )?'?([^'\s]+)'?`),
	lazyRegexp("unknown subcommand:? [`'\"]?([^`'\"\\s]+)"),
	lazyRegexp("no such command [`'\"]([^`'\"]+)"),
}

// topUsageRe is a usage line: the program, then what it takes.
var topUsageRe = lazyRegexp(`(?im)^\s*usage:\s+(\S+)\s+(.*)$`)

func ruleUnknownSubcommand(ctx context.Context, f *Failure) *Finding {
	key, c, idx := subcommandSlot(f)
	if c == nil {
		return nil
	}
	sub := c.Args[idx]
	known := subcommands.get()[key]
	if contains(known, sub) {
		return nil
	}
	said := f.has(key + ": unknown command") // go mod: unknown command
	for _, re := range unknownSubRes {
		if m := f.find(re); m != nil && m[1] == sub {
			said = true
			break
		}
	}
	// The tool's top-level usage (Usage:  docker [OPTIONS] COMMAND) after
	// another complaint (cobra's unknown shorthand flag): it never took
	// the word for a subcommand.
	for _, m := range topUsageRe.FindAllStringSubmatch(f.Output, 3) {
		said = said || filepath.Base(m[1]) == key && strings.Contains(strings.ToLower(m[2]), "command") && !strings.Contains(m[2], sub)
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
		if popular.get()[key+" "+w] > 0 {
			return 0.02
		}
		return 0
	})
	// Words in the wrong order: the unknown word is an argument and the
	// subcommand follows it (systemctl nginx restart).
	if following := c.Arg(idx + 1); said && contains(known, following) && (len(ms) == 0 || ms[0].dist > 1) {
		swapped := f.replaceWords(c, idx, idx+2, shellwords.QuoteWord(following)+" "+c.Raw[idx])
		return found(SyntaxError, 0.88, fmt.Sprintf("%s takes the subcommand first: %s %s, then %s.", key, key, following, sub),
			fix(swapped, 0.9, "Put the subcommand %s before its argument %s.", following, sub))
	}
	if len(ms) == 0 {
		if said {
			return explain(CommandNotFound, 0.6, "%s has no subcommand %q; see %s --help.", key, sub, key)
		}
		return nil
	}
	// As near as each other, the riskier one goes second: docker rn is
	// docker rm or docker run, and run does not remove anything.
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].score != ms[j].score {
			return ms[i].score > ms[j].score
		}
		ri, rj := Risk(f.putWord(c, idx, ms[i].word)), Risk(f.putWord(c, idx, ms[j].word))
		return MaxRisk(ri, rj) == rj && ri != rj
	})
	fd := found(CommandNotFound, conf, fmt.Sprintf("%s has no subcommand %q; did you mean %s?", key, sub, ms[0].word))
	for i, m := range ms {
		if i == MaxFixes {
			break
		}
		fd.Fixes = append(fd.Fixes, fix(f.putWord(c, idx, m.word), min(m.score, conf)-0.02*float64(i), "Did you mean %s %s?", key, m.word))
	}
	return fd
}

var runHintRe = lazyRegexp("(?i)\\b(?:run|try|use|execute)(?: running)?:?\\s+['\"`‘]([a-z][^'\"`’\\n]{2,100})['\"`’]")

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
