package deps

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The design document's package map (§2.2, a table with a row per package)
// and layering diagram (§2.3) are read here and compared with the tree and
// with allowed, so that they cannot drift from the code again, as
// help.golden pins the help text.

const designPath = "../../docs/design.md"

// section returns the text of the design document between the heading
// that starts with start and the next heading of the same or a higher
// level.
func section(t *testing.T, doc, start string) string {
	t.Helper()
	i := strings.Index(doc, "\n"+start)
	if i < 0 {
		t.Fatalf("%s: no heading %q", designPath, start)
	}
	rest := doc[i+1+len(start):]
	level := strings.Count(strings.Fields(start)[0], "#")
	for _, h := range regexp.MustCompile(`(?m)^#{1,6} `).FindAllStringIndex(rest, -1) {
		if strings.Count(strings.Fields(rest[h[0]:])[0], "#") <= level {
			return rest[:h[0]]
		}
	}
	return rest
}

var backticked = regexp.MustCompile("`([^`]+)`")

// tablePackages returns the packages named in the first cell of the
// section's table rows.
func tablePackages(text string) map[string]bool {
	pkgs := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cell := strings.Split(line, "|")[1]
		for _, m := range backticked.FindAllStringSubmatch(cell, -1) {
			pkgs[m[1]] = true
		}
	}
	return pkgs
}

// diagram reads the layering diagram: a code block of layer names, each
// followed by indented lines `package → import, import` (`→ —` for none),
// longer lists continued on more deeply indented lines without an arrow.
func diagram(t *testing.T, text string) (rows map[string][]string, layerOfRow map[string]string) {
	t.Helper()
	start := strings.Index(text, "```")
	end := strings.LastIndex(text, "```")
	if start < 0 || end <= start {
		t.Fatalf("%s §2.3: no code block", designPath)
	}
	rows, layerOfRow = map[string][]string{}, map[string]string{}
	layer, last := "", ""
	for _, line := range strings.Split(text[start+3:end], "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
		case !strings.HasPrefix(line, " "):
			layer, last = strings.Fields(trimmed)[0], ""
		case strings.Contains(line, "→"):
			pkg, deps, _ := strings.Cut(trimmed, "→")
			last = strings.TrimSpace(pkg)
			if _, dup := rows[last]; dup {
				t.Errorf("%s §2.3: %s drawn twice", designPath, last)
			}
			rows[last] = splitList(deps)
			layerOfRow[last] = layer
		case last != "":
			rows[last] = append(rows[last], splitList(trimmed)...)
		default:
			t.Errorf("%s §2.3: cannot read %q", designPath, line)
		}
	}
	return rows, layerOfRow
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" && f != "—" {
			out = append(out, f)
		}
	}
	return out
}

// wantLine is how the diagram should draw pkg.
func wantLine(pkg string) string {
	deps := slices.Clone(allowed[pkg])
	sort.Strings(deps)
	if len(deps) == 0 {
		return fmt.Sprintf("  %s → —", pkg)
	}
	return fmt.Sprintf("  %s → %s", pkg, strings.Join(deps, ", "))
}

func TestDesignMap(t *testing.T) {
	b, err := os.ReadFile(designPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	pkgs := packages(t)

	table := tablePackages(section(t, doc, "### 2.2 "))
	for pkg := range pkgs {
		if !table[pkg] {
			t.Errorf("%s §2.2 has no row for package %s", designPath, pkg)
		}
	}
	for pkg := range table {
		if _, exists := pkgs[pkg]; !exists {
			t.Errorf("%s §2.2 describes package %s, which does not exist", designPath, pkg)
		}
	}

	rows, layerOfRow := diagram(t, section(t, doc, "### 2.3 "))
	for pkg := range allowed {
		got, drawn := rows[pkg]
		if !drawn {
			t.Errorf("%s §2.3 does not draw %s; in layer %s:\n%s", designPath, pkg, layers[layerOf(pkg)].name, wantLine(pkg))
			continue
		}
		got = slices.Clone(got)
		sort.Strings(got)
		want := slices.Clone(allowed[pkg])
		sort.Strings(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s §2.3 draws %s's imports as %v; allowed says:\n%s", designPath, pkg, got, wantLine(pkg))
		}
		if l := layerOf(pkg); l >= 0 && layerOfRow[pkg] != layers[l].name {
			t.Errorf("%s §2.3 draws %s under %q; it is in layer %q", designPath, pkg, layerOfRow[pkg], layers[l].name)
		}
	}
	for pkg := range rows {
		if _, ok := allowed[pkg]; !ok {
			t.Errorf("%s §2.3 draws %s, which has no row in allowed", designPath, pkg)
		}
	}
}

// staleNames are the names of packages that were renamed (ctxblock is
// promptblock, ctxcmd contextcmd, answer render, health status), as code,
// comments, docs and errors could still say them.
var staleNames = regexp.MustCompile(`\b(ctxblock|ctxcmd)\b|\bhealth\.Report\b|\bpackage answer\b|"answer: `)

// daemonAsAgent is hookd's own process called "agent", its old name, in
// what Go code and the documents say to users and in logs and errors:
// "agent" is only the coding agents now (agent.pid, agent.sock and the
// status JSON's "agent" key stay, as other tools read them). The phrases
// are ones only hookd's own process fits, so prose about coding agents
// ("an agent's command", "the agent runs `hookd mcp`") never matches.
var daemonAsAgent = regexp.MustCompile(`(?i)\b(the|a|an|old|new|another|no|its|local|dead) agent('s)? (cannot run|is not running|is already running|is down|runs version|runs a pass|runs ingest|syncs|uploads|learns|ingests|log|pid file|socket|RSS|starts by itself|starts in the background|notices its binary|reads it \(|reads \x60\.git|compares the index|stores the command|stores it redacted|takes the environment|\x60/proc)\b|\bagent (running([,;)]|$| and no)|RSS\b)|\bstop the agent\b|"agent (started|stopped|failed)"|Errorf\("agent: |"start the agent|\bone agent per user\b`)

// TestNoStaleNames: no Go file and no document names a package by its old
// name, and no Go file or document calls the daemon an agent.
func TestNoStaleNames(t *testing.T) {
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == ".git" || name == "node_modules" || name == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, ".md") || strings.HasSuffix(path, "design_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := staleNames.FindString(line); m != "" {
				t.Errorf("%s:%d names %q, an old package name", path, i+1, m)
			}
			if m := daemonAsAgent.FindString(line); m != "" {
				t.Errorf("%s:%d says %q: hookd's own process is the daemon; agents are the coding agents", path, i+1, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// colourLiteral is a colour chosen in place: a lipgloss or termenv colour
// given as a number.
var colourLiteral = regexp.MustCompile(`(lipgloss|\.out|termenv)\.Color\("`)

// TestColoursFromPalette: every terminal view takes its colours from the
// palette (internal/ui/style, whose doc says so); none names a colour of
// its own.
func TestColoursFromPalette(t *testing.T) {
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == ".git" || name == "node_modules" || name == "testdata" || strings.HasSuffix(path, "internal/ui/style") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if colourLiteral.MatchString(line) {
				t.Errorf("%s:%d chooses a colour of its own; take a style of internal/ui/style", path, i+1)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// treeDirs reads the design document's tree at a glance: a code block of
// lines "name/ [name/…]  description". A line's names (before the
// description's column) are directories under its group: the top, or a
// name alone on an unindented line ("internal/") for the lines indented
// under it. In a description, a word ending in "/" ("learn/:", "(s3/:",
// "spool/") names a directory under the line's first name, continuation
// lines included. It returns every directory named, relative to the
// module, each with a trailing "/".
func treeDirs(t *testing.T, text string) []string {
	t.Helper()
	start := strings.Index(text, "```\n")
	end := strings.LastIndex(text, "```")
	if start < 0 || end <= start {
		t.Fatalf("%s: the tree at a glance has no code block", designPath)
	}
	isDir := regexp.MustCompile(`^([a-z0-9_]+/)+$`)
	dirs := func(s string) []string {
		var out []string
		for _, f := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(" \t(),;:·+", r) }) {
			if isDir.MatchString(f) {
				out = append(out, f)
			}
		}
		return out
	}
	var named []string
	group, entry := "", ""
	for _, line := range strings.Split(text[start+4:end], "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		body := line[indent:]
		names, desc := body, ""
		if i := strings.Index(body, "  "); i >= 0 {
			names, desc = body[:i], body[i:]
		}
		switch {
		case indent >= 20: // a description continued
			if entry == "" {
				t.Errorf("%s tree: %q continues no entry", designPath, line)
			}
			desc = body
		case indent == 0 && desc == "" && len(dirs(names)) == 1:
			group = dirs(names)[0]
			named = append(named, group)
			entry = ""
			continue
		default:
			if indent == 0 {
				group = ""
			}
			ds := dirs(names)
			if len(ds) == 0 {
				t.Errorf("%s tree: %q names no directory", designPath, line)
				continue
			}
			for _, d := range ds {
				named = append(named, group+d)
			}
			entry = group + ds[0]
		}
		for _, d := range dirs(desc) {
			named = append(named, entry+d)
		}
	}
	return named
}

// TestDesignTree: design.md's tree at a glance names every package
// directory of the module, and no directory that is gone.
func TestDesignTree(t *testing.T) {
	b, err := os.ReadFile(designPath)
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]bool{}
	for _, d := range treeDirs(t, section(t, string(b), "## The tree at a glance")) {
		named[d] = true
		if st, err := os.Stat(filepath.Join("../..", d)); err != nil || !st.IsDir() {
			t.Errorf("%s's tree names %s, which is not a directory of the module", designPath, d)
		}
	}
	for pkg := range packages(t) {
		if !named[pkg+"/"] {
			t.Errorf("%s's tree at a glance does not name %s/", designPath, pkg)
		}
	}
}
