// Package ui is hookd's interactive search (Ctrl-R): a query line, the list
// of matching commands that updates on each key, and a preview of the
// selected command with its output, drawn inline below the prompt (or on
// the whole screen) with Bubble Tea. The matching is package search's.
package ui

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/search"
)

// Action is what the user chose.
type Action int

// The actions.
const (
	Cancel Action = iota // leave the command line as it was (Esc, Ctrl-C, Ctrl-G)
	Accept               // put the command on the line, ready to run (Enter)
	Edit                 // put the command on the line, to edit (Tab)
	Run                  // run the command at once (Enter with search.enter: run)
)

// String is the word the shells read (hookd search --widget).
func (a Action) String() string {
	return [...]string{"cancel", "accept", "edit", "run"}[a]
}

// Outcome is how the search ended.
type Outcome struct {
	Action  Action
	Command string // the command line chosen, exactly as recorded
}

// Options configure a search.
type Options struct {
	Engine *search.Engine
	Store  *history.Store // for the preview's output and the selected entry
	// Query is the search to start with (the text on the command line,
	// the configured scope and mode).
	Query search.Query
	// EnterRuns makes Enter run the command at once.
	EnterRuns bool
	// Pager is the command line (for sh -c) that shows a whole output.
	Pager string
	// Height is the number of lines used below the prompt; FullScreen
	// uses the whole screen instead.
	Height     int
	FullScreen bool
	// Output returns the output of an entry for the preview and the
	// pager (nil: the store's stored output).
	Output func(ctx context.Context, en history.Entry) ([]byte, error)
}

// model is the Bubble Tea model.
type model struct {
	o     Options
	ctx   context.Context
	input line
	q     search.Query
	res   []search.Result
	sel   int // index in res
	// moved: the user moved the selection (Up, Down) since the query
	// last changed; until then the selection is the first row whenever
	// the results change, after it the command chosen, wherever it goes.
	moved  bool
	top    int // first row shown
	outRes []search.Result
	seq    int // the query's number: late output results of an older one are dropped
	// pending: the outputs are being searched for the current query;
	// chosen: Enter or Tab came with nothing to choose yet (the history
	// being read, the outputs searched), and chooses the first result
	// when one comes ("" for none).
	pending bool
	chosen  string
	// cancelOut stops the output search of the previous query.
	cancelOut context.CancelFunc
	loaded    bool
	err       error

	width, height int

	// The selected command's details and output, for the preview.
	detail   *history.Entry
	why      history.Why // the selected agent command's intent and prompt
	detailID int64
	outLines []string
	outNote  string
	scroll   int
	confirm  bool // the delete key asked: "forget …? y/n"
	status   string
	outcome  Outcome
	quitting bool
}

type loadedMsg struct{ err error }

// firstFrame is how long the first screen has before the history is read.
const firstFrame = 20 * time.Millisecond

type outputsMsg struct {
	seq int
	res []search.Result
	err error
}
type pagerDoneMsg struct{ err error }
type forgotMsg struct {
	n   int
	err error
}

func newModel(ctx context.Context, o Options) *model {
	m := &model{o: o, ctx: ctx, q: o.Query, width: 80, height: max(o.Height, 6)}
	m.input.set(o.Query.Text)
	if o.Engine.Loaded() {
		m.loaded = true
	}
	m.research()
	return m
}

func (m *model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if !m.loaded {
		e := m.o.Engine
		ctx := m.ctx
		f := m.q.Filter
		// After the first frame (two cores, and the first screen needs
		// none of it): the history into memory, then what the first key
		// needs.
		cmds = append(cmds, tea.Tick(firstFrame, func(time.Time) tea.Msg {
			err := e.Load(ctx)
			if err == nil {
				e.Warm(f)
			}
			return loadedMsg{err}
		}))
	}
	cmds = append(cmds, m.outputsCmd())
	return tea.Batch(cmds...)
}

// research runs the query on the command lines, at once (in memory), and
// keeps the output matches of the same query if they came already; the
// selection goes where reselect says.
func (m *model) research() {
	keep := m.selectedCommand()
	m.rerank()
	m.reselect(keep)
	m.settle()
}

// retype is research after the query was edited: what the user chose in
// the list of the old query is no choice in the new one.
func (m *model) retype() {
	m.moved = false
	m.research()
}

func (m *model) selectedCommand() string {
	if r := m.selected(); r != nil {
		return r.Command
	}
	return ""
}

// reselect puts the selection, after the results changed, on the first
// row, or, when the user moved it, on the command line it was on (the
// first row again when that one is gone).
func (m *model) reselect(command string) {
	m.sel = 0
	if !m.moved {
		return
	}
	for i, r := range m.res {
		if r.Command == command {
			m.sel = i
			return
		}
	}
	m.moved = false
}

// rerank works the list out again for the query as typed.
func (m *model) rerank() {
	m.q.Text = m.input.String()
	switch {
	case m.loaded:
		m.res = search.Merge(m.o.Engine.Commands(m.q), m.outRes, 200)
	case strings.TrimSpace(m.q.Text) == "":
		// The first screen, while the corpus is read: the most recent
		// commands, straight from the database.
		r, err := m.o.Engine.Recent(m.ctx, m.q.Filter, max(m.height, 50))
		if err != nil {
			m.err = err
		}
		m.res = r
	default:
		m.res = search.Merge(nil, m.outRes, 200)
	}
}

// settle keeps the selection within the list and on the screen, and loads
// the selected command's preview (once: a command already shown is not
// read again).
func (m *model) settle() {
	if m.sel >= len(m.res) {
		m.sel = max(0, len(m.res)-1)
	}
	m.fixTop()
	m.loadDetail()
}

// outputsCmd searches the outputs for the current query, off the key's
// path; the answer comes back as an outputsMsg.
func (m *model) outputsCmd() tea.Cmd {
	m.seq++
	if m.cancelOut != nil {
		m.cancelOut() // its answer would be dropped anyway
		m.cancelOut = nil
	}
	q := m.q
	q.Text = m.input.String()
	if !search.TypedOutputs(q) {
		m.outRes, m.pending = nil, false
		m.chosen = ""
		return nil
	}
	// The last query's output matches stay on the screen until this
	// one's come.
	m.pending = true
	q.In = search.InOutput
	q.Limit = 50
	ctx, cancel := context.WithCancel(m.ctx)
	m.cancelOut = cancel
	seq, e := m.seq, m.o.Engine
	return func() tea.Msg {
		res, err := e.Outputs(ctx, q)
		if err == nil {
			// And the notes on commands (hookd note), shown as ⊳note.
			var notes []search.Result
			notes, err = e.Notes(ctx, q)
			res = append(res, notes...)
		}
		if ctx.Err() != nil {
			return outputsMsg{seq: -1} // a later key stopped it
		}
		return outputsMsg{seq: seq, res: res, err: err}
	}
}

func (m *model) selected() *search.Result {
	if m.sel < 0 || m.sel >= len(m.res) {
		return nil
	}
	return &m.res[m.sel]
}

// loadDetail reads the selected command's entry and output for the
// preview (one indexed read each), when the selection changed.
func (m *model) loadDetail() {
	r := m.selected()
	if r == nil {
		m.detail, m.detailID, m.outLines, m.outNote = nil, 0, nil, ""
		return
	}
	if r.ID == m.detailID && m.detail != nil {
		return
	}
	m.detailID = r.ID
	m.scroll = 0
	en := r.Entry
	if en.Session == "" {
		if full, err := m.o.Store.Get(m.ctx, r.ID); err == nil {
			en = full
		}
	}
	m.detail = &en
	m.why = history.Why{}
	if en.Author != "" && m.o.Store != nil {
		// An agent's command: what it said it was for, what it was asked.
		m.why, _ = m.o.Store.Why(m.ctx, en.Session, en.Seq)
	}
	m.outLines, m.outNote = nil, ""
	text, err := m.output(en)
	switch {
	case err != nil:
		m.outNote = "no output: " + err.Error()
	case len(text) == 0:
		m.outNote = "no output"
	default:
		m.outLines = strings.Split(strings.TrimRight(sanitize.Text(string(text)), "\n"), "\n")
	}
	if r.LineNo > 0 {
		m.scroll = max(0, r.LineNo-1-2)
	}
}

func (m *model) output(en history.Entry) ([]byte, error) {
	if m.o.Output != nil {
		return m.o.Output(m.ctx, en)
	}
	o, err := m.o.Store.Output(m.ctx, en.Session, en.Seq, "")
	if err != nil {
		return nil, fmt.Errorf("none stored")
	}
	if o.Flags&history.OutputPruned != 0 {
		return nil, fmt.Errorf("pruned")
	}
	return o.Text, nil
}

func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width = msg.Width
		if m.o.FullScreen {
			m.height = msg.Height
		} else {
			m.height = min(max(m.o.Height, 6), max(msg.Height-1, 3))
		}
		m.fixTop()
		return m, nil
	case loadedMsg:
		m.loaded = msg.err == nil
		if msg.err != nil {
			m.err = msg.err
		}
		m.research()
		if m.chosen != "" && (m.selected() != nil || !m.pending) {
			return m.choose()
		}
		return m, nil
	case outputsMsg:
		if msg.seq != m.seq {
			return m, nil
		}
		if msg.err != nil {
			m.status = "output search: " + msg.err.Error()
			return m, nil
		}
		m.outRes, m.pending = msg.res, false
		// The first row stays selected, or the command the user moved
		// to, wherever the outputs' answer puts it.
		m.research()
		if m.chosen != "" && (m.selected() != nil || m.loaded) {
			return m.choose()
		}
		return m, nil
	case pagerDoneMsg:
		if msg.err != nil {
			m.status = "pager: " + msg.err.Error()
		}
		return m, nil
	case forgotMsg:
		if msg.err != nil {
			m.status = "forget: " + msg.err.Error()
		} else {
			m.status = fmt.Sprintf("forgot %d run%s", msg.n, map[bool]string{true: "s"}[msg.n != 1])
		}
		m.detail, m.detailID = nil, 0
		m.research()
		return m, m.outputsCmd()
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.PasteMsg:
		m.input.insert(msg.Content)
		m.retype()
		return m, m.outputsCmd()
	}
	return m, nil
}

func (m *model) quit(a Action) (tea.Model, tea.Cmd) {
	m.outcome.Action = a
	if r := m.selected(); r != nil && a != Cancel {
		m.outcome.Command = r.Command
	} else {
		m.outcome.Action = Cancel
	}
	m.quitting = true
	m.stopOutputs()
	return m, tea.Quit
}

// stopOutputs stops a running output search: the search ends without
// waiting for it.
func (m *model) stopOutputs() {
	if m.cancelOut != nil {
		m.cancelOut()
		m.cancelOut = nil
	}
}

func (m *model) key(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	s := k.String()
	if m.confirm {
		m.confirm = false
		m.status = ""
		if s == "y" || s == "Y" {
			r := m.selected()
			if r == nil {
				return m, nil
			}
			e, ctx, cmd := m.o.Engine, m.ctx, r.Command
			return m, func() tea.Msg {
				n, err := e.Forget(ctx, cmd)
				return forgotMsg{n, err}
			}
		}
		return m, nil
	}
	if s != "enter" && s != "tab" {
		m.chosen = "" // another key: the query or the choice changes
	}
	switch s {
	case "esc", "ctrl+c", "ctrl+g":
		m.outcome = Outcome{Action: Cancel}
		m.quitting = true
		m.stopOutputs()
		return m, tea.Quit
	case "enter":
		if m.selected() == nil {
			m.wait(s)
			return m, nil
		}
		return m.enter()
	case "tab":
		if m.selected() == nil {
			m.wait(s)
			return m, nil
		}
		return m.quit(Edit)
	case "alt+1", "alt+2", "alt+3", "alt+4", "alt+5", "alt+6", "alt+7", "alt+8", "alt+9":
		n := int(s[len(s)-1] - '1')
		if m.top+n < len(m.res) {
			m.sel = m.top + n
			if m.o.EnterRuns {
				return m.quit(Run)
			}
			return m.quit(Accept)
		}
		return m, nil
	case "up", "ctrl+p":
		m.move(-1)
		return m, nil
	case "down", "ctrl+n":
		m.move(1)
		return m, nil
	case "pgup":
		m.scroll = max(0, m.scroll-max(1, m.previewRows()-1))
		return m, nil
	case "pgdown":
		m.scroll = min(max(0, len(m.outLines)-1), m.scroll+max(1, m.previewRows()-1))
		return m, nil
	case "shift+up", "alt+up":
		m.scroll = max(0, m.scroll-1)
		return m, nil
	case "shift+down", "alt+down":
		m.scroll = min(max(0, len(m.outLines)-1), m.scroll+1)
		return m, nil
	case "ctrl+r":
		m.q.Scope = m.q.Scope.Next()
		m.research()
		return m, m.outputsCmd()
	case "ctrl+s":
		m.q.Mode = m.q.Mode.Next()
		m.research()
		return m, m.outputsCmd()
	case "ctrl+f":
		m.q.Failed = !m.q.Failed
		m.research()
		return m, m.outputsCmd()
	case "ctrl+o":
		return m, m.pager()
	case "ctrl+d":
		if r := m.selected(); r != nil {
			m.confirm = true
			runs := "run"
			if r.Count != 1 {
				runs = "runs"
			}
			m.status = fmt.Sprintf("forget %d %s of this command for good? y/n", r.Count, runs)
		}
		return m, nil
	}
	before := m.input.String()
	if !m.input.key(k) || m.input.String() == before {
		return m, nil
	}
	m.retype()
	return m, m.outputsCmd()
}

// wait keeps key (enter, tab), typed with nothing to choose yet, for the
// first match: when the history is read or the outputs searched. With
// both done and nothing found there is nothing to wait for: Esc leaves.
func (m *model) wait(key string) {
	m.chosen = ""
	if m.pending || !m.loaded {
		m.chosen = key
	}
}

// choose does what the key kept by wait asked, with the first match now
// there (or forgets it, when none came).
func (m *model) choose() (tea.Model, tea.Cmd) {
	key := m.chosen
	m.chosen = ""
	switch {
	case m.selected() == nil:
		return m, nil
	case key == "tab":
		return m.quit(Edit)
	}
	return m.enter()
}

// enter chooses the selected command: on the line, or run.
func (m *model) enter() (tea.Model, tea.Cmd) {
	if m.o.EnterRuns {
		return m.quit(Run)
	}
	return m.quit(Accept)
}

func (m *model) move(d int) {
	if len(m.res) == 0 {
		return
	}
	m.sel = min(max(0, m.sel+d), len(m.res)-1)
	m.moved = true
	m.fixTop()
	m.loadDetail()
}

// fixTop scrolls the list so that the selection shows.
func (m *model) fixTop() {
	rows := m.listRows()
	if m.sel < m.top {
		m.top = m.sel
	}
	if m.sel >= m.top+rows {
		m.top = m.sel - rows + 1
	}
	m.top = max(0, min(m.top, max(0, len(m.res)-rows)))
}

// pager shows the selected command's whole output in the user's pager.
func (m *model) pager() tea.Cmd {
	r := m.selected()
	if r == nil || m.detail == nil {
		return nil
	}
	text, err := m.output(*m.detail)
	if err != nil || len(text) == 0 {
		m.status = "no output to show"
		return nil
	}
	c := exec.Command("sh", "-c", m.o.Pager)
	c.Stdin = strings.NewReader(sanitize.Text(string(text)))
	return tea.ExecProcess(c, func(err error) tea.Msg { return pagerDoneMsg{err} })
}
