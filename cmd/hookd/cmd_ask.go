package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/hookd/hookd/internal/ui/units"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/ai/ask"
	"github.com/hookd/hookd/internal/ai/contextcmd"
	"github.com/hookd/hookd/internal/ai/llm"
	"github.com/hookd/hookd/internal/ai/project"
	"github.com/hookd/hookd/internal/ai/render"
	"github.com/hookd/hookd/internal/ai/template"
	"github.com/hookd/hookd/internal/config"
	"github.com/hookd/hookd/internal/fix/offer"
	"github.com/hookd/hookd/internal/recording/recall"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/ui/style"
	"github.com/spf13/pflag"
	"golang.org/x/sys/unix"
)

func cmdAsk(fs *pflag.FlagSet) runFunc {
	cont := fs.BoolP("continue", "c", false, "continue this shell session's last conversation")
	dry := fs.Bool("dry-run", false, "print exactly what would be sent (provider, URL, model, headers, and the request body: every message, the tools offered) and send nothing")
	raw := fs.Bool("raw", false, "print the answer as it comes, without rendering its Markdown")
	verbose := fs.BoolP("verbose", "v", false, "say what was brought in and cut, and the time to the first token and in all")
	budget := fs.Int("budget", 0, "at most about `N` tokens of context (outputs are cut to their head, tail and error lines; default: ask.budget in the config, "+strconv.Itoa(config.DefaultBudget)+")")
	pin := fs.String("pin", "", "pin the command `REF` (-1: the last) for this session's next question, and say which (what a `!!ctx` line does)")
	logList := fs.Bool("log", false, "list past questions, oldest first so that the newest is next to the prompt, as hookd history does (--json: newest first)")
	n := fs.IntP("limit", "n", 20, "with --log: the last `N` questions")
	show := fs.Int64("show", 0, "print question `ID` in full: the question, the context sent and the answer")
	asJSON := fs.Bool("json", false, "with --log or --show: JSON (Lines, for --log)")
	execs := fs.StringArray("exec", nil, "run `CMD` before asking and send its output, in a block of its own (repeatable; after the config's context commands)")
	noExec := fs.Bool("no-context-exec", false, "run no context command (the config's, the project's or --exec)")
	confirm := fs.Bool("confirm-context-exec", false, "ask before running each context command")
	profile := fs.String("profile", "", "use the ask profile `NAME` of the config or the project's .hookd.yml (default: the first whose when.cwd matches here)")
	listSkills := fs.Bool("skills", false, "list the skills (config, .hookd.yml, skill files) and what each matches, and ask nothing")
	fs.SetInterspersed(false) // the question may hold words that look like flags
	return func(ctx context.Context, e *env, args []string) error {
		s, err := e.openFlushed(ctx)
		if err != nil {
			return err
		}
		defer s.Close()
		switch {
		case *logList:
			return askLog(ctx, e, s, *n, *asJSON)
		case *show > 0:
			return askShow(ctx, e, s, *show, *asJSON)
		case *pin != "":
			return askPin(ctx, e, s, *pin)
		}
		cwd, _ := os.Getwd()
		cfg := e.config()
		q, err := e.question(cwd, *profile)
		if err != nil {
			return exitCode{2, err.Error()}
		}
		if *listSkills {
			// A skill the config got wrong is not in the list: say why.
			for _, w := range e.configWarnings() {
				if w.Under("ask.skills") || w.Under("ask.profiles.*.skills") {
					fmt.Fprintf(e.stderr, "hookd: warning: %s\n", w)
				}
			}
			return printSkills(e, q.Skills)
		}
		question := strings.TrimSpace(strings.Join(args, " "))
		// /NAME ARGS…: the prompt file NAME, expanded, is the question (its
		// !!ctx mentions, and the arguments', still work).
		if q, ok, err := promptQuestion(ctx, e, args, cwd); err != nil {
			return err
		} else if ok {
			question = strings.TrimSpace(q)
		}
		var stdin string
		if f, ok := e.stdin.(*os.File); ok && !isTerminal(f) {
			b, err := io.ReadAll(io.LimitReader(e.stdin, 64<<20))
			if err != nil {
				return fmt.Errorf("read stdin: %w", err)
			}
			stdin = string(b)
		}
		if question == "" && stdin == "" {
			if e.session == "" {
				return usagef("ask a question")
			}
			// `??` alone at the prompt: what the user wants to know is
			// what just happened.
			question = lastCommandQuestion
		}
		if question == "" {
			question = "Explain this."
		}

		if *budget <= 0 {
			*budget = max(cfg.Ask.Budget, 256)
		}
		// What is wrong in the llm section decides which model answers: said
		// here too.
		for _, w := range e.configWarnings() {
			if w.Under("llm") {
				fmt.Fprintf(e.stderr, "hookd: warning: %s\n", w)
			}
		}
		lc, why, err := e.llmConfig(ctx)
		if errors.Is(err, llm.ErrNotConfigured) {
			return exitCode{1, "no LLM is set up for hookd ask; " + llm.Setup}
		}
		if err != nil {
			return err
		}
		var contexts []contextcmd.Result
		if !*noExec {
			if contexts, err = e.runContext(ctx, q, *execs, cwd, *confirm); err != nil {
				return exitCode{1, err.Error()}
			}
		}
		src := e.askSources(s)
		pl, err := ask.Question{Sources: src, Session: e.session, PinsDir: e.paths.Pins, Text: question, Stdin: stdin,
			Budget: *budget, Env: ask.Env{Shell: filepath.Base(os.Getenv("SHELL")), OS: ask.OS(), Cwd: cwd}, Continue: *cont,
			Template: q.Template, Variables: q.Variables, Skills: q.Skills, Contexts: contexts}.Prepare(ctx)
		var ce *template.CycleError
		var re *ask.RefError
		switch {
		case errors.As(err, &re):
			return exitCode{1, re.Error()}
		case errors.Is(err, ask.ErrNoSessionToContinue):
			return exitCode{1, err.Error()}
		case errors.As(err, &ce):
			return exitCode{1, "ask.variables: " + err.Error()}
		case err != nil:
			return err
		}
		p, req := pl.Prompt, pl.Request
		if *verbose || *dry {
			fmt.Fprintf(e.stderr, "hookd: provider %s (%s)\n", lc.Provider, why)
			if q.Profile != "" {
				fmt.Fprintf(e.stderr, "hookd: profile %s\n", q.Profile)
			}
			for _, note := range p.Notes {
				fmt.Fprintf(e.stderr, "hookd: %s\n", note)
			}
			if p.Redacted > 0 {
				fmt.Fprintf(e.stderr, "hookd: %d secrets redacted\n", p.Redacted)
			}
		}
		// The model may look things up (history, outputs, the project's
		// files) where its provider has tool calls; each call is shown.
		tb := &ask.Toolbox{Sources: src, Root: project.Root(cwd)}
		if *dry {
			// Exactly the first request: the tools offered included.
			sent, err := llm.DryRun(ctx, lc, tb.Offer(req))
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(e.stdout, sanitize.Text(sent.String()))
			return err
		}
		prov, err := llm.New(lc, nil)
		if err != nil {
			return err
		}
		if p.Context != "" {
			e.firstRemoteNotice(prov.Endpoint())
		}
		r := render.NewWriter(e.stdout, e.answerOptions(*raw))
		onCall := func(summary string) {
			fmt.Fprintf(e.stderr, "%s\n", e.palette.Render(style.Dim, "hookd: → "+sanitize.Line(summary)))
		}
		a, err := ask.StreamTools(ctx, prov, req, r, time.Now, tb, onCall)
		if !strings.HasSuffix(a.Answer, "\n") && a.Answer != "" {
			fmt.Fprintln(e.stdout)
		}
		id, serr := pl.Save(s, e.session, a)
		if *verbose {
			fmt.Fprintf(e.stderr, "hookd: #%d %s %s: first token after %s, %s in all, %d tokens in, %d out\n", id, a.Provider, a.Model,
				time.Duration(a.FirstTokenUS)*time.Microsecond, time.Duration(a.DurationUS)*time.Microsecond, a.InputTokens, a.OutputTokens)
		}
		// The first command of the answer is offered for the next command
		// line (the shell's fix key, or the ?? line's own offer): never run.
		// An offer belongs to the question that made it: a question that
		// offers nothing (or fails, or is cancelled) takes an earlier one
		// away.
		if e.session != "" {
			var cmds []string
			if err == nil && cfg.Ask.Offer {
				cmds = render.Commands(a.Answer)
			}
			offer.Answer(e.paths.Offers, e.session, cmds)
		}
		if err != nil {
			if a.Status == history.AskCancelled {
				return exitCode{130, ""}
			}
			return exitCode{1, err.Error()}
		}
		if serr != nil {
			fmt.Fprintf(e.stderr, "hookd: the answer was not stored: %v\n", serr)
		}
		return nil
	}
}

// firstRemoteNotice says, once, that context from the terminal goes to a
// provider that is not on this machine.
func (e *env) firstRemoteNotice(endpoint string) {
	if host, first := ask.FirstRemote(e.paths.RemoteNotice, endpoint); first {
		fmt.Fprintf(e.stderr, "hookd: commands and their output (secrets redacted) are sent to %s with your question. `hookd ask --dry-run` shows exactly what is sent; a local model (llm.provider: ollama) keeps it on this machine. (Said once.)\n", host)
	}
}

// askPin pins a command for the session's next question and says which.
func askPin(ctx context.Context, e *env, s *history.Store, ref string) error {
	if e.session == "" {
		return exitCode{1, "!!ctx pins a command for this shell's next question: HOOKD_SESSION is not set (this shell does not load hookd)"}
	}
	rd := e.reader(s)
	en, err := entry(ctx, rd, ref)
	if errors.Is(err, history.ErrNotFound) {
		return exitCode{1, (&ask.RefError{Ref: ref, Err: err}).Error()}
	}
	if err != nil {
		return err
	}
	if err := ask.Pin(e.paths.Pins, e.session, en.ID); err != nil {
		return err
	}
	what := "no output"
	o, oerr := rd.Output(ctx, en, "", 0)
	var no *recall.NoOutput
	switch {
	case oerr == nil:
		what = units.Size(int64(len(o.Text))) + " of output"
	case errors.As(oerr, &no):
		what = "no output: " + no.Reason
	}
	fmt.Fprintf(e.stderr, "hookd: next question gets `%s` (exit %d, %s)\n", sanitize.Line(en.Command), en.ExitCode, what)
	return nil
}

func askLog(ctx context.Context, e *env, s *history.Store, n int, asJSON bool) error {
	as, err := s.Asks(ctx, "", n)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		for _, a := range as {
			if err := enc.Encode(ask.JSON(a)); err != nil {
				return err
			}
		}
		return nil
	}
	for i := len(as) - 1; i >= 0; i-- {
		a := as[i]
		when := time.UnixMicro(a.StartedAt).Local().Format("2006-01-02 15:04")
		status := ""
		if a.Status != history.AskOK {
			status = " (" + a.Status + ")"
		}
		q := sanitize.Line(a.Question)
		if r := []rune(q); len(r) > 70 {
			q = string(r[:69]) + "…"
		}
		fmt.Fprintf(e.stdout, "%s  %s  %s%s  %s\n", e.palette.Render(style.Dim, fmt.Sprintf("%5d", a.ID)), when, a.Model, status, q)
	}
	return nil
}

func askShow(ctx context.Context, e *env, s *history.Store, id int64, asJSON bool) error {
	a, err := s.GetAsk(ctx, id)
	if errors.Is(err, history.ErrNotFound) {
		return exitCode{1, fmt.Sprintf("there is no question #%d (hookd ask --log lists them)", id)}
	}
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		return enc.Encode(ask.JSON(a))
	}
	label := func(s string) string { return e.palette.Render(style.Label, fmt.Sprintf("%-9s", s)) }
	fmt.Fprintf(e.stdout, "%s %s\n", label("question"), sanitize.Text(a.Question))
	fmt.Fprintf(e.stdout, "%s %s %s, %s, %s, %d tokens in, %d out\n", label("asked"), a.Provider, a.Model,
		time.UnixMicro(a.StartedAt).Local().Format("2006-01-02 15:04:05"), a.Status, a.InputTokens, a.OutputTokens)
	if a.Parent != 0 {
		fmt.Fprintf(e.stdout, "%s #%d\n", label("follows"), a.Parent)
	}
	if a.Error != "" {
		fmt.Fprintf(e.stdout, "%s %s\n", label("error"), sanitize.Line(a.Error))
	}
	if a.Context != "" {
		fmt.Fprintf(e.stdout, "%s\n%s\n", label("context"), sanitize.Text(a.Context))
	}
	fmt.Fprintf(e.stdout, "%s\n%s\n", label("answer"), sanitize.Text(a.Answer))
	return nil
}

// llmConfig is the model hookd ask uses: the config file's llm section,
// the HOOKD_LLM_* variables over it, and for auto the first one set up;
// lastCommandQuestion is the question of `??` alone (hookd ask without a
// question, in a shell with hookd loaded): the last command, explained.
const lastCommandQuestion = "Explain what happened in my last command and its output !!ctx"

// why says which and why.
func (e *env) llmConfig(ctx context.Context) (llm.Config, string, error) {
	c := e.config().LLM
	return llm.Resolve(ctx, llm.Config{Provider: string(c.Provider), Model: c.Model, BaseURL: string(c.BaseURL),
		APIKeyEnv: string(c.APIKeyEnv), Command: c.Command, Timeout: time.Duration(c.Timeout)}, os.LookupEnv)
}

// answerOptions says how an answer is printed: Markdown rendered for the
// terminal's width and colours, or the text as it is when stdout is not a
// terminal, with NO_COLOR, or raw.
func (e *env) answerOptions(raw bool) render.Options {
	o := render.Options{Style: "dark", Profile: e.out.Profile, Reasoning: string(e.config().Ask.Reasoning)}
	if raw || !e.stdoutTTY || os.Getenv("NO_COLOR") != "" {
		o.Style = "plain"
	}
	if f, ok := e.stdout.(*os.File); ok {
		if ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ); err == nil {
			o.Width, o.Height = int(ws.Col), int(ws.Row)
		}
	}
	return o
}
