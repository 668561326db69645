// Package shellinit produces the shell code that `hookd init` prints.
package shellinit

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hookd/hookd/internal/shellwords"
	"github.com/hookd/hookd/scripts"
)

// Lines of each script that end with " # @NAME@" are assignments whose
// value Script fills in, single-quoted: @bin@ the hookd binary, @state@
// hookd's state directory, @spooldir@ the spool directory, @offerdir@ the
// offers' directory, @pidfile@ the daemon's pid file, @capture@ the capture
// mode, @fixcmd@ and @fixkey@ the fix command and key, @aikey@ the key
// that asks the LLM about the last failure, @watch@ the environment
// variables noted with each command besides the built-in ones.
const (
	binMarker     = " # @bin@"
	stateMarker   = " # @state@"
	spoolMarker   = " # @spooldir@"
	offerMarker   = " # @offerdir@"
	pidMarker     = " # @pidfile@"
	captureMarker = " # @capture@"
	fixCmdMarker  = " # @fixcmd@"
	fixKeyMarker  = " # @fixkey@"
	aiKeyMarker   = " # @aikey@"
	prefixMarker  = " # @prefix@"
	// The search key (Ctrl-R), an extra key for it (the Up arrow, only
	// when asked), and whether to take it from another tool's widget.
	searchKeyMarker     = " # @searchkey@"
	searchUpMarker      = " # @searchup@"
	searchReplaceMarker = " # @searchreplace@"
	watchMarker         = " # @watch@"
	// fish's script alone: the wall clock's time at boot (see
	// Options.BootTime), and the user's uid (Options.UID).
	clockMarker = " # @clock@"
	uidMarker   = " # @uid@"
	// And what fish would otherwise work out at every start through a
	// command substitution (each costs it 0.15–0.6 ms): the binary quoted
	// for a command line, the ask prefix as a regular expression and its
	// first character quoted, the environment's variables as the words
	// that expand them (joined by \x1f, and by spaces).
	binqMarker     = " # @binq@"
	prefixReMarker = " # @prefixre@"
	pfirstMarker   = " # @pfirst@"
	pfirstqMarker  = " # @pfirstq@"
	envjMarker     = " # @envj@"
	envvMarker     = " # @envv@"
)

// Options are the values Script fills in.
type Options struct {
	// Bin is the absolute path of the hookd binary.
	Bin string
	// StateDir is hookd's state directory, SpoolDir the directory of the
	// spools (the scripts write SpoolDir/SESSION.spool, see package
	// spool), OfferDir that of the offers (OfferDir/SESSION, see package
	// offer), PIDFile the daemon's pid file: all absolute, as package paths
	// lays them out. The scripts derive none of them from the environment.
	StateDir, SpoolDir, OfferDir, PIDFile string
	// Capture is "pty" (the shell re-executes itself under hookd shell,
	// which keeps each command's output) or "off".
	Capture string
	// Quoted gives zsh its definitions as one quoted word (lexed twice)
	// rather than in a here-document: for a shell that cannot write the
	// here-document's temporary file (see zshOwnOptionsOnce).
	Quoted bool
	// FishOnDemand, for fish, is the file where hookd init wrote
	// FishOnDemand's functions: the script then defines each as a stub
	// that sources that file first. Empty: the script defines them itself.
	FishOnDemand string
	// FixCommand is the name of the command that applies a fix ("" for
	// none); it must be a plain word (config.ValidFixCommand).
	FixCommand string
	// AskPrefix starts a question typed at the prompt ("??"); "" for
	// none.
	AskPrefix string
	// FixKey is the key sequence that puts the next fix on the command
	// line (nil for none).
	FixKey []byte
	// AIKey is the key sequence that asks the LLM about the last failed
	// command (nil for none). Like FixKey, it is bound only where it is
	// free.
	AIKey []byte
	// SearchKey opens hookd search (Ctrl-R; nil for none), bound where it
	// is free or holds the shell's own history search; SearchUpKey too
	// (nil unless the user asked). SearchReplace binds them even where
	// another tool's widget holds them.
	SearchKey, SearchUpKey []byte
	SearchReplace          bool
	// Watch names environment variables the hooks note with each command
	// (fix.watch_env), besides PATH and the environment managers' that
	// they always note. Only names a shell can export are kept.
	Watch []string
	// BootTime is the wall clock's time at the machine's boot, in
	// microseconds since the epoch (the time now less CLOCK_BOOTTIME's):
	// fish, which has no clock variable, adds /proc/uptime to it (read by
	// a builtin) to tell the time without a process. fish's script only.
	BootTime int64
	// UID is the user's uid, for the session's header: fish has no $UID
	// (reading /proc/PID/status line by line in fish took ~1.6 ms of every
	// start). hookd init runs as a child of the shell, as its user. fish's
	// script only.
	UID int
}

// watchList is Watch as the scripts take it: names, space-separated,
// without duplicates and without the ones the scripts note anyway.
func watchList(names []string) string {
	seen := map[string]bool{}
	for _, n := range BuiltinEnv {
		seen[n] = true
	}
	var out []string
	for _, n := range names {
		if shellwords.IsName(n) && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return strings.Join(out, " ")
}

// BuiltinEnv are the environment variables the scripts always note with
// each command, in the order their records list them.
var BuiltinEnv = []string{"PATH", "VIRTUAL_ENV", "CONDA_PREFIX", "NODE_ENV", "KUBECONFIG", "AWS_PROFILE", "DOCKER_CONTEXT", "GOFLAGS"}

// bindSeq writes key in the notation of the shell's key binding command:
// readline's ("\C-xf", for bind), zle's ("^Xf", for bindkey) or fish's
// ("\cxf", for bind).
func bindSeq(shell string, key []byte) string {
	if shell == "fish" {
		return fishBindSeq(key)
	}
	var b strings.Builder
	for _, c := range key {
		switch {
		case c == 0x1b:
			b.WriteString(`\e`)
		case c == 0x7f && shell == "bash":
			b.WriteString(`\C-?`)
		case c == 0x7f:
			b.WriteString("^?")
		case c < 0x20 && shell == "bash":
			b.WriteString(`\C-` + string(rune(c+'`')))
		case c < 0x20:
			b.WriteString("^" + string(rune(c+'@')))
		case shell == "bash" && (c == '"' || c == '\\'):
			b.WriteString(`\` + string(rune(c)))
		case shell == "zsh" && (c == '^' || c == '\\'):
			b.WriteString(`\` + string(rune(c)))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

var sources = map[string]string{
	"bash": scripts.Bash,
	"zsh":  scripts.Zsh,
	"fish": scripts.Fish,
}

// files are the scripts' names in scripts/.
var files = map[string]string{"bash": "bash.sh", "zsh": "zsh.sh", "fish": "fish.fish"}

// Shells returns the names of the supported shells, sorted.
func Shells() []string {
	names := make([]string, 0, len(sources))
	for name := range sources {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Script returns the integration code for shell with the values of o filled
// in and the comments left out; nothing else is generated.
func Script(shell string, o Options) (string, error) {
	lines, err := fill(shell, o)
	if err != nil {
		return "", err
	}
	var lazy []string
	if shell == "fish" && o.FishOnDemand != "" {
		lazy = onDemand
	}
	src := withoutComments(shell, lines, unused(shell, o), lazy, o.FishOnDemand)
	if shell != "zsh" {
		return src, nil
	}
	i := strings.Index(src, "\n"+runMarker)
	if i < 0 {
		return "", fmt.Errorf("script for %s: no %q line", shell, runMarker)
	}
	head := strings.IndexByte(src, '\n') + 1
	defs := src[head : i+1]
	if o.Quoted || strings.Contains("\n"+defs, "\n"+zshDefsEnd+"\n") {
		return src[:head] + zshOwnOptions(defs) + src[i+1:], nil
	}
	return src[:head] + zshOwnOptionsOnce(defs, o) + src[i+1:], nil
}

// zshDefsEnd ends the here-document that holds zsh's definitions.
const zshDefsEnd = "_HOOKD_DEFS_END_"

// zshOwnOptionsOnce is [zshOwnOptions] with the definitions lexed once:
// as a quoted word they were lexed by the eval of `hookd init`'s text and
// again by the eval of the word (+0.5 ms per shell start, §42 of
// docs/benchmarks.md), while the lines of a here-document are only copied,
// and `source` parses them as it reads, under the anonymous function's
// options. zsh writes a here-document to a temporary file; where it
// cannot (TMPPREFIX's directory not writable), nothing is defined and the
// line after asks hookd for the quoted form (HOOKD_INIT_QUOTED), a process
// only then.
func zshOwnOptionsOnce(defs string, o Options) string {
	return "() {\n  'builtin' 'emulate' '-L' 'zsh'\n  'builtin' 'setopt' 'no_aliases'\n  'builtin' 'source' '/dev/stdin'\n} 2>/dev/null <<'" + zshDefsEnd + "'\n" +
		defs + zshDefsEnd + "\n" +
		"(( ${+functions[_hookd_init]} )) || 'builtin' 'eval' \"${\"$(HOOKD_INIT_QUOTED=1 'command' " + shellwords.Quote(o.Bin) +
		" 'init' " + shellwords.Quote("--capture="+o.Capture) + " 'zsh' 2>/dev/null)\"%%$'\\n''# @run@'*}\"\n"
}

// zshOwnOptions returns zsh code that defines what defs defines under zsh's
// own options, whatever the user's are: zsh parses a function when it is
// defined, under the options of that moment (with SH_GLOB set,
// `(5.<3->|<6->)` is no pattern but a parse error; an alias of the user's
// is expanded in the body), and `eval "$(hookd init zsh)"` parses all of
// its text before running any. So the definitions are one quoted word,
// parsed by an eval in an anonymous function under emulate -L zsh, without
// aliases; the function's options are the user's again when it returns.
// The words are quoted so that no alias of the user's replaces them. What
// the functions do at run time is under their own emulate -L zsh.
func zshOwnOptions(defs string) string {
	return "() {\n  'builtin' 'emulate' '-L' 'zsh'\n  'builtin' 'setopt' 'no_aliases'\n  'builtin' 'eval' \"$1\"\n} " +
		shellwords.Quote(defs) + "\n"
}

// fill returns the lines of shell's script with the values of o filled in.
func fill(shell string, o Options) ([]string, error) {
	src, ok := sources[shell]
	if !ok {
		return nil, fmt.Errorf("unsupported shell %q (supported: %s)", shell, strings.Join(Shells(), ", "))
	}
	switch o.Capture {
	case "pty", "off":
	default:
		return nil, fmt.Errorf("capture must be pty or off, not %q", o.Capture)
	}
	for _, p := range []string{o.StateDir, o.SpoolDir, o.OfferDir, o.PIDFile} {
		if !filepath.IsAbs(p) {
			return nil, fmt.Errorf("hookd's paths must be absolute, not %q", p)
		}
	}
	vals := map[string]string{binMarker: o.Bin, stateMarker: o.StateDir, spoolMarker: o.SpoolDir, offerMarker: o.OfferDir,
		pidMarker: o.PIDFile, captureMarker: o.Capture,
		fixCmdMarker: o.FixCommand, fixKeyMarker: bindSeq(shell, o.FixKey), aiKeyMarker: bindSeq(shell, o.AIKey), prefixMarker: o.AskPrefix,
		searchKeyMarker: bindSeq(shell, o.SearchKey), searchUpMarker: bindSeq(shell, o.SearchUpKey), searchReplaceMarker: "",
		watchMarker: watchList(o.Watch)}
	if o.SearchReplace {
		vals[searchReplaceMarker] = "1"
	}
	if shell == "fish" {
		vals[clockMarker] = strconv.FormatInt(o.BootTime, 10)
		vals[uidMarker] = strconv.Itoa(o.UID)
		vals[binqMarker] = shellwords.QuoteFish(o.Bin)
		vals[prefixReMarker], vals[pfirstMarker], vals[pfirstqMarker] = "", "", ""
		if o.AskPrefix != "" {
			vals[prefixReMarker] = `^\s*` + regexp.QuoteMeta(o.AskPrefix) + `(\s|$)`
			r, _ := utf8.DecodeRuneInString(o.AskPrefix)
			vals[pfirstMarker], vals[pfirstqMarker] = string(r), shellwords.QuoteFish(string(r))
		}
		var expand []string
		for _, n := range append(slices.Clone(BuiltinEnv), strings.Fields(watchList(o.Watch))...) {
			expand = append(expand, `"$`+n+`"`)
		}
		vals[envjMarker] = strings.Join(expand, `\x1f`)
		vals[envvMarker] = strings.Join(expand, " ")
	}
	found := map[string]bool{}
	lines := strings.SplitAfter(src, "\n")
	for i, line := range lines {
		trimmed := strings.TrimRight(line, "\n")
		if !strings.HasSuffix(trimmed, "@") {
			continue // most lines: no marker, no pass over the markers
		}
		for marker, val := range vals {
			if !strings.HasSuffix(trimmed, marker) {
				continue
			}
			if shell == "fish" {
				// set -g NAME VALUE # @marker@
				pre := fishAssign().FindString(trimmed)
				if pre == "" {
					return nil, fmt.Errorf("script for %s: marked line has no assignment", shell)
				}
				w := shellwords.QuoteFish(val)
				if isKeyMarker(marker) && val != "" {
					w = val // escapes, read outside quotes (fishBindSeq)
				}
				lines[i] = pre + w + "\n"
				found[marker] = true
				continue
			}
			eq := strings.IndexByte(trimmed, '=')
			if eq < 0 {
				return nil, fmt.Errorf("script for %s: marked line has no assignment", shell)
			}
			lines[i] = trimmed[:eq+1] + shellwords.Quote(val) + "\n"
			found[marker] = true
		}
	}
	for marker := range vals {
		if !found[marker] {
			return nil, fmt.Errorf("script for %s: no line marked %q", shell, strings.TrimSpace(marker))
		}
	}
	return lines, nil
}

// unused are fish's functions that the script run with o never calls:
// _hookd_handover, which Handover prints by itself, and with capture off
// those that enter the proxy. Defining them would cost fish their reading
// at every start.
func unused(shell string, o Options) []string {
	if shell != "fish" {
		return nil
	}
	if o.Capture == "off" {
		return []string{"_hookd_handover", "_hookd_proxy", "_hookd_on_tty"}
	}
	return []string{"_hookd_handover"}
}

// onDemand are fish's functions that run only when the user asks for them
// (a key, the fix command, a `??` line, a completion): with
// Options.FishOnDemand set, fish reads them only then. Reading them at
// every start cost fish about a millisecond (benchmarks.md §49). None
// holds a line hookd init fills in, so their text is the same for every
// user of a binary (FishOnDemand).
var onDemand = []string{"_hookd_fix", "_hookd_fix_key", "_hookd_ai_key", "_hookd_first_safe", "_hookd_risk_of",
	"_hookd_search", "_hookd_enter", "_hookd_quote", "_hookd_ask_word", "_hookd_complete"}

// fishLoader is _hookd_load: it defines the on-demand functions from file
// (over their stubs), once; where the file is gone, it says how to get
// hookd back.
func fishLoader(file string) string {
	q := shellwords.QuoteFish(file)
	return "function _hookd_load\n    source " + q + " 2>/dev/null; and return 0\n" +
		"    printf 'hookd: %s is missing: start a new shell to load hookd again\\n' " + q + " >&2\n    return 1\nend\n"
}

// FishOnDemand returns fish's on-demand functions (onDemand), without
// their comments, for the file that Options.FishOnDemand names, and a name
// for that file that changes with them (so that a shell started by an
// older hookd keeps the functions it was started with). An error says the
// script and onDemand disagree: the script then defines them itself.
func FishOnDemand() (name, text string, err error) {
	var b strings.Builder
	b.WriteString("# hookd's fish functions read on demand: scripts/fish.fish in hookd's source, without its comments.\n")
	for _, f := range onDemand {
		def, err := fishFunction(sources["fish"], f)
		if err != nil {
			return "", "", err
		}
		for _, line := range strings.SplitAfter(def, "\n") {
			if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") {
				b.WriteString(line)
			}
		}
	}
	text = b.String()
	sum := sha256.Sum256([]byte(text))
	return "on-demand-" + hex.EncodeToString(sum[:6]) + ".fish", text, nil
}

// withoutComments leaves out the lines that hold only a comment, and blank
// lines: reading them costs the shell at every start (about a quarter of
// bash's work in defining hookd's functions) and changes nothing, since no
// string in the scripts spans a line that starts with "#" (the shells'
// own listing of the functions is the same either way: see the tests). The
// run marker stays, for Early; a first line says where the comments are.
// The top-level functions named in omit are left out too, and those in
// lazy are stubs that load lazyFile (onDemand).
func withoutComments(shell string, lines []string, omit, lazy []string, lazyFile string) string {
	var b strings.Builder
	n := 0
	for _, line := range lines {
		n += len(line)
	}
	b.Grow(n)
	fmt.Fprintf(&b, "# hookd shell integration for %s: scripts/%s in hookd's source, without its comments.\n", shell, files[shell])
	skipping, loader := false, false
	for _, line := range lines {
		if skipping {
			skipping = line != "end\n"
			continue
		}
		if name, ok := strings.CutPrefix(line, "function "); ok {
			name = strings.TrimSuffix(name, "\n")
			if slices.Contains(omit, name) {
				skipping = true
				continue
			}
			if slices.Contains(lazy, name) {
				if !loader {
					b.WriteString(fishLoader(lazyFile))
					loader = true
				}
				b.WriteString("function " + name + "\n    _hookd_load; and " + name + " $argv\nend\n")
				skipping = true
				continue
			}
		}
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, runMarker):
			b.WriteString(runMarker + "\n")
		case t == "" || strings.HasPrefix(t, "#"):
		default:
			b.WriteString(line)
		}
	}
	return b.String()
}

// runMarker starts the scripts' last lines, which run the start-up.
const runMarker = "# @run@"

// Early returns what the early line (`eval "$(hookd init SHELL --early)"`,
// the rc file's first line) runs where it does not enter the proxy: the
// whole script with its values, _hookd_early set and the start-up left
// out. Everything is defined and nothing runs until the usual line at the
// end of the rc file, which the script's `hookd` function then answers
// without a process.
func Early(shell string, o Options) (string, error) {
	src, err := Script(shell, o)
	if err != nil {
		return "", err
	}
	return early(shell, src)
}

// early is src up to its run marker, with _hookd_early set.
func early(shell, src string) (string, error) {
	i := strings.Index(src, "\n"+runMarker)
	if i < 0 {
		return "", fmt.Errorf("script for %s: no %q line", shell, runMarker)
	}
	if shell == "fish" {
		return "set -g _hookd_early 1\n" + src[:i+1], nil
	}
	return "_hookd_early=1\n" + src[:i+1], nil
}

// Enter returns what the early line runs where it enters the capturing
// proxy: the script's _hookd_proxy function alone and a call with the
// binary's path, so that the shell re-executes itself under `hookd shell`
// before the rest of the rc file runs.
func Enter(shell, bin string) (string, error) {
	src, ok := sources[shell]
	if !ok {
		return "", fmt.Errorf("unsupported shell %q (supported: %s)", shell, strings.Join(Shells(), ", "))
	}
	if shell == "fish" {
		return enterFish(src, bin)
	}
	start := strings.Index(src, "\n_hookd_proxy() {\n")
	if start < 0 {
		return "", fmt.Errorf("script for %s: no _hookd_proxy function", shell)
	}
	end := strings.Index(src[start:], "\n}\n")
	if end < 0 {
		return "", fmt.Errorf("script for %s: _hookd_proxy does not end", shell)
	}
	unset := "builtin unset -f _hookd_proxy"
	if shell == "zsh" {
		unset = "unfunction _hookd_proxy"
	}
	def := src[start+1 : start+end+3]
	if shell == "zsh" {
		def = zshOwnOptions(def)
	}
	return def + "_hookd_proxy " + shellwords.Quote(bin) + "\n" + unset + "\n", nil
}
