// Package spool reads and writes the records that the shell hooks append to
// their per-session spool files.
//
// A spool is a stream of fields, each ended by a NUL byte (a shell string
// cannot hold one, so no escaping is needed). A record starts with a field
// that is exactly "\nS1", "\nS2" or "\nS3" (a session header), "\nC1" (a finished
// command), "\nE1" (the environment commands ran in) or "\nW1" (why an
// agent ran commands: an intent, a prompt) and has a fixed number
// of fields after it. No other field can be one of those
// tags, so a reader that meets garbage or a record cut short by a crash finds
// the next record again.
package spool

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Tags that open a record.
const (
	tagSession  = "\nS1"
	tagSession2 = "\nS2" // S1 and the capture mode
	// tagSession3 is S2, the author (a coding agent's name) and the
	// session the commands belong to: hookd writes it (hookd agent-hook,
	// hookd record), never a shell.
	tagSession3 = "\nS3"
	tagCommand  = "\nC1"
	tagEnv      = "\nE1"
	// tagWhy says why an agent's command ran (its intent) or what the
	// user asked the agent (a prompt): hookd agent-hook writes it, never
	// a shell.
	tagWhy = "\nW1"
)

// isTag reports whether f opens a record.
func isTag(f string) bool {
	return f == tagSession || f == tagSession2 || f == tagSession3 || f == tagCommand || f == tagEnv || f == tagWhy
}

// endsWithTag reports whether f ends with a tag (a field cut short with the
// next record's tag glued on), and which.
func endsWithTag(f string) (int, bool) {
	for _, t := range []string{tagSession, tagSession2, tagSession3, tagCommand, tagEnv, tagWhy} {
		if strings.HasSuffix(f, t) {
			return len(t), true
		}
	}
	return 0, false
}

const (
	sessionFields = 7 // after the tag; S2 has one more
	commandFields = 4 // numbers, cwd, text format, text
	envFields     = 3 // sequence number, names, values
	whyFields     = 3 // sequence number and time, kind, text
)

// Text formats of a command record.
const (
	// FormatRaw is the command line as typed (zsh's preexec argument).
	FormatRaw = 'r'
	// FormatHistory is the output of bash's `history 1`: a number, a
	// modification mark, and the line.
	FormatHistory = 'h'
)

// Session is the header a shell writes once when hookd is loaded.
type Session struct {
	Shell   string
	Version string
	PID     int
	Host    string
	User    string
	UID     int
	Start   int64 // microseconds since the epoch
	// Capture is how the shell's output is captured: "pty" under hookd
	// shell, "off" otherwise; "" in S1 headers (written before capture
	// existed).
	Capture string
	// Author is the coding agent that ran the commands ("claude-code");
	// "" for the user's own shells. S3 headers only.
	Author string
	// Session, when not "", is the session the records after the header
	// belong to, instead of the one the file is named for: an agent's
	// commands are written one file each, into the session of the
	// agent's own session. S3 headers only.
	Session string
}

// Command is one finished command.
type Command struct {
	Seq        int64 // 1, 2, … within the session
	Start      int64 // microseconds since the epoch
	End        int64
	Exit       int
	Pipestatus []int
	Cwd        string // the working directory when the command started
	Text       string // the command line, exactly as typed
}

// Env is the environment the session's commands ran in from sequence
// number Seq on, until the next Env: the variables the hooks note (PATH,
// the environment managers', fix.watch_env's), each with its value (""
// when unset). The hooks write one when the shell starts and one whenever
// the values change.
type Env struct {
	Seq    int64
	Names  []string
	Values []string // Values[i] is Names[i]'s
}

// EnvSep ends each value of an Env record.
const EnvSep = '\x1f'

// EnvSepShown stands for EnvSep in a value: the hooks write a value's
// 0x1F bytes as U+241F (␟), so that they end no value and cost the
// record nothing.
const EnvSepShown = "\u241f"

// Kinds of a Why record.
const (
	// WhyIntent is what the agent said a command was for (Claude Code's
	// description of a Bash call): Seq is the command's.
	WhyIntent = 'i'
	// WhyPrompt is what the user asked the agent: the commands of the
	// same session numbered after Seq, up to the next prompt, are the
	// agent's answer to it.
	WhyPrompt = 'p'
)

// Why is why an agent ran commands: a command's intent, or a prompt.
type Why struct {
	Seq  int64
	Time int64 // microseconds since the epoch
	Kind byte  // WhyIntent or WhyPrompt
	Text string
}

// Record is one decoded record: exactly one of its fields is set.
type Record struct {
	Session *Session
	Command *Command
	Env     *Env
	Why     *Why
}

// Decode decodes the complete records at the start of buf. It returns them,
// the number of bytes they (and any garbage between them) took, and one error
// per stretch of garbage or malformed record skipped. A record cut off by the
// end of buf is left for a later call, unless atEOF says no more bytes will
// come, in which case the rest is reported as garbage and consumed.
func Decode(buf []byte, atEOF bool) (recs []Record, n int, bad []error) {
	pos := 0 // start of the next unread field
	for pos < len(buf) {
		start := pos
		tag, next, ok := field(buf, pos)
		if !ok {
			break // incomplete field at the end
		}
		want := 0
		switch tag {
		case tagSession:
			want = sessionFields
		case tagSession2:
			want = sessionFields + 1
		case tagSession3:
			want = sessionFields + 3
		case tagCommand:
			want = commandFields
		case tagEnv:
			want = envFields
		case tagWhy:
			want = whyFields
		default:
			// Garbage: skip whole fields up to the next tag. What follows
			// the last NUL may be a tag still being written: it is left for
			// a later call unless no more bytes will come.
			p := next
			for {
				f, nx, ok := field(buf, p)
				if !ok || isTag(f) {
					break
				}
				p = nx
			}
			if _, _, ok := field(buf, p); !ok && atEOF {
				p = len(buf)
			}
			bad = append(bad, fmt.Errorf("offset %d: %d bytes that are not a record", start, p-start))
			pos, n = p, p
			continue
		}
		fields := make([]string, 0, want)
		ends := make([]int, 0, want) // where each field's NUL is
		cut := false
		p := next
		for len(fields) < want {
			f, nx, ok := field(buf, p)
			if !ok {
				cut = true
				break
			}
			if isTag(f) {
				break // a record cut short by a crash: the next one starts here
			}
			fields = append(fields, f)
			ends = append(ends, nx-1)
			p = nx
		}
		if cut && !atEOF {
			return recs, start, bad
		}
		var rec Record
		err := errShort
		if len(fields) == want {
			rec, err = parse(tag, fields)
		}
		if err == nil {
			recs = append(recs, rec)
			pos, n = p, p
			continue
		}
		// A write cut off in the middle of a field glues the next record's
		// tag onto that field: start again at such a tag if there is one.
		resync := -1
		for i, f := range fields {
			if n, ok := endsWithTag(f); ok {
				resync = ends[i] - n
				break
			}
		}
		switch {
		case resync >= 0:
			p = resync
		case cut:
			p = len(buf)
		}
		bad = append(bad, fmt.Errorf("offset %d: %w", start, err))
		pos, n = p, p
	}
	if atEOF && n < len(buf) {
		bad = append(bad, fmt.Errorf("offset %d: %d bytes without an end", n, len(buf)-n))
		n = len(buf)
	}
	return recs, n, bad
}

// field returns the field at pos and the position after its NUL.
func field(buf []byte, pos int) (string, int, bool) {
	if pos >= len(buf) {
		return "", pos, false
	}
	i := bytes.IndexByte(buf[pos:], 0)
	if i < 0 {
		return "", pos, false
	}
	return string(buf[pos : pos+i]), pos + i + 1, true
}

func parse(tag string, f []string) (Record, error) {
	switch tag {
	case tagSession, tagSession2, tagSession3:
		s := &Session{Shell: f[0], Version: f[1], Host: f[3], User: f[4]}
		if tag != tagSession {
			s.Capture = f[7]
		}
		if tag == tagSession3 {
			s.Author, s.Session = f[8], f[9]
			if s.Session != "" && !ValidSessionID(s.Session) {
				return Record{}, fmt.Errorf("session header: bad session id %q", s.Session)
			}
		}
		var err error
		if s.PID, err = strconv.Atoi(f[2]); err != nil {
			return Record{}, fmt.Errorf("session header: bad pid %q", f[2])
		}
		if f[5] != "" {
			if s.UID, err = strconv.Atoi(f[5]); err != nil {
				return Record{}, fmt.Errorf("session header: bad uid %q", f[5])
			}
		}
		if s.Start, err = parseTime(f[6]); err != nil {
			return Record{}, fmt.Errorf("session header: bad start time %q", f[6])
		}
		return Record{Session: s}, nil
	case tagWhy:
		w, err := parseWhy(f)
		if err != nil {
			return Record{}, fmt.Errorf("why record: %w", err)
		}
		return Record{Why: w}, nil
	case tagEnv:
		e, err := parseEnv(f)
		if err != nil {
			return Record{}, fmt.Errorf("environment record: %w", err)
		}
		return Record{Env: e}, nil
	default:
		c, err := parseCommand(f)
		if err != nil {
			return Record{}, fmt.Errorf("command record: %w", err)
		}
		return Record{Command: c}, nil
	}
}

func parseCommand(f []string) (*Command, error) {
	// The numbers share one field, separated by spaces: sequence number,
	// start, end, exit status, then the pipestatus, which the shell joined
	// with the first character of its IFS (anything but a digit separates).
	nums := strings.Fields(f[0])
	if len(nums) < 4 {
		return nil, fmt.Errorf("bad numbers %q", f[0])
	}
	c := &Command{Cwd: f[1]}
	var err error
	if c.Seq, err = strconv.ParseInt(nums[0], 10, 64); err != nil || c.Seq < 1 {
		return nil, fmt.Errorf("bad sequence number %q", nums[0])
	}
	if c.Start, err = parseTime(nums[1]); err != nil {
		return nil, fmt.Errorf("bad start time %q", nums[1])
	}
	if c.End, err = parseTime(nums[2]); err != nil {
		return nil, fmt.Errorf("bad end time %q", nums[2])
	}
	if c.Exit, err = strconv.Atoi(nums[3]); err != nil {
		return nil, fmt.Errorf("bad exit status %q", nums[3])
	}
	ps := strings.Join(nums[4:], " ")
	for _, w := range strings.FieldsFunc(ps, func(r rune) bool { return r < '0' || r > '9' }) {
		v, err := strconv.Atoi(w)
		if err != nil {
			return nil, fmt.Errorf("bad pipestatus %q", ps)
		}
		c.Pipestatus = append(c.Pipestatus, v)
	}
	switch f[2] {
	case string(FormatRaw):
		c.Text = f[3]
	case string(FormatHistory):
		text, err := historyLine(f[3])
		if err != nil {
			return nil, err
		}
		c.Text = text
	default:
		return nil, fmt.Errorf("unknown text format %q", f[2])
	}
	return c, nil
}

// parseEnv reads an environment record: its sequence number, the names
// (separated by anything that cannot be in a name: the shell joined them
// with its IFS), and the values, each ended by EnvSep.
func parseEnv(f []string) (*Env, error) {
	e := &Env{}
	var err error
	if e.Seq, err = strconv.ParseInt(f[0], 10, 64); err != nil || e.Seq < 1 {
		return nil, fmt.Errorf("bad sequence number %q", f[0])
	}
	e.Names = strings.FieldsFunc(f[1], func(r rune) bool {
		return !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	if len(e.Names) == 0 || !strings.HasSuffix(f[2], string(EnvSep)) {
		return nil, errors.New("no names, or values not ended")
	}
	e.Values = strings.Split(strings.TrimSuffix(f[2], string(EnvSep)), string(EnvSep))
	if len(e.Values) != len(e.Names) {
		return nil, fmt.Errorf("%d names but %d values", len(e.Names), len(e.Values))
	}
	return e, nil
}

// errShort reports a record with fewer fields than its kind has.
var errShort = errors.New("record cut short")

// errHistory reports a `history 1` output that does not have bash's shape.
var errHistory = errors.New("text is not the output of `history 1`")

// historyLine extracts the command line from bash's `history 1` output, which
// bash prints as "%5d%c %s\n": the number, '*' for an edited entry or a
// space, a space, and the line (which may span several lines).
func historyLine(out string) (string, error) {
	i := 0
	for i < len(out) && out[i] == ' ' {
		i++
	}
	d := i
	for i < len(out) && out[i] >= '0' && out[i] <= '9' {
		i++
	}
	if i == d || i+2 > len(out) || (out[i] != ' ' && out[i] != '*') || out[i+1] != ' ' {
		return "", errHistory
	}
	// bash keeps a here-document's last newline in the entry itself.
	return strings.TrimRight(out[i+2:], "\n"), nil
}

// parseTime reads a time as microseconds since the epoch, or as the shells'
// EPOCHREALTIME prints it: seconds, a decimal point (a comma in some
// locales) and a fraction (bash prints 6 digits, zsh 9 or more); or as a
// sum of such terms joined by '+', where a term may also be milliseconds
// ("250ms"), and milliseconds may be taken off ("-250ms"). fish, which has
// no clock variable and no arithmetic without a command substitution,
// writes its times that way: the boot time in microseconds, plus
// /proc/uptime's seconds (an end), less $CMD_DURATION's milliseconds (a
// start). Where fish has no /proc/uptime, its term is "now": the time the
// record is read (by the daemon, within moments of its writing while the
// daemon runs).
func parseTime(s string) (int64, error) {
	if !strings.ContainsAny(s, "+-") {
		return parseTerm(s)
	}
	var sum int64
	for n := 0; s != ""; n++ {
		neg := false
		if n > 0 {
			neg = s[0] == '-'
			s = s[1:]
		}
		end := strings.IndexAny(s, "+-")
		if end < 0 {
			end = len(s)
		}
		t := s[:end]
		s = s[end:]
		var v int64
		var err error
		if ms, ok := strings.CutSuffix(t, "ms"); ok {
			v, err = strconv.ParseInt(ms, 10, 64)
			if err == nil && (ms == "" || ms[0] < '0' || ms[0] > '9' || v > 1<<40) {
				err = errors.New("bad milliseconds")
			}
			v *= 1000
		} else if neg {
			err = errors.New("only milliseconds are taken off")
		} else {
			v, err = parseTerm(t)
		}
		if err != nil || n > 3 || v < 0 || sum > 1<<62-v {
			return 0, errors.New("bad time")
		}
		if neg {
			v = -v
		}
		sum += v
	}
	if sum < 0 {
		return 0, errors.New("bad time")
	}
	return sum, nil
}

// timeNow is the clock a "now" term reads (tests set it).
var timeNow = time.Now

// parseTerm reads one term of a time: microseconds, or seconds with a
// fraction.
func parseTerm(s string) (int64, error) {
	if s == "now" {
		return timeNow().UnixMicro(), nil
	}
	i := strings.IndexAny(s, ".,")
	if i < 0 {
		return strconv.ParseInt(s, 10, 64)
	}
	sec, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, err
	}
	frac := s[i+1:]
	if frac == "" || len(frac) > 20 || strings.Trim(frac, "0123456789") != "" {
		return 0, errors.New("bad fraction")
	}
	us, _ := strconv.ParseInt((frac + "000000")[:6], 10, 64)
	return sec*1e6 + us, nil
}

// parseWhy reads a why record: "SEQ TIME", the kind, the text.
func parseWhy(f []string) (*Why, error) {
	nums := strings.Fields(f[0])
	if len(nums) != 2 {
		return nil, fmt.Errorf("bad numbers %q", f[0])
	}
	w := &Why{Text: f[2]}
	var err error
	if w.Seq, err = strconv.ParseInt(nums[0], 10, 64); err != nil || w.Seq < 1 {
		return nil, fmt.Errorf("bad sequence number %q", nums[0])
	}
	if w.Time, err = parseTime(nums[1]); err != nil {
		return nil, fmt.Errorf("bad time %q", nums[1])
	}
	if len(f[1]) != 1 || f[1][0] != WhyIntent && f[1][0] != WhyPrompt {
		return nil, fmt.Errorf("unknown kind %q", f[1])
	}
	w.Kind = f[1][0]
	return w, nil
}
