package shellinit

import (
	"flag"
	"github.com/hookd/hookd/internal/required"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hookd/hookd/internal/shelltest"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestScriptGolden(t *testing.T) {
	for _, sh := range Shells() {
		t.Run(sh, func(t *testing.T) {
			got, err := Script(sh, Options{Bin: "/opt/hook d/it's/hookd", StateDir: "/home/me/.local/state/hook d/it's", SpoolDir: "/home/me/.local/state/hook d/it's/spool",
				OfferDir: "/home/me/.local/state/hook d/it's/fixes", PIDFile: "/home/me/.local/state/hook d/it's/agent.pid", Capture: "pty"})
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", sh+".golden")
			if *update {
				os.WriteFile(golden, []byte(got), 0o644)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("Script(%q) differs from %s (run with -update if intended)", sh, golden)
			}
			if sh == "zsh" {
				got = zshDefs(t, got)
			}
			bin, state := `_hookd_bin='/opt/hook d/it'\''s/hookd'`, `_hookd_state='/home/me/.local/state/hook d/it'\''s'`
			if sh == "fish" {
				bin, state = `_hookd_bin '/opt/hook d/it\'s/hookd'`, `_hookd_state '/home/me/.local/state/hook d/it\'s'`
			}
			if !strings.Contains(got, bin) {
				t.Errorf("Script(%q) does not quote the binary path", sh)
			}
			if !strings.Contains(got, state) {
				t.Errorf("Script(%q) does not quote the state directory", sh)
			}
		})
	}
}

func TestScriptUnknownShell(t *testing.T) {
	_, err := Script("nu", Options{Bin: "/bin/hookd", StateDir: "/st/hookd", SpoolDir: "/st/hookd/spool", OfferDir: "/st/hookd/fixes", PIDFile: "/st/hookd/agent.pid", Capture: "pty"})
	if err == nil || !strings.Contains(err.Error(), "bash, fish, zsh") {
		t.Errorf("Script(nu) error = %v; want one listing the supported shells", err)
	}
}

// zshDefs returns the definitions in zsh's script: the here-document that
// zshOwnOptionsOnce's source parses, or the quoted word that
// zshOwnOptions' eval parses, unquoted.
func zshDefs(t *testing.T, src string) string {
	t.Helper()
	if start := strings.Index(src, "\n} 2>/dev/null <<'"+zshDefsEnd+"'\n"); start >= 0 {
		start += len("\n} 2>/dev/null <<'" + zshDefsEnd + "'\n")
		end := strings.Index(src[start:], "\n"+zshDefsEnd+"\n")
		if end < 0 {
			t.Fatalf("zsh's here-document does not end:\n%s", src)
		}
		return src[start : start+end+1]
	}
	start := strings.Index(src, "\n} '")
	end := strings.Index(src, "'\n"+runMarker)
	if start < 0 || end < start {
		t.Fatalf("zsh's script has no quoted definitions:\n%s", src)
	}
	return strings.ReplaceAll(src[start+4:end], `'\''`, "'")
}

// TestZshDefinitionsLexedOnce: zsh's definitions are in a here-document,
// read once by source (a quoted word was lexed twice: by the eval of
// hookd init's text and by the eval of the word), and the quoted form,
// for a shell that cannot write a here-document, defines the same.
func TestZshDefinitionsLexedOnce(t *testing.T) {
	o := Options{Bin: "/usr/bin/hookd", StateDir: "/st/hookd", SpoolDir: "/st/hookd/spool", OfferDir: "/st/hookd/fixes", PIDFile: "/st/hookd/agent.pid", Capture: "off"}
	src, err := Script("zsh", o)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(src, "\n_hookd_init() {\n") || strings.Contains(src, "'_hookd_init() {") {
		t.Errorf("zsh's definitions are not a here-document of their own:\n%.400s", src)
	}
	if !strings.Contains(src, "HOOKD_INIT_QUOTED=1 'command' '/usr/bin/hookd' 'init' '--capture=off' 'zsh'") {
		t.Errorf("no fallback to the quoted form where the here-document fails")
	}
	o.Quoted = true
	quoted, err := Script("zsh", o)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(quoted, "} '_hookd_init() {") {
		t.Errorf("Quoted: the definitions are not one quoted word")
	}
	if zshDefs(t, src) != zshDefs(t, quoted) {
		t.Errorf("the here-document and the quoted word define different things")
	}
}

// TestScriptsParse runs each shell's own syntax check on the real script.
func TestScriptsParse(t *testing.T) {
	for _, sh := range Shells() {
		t.Run(sh, func(t *testing.T) {
			shelltest.Need(t, sh)
			src, err := Script(sh, Options{Bin: "/usr/bin/hookd", StateDir: "/st/hookd", SpoolDir: "/st/hookd/spool", OfferDir: "/st/hookd/fixes", PIDFile: "/st/hookd/agent.pid", Capture: "pty"})
			if err != nil {
				t.Fatal(err)
			}
			srcs := []string{src}
			if sh == "zsh" {
				srcs = append(srcs, zshDefs(t, src)) // what the eval parses
			}
			for _, src := range srcs {
				cmd := exec.Command(sh, "-n")
				cmd.Stdin = strings.NewReader(src)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("%s -n: %v\n%s", sh, err, out)
				}
			}
		})
	}
}

// TestWithoutComments: leaving the comments out of what hookd init prints
// changes no function: each shell lists the same functions, with the same
// bodies, from the script with its comments and from the one without; but
// for fish's functions that the script run with those options never calls
// (unused), which it leaves out.
func TestWithoutComments(t *testing.T) {
	for _, capture := range []string{"pty", "off"} {
		t.Run(capture, func(t *testing.T) { testWithoutComments(t, capture) })
	}
}

func testWithoutComments(t *testing.T, capture string) {
	o := Options{Bin: "/usr/bin/hookd", StateDir: "/st/hookd", SpoolDir: "/st/hookd/spool", OfferDir: "/st/hookd/fixes", PIDFile: "/st/hookd/agent.pid",
		Capture: capture, AskPrefix: "??", FixCommand: "fix", FixKey: []byte{0x18, 'f'}, AIKey: []byte{0x18, 'l'}}
	omitted := unused("fish", o)
	if !slices.Contains(omitted, "_hookd_handover") || (capture == "off") != slices.Contains(omitted, "_hookd_proxy") {
		t.Fatalf("unused(fish, capture %s) = %q", capture, omitted)
	}
	list := map[string]string{"bash": "declare -f", "zsh": "functions",
		"fish": "for f in (functions -a); string match -q '_hookd*' $f; and not contains -- $f " + strings.Join(omitted, " ") + "; and functions --no-details $f; end; true"}
	for _, sh := range Shells() {
		t.Run(sh, func(t *testing.T) {
			shelltest.Need(t, sh)
			lines, err := fill(sh, o)
			if err != nil {
				t.Fatal(err)
			}
			full, err := early(sh, strings.Join(lines, ""))
			if err != nil {
				t.Fatal(err)
			}
			bare, err := Early(sh, o)
			if err != nil {
				t.Fatal(err)
			}
			if len(bare) > len(full)*2/3 {
				t.Errorf("without comments: %d bytes of %d", len(bare), len(full))
			}
			funcs := func(src string) string {
				out, err := exec.Command(sh, "-c", src+"\n"+list[sh]).CombinedOutput()
				if err != nil {
					t.Fatalf("%s: %v\n%s", sh, err, out)
				}
				if sh != "fish" {
					return string(out)
				}
				// fish lists a function with the comments and blank lines in its body.
				var code []string
				for _, l := range strings.Split(string(out), "\n") {
					if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
						code = append(code, l)
					}
				}
				return strings.Join(code, "\n")
			}
			a, b := funcs(full), funcs(bare)
			if a != b || !strings.Contains(a, "_hookd_precmd") && !strings.Contains(a, "_hookd_postexec") {
				t.Errorf("the functions differ without the comments:\n%s\n----\n%s", a, b)
			}
			if sh == "fish" {
				for _, f := range omitted {
					if strings.Contains(bare, "\nfunction "+f+"\n") {
						t.Errorf("the script defines %s, which it never calls with capture %s", f, capture)
					}
				}
			}
		})
	}
}

func TestShellcheck(t *testing.T) {
	if _, err := exec.LookPath("shellcheck"); err != nil {
		required.Skip(t, "shellcheck is not installed", "REQUIRE_SHELLS")
	}
	out, err := exec.Command("shellcheck", "-s", "bash", "../scripts/bash.sh").CombinedOutput()
	if err != nil {
		t.Errorf("shellcheck: %v\n%s", err, out)
	}
}

func TestBindSeq(t *testing.T) {
	for _, tt := range []struct {
		key             []byte
		bash, zsh, fish string
	}{
		{[]byte{0x18, 'f'}, `\C-xf`, `^Xf`, `\cxf`},
		{[]byte{0x1b, 'f'}, `\ef`, `\ef`, `\ef`},
		{[]byte{0x7f}, `\C-?`, `^?`, `\x7f`},
		{[]byte(`"\^`), `\"\\^`, `"\\\^`, `\x22\x5c\x5e`},
		{nil, ``, ``, ``},
	} {
		if got := bindSeq("bash", tt.key); got != tt.bash {
			t.Errorf("bindSeq(bash, %q) = %q; want %q", tt.key, got, tt.bash)
		}
		if got := bindSeq("zsh", tt.key); got != tt.zsh {
			t.Errorf("bindSeq(zsh, %q) = %q; want %q", tt.key, got, tt.zsh)
		}
		if got := bindSeq("fish", tt.key); got != tt.fish {
			t.Errorf("bindSeq(fish, %q) = %q; want %q", tt.key, got, tt.fish)
		}
	}
}

// TestScriptWatch: fix.watch_env's names are filled in, once each, without
// the built-in ones and without anything that is not a variable's name
// (the scripts splice them into their code).
func TestScriptWatch(t *testing.T) {
	for _, sh := range Shells() {
		got, err := Script(sh, Options{Bin: "/b/hookd", StateDir: "/s", SpoolDir: "/s/spool", OfferDir: "/s/fixes", PIDFile: "/s/pid",
			Capture: "off", Watch: []string{"API_URL", "PATH", "bad name", "$(rm -rf ~)", "API_URL", "DEPLOY_ENV"}})
		if err != nil {
			t.Fatal(err)
		}
		if sh == "zsh" {
			got = zshDefs(t, got)
		}
		if !strings.Contains(got, "_hookd_watch='API_URL DEPLOY_ENV'\n") && !strings.Contains(got, "_hookd_watch 'API_URL DEPLOY_ENV'\n") {
			t.Errorf("%s: the watched names are not filled in as expected", sh)
		}
	}
}

// TestFishFilledAsFishComputes: what hookd init fills in for fish so that
// fish need not compute it at start (the binary quoted, the ask prefix as
// a regular expression and its first character, the words that expand the
// recorded variables) is what fish's own builtins make of the same values,
// hostile ones included.
func TestFishFilledAsFishComputes(t *testing.T) {
	shelltest.Need(t, "fish")
	for _, c := range []struct{ bin, prefix string }{
		{"/usr/bin/hookd", "??"},
		{"/opt/it's\\here/hookd", "$(id)"},
		{"/tmp/a b/hookd", `a.b*[x]^$|(\`},
		{"/x/hookd", "é?;"},
		{"/x/hookd", "'"},
	} {
		src, err := Script("fish", Options{Bin: c.bin, StateDir: "/s", SpoolDir: "/s/spool", OfferDir: "/s/fixes", PIDFile: "/s/pid",
			Capture: "off", AskPrefix: c.prefix, Watch: []string{"API_URL", "$(rm -rf ~)", "DEPLOY_ENV"}})
		if err != nil {
			t.Fatal(err)
		}
		var sets []string
		for _, l := range strings.Split(src, "\n") {
			if t := strings.TrimSpace(l); strings.HasPrefix(t, "set -g _hookd_") {
				sets = append(sets, t)
			}
		}
		check := strings.Join(sets, "\n") + `
set -l vals
for n in PATH VIRTUAL_ENV CONDA_PREFIX NODE_ENV KUBECONFIG AWS_PROFILE DOCKER_CONTEXT GOFLAGS (string split -n ' ' -- $_hookd_watch)
    set -a vals '"$'$n'"'
end
test "$_hookd_binq" = "'"(string replace -a -- "'" "\\'" (string replace -a -- '\\' '\\\\' $_hookd_bin))"'"; or echo binq
test "$_hookd_prefix_re" = '^\s*'(string escape --style=regex -- $_hookd_prefix)'(\s|$)'; or echo prefix_re
test "$_hookd_pfirst" = (string sub -l 1 -- $_hookd_prefix); or echo pfirst
eval "set -l q $_hookd_pfirstq"; test "$q" = "$_hookd_pfirst"; or echo pfirstq
test "$_hookd_envj" = (string join '\x1f' -- $vals); or echo envj
test "$_hookd_envv" = "$vals"; or echo envv
string match -qr -- $_hookd_prefix_re "$_hookd_prefix and more"; or echo matches
echo done
`
		out, err := exec.Command("fish", "--no-config", "-c", check).CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "done" {
			t.Errorf("bin %q, prefix %q: fish computes otherwise: %v\n%s", c.bin, c.prefix, err, out)
		}
	}
}

// TestHandoverScript: what fish's early line runs where its hookd becomes
// the proxy is _hookd_handover alone, called with the directory as one
// word whatever it holds, and the function erased; fish parses it, and it
// says no (for a fish that is not interactive) on the directory's go.
func TestHandoverScript(t *testing.T) {
	fish := shelltest.Need(t, "fish")
	dir := filepath.Join(t.TempDir(), "it's a $(dir) [x]")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	text, err := Handover(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(text, "function _hookd_handover\n") || !strings.HasSuffix(text, "\nfunctions -e _hookd_handover\n") ||
		strings.Count(text, "\nfunction ") != 0 {
		t.Fatalf("Handover printed:\n%s", text)
	}
	if out, err := exec.Command(fish, "-n", "-c", text).CombinedOutput(); err != nil {
		t.Fatalf("fish -n: %v\n%s", err, out)
	}
	// Not interactive: fish answers no, and goes on.
	out, err := exec.Command(fish, "-N", "-c", text+"echo after; functions -q _hookd_handover; or echo erased").CombinedOutput()
	if err != nil || string(out) != "after\nerased\n" {
		t.Errorf("fish: %v\n%s", err, out)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "go")); err != nil || string(b) != "no\n" {
		t.Errorf("fish wrote %q, %v on go; want no", b, err)
	}
}

// TestFishOnDemand: the functions fish reads on demand hold no line hookd
// init fills in (so one file serves every user of a binary), are all in
// the file FishOnDemand makes, and nowhere else once Options.FishOnDemand
// is set: each is a stub there. Sourced in fish, the stubs and the file
// give each function the body the whole script gives it; the file's name
// changes with its text.
func TestFishOnDemand(t *testing.T) {
	name, text, err := FishOnDemand()
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^on-demand-[0-9a-f]{12}\.fish$`).MatchString(name) {
		t.Errorf("name %q", name)
	}
	for _, f := range onDemand {
		if strings.Count(text, "\nfunction "+f+"\n") != 1 {
			t.Errorf("%s is not in the on-demand text once", f)
		}
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.HasSuffix(strings.TrimSpace(l), "@") {
			t.Errorf("an on-demand function holds a line hookd init fills in: %q", l)
		}
	}
	if strings.Count(text, "\nfunction ") != len(onDemand) {
		t.Errorf("the on-demand text defines %d functions; want %d", strings.Count(text, "\nfunction "), len(onDemand))
	}
	fish := shelltest.Need(t, "fish")
	dir := t.TempDir()
	file := filepath.Join(dir, "it's "+name)
	if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	o := Options{Bin: "/usr/bin/hookd", StateDir: "/st/hookd", SpoolDir: "/st/hookd/spool", OfferDir: "/st/hookd/fixes", PIDFile: "/st/hookd/agent.pid",
		Capture: "off", AskPrefix: "??", FixCommand: "fix", FixKey: []byte{0x18, 'f'}}
	whole, err := Early("fish", o)
	if err != nil {
		t.Fatal(err)
	}
	o.FishOnDemand = file
	stubbed, err := Early("fish", o)
	if err != nil {
		t.Fatal(err)
	}
	if len(stubbed) > len(whole)-len(text)/2 {
		t.Errorf("with the functions on demand the script is %d bytes of %d", len(stubbed), len(whole))
	}
	for _, f := range onDemand {
		if !strings.Contains(stubbed, "\nfunction "+f+"\n    _hookd_load; and "+f+" $argv\nend\n") {
			t.Errorf("%s is not a stub", f)
		}
	}
	list := "for f in " + strings.Join(onDemand, " ") + "; functions --no-details $f; end"
	a, err := exec.Command(fish, "-N", "-c", whole+list).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, a)
	}
	b, err := exec.Command(fish, "-N", "-c", stubbed+"_hookd_load; or exit 1\n"+list).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if string(a) != string(b) {
		t.Errorf("loaded on demand, the functions differ:\n%s\n----\n%s", a, b)
	}
	// Where the file is gone, a stub says so and fails.
	os.Remove(file)
	out, err := exec.Command(fish, "-N", "-c", stubbed+"_hookd_quote x").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "is missing: start a new shell") {
		t.Errorf("without the file: %v\n%s", err, out)
	}
	// The name follows the text.
	saved := onDemand
	onDemand = onDemand[1:]
	other, _, _ := FishOnDemand()
	onDemand = append(saved[:len(saved):len(saved)], "_hookd_nonexistent")
	_, _, missing := FishOnDemand()
	onDemand = saved
	if other == name {
		t.Errorf("another text, the same name %s", name)
	}
	if missing == nil {
		t.Errorf("a function the script does not have: no error")
	}
}
