package web

import (
	"context"
	"embed"
	"errors"
	"github.com/hookd/hookd/internal/ui/units"
	"html/template"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/fix/before"
	"github.com/hookd/hookd/internal/notes"
	"github.com/hookd/hookd/internal/recording/recall"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/search"
	"github.com/hookd/hookd/internal/shellwords"
	"github.com/hookd/hookd/internal/textdiff"
	"github.com/hookd/hookd/internal/ui/termhtml"
)

//go:embed templates/*.html static/*
var files embed.FS

// pages are parsed on the first request: nothing at start-up, so that
// the other commands of the binary pay nothing for them.
var pages = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").Funcs(template.FuncMap{
		"inert":  termhtml.Inert,
		"codes":  sanitize.Line, // text in an SVG: no markup, every hidden character by its code
		"mul100": func(f float64) float64 { return 100 * f },
		"add":    func(a, b int) int { return a + b },
	}).ParseFS(files, "templates/*.html"))
})

func (s *Server) page(w http.ResponseWriter, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := pages().ExecuteTemplate(w, name, data); err != nil {
		s.o.Log.Error("serve: page", "page", name, "err", err)
	}
}

func (s *Server) fail(w http.ResponseWriter, err error) {
	if errors.Is(err, history.ErrNotFound) {
		http.Error(w, "no such command in the history", http.StatusNotFound)
		return
	}
	s.o.Log.Error("serve", "err", err)
	http.Error(w, "hookd: "+err.Error(), http.StatusInternalServerError)
}

func (s *Server) handleStatic(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	b, err := fs.ReadFile(files, "static/"+name)
	if err != nil || strings.Contains(name, "/") {
		http.NotFound(w, r)
		return
	}
	switch path.Ext(name) {
	case ".js":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	case ".css":
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
	default:
		w.Header().Set("Content-Type", "application/octet-stream")
	}
	w.Write(b)
	if name == "app.css" {
		w.Write([]byte(termhtml.Stylesheet())) // the output's colours, as hookd export's page has them
	}
}

// searchForm is the search's state, as the page's form and its URL carry it.
type searchForm struct {
	Q      string
	Scope  string
	Mode   string
	In     string
	Failed bool
	Agents bool
	Since  string
	// Page names the page that asks (its p parameter, random): its next
	// key's search supersedes this one, and its query is being typed
	// (search.Query.Typed), unless All asks for every match (the page
	// asks so once typing has paused on a query that was cut short).
	Page string
	All  bool
}

var (
	scopes = []string{"everything", "session", "directory", "repository", "host"}
	modes  = []string{"fuzzy", "prefix", "full-text"}
	ins    = []string{"both", "command", "output"}
)

// Query turns the form into the engine's query, as hookd search's flags
// do.
func (f searchForm) Query(now time.Time) (search.Query, error) {
	q := search.Query{Text: f.Q, Limit: 50}
	var err error
	if f.Scope != "" {
		if q.Scope, err = search.ParseScope(f.Scope); err != nil {
			return q, err
		}
	}
	if f.Mode != "" {
		if q.Mode, err = search.ParseMode(f.Mode); err != nil {
			return q, err
		}
	}
	switch f.In {
	case "command":
		q.In = search.InCommand
	case "output":
		q.In = search.InOutput
	}
	q.Failed, q.Agents = f.Failed, f.Agents
	if f.Since != "" {
		t, err := history.ParseSince(f.Since, now)
		if err != nil {
			return q, err
		}
		q.Since = t.UnixMicro()
	}
	return q, nil
}

type resultRow struct {
	search.Result
	When, Dir, Duration string
}

type indexData struct {
	Form               searchForm
	Scopes, Modes, Ins []string
	Results            []resultRow
	Error              string
	Took               string
	Here               string
	// Partial says the outputs' search was cut short (Query.Typed): the
	// page asks again with all=1 once typing pauses.
	Partial bool
}

func (s *Server) handleIndex(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	f := searchForm{Q: v.Get("q"), Scope: v.Get("scope"), Mode: v.Get("mode"), In: v.Get("in"),
		Failed: v.Get("failed") != "", Agents: v.Get("agents") != "", Since: v.Get("since"), Page: v.Get("p"), All: v.Get("all") != ""}
	d := indexData{Form: f, Scopes: scopes, Modes: modes, Ins: ins, Here: s.tilde(s.o.Engine.Here().Cwd)}
	start := time.Now()
	res, cut, err := s.search(r.Context(), f)
	d.Partial = cut
	if err != nil && r.Context().Err() == nil && errors.Is(err, context.Canceled) {
		// Superseded by the same page's next key: nothing to draw.
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if err != nil {
		d.Error = err.Error()
	}
	for _, re := range res {
		d.Results = append(d.Results, s.row(re))
	}
	d.Took = time.Since(start).Round(100 * time.Microsecond).String()
	name := "index.html"
	if v.Get("frag") != "" {
		name = "results"
	}
	s.page(w, name, d)
}

// Search runs the form's query through the engine, as Ctrl-R does; cut
// says a typed query's outputs search was cut short.
func (s *Server) search(ctx context.Context, f searchForm) ([]search.Result, bool, error) {
	q, err := f.Query(s.o.Now())
	if err != nil {
		return nil, false, err
	}
	q.Typed = f.Page != "" && !f.All
	// Outputs as Ctrl-R searches them: from two characters on, not for
	// a prefix (the page asks for the command lines first, then for both).
	if q.In != search.InCommand && !search.TypedOutputs(q) {
		if q.In == search.InOutput {
			return nil, false, nil
		}
		q.In = search.InCommand
	}
	if q.Scope == search.ScopeSession && s.o.Engine.Here().Session == "" {
		return nil, false, errors.New("no session: hookd serve was not started from a shell that loads hookd")
	}
	ctx, done := s.supersede(ctx, f.Page)
	defer done()
	if err := s.lock(ctx); err != nil {
		return nil, false, err
	}
	defer s.unlock()
	return s.o.Engine.SearchTyped(ctx, q)
}

// typed is a page's search in flight.
type typed struct{ cancel context.CancelFunc }

// supersede cancels the search in flight for the same page (the page's p
// parameter: each page draws a random one), which the key typed since has
// made useless, down to its SQLite query (the outputs' index), so that it
// neither holds the engine nor costs the machine the next key waits on.
// The browser aborts the request too, but the server learns of that only
// when it next reads the connection. done ends this search's turn.
func (s *Server) supersede(ctx context.Context, page string) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	if page == "" || len(page) > 64 {
		return ctx, cancel
	}
	me := &typed{cancel}
	s.typingMu.Lock()
	if prev := s.typing[page]; prev != nil {
		prev.cancel()
	}
	s.typing[page] = me
	s.typingMu.Unlock()
	return ctx, func() {
		s.typingMu.Lock()
		if s.typing[page] == me {
			delete(s.typing, page)
		}
		s.typingMu.Unlock()
		cancel()
	}
}

// lock takes the engine, or gives up when ctx ends first.
func (s *Server) lock(ctx context.Context) error {
	select {
	case s.engine <- struct{}{}:
		if err := ctx.Err(); err != nil { // ended while both were ready
			<-s.engine
			return err
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Server) unlock() { <-s.engine }

func (s *Server) row(r search.Result) resultRow {
	return resultRow{Result: r, When: s.when(r.StartedAt), Dir: s.tilde(r.Cwd), Duration: tookOf(r.Entry)}
}

func (s *Server) tilde(dir string) string { return shellwords.Tilde(dir, s.o.Home) }

func (s *Server) when(us int64) string {
	if us == 0 {
		return ""
	}
	return time.UnixMicro(us).Local().Format("2006-01-02 15:04:05")
}

// commandData is a command's page.
type commandData struct {
	E                   history.Entry
	When, Dir, Duration string
	Pipestatus          string
	Ctx                 history.Context
	CtxKnown            bool
	Repo                string
	Env                 [][2]string
	Before, After       []resultRow
	Output              template.HTML
	OutputMissing       string
	OutputSize          int64
	Truncated           bool
	Parts               int
	Worked              *worked
	Notes               []noteRow
	NoteMax             int
	CSRF                string
	Permalink           string
}

// worked is "it worked before": the last success of the same command,
// how the contexts differ, and the outputs' diff.
type worked struct {
	Then        resultRow
	Line        string
	Differences []before.Difference
	Diff        before.OutputDiff
	Lines       []diffLine
}

type diffLine struct {
	Class string
	Text  string
}

func (s *Server) entry(r *http.Request) (history.Entry, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		return history.Entry{}, history.ErrNotFound
	}
	return s.o.Store.Get(r.Context(), id)
}

func (s *Server) handleCommand(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	en, err := s.entry(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	text, missing, o, starts, err := s.cutOutput(ctx, en)
	if err != nil {
		s.fail(w, err)
		return
	}
	if p := r.URL.Query().Get("part"); p != "" {
		// One part of a long output, for the page's script to append.
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n >= len(starts) {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(termhtml.RenderPart(text, starts, n)))
		return
	}
	d := commandData{E: en, When: s.when(en.StartedAt), Dir: s.tilde(en.Cwd), Duration: tookOf(en),
		OutputMissing: missing, OutputSize: int64(len(text)), Truncated: o.Flags&history.OutputTruncated != 0,
		Parts: len(starts), CSRF: s.csrf, Permalink: "/c/" + strconv.FormatInt(en.ID, 10)}
	if len(en.Pipestatus) > 1 {
		d.Pipestatus = strings.Trim(strings.ReplaceAll(strconvInts(en.Pipestatus), " ", " | "), "[]")
	}
	d.Output = termhtml.RenderPart(text, starts, 0)
	if c, ok, err := s.o.Store.Context(ctx, en); err == nil && ok {
		d.Ctx, d.CtxKnown = c, true
		d.Repo = s.tilde(c.Repo)
		for k, v := range c.Env {
			d.Env = append(d.Env, [2]string{k, v})
		}
		slices.SortFunc(d.Env, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	}
	for i := int64(3); i >= 1; i-- {
		if b, err := s.o.Store.BySeq(ctx, en.Session, en.Seq-i); err == nil {
			d.Before = append(d.Before, s.row(search.Result{Entry: b}))
		}
	}
	for i := int64(1); i <= 3; i++ {
		if a, err := s.o.Store.BySeq(ctx, en.Session, en.Seq+i); err == nil {
			d.After = append(d.After, s.row(search.Result{Entry: a}))
		}
	}
	if en.ExitCode != 0 {
		d.Worked = s.workedBefore(ctx, en)
	}
	ns, err := notes.List(ctx, s.o.Store, en.ID)
	if err != nil {
		s.fail(w, err)
		return
	}
	for _, n := range ns {
		d.Notes = append(d.Notes, noteRow{Text: n.Text, When: s.when(n.CreatedAt)})
	}
	d.NoteMax = notes.MaxBytes
	s.page(w, "command.html", d)
}

// tookOf is how long a command ran, or "not measured" (an imported
// command, an agent's record without a duration).
func tookOf(en history.Entry) string {
	if !en.DurationKnown() {
		return "not measured"
	}
	return units.Micros(en.DurationUS)
}

func strconvInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}

// output reads en's output: its text (with its colours as SGR sequences
// when coloured: see recall.Reader.Colours), or why there is none.
func (s *Server) output(ctx context.Context, en history.Entry, coloured bool) (text, missing string, o history.Output, err error) {
	o, err = s.o.Reader.Output(ctx, en, "", 0)
	var no *recall.NoOutput
	switch {
	case errors.As(err, &no):
		return "", no.Reason, o, nil
	case err != nil:
		return "", "", o, err
	case len(o.Text) == 0:
		return "", "it printed nothing", o, nil
	}
	if !coloured {
		return string(o.Text), "", o, nil
	}
	return s.o.Reader.Colours(ctx, en, o).Apply(string(o.Text)), "", o, nil
}

// cut is an output cut into parts, kept for the requests of its next
// parts (a 10 MB output is read and cut once, not once a part).
type cut struct {
	id, size      int64
	text, missing string
	o             history.Output
	starts        []int
}

// cutOutput reads en's output and cuts it into parts (parts).
func (s *Server) cutOutput(ctx context.Context, en history.Entry) (text, missing string, o history.Output, starts []int, err error) {
	s.cutMu.Lock()
	c := s.last
	s.cutMu.Unlock()
	if c != nil && c.id == en.ID && c.size == en.OutputBytes && c.missing == "" {
		return c.text, c.missing, c.o, c.starts, nil
	}
	text, missing, o, err = s.output(ctx, en, true)
	if err != nil {
		return "", "", o, nil, err
	}
	starts = termhtml.Parts(text)
	s.cutMu.Lock()
	s.last = &cut{id: en.ID, size: en.OutputBytes, text: text, missing: missing, o: o, starts: starts}
	s.cutMu.Unlock()
	return text, missing, o, starts, nil
}

// workedBefore compares a failure with the last success of the same
// command, as hookd diff does (package before).
func (s *Server) workedBefore(ctx context.Context, now history.Entry) *worked {
	then, ok, err := before.LastSuccess(ctx, s.o.Store, now)
	if err != nil || !ok {
		return nil
	}
	wk := &worked{Then: s.row(search.Result{Entry: then})}
	if c, err := before.CompareEntries(ctx, s.o.Store, then, now, before.Options{Home: s.o.Home, Now: s.o.Now()}); err == nil && c != nil {
		wk.Line, wk.Differences = c.Line, c.Differences
	}
	wk.Diff = before.DiffOutputs(ctx, s.o.Reader, then, now, 3)
	for _, h := range wk.Diff.Hunks {
		wk.Lines = append(wk.Lines, diffLine{"hunk", h.Header()})
		for _, l := range h.Lines {
			c := "keep"
			switch l.Op {
			case textdiff.Remove:
				c = "del"
			case textdiff.Add:
				c = "add"
			}
			wk.Lines = append(wk.Lines, diffLine{c, string(l.Op) + l.Text})
		}
	}
	return wk
}

// handleRaw serves the whole output as plain text (inert: text/plain,
// nosniff), for saving or reading in one go.
func (s *Server) handleRaw(w http.ResponseWriter, r *http.Request) {
	en, err := s.entry(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	text, missing, _, err := s.output(r.Context(), en, false) // plain: saved or read as text
	if err != nil {
		s.fail(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if missing != "" {
		text = "(no output: " + missing + ")\n"
	}
	w.Write([]byte(text))
}

type noteRow struct{ Text, When string }

// handleNote attaches a note to a command (hookd note REF TEXT): redacted
// before it is stored; the guard checked the CSRF token.
func (s *Server) handleNote(w http.ResponseWriter, r *http.Request) {
	en, err := s.entry(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	if _, err := notes.Add(r.Context(), s.o.Store, s.o.Redactor, en.ID, r.PostFormValue("text")); err != nil {
		if errors.Is(err, notes.ErrEmpty) {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.fail(w, err)
		return
	}
	http.Redirect(w, r, "/c/"+strconv.FormatInt(en.ID, 10)+"#notes", http.StatusSeeOther)
}

// handleForget forgets one command for good (hookd forget ID); the
// guard checked the CSRF token.
func (s *Server) handleForget(w http.ResponseWriter, r *http.Request) {
	en, err := s.entry(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	if err = s.lock(r.Context()); err == nil {
		_, err = s.o.Store.Forget(r.Context(), []int64{en.ID})
		s.unlock()
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	s.cutMu.Lock()
	s.last = nil
	s.cutMu.Unlock()
	if s.o.Forgot != nil {
		s.o.Forgot()
	}
	http.Redirect(w, r, "/?forgot="+strconv.FormatInt(en.ID, 10), http.StatusSeeOther)
}
