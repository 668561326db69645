package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"github.com/hookd/hookd/internal/hostid"
	"github.com/hookd/hookd/internal/notes"
	"github.com/hookd/hookd/internal/ui/units"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/recall"
	"github.com/hookd/hookd/internal/sanitize"
	"github.com/hookd/hookd/internal/ui/style"
	"github.com/spf13/pflag"
	"golang.org/x/sys/unix"
)

func cmdHistory(fs *pflag.FlagSet) runFunc {
	n := fs.IntP("limit", "n", 0, "show at most `N` commands (the most recent); on a terminal, without -n or --all, a screenful")
	all := fs.Bool("all", false, "every command, also on a terminal")
	failed := fs.Bool("failed", false, "only commands that failed (non-zero exit status)")
	session := fs.Bool("session", false, "only commands of this shell session")
	cwd := fs.String("cwd", "", "only commands started in `DIR` (. for here)")
	since := fs.String("since", "", "only commands started since `WHEN`: a duration (90m, 2h, 3d, 1w) or a date (2026-11-01, RFC 3339)")
	hostName := fs.String("host", "", "only commands recorded on the host `NAME`: its hostname, or its installation id (`hookd sync --status` lists them)")
	asJSON := fs.Bool("json", false, "print JSON Lines, one command per line, newest first (the text is oldest first)")
	author := fs.String("author", "", "only the commands of the coding agent `NAME` (claude-code, or what hookd record --author gave); --author= for your own shells' only")
	byPrompt := fs.Bool("by-prompt", false, "with --author: each command under the prompt that started the agent's turn, with what the agent said it was for")
	return func(ctx context.Context, e *env, args []string) error {
		if *byPrompt && (*author == "" || *asJSON) {
			return usagef("--by-prompt needs --author NAME (an agent's commands), and no --json (the JSON has each command's prompt)")
		}
		q := history.Query{Limit: *n, Failed: *failed, Text: strings.Join(args, " ")}
		if fs.Changed("author") {
			q.Authors = []string{*author}
		}
		if *hostName != "" {
			if id, err := hostid.Read(e.paths.HostID); err == nil && id == *hostName {
				q.ThisHost = true
			} else {
				q.Host = *hostName
			}
		}
		if *n < 0 {
			return usagef("-n must be positive")
		}
		if *all && fs.Changed("limit") {
			return usagef("-n and --all: give one")
		}
		// On a terminal, a screenful, the most recent, as git log shows
		// its first page: the whole history of years would scroll past.
		screenful := 0
		if rows := terminalRows(e.stdout); rows > 0 && !*asJSON && !*all && !fs.Changed("limit") {
			screenful = max(1, rows-3)
			q.Limit = screenful + 1 // one more: are there earlier ones?
		}
		if *session {
			if e.session == "" {
				return errors.New("--session: HOOKD_SESSION is not set (this shell does not load hookd)")
			}
			q.Session = e.session
		}
		var err error
		if q.Cwd, q.Since, err = cwdSince(*cwd, *since); err != nil {
			return err
		}
		s, err := e.openFlushed(ctx)
		if err != nil {
			return err
		}
		defer s.Close()
		w := bufio.NewWriterSize(e.stdout, 64<<10)
		if *byPrompt {
			if err := printByPrompt(ctx, w, e, s, q); err != nil {
				return err
			}
			return w.Flush()
		}
		if !*asJSON && q.Limit == 0 {
			// The whole history, oldest first as it is read.
			q.Oldest = true
			lines := &entryLines{w: w, e: e}
			if err := s.Walk(ctx, q, func(en history.Entry) error {
				lines.print(en)
				return nil
			}); err != nil {
				return err
			}
			return w.Flush()
		}
		entries, err := s.List(ctx, q)
		if err != nil {
			return err
		}
		if *asJSON {
			enc := e.jsonEncoder()
			self, _ := hostid.Get(e.paths.HostID) // this installation's id, for what was recorded here
			for _, en := range entries {
				if en.HostID == "" {
					en.HostID = self
				}
				m := en.JSON()
				addWhy(m, e.why(ctx, s, en))
				if err := enc.Encode(m); err != nil {
					return err
				}
			}
			return nil
		}
		// Oldest first, so that the newest is next to the prompt.
		if screenful > 0 && len(entries) > screenful {
			entries = entries[:screenful]
			fmt.Fprintln(w, e.palette.Render(style.Dim, fmt.Sprintf("… earlier commands not shown: hookd history -n %d shows more, --all every one", 10*screenful)))
		}
		for i := len(entries) - 1; i >= 0; i-- {
			printEntryLine(w, e, entries[i])
		}
		return w.Flush()
	}
}

// terminalRows is the height of the terminal w is, 0 when it is not one
// (a pipe, a file, /dev/null).
func terminalRows(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ); err == nil {
			if ws.Row == 0 {
				return 24 // a terminal that does not say
			}
			return int(ws.Row)
		}
	}
	return 0
}

func printEntryLine(w io.Writer, e *env, en history.Entry) {
	(&entryLines{w: w, e: e}).print(en)
}

// entryLines prints hookd history's lines, each formatted into one buffer
// kept from line to line: a listing of a million commands formats a
// million lines, and fmt's strings and the styles' were half its time
// (docs/benchmarks.md §30).
type entryLines struct {
	w     io.Writer
	e     *env
	buf   []byte
	plain bool // styles leave text as it is (no colour): none applied
	ready bool
	// minuteStr is the local "2006-01-02 15:04:" of the minute (since
	// the epoch) the last line started in, which the lines of that minute
	// share; nil when the minute's offset from UTC is not whole minutes
	// or changes within it (each line is then formatted whole).
	minute    int64
	minuteStr []byte
	minuteSet bool
}

// appendWhen appends when the command started, local time, to the second.
func (l *entryLines) appendWhen(b []byte, us int64) []byte {
	sec := us / 1e6
	if us%1e6 < 0 {
		sec--
	}
	m := sec / 60
	if sec%60 < 0 {
		m--
	}
	if !l.minuteSet || m != l.minute {
		l.minute, l.minuteSet, l.minuteStr = m, true, l.minuteStr[:0]
		start := time.Unix(m*60, 0).Local()
		_, off := start.Zone()
		if _, offEnd := time.Unix(m*60+59, 0).Local().Zone(); off%60 == 0 && off == offEnd {
			l.minuteStr = start.AppendFormat(l.minuteStr, "2006-01-02 15:04:")
		}
	}
	if len(l.minuteStr) == 0 {
		return time.UnixMicro(us).Local().AppendFormat(b, "2006-01-02 15:04:05")
	}
	b = append(b, l.minuteStr...)
	if sec-m*60 < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, sec-m*60, 10)
}

// style appends field styled with st.
func (l *entryLines) style(b []byte, st style.Style, field []byte) []byte {
	if l.plain {
		return append(b, field...)
	}
	return append(b, l.e.palette.Render(st, string(field))...)
}

// padLeft appends s right-aligned in width runes, as fmt's %*s does.
func padLeft(b []byte, width int, s []byte) []byte {
	for n := utf8.RuneCount(s); n < width; n++ {
		b = append(b, ' ')
	}
	return append(b, s...)
}

func (l *entryLines) print(en history.Entry) {
	if !l.ready {
		l.ready = true
		l.plain = true
		for _, st := range []style.Style{style.Dim, style.Success, style.Danger} {
			l.plain = l.plain && l.e.palette.Render(st, "x") == "x"
		}
	}
	var num, field [24]byte
	b := l.buf[:0]
	b = l.style(b, style.Dim, padLeft(field[:0], 6, strconv.AppendInt(num[:0], en.ID, 10)))
	b = append(b, "  "...)
	b = l.appendWhen(b, en.StartedAt)
	b = append(b, "  "...)
	// What was not measured (an imported command's status and duration,
	// an agent's duration) is "-", not a 0 that reads as a success.
	took := append(num[:0], '-')
	if en.DurationKnown() {
		took = units.AppendDuration(num[:0], time.Duration(en.DurationUS)*time.Microsecond)
	}
	b = padLeft(b, 7, took)
	b = append(b, "  "...)
	st, code := style.Success, append(num[:0], '-')
	if !en.StatusKnown() {
		st = style.Dim
	} else {
		code = strconv.AppendInt(num[:0], int64(en.ExitCode), 10)
	}
	if en.ExitCode != 0 {
		st = style.Danger
	}
	b = l.style(b, st, padLeft(field[:0], 3, code))
	b = append(b, "  "...)
	var size []byte
	if en.OutputBytes > 0 {
		size = units.AppendSize(num[:0], en.OutputBytes)
	}
	// Padded before it is styled: on a terminal the style's escape
	// sequences would count in the width.
	b = l.style(b, style.Dim, padLeft(field[:0], 5, size))
	b = append(b, "  "...)
	if en.Author != "" {
		b = l.style(b, style.Dim, []byte("["+sanitize.Line(en.Author)+"]"))
		b = append(b, ' ')
	}
	if en.HostID != "" { // synced in from another machine: which one
		b = l.style(b, style.Dim, []byte("[@"+sanitize.Line(en.Host)+"]"))
		b = append(b, ' ')
	}
	b = append(b, sanitize.Line(en.Command)...)
	b = append(b, '\n')
	l.buf = b
	l.w.Write(b)
}

func cmdShow(fs *pflag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print one JSON object, with the output")
	author := authorFlag(fs)
	return func(ctx context.Context, e *env, args []string) error {
		ref, err := oneRef(args)
		if err != nil {
			return err
		}
		s, rd, en, err := e.lookup(ctx, ref, *author)
		if err != nil {
			return err
		}
		defer s.Close()
		o, oerr := rd.Output(ctx, en, "", 0)
		none := ""
		var no *recall.NoOutput
		if errors.As(oerr, &no) {
			none = no.Reason
		} else if oerr != nil {
			return oerr
		}
		why := e.why(ctx, s, en)
		ns, err := notes.List(ctx, s, en.ID)
		if err != nil {
			return err
		}
		if *asJSON {
			if en.HostID == "" {
				en.HostID, _ = hostid.Get(e.paths.HostID)
			}
			m := en.JSON()
			addWhy(m, why)
			m["notes"] = notesJSON(ns)
			m["output"] = string(o.Text)
			if !utf8.Valid(o.Text) {
				m["output_base64"] = base64.StdEncoding.EncodeToString(o.Text)
			}
			if none != "" {
				m["output_missing"] = none
			}
			if o.Flags&history.OutputTruncated != 0 {
				m["output_truncated"] = true
			}
			enc := e.jsonEncoder()
			return enc.Encode(m)
		}
		printEntry(e.stdout, e, en)
		printWhy(e.stdout, e, why)
		for _, n := range ns {
			fmt.Fprintf(e.stdout, "%s %s %s\n", e.palette.Render(style.Label, fmt.Sprintf("%-9s", "note")),
				sanitize.Line(n.Text), e.palette.Render(style.Dim, time.UnixMicro(n.CreatedAt).Local().Format("(2006-01-02 15:04)")))
		}
		if u := permalink(e, en.ID); u != "" {
			fmt.Fprintf(e.stdout, "%s %s\n", e.palette.Render(style.Label, fmt.Sprintf("%-9s", "page")), u)
		}
		label := e.palette.Render(style.Label, fmt.Sprintf("%-9s", "output"))
		switch {
		case none != "":
			fmt.Fprintf(e.stdout, "%s none: %s\n", label, none)
		case len(o.Text) == 0:
			fmt.Fprintf(e.stdout, "%s none: it printed nothing\n", label)
		default:
			note := units.Size(int64(len(o.Text)))
			if o.Flags&history.OutputTruncated != 0 {
				note += fmt.Sprintf(" kept of %s written", units.Size(o.Bytes))
			}
			fmt.Fprintf(e.stdout, "%s %s\n", label, note)
			text := string(o.Text)
			if e.stdoutTTY {
				text = sanitize.Text(text)
			}
			fmt.Fprint(e.stdout, text)
			if text[len(text)-1] != '\n' {
				fmt.Fprintln(e.stdout)
			}
		}
		return nil
	}
}

func printEntry(w io.Writer, e *env, en history.Entry) {
	label := func(s string) string { return e.palette.Render(style.Label, fmt.Sprintf("%-9s", s)) }
	cmd := en.Command
	if e.stdoutTTY {
		cmd = sanitize.Text(cmd)
	}
	fmt.Fprintf(w, "%s %s\n", label("command"), strings.ReplaceAll(cmd, "\n", "\n"+strings.Repeat(" ", 10)))
	status := strconv.Itoa(en.ExitCode)
	if !en.StatusKnown() {
		status = "unknown (imported: a history file keeps none)"
	}
	if len(en.Pipestatus) > 1 {
		status += fmt.Sprintf(" (pipestatus %s)", strings.Trim(fmt.Sprint(en.Pipestatus), "[]"))
	}
	fmt.Fprintf(w, "%s %s\n", label("status"), status)
	took := "not measured"
	if en.DurationKnown() {
		took = "took " + units.Micros(en.DurationUS)
	}
	fmt.Fprintf(w, "%s %s (%s)\n", label("started"), time.UnixMicro(en.StartedAt).Local().Format("2006-01-02 15:04:05.000 MST"), took)
	fmt.Fprintf(w, "%s %s\n", label("cwd"), sanitize.Line(en.Cwd))
	who := strings.TrimSpace(fmt.Sprintf("%s %s@%s %s", en.Shell, en.User, en.Host, en.TTY))
	fmt.Fprintf(w, "%s %s #%d (%s)\n", label("session"), en.Session, en.Seq, sanitize.Line(who))
	if en.Author != "" {
		fmt.Fprintf(w, "%s %s (a coding agent's command)\n", label("author"), sanitize.Line(en.Author))
	}
	fmt.Fprintf(w, "%s %d\n", label("id"), en.ID)
}

// authorFlag is the --author flag of the commands that take a REF: -N
// counts in that coding agent's most recent session.
func authorFlag(fs *pflag.FlagSet) *string {
	return fs.String("author", "", "-N counts in the most recent session of the coding agent `NAME` (claude-code…) instead of this shell's")
}

// cwdSince reads the --cwd and --since flags of the commands that list
// history: the directory made absolute, and the start as microseconds
// since the epoch (0 for none).
func cwdSince(cwd, since string) (dir string, start int64, err error) {
	if cwd != "" {
		if dir, err = filepath.Abs(cwd); err != nil {
			return "", 0, err
		}
	}
	if since != "" {
		t, err := history.ParseSince(since, time.Now())
		if err != nil {
			return "", 0, usageError{err.Error()}
		}
		start = t.UnixMicro()
	}
	return dir, start, nil
}

// why is why the coding agent ran en (nothing for the user's own
// commands, or when it cannot be read).
func (e *env) why(ctx context.Context, s *history.Store, en history.Entry) history.Why {
	if en.Author == "" {
		return history.Why{}
	}
	w, _ := s.Why(ctx, en.Session, en.Seq)
	return w
}

// addWhy adds an agent's intent and prompt to a command's JSON object.
func addWhy(m map[string]any, w history.Why) {
	if w.Intent != "" {
		m["intent"] = w.Intent
	}
	if w.Prompt != "" {
		m["prompt"] = w.Prompt
		m["prompt_at"] = time.UnixMicro(w.PromptAt).UTC().Format(time.RFC3339Nano)
	}
}

// printWhy prints an agent's intent and prompt under a command's facts.
func printWhy(out io.Writer, e *env, w history.Why) {
	label := func(s string) string { return e.palette.Render(style.Label, fmt.Sprintf("%-9s", s)) }
	if w.Intent != "" {
		fmt.Fprintf(out, "%s %s\n", label("intent"), indentText(e, w.Intent))
	}
	if w.Prompt != "" {
		fmt.Fprintf(out, "%s %s\n", label("prompt"), indentText(e, w.Prompt))
	}
}

// indentText is text for a labelled field: its lines after the first
// indented under the label's value, sanitized on a terminal.
func indentText(e *env, text string) string {
	if e.stdoutTTY {
		text = sanitize.Text(text)
	}
	return strings.ReplaceAll(strings.TrimRight(text, "\n"), "\n", "\n"+strings.Repeat(" ", 10))
}

// printByPrompt lists an agent's commands q selects, oldest first, each
// under the prompt that started its turn (a line for each new prompt) and
// over what the agent said it was for.
func printByPrompt(ctx context.Context, w io.Writer, e *env, s *history.Store, q history.Query) error {
	q.Oldest = q.Limit == 0
	entries, err := s.List(ctx, q)
	if err != nil {
		return err
	}
	// In the order the agent ran them within a session (the history's is
	// by start, and a longer command that ended later started earlier).
	slices.SortStableFunc(entries, func(a, b history.Entry) int {
		if a.Session == b.Session {
			return cmp.Compare(a.Seq, b.Seq)
		}
		return cmp.Compare(a.StartedAt, b.StartedAt)
	})
	type turn struct {
		session string
		seq     int64
	}
	last := turn{seq: -1}
	for _, en := range entries {
		why := e.why(ctx, s, en)
		if t := (turn{en.Session, why.PromptSeq}); t != last {
			last = t
			head := "(no prompt kept)"
			if why.Prompt != "" {
				when := time.UnixMicro(why.PromptAt).Local().Format("2006-01-02 15:04:05")
				head = when + "  " + sanitize.Line(why.Prompt)
			}
			fmt.Fprintln(w, e.palette.Render(style.Label, "▸ "+head))
		}
		fmt.Fprint(w, "  ")
		printEntryLine(w, e, en)
		if why.Intent != "" {
			fmt.Fprintln(w, e.palette.Render(style.Dim, "          ↳ "+sanitize.Line(why.Intent)))
		}
	}
	return nil
}
