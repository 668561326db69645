package before

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/internal/recording/runctx"
	"github.com/hookd/hookd/internal/shellwords"
)

// comparer builds the differences and fixes of one comparison.
type comparer struct {
	then, now Run
	o         Options
	diffs     []Difference
	fixes     []analyze.Fix
	prog      string // the failed command's program, as typed
	named     []named
}

// named is a file the failed command names, and where it exists.
type named struct {
	word            string
	thenHas, nowHas bool // relative to each run's directory, now
}

func (k *comparer) add(d Difference) {
	d.Weight = round(min(d.Weight, 0.95))
	if d.Text == "" {
		switch {
		case d.then == "":
			d.Text = "now " + d.now
		case d.now == "":
			d.Text = d.then
		default:
			d.Text = d.then + "; now " + d.now
		}
	}
	k.diffs = append(k.diffs, d)
}

func (k *comparer) fix(cmd string, conf float64, risk, why string) {
	k.fixes = append(k.fixes, analyze.Fix{Command: cmd, Confidence: round(min(conf, 0.95)),
		Risk: analyze.MaxRisk(risk, analyze.Risk(cmd)), Explanation: why})
}

func (k *comparer) compare() {
	words, _ := runctx.Words(k.now.Command)
	if p := runctx.Program(words); p >= 0 {
		k.prog = words[p]
		k.files(words[p:])
	}
	k.directory()
	if k.then.Known && k.now.Known {
		k.git()
	}
	if k.then.Context.Env != nil && k.now.Context.Env != nil {
		k.env()
	}
}

// damp lowers the weight of a difference in where and on what the
// command ran when the failure is the network's or a permission: those
// rarely come from the directory, the branch or the work tree.
func (k *comparer) damp(w float64) float64 {
	if k.failedOn(analyze.NetworkError, analyze.PermissionDenied) {
		return w * 0.6
	}
	return w
}

// failedOn reports an error type among those given.
func (k *comparer) failedOn(types ...string) bool {
	for _, t := range types {
		if k.o.ErrorType == t {
			return true
		}
	}
	return false
}

// notFound reports a failure to find a file or a program.
func (k *comparer) notFound() bool {
	return k.now.ExitCode == 127 || k.now.ExitCode == 126 ||
		k.failedOn(analyze.FileNotFound, analyze.CommandNotFound) ||
		strings.Contains(k.o.Output, "No such file or directory") || strings.Contains(k.o.Output, "not found")
}

// buildFiles are the files a build tool reads from the directory it runs in.
var buildFiles = map[string][]string{
	"make":  {"Makefile", "makefile", "GNUmakefile"},
	"gmake": {"Makefile", "makefile", "GNUmakefile"},
	"mvn":   {"pom.xml"},
	"ant":   {"build.xml"},
	"tox":   {"tox.ini"},
}

// files notes the files the command names (the program when it is a path,
// arguments that look like paths or name a file in the success's
// directory, and the build file of a build tool), and where they exist.
func (k *comparer) files(words []string) {
	seen := map[string]bool{}
	note := func(w string) {
		if seen[w] {
			return
		}
		seen[w] = true
		p := w
		if rest, ok := strings.CutPrefix(w, "~/"); ok {
			if k.o.Home == "" {
				return // where ~ is, is not known
			}
			p = filepath.Join(k.o.Home, rest)
		}
		k.named = append(k.named, named{word: w, thenHas: exists(abs(k.then.Cwd, p)), nowHas: exists(abs(k.now.Cwd, p))})
	}
	if strings.Contains(words[0], "/") {
		note(words[0])
	}
	for _, w := range words[1:] {
		if w == "" || strings.HasPrefix(w, "-") || strings.Contains(w, "://") || strings.Contains(w, "=") || strings.ContainsAny(w, "*?[$~") {
			continue
		}
		if strings.Contains(w, "/") || looksLikeFile(w) || exists(abs(k.then.Cwd, w)) {
			note(w)
		}
	}
	if bf, ok := buildFiles[filepath.Base(words[0])]; ok {
		var thenHas, nowHas bool
		for _, f := range bf {
			thenHas = thenHas || exists(filepath.Join(k.then.Cwd, f))
			nowHas = nowHas || exists(filepath.Join(k.now.Cwd, f))
		}
		if thenHas || nowHas {
			k.named = append(k.named, named{word: bf[0], thenHas: thenHas, nowHas: nowHas})
		}
	}
}

// looksLikeFile reports a word such as app.py or notes.txt: a name, a dot,
// and a short extension of letters and digits.
func looksLikeFile(w string) bool {
	i := strings.LastIndexByte(w, '.')
	if i <= 0 || len(w)-i-1 < 1 || len(w)-i-1 > 5 {
		return false
	}
	for _, c := range w[i+1:] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// missingHere are the named files there then and not here now (another
// directory holds them), and gone: those not here now though it is the
// same directory (the command found them then).
func (k *comparer) missing() (elsewhere, gone []string) {
	for _, n := range k.named {
		switch {
		case n.nowHas:
		case k.then.Cwd != k.now.Cwd && n.thenHas:
			elsewhere = append(elsewhere, n.word)
		case k.then.Cwd == k.now.Cwd:
			gone = append(gone, n.word)
		}
	}
	return elsewhere, gone
}

func (k *comparer) directory() {
	t, n := k.then.Cwd, k.now.Cwd
	if t == "" || n == "" || t == n {
		_, gone := k.missing()
		if len(gone) > 0 {
			w := 0.6
			if k.notFound() {
				w = 0.75
			}
			k.add(Difference{Kind: KindFile, Name: gone[0], Then: "present", Now: "missing", Weight: w,
				now: fmt.Sprintf("%s is missing", gone[0])})
		}
		return
	}
	elsewhere, _ := k.missing()
	related := within(n, t) || within(t, n) || k.then.Context.Repo != "" && k.then.Context.Repo == k.now.Context.Repo
	w := 0.2
	switch {
	case len(elsewhere) > 0:
		w = 0.9
	case related && k.notFound():
		w = 0.55 // elsewhere in the project, and something is not found
	case related:
		w = 0.4 // many commands work anywhere in a project
	}
	w = k.damp(w)
	d := Difference{Kind: KindDirectory, Then: t, Now: n, Weight: w,
		then: "in " + shellwords.Tilde(t, k.o.Home), now: "in " + shellwords.Tilde(n, k.o.Home)}
	if len(elsewhere) > 0 {
		d.now += fmt.Sprintf(" (no %s here)", elsewhere[0])
	}
	k.add(d)
	if w >= plausible && isDir(t) {
		why := "Go back to the directory where it worked."
		if len(elsewhere) > 0 {
			why = fmt.Sprintf("Go back to the directory where it worked: %s is there, not here.", elsewhere[0])
		}
		k.fix("cd "+shellwords.HomePath(t, k.o.Home), w, analyze.RiskLow, why)
	}
}

// within reports whether dir is below (or is) top.
func within(dir, top string) bool {
	return dir == top || strings.HasPrefix(dir, strings.TrimSuffix(top, "/")+"/")
}

func (k *comparer) git() {
	tc, nc := k.then.Context, k.now.Context
	if tc.Repo == "" || tc.Repo != nc.Repo {
		return
	}
	th := runctx.Head{Branch: tc.Branch, Commit: tc.Head}
	nh := runctx.Head{Branch: nc.Branch, Commit: nc.Head}
	if th.String() != "" && nh.String() != "" && th.String() != nh.String() {
		_, gone := k.missing()
		w := 0.55
		switch {
		case len(gone) > 0:
			w = 0.85
		case k.notFound() || k.failedOn(analyze.MissingDependency):
			w = 0.7
		}
		w = k.damp(w)
		d := Difference{Kind: KindBranch, Then: th.String(), Now: nh.String(), Weight: w,
			then: "on branch " + th.String(), now: "on " + nh.String()}
		if th.Branch == "" {
			d.then = th.String()
		}
		k.add(d)
		if r, ok := runctx.FindRepo(tc.Repo); ok {
			why := fmt.Sprintf("Switch back to %s, where it worked (this changes the files of the work tree).", th.String())
			switch {
			case th.Branch != "" && r.HasBranch(th.Branch):
				k.fix(analyze.GitSwitch(th.Branch), w, analyze.RiskMedium, why)
			case th.Branch == "" && th.Commit != "":
				k.fix("git switch --detach "+th.Commit[:min(12, len(th.Commit))], w*0.9, analyze.RiskMedium, why)
			}
		}
		return
	}
	if tc.Dirty == 0 && nc.Dirty == 1 {
		k.add(Difference{Kind: KindChanges, Then: "none", Now: "changes", Weight: k.damp(0.5),
			then: "with no changes in the work tree", now: "with changes"})
	}
}

// pythonish are programs whose failures a virtualenv explains.
func pythonish(prog string) bool {
	b := filepath.Base(prog)
	for _, p := range []string{"python", "pip", "pytest", "ipython", "django-admin", "flask", "uvicorn", "gunicorn",
		"celery", "mypy", "ruff", "black", "tox", "jupyter", "alembic", "poetry"} {
		if strings.HasPrefix(b, p) {
			return true
		}
	}
	return strings.HasSuffix(b, ".py")
}

// envManagers are the variables of the environment managers the shells
// note, and the programs they matter to.
var envManagers = map[string][]string{
	"NODE_ENV":       {"node", "npm", "npx", "yarn", "pnpm"},
	"KUBECONFIG":     {"kubectl", "helm", "k9s", "kubectx", "kustomize"},
	"AWS_PROFILE":    {"aws", "terraform", "sam", "cdk", "eksctl"},
	"DOCKER_CONTEXT": {"docker", "docker-compose"},
	"GOFLAGS":        {"go"},
}

func (k *comparer) env() {
	te, ne := k.then.Context.Env, k.now.Context.Env
	k.venv("VIRTUAL_ENV", KindVenv, te["VIRTUAL_ENV"], ne["VIRTUAL_ENV"])
	k.venv("CONDA_PREFIX", KindConda, te["CONDA_PREFIX"], ne["CONDA_PREFIX"])
	names := map[string]bool{}
	for n := range te {
		names[n] = true
	}
	for n := range ne {
		names[n] = true
	}
	var sorted []string
	for n := range names {
		if n != "PATH" && n != "VIRTUAL_ENV" && n != "CONDA_PREFIX" {
			sorted = append(sorted, n)
		}
	}
	sort.Strings(sorted)
	for _, n := range sorted {
		k.variable(n, te[n], ne[n])
	}
	k.path(te["PATH"], ne["PATH"], te["VIRTUAL_ENV"], te["CONDA_PREFIX"])
}

func (k *comparer) venv(name, kind, tv, nv string) {
	if tv == nv {
		return
	}
	what := "the virtualenv"
	if kind == KindConda {
		what = "the conda environment"
	}
	py := pythonish(k.prog) || k.failedOn(analyze.MissingDependency) ||
		strings.Contains(k.o.Output, "No module named") ||
		tv != "" && isExec(filepath.Join(tv, "bin", filepath.Base(k.prog)))
	d := Difference{Kind: kind, Name: name, Then: tv, Now: nv}
	switch {
	case tv != "":
		d.Weight = 0.6
		if py {
			d.Weight = 0.9
		}
		d.then = fmt.Sprintf("with %s %s active", what, shellwords.Tilde(tv, k.o.Home))
		d.now = "without it"
		if nv != "" {
			d.now = "with " + shellwords.Tilde(nv, k.o.Home)
		}
	default:
		d.Weight = 0.4
		if py {
			d.Weight = 0.6
		}
		d.then = "with no " + strings.TrimPrefix(what, "the ") + " active"
		d.now = "with " + shellwords.Tilde(nv, k.o.Home)
	}
	k.add(d)
	switch {
	case kind == KindVenv && tv != "" && exists(filepath.Join(tv, "bin", analyze.ActivateScript(k.o.Shell))):
		k.fix("source "+shellwords.HomePath(filepath.Join(tv, "bin", analyze.ActivateScript(k.o.Shell)), k.o.Home), d.Weight, analyze.RiskLow,
			fmt.Sprintf("Activate the virtualenv %s again, as when it worked.", shellwords.Tilde(tv, k.o.Home)))
	case kind == KindVenv && tv == "":
		k.fix("deactivate", d.Weight*0.8, analyze.RiskLow, "Leave the virtualenv: it worked without one.")
	case kind == KindConda && tv != "" && isDir(tv):
		k.fix("conda activate "+shellwords.HomePath(tv, k.o.Home), d.Weight, analyze.RiskLow,
			fmt.Sprintf("Activate the conda environment %s again, as when it worked.", shellwords.Tilde(tv, k.o.Home)))
	case kind == KindConda && tv == "":
		k.fix("conda deactivate", d.Weight*0.8, analyze.RiskLow, "Leave the conda environment: it worked without it.")
	}
}

func (k *comparer) variable(name, tv, nv string) {
	if tv == nv {
		return
	}
	w := 0.6 // the user asked to watch it
	if progs, ok := envManagers[name]; ok {
		w = 0.45
		for _, p := range progs {
			if filepath.Base(k.prog) == p {
				w = 0.7
			}
		}
	}
	if strings.Contains(k.o.Output, name) || strings.Contains(k.now.Command, name) {
		w = 0.9
	}
	redacted := strings.Contains(tv, analyze.RedactionMarker)
	shown := func(v string) string {
		if strings.Contains(v, analyze.RedactionMarker) || len(v) > 60 || strings.ContainsAny(v, "\n\r") {
			return name + " set"
		}
		return name + "=" + v
	}
	d := Difference{Kind: KindVariable, Name: name, Then: tv, Now: nv, Redacted: redacted, Weight: w}
	switch {
	case tv != "" && nv == "":
		d.then, d.now = "with "+shown(tv), "without "+name
	case tv == "":
		d.then, d.now = "without "+name, "with "+shown(nv)
		d.Weight = w * 0.8
	default:
		d.then, d.now = "with "+shown(tv), "with "+shown(nv)
	}
	k.add(d)
	switch {
	case tv != "" && !redacted && !strings.ContainsAny(tv, "\n\r"):
		k.fix("export "+name+"="+shellwords.QuoteWord(tv), d.Weight, analyze.RiskLow, fmt.Sprintf("Set %s as it was when it worked.", name))
	case tv == "":
		k.fix("unset "+name, d.Weight, analyze.RiskLow, fmt.Sprintf("It worked without %s.", name))
	}
}

// path compares PATH: a directory it lost explains a program not found
// when the program is there. The directories of the virtualenv or conda
// environment active then are the venv's difference, not PATH's.
func (k *comparer) path(tp, np, venv, conda string) {
	if tp == np || tp == "" || np == "" {
		return
	}
	has := map[string]bool{}
	for _, d := range strings.Split(np, ":") {
		has[d] = true
	}
	var lost []string
	for _, d := range strings.Split(tp, ":") {
		if d == "" || has[d] || venv != "" && d == filepath.Join(venv, "bin") || conda != "" && within(d, conda) {
			continue
		}
		lost = append(lost, d)
	}
	if len(lost) == 0 {
		return
	}
	if !strings.Contains(k.prog, "/") && k.prog != "" {
		for _, d := range lost {
			if isExec(filepath.Join(d, k.prog)) {
				k.add(Difference{Kind: KindPath, Name: d, Then: d, Weight: 0.9,
					then: fmt.Sprintf("with %s on PATH", shellwords.Tilde(d, k.o.Home)),
					now:  fmt.Sprintf("without it (%s is there)", k.prog)})
				k.fix("export PATH="+shellwords.QuoteWord(d)+`:"$PATH"`, 0.9, analyze.RiskLow,
					fmt.Sprintf("Put %s back on PATH: %s is there.", shellwords.Tilde(d, k.o.Home), k.prog))
				return
			}
		}
	}
	k.add(Difference{Kind: KindPath, Name: lost[0], Then: lost[0], Weight: 0.3,
		then: fmt.Sprintf("with %s on PATH", shellwords.Tilde(lost[0], k.o.Home)), now: "without it"})
}
