package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/config"
	"github.com/hookd/hookd/internal/hostid"
	"github.com/hookd/hookd/internal/recording/runctx"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/search"
	"github.com/hookd/hookd/internal/search/ui"
	"github.com/hookd/hookd/internal/ui/style"
	"github.com/spf13/pflag"
)

// searchKeysHelp lists the keys of the interactive search (docs/search.md
// says more).
const searchKeysHelp = `Ctrl-R at the prompt (search.key) searches every command and what it printed:
  type     match command lines (fuzzy; Ctrl-S: prefix, full-text) and outputs (words)
  Up/Down  select (Ctrl-P/Ctrl-N)      PgUp/PgDn, Shift-Up/Down  scroll the output
  Enter    put it on the command line, ready to run (search.enter: run runs it)
  Tab      put it on the command line to edit          Alt-1…9  pick one of the first nine
  Ctrl-R   next scope: session, directory, repository, host, everything
  Ctrl-F   failed commands only                        Ctrl-O   its whole output in $PAGER
  Ctrl-D   forget it for good (asks first)             Esc, Ctrl-C, Ctrl-G  leave the line as it was
`

func cmdSearch(fs *pflag.FlagSet) runFunc {
	n := fs.IntP("limit", "n", 0, "show at most `N` commands (default 20; the interactive search shows what fits)")
	asJSON := fs.Bool("json", false, "print JSON Lines: the fields of hookd history --json, and count, matched, line, line_number (an output's match), note (a note's)")
	list := fs.Bool("list", false, "print the results, even on a terminal (no interactive search)")
	cwd := fs.String("cwd", "", "only commands started in `DIR` (. for here)")
	session := fs.Bool("session", false, "only commands of this shell session (--scope session)")
	failed := fs.Bool("failed", false, "only commands that failed")
	since := fs.String("since", "", "only commands started since `WHEN`: a duration (90m, 2h, 3d, 1w) or a date")
	cmdOnly := fs.Bool("command-only", false, "match the command lines only")
	outOnly := fs.Bool("output-only", false, "match the outputs only")
	scope := fs.String("scope", "", "where: everything, session, directory, repository or host (this installation's commands; default: search.scope, everything)")
	mode := fs.String("mode", "", "matching: fuzzy, prefix or full-text (default: search.mode, fuzzy)")
	agents := fs.Bool("agents", false, "include coding agents' commands (left out by default)")
	widget := fs.String("widget", "", "(for the shell code) interactive on /dev/tty for the `SHELL`'s key; prints the action and the command")
	promptLine := fs.String("prompt-line", "", "(for the shell code) the prompt's line as the shell showed it, drawn while the search runs (bash clears it)")
	query := fs.String("query", "", "(for the shell code) the `TEXT` to start the search with")
	buildCache := fs.Bool("build-cache", false, "(for the search itself) read the whole history and write the search's cache")
	fs.MarkHidden("widget")
	fs.MarkHidden("prompt-line")
	fs.MarkHidden("query")
	fs.MarkHidden("build-cache")
	return func(ctx context.Context, e *env, args []string) error {
		if *cmdOnly && *outOnly {
			return usagef("--command-only and --output-only exclude each other")
		}
		if *n < 0 {
			return usagef("-n must be positive")
		}
		cfg := e.config().Search
		q := search.Query{Text: strings.Join(args, " ")}
		if *widget != "" {
			q.Text = *query
		}
		var err error
		if q.Scope, err = search.ParseScope(cmp.Or(*scope, cfg.Scope)); err != nil {
			return usageError{err.Error()}
		}
		if q.Mode, err = search.ParseMode(cmp.Or(*mode, cfg.Mode)); err != nil {
			return usageError{err.Error()}
		}
		if *session {
			q.Scope = search.ScopeSession
		}
		q.Failed, q.Agents = *failed, *agents
		switch {
		case *cmdOnly:
			q.In = search.InCommand
		case *outOnly:
			q.In = search.InOutput
		}
		if q.Cwd, q.Since, err = cwdSince(*cwd, *since); err != nil {
			return err
		}
		if q.Scope == search.ScopeSession && e.session == "" {
			return errors.New("--scope session: HOOKD_SESSION is not set (this shell does not load hookd)")
		}
		here := searchHere(e)
		interactive := *widget != "" || (!*asJSON && !*list && *n == 0 && e.stdoutTTY && isTerminalReader(e.stdin))
		s, err := e.openFlushed(ctx)
		if err != nil {
			return err
		}
		defer s.Close()
		eng := search.New(s, here, e.paths.SearchCache)
		if *buildCache {
			if err := eng.Load(ctx); err != nil {
				return err
			}
			return eng.SaveCache()
		}
		if interactive {
			return searchInteractive(ctx, e, s, eng, q, cfg, *widget, *promptLine)
		}
		q.Limit = *n
		if q.Limit == 0 {
			q.Limit = 20
		}
		res, err := eng.Search(ctx, q)
		if err != nil {
			return err
		}
		if q.In&search.InCommand != 0 || q.In == 0 {
			saveSearchCache(e, eng)
		}
		if *asJSON {
			enc := e.jsonEncoder()
			self, _ := hostid.Get(e.paths.HostID) // this installation's id, for what was recorded here
			for _, r := range res {
				if err := enc.Encode(r.JSONLine(self)); err != nil {
					return err
				}
			}
			if len(res) == 0 {
				return exitCode{1, ""}
			}
			return nil
		}
		for i := len(res) - 1; i >= 0; i-- {
			r := res[i]
			printEntryLine(e.stdout, e, r.Entry)
			if r.Count > 1 {
				fmt.Fprintf(e.stdout, "%s\n", e.palette.Render(style.Dim, fmt.Sprintf("%8s ran %d times", "", r.Count)))
			}
			switch {
			case r.Line != "" && r.LineNo > 0:
				fmt.Fprintf(e.stdout, "%s %s\n", e.palette.Render(style.Dim, fmt.Sprintf("%8s output line %d:", "", r.LineNo)), sanitize.Line(r.Line))
			case r.Line != "":
				fmt.Fprintf(e.stdout, "%s %s\n", e.palette.Render(style.Dim, fmt.Sprintf("%8s note:", "")), sanitize.Line(r.Line))
			}
		}
		if len(res) == 0 {
			return exitCode{1, ""}
		}
		return nil
	}
}

// searchHere is where the search is made from: this session, directory
// and its git repository (the host is this installation: search.HostOf).
func searchHere(e *env) search.Here {
	wd, _ := os.Getwd()
	repo, _ := runctx.FindRepo(wd) // the work tree ingest records for each command
	return search.Here{Session: e.session, Cwd: wd, Now: time.Now(), Repo: repo.Root}
}

func isTerminalReader(r any) bool {
	f, ok := r.(*os.File)
	return ok && isTerminal(f)
}

// saveSearchCache writes the search's copy of the history when it changed,
// for the next search; a failure only costs time then.
func saveSearchCache(e *env, eng *search.Engine) {
	if err := eng.SaveCache(); err != nil && e.debug {
		fmt.Fprintf(e.stderr, "hookd: search cache: %v\n", err)
	}
}

// buildSearchCache starts hookd search --build-cache on its own, detached
// (search.CacheBuild):
// in a session of its own, with no stream of the shell's.
func buildSearchCache(e *env) {
	self, err := os.Executable()
	if err != nil {
		return
	}
	c := exec.Command(self, "search", "--build-cache")
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if c.Start() == nil {
		c.Process.Release()
	}
}

// searchPager is the command line that shows an output from the search
// (Ctrl-O): $PAGER, else less -R, else more. less paints a short output at
// the bottom of an empty screen unless told -c (repaint from the top):
// it is told so.
func searchPager(pager string, haveLess bool) string {
	switch {
	case pager == "" && haveLess:
		return "less -R -c"
	case pager == "":
		return "more"
	}
	if f := strings.Fields(pager); len(f) > 0 && filepath.Base(f[0]) == "less" && !strings.ContainsAny(pager, "|;&<>`$") {
		return pager + " -c"
	}
	return pager
}

// searchInteractive runs the search on the terminal. For the shell's key
// (--widget) it prints what was chosen on stdout, for the shell code: the
// action (accept, edit, run, cancel) on the first line, then the command
// line exactly. Run from a prompt, it prints the command chosen.
func searchInteractive(ctx context.Context, e *env, s *history.Store, eng *search.Engine, q search.Query, cfg config.Search, widget, promptLine string) error {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("search: no terminal: %w", err)
	}
	defer tty.Close()
	_, lessErr := exec.LookPath("less")
	pager := searchPager(os.Getenv("PAGER"), lessErr == nil)
	rd := e.reader(s)
	search.TuneGC()
	// The history may still be being read when the search ends: the read
	// is stopped then, so that closing the store does not wait for it.
	uctx, stop := context.WithCancel(ctx)
	defer stop()
	out, err := ui.Show(uctx, ui.Options{Engine: eng, Store: s, Query: q, EnterRuns: cfg.Enter == config.EnterRun,
		Pager: pager, Height: cfg.Height, FullScreen: cfg.FullScreen,
		Output: func(ctx context.Context, en history.Entry) ([]byte, error) {
			o, err := rd.Output(ctx, en, "", 0)
			if err != nil {
				return nil, err
			}
			return o.Text, nil
		}},
		ui.Terminal{TTY: tty, Env: os.Environ(), NoColor: os.Getenv("NO_COLOR") != "", Home: e.home, Line: promptLine})
	stop()
	if err != nil {
		return err
	}
	if widget != "" {
		// The final "." keeps a command's own final newlines through the
		// shell's command substitution.
		fmt.Fprintf(e.stdout, "%s\n%s.", out.Action, out.Command)
	} else if out.Action != ui.Cancel {
		fmt.Fprintln(e.stdout, out.Command)
	}
	switch eng.AfterInteractive(ctx) {
	case search.CacheSave:
		saveSearchCache(e, eng)
	case search.CacheLoadSave:
		if eng.Load(ctx) == nil {
			saveSearchCache(e, eng)
		}
	case search.CacheBuild:
		buildSearchCache(e)
	}
	if widget == "" && out.Action == ui.Cancel {
		return exitCode{130, ""}
	}
	return nil
}
