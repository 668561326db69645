package cloudsync

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hookd/hookd/history"
)

// A segment's plain content, before compression and encryption: JSON with
// short names (it is compressed, and the names cost little after that).
// Times and sequence numbers are deltas from the previous command's, so
// that they compress well.
type wireSegment struct {
	V     int    `json:"v"`
	Host  string `json:"host"`  // the installation that wrote it
	Label string `json:"label"` // its hostname, as a label
	DB    string `json:"db"`    // the writing database's sync id
	Upto  int64  `json:"upto"`  // the writer's upload queue, covered up to this row
	// Start and End are the segment numbers it holds (one, or a run
	// after compaction).
	Start    int64             `json:"start"`
	End      int64             `json:"end"`
	Sessions list[wireSession] `json:"s,omitempty"`
	Commands list[wireCommand] `json:"c,omitempty"`
	// Envs are the environments the commands' contexts name (each set of
	// values once, as JSON).
	Envs    list[string]     `json:"e,omitempty"`
	Outputs list[wireOutput] `json:"o,omitempty"`
	Forget  list[wireKey]    `json:"f,omitempty"`
	Notes   list[wireNote]   `json:"n,omitempty"`
}

// wireNote is a note (hookd note) on the command its session and
// sequence number name.
type wireNote struct {
	S    string `json:"s"`
	Q    int64  `json:"q"`
	Text string `json:"t"`
	At   int64  `json:"at"`
}

// maxItems bounds each list of a segment. No segment this hookd writes
// holds more (an upload takes at most DefaultSegmentItems rows, a fold
// leaves a run that would be larger as it is; an earlier hookd's fold of
// 4 MiB holds up to about 300,000 commands), so one that does is not
// ours, and is refused as it is read, before its rows cost memory (a
// row of a few bytes of JSON takes a hundred or more decoded).
const maxItems = 20 * DefaultSegmentItems

// list is a segment's JSON array, read element by element up to maxItems.
type list[T any] []T

func (l *list[T]) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if t == nil {
		*l = nil
		return nil
	}
	if d, ok := t.(json.Delim); !ok || d != '[' {
		return fmt.Errorf("want an array, not %v", t)
	}
	for dec.More() {
		if len(*l) >= maxItems {
			return fmt.Errorf("more than %d items in a list", maxItems)
		}
		var v T
		if err := dec.Decode(&v); err != nil {
			return err
		}
		*l = append(*l, v)
	}
	return nil
}

type wireSession struct {
	ID        string `json:"id"`
	Shell     string `json:"shell,omitempty"`
	Version   string `json:"ver,omitempty"`
	PID       int    `json:"pid,omitempty"`
	Host      string `json:"host,omitempty"`
	User      string `json:"user,omitempty"`
	UID       int    `json:"uid,omitempty"`
	TTY       string `json:"tty,omitempty"`
	StartedAt int64  `json:"at,omitempty"`
	Capture   string `json:"cap,omitempty"`
	Author    string `json:"a,omitempty"` // a coding agent's name; "" for the user's own shells
}

type wireCommand struct {
	S  int    `json:"s"`            // index of its session in Sessions
	Q  int64  `json:"q"`            // sequence number, less the previous one's of its session
	C  string `json:"c,omitempty"`  // the command (valid UTF-8)
	CB []byte `json:"cb,omitempty"` // the command's exact bytes, when not valid UTF-8
	X  int    `json:"x,omitempty"`  // exit status
	P  string `json:"p,omitempty"`  // pipestatus
	D  string `json:"d,omitempty"`  // directory
	DB []byte `json:"db,omitempty"` // the directory's exact bytes, when not valid UTF-8
	T  int64  `json:"t"`            // start (µs), less the previous command's
	U  int64  `json:"u,omitempty"`  // duration (µs)
	R  string `json:"r,omitempty"`  // source, when not "hook"
	// K is the context noted for it (none: nil; a segment of an older
	// hookd has none).
	K *wireContext `json:"k,omitempty"`
}

// wireContext is what was noted of the context a command ran in
// (history.Context).
type wireContext struct {
	K int64  `json:"k"`           // the key (program and subcommand, hashed)
	G string `json:"g,omitempty"` // the git work tree
	B string `json:"b,omitempty"` // the branch
	H string `json:"h,omitempty"` // the commit, when HEAD was detached
	Y int    `json:"y,omitempty"` // changes: 0 unknown, 1 none, 2 some
	E int    `json:"e,omitempty"` // the environment: 1 + its index in Envs; 0 none
}

type wireOutput struct {
	S     string `json:"s"`
	Q     int64  `json:"q"`
	St    string `json:"st,omitempty"`
	Text  []byte `json:"x"`
	Bytes int64  `json:"b"`
	Flags int    `json:"f,omitempty"`
	At    int64  `json:"t"`
}

type wireKey struct {
	S string `json:"s"`
	Q int64  `json:"q"`
}

// naming maps session ids between this installation and the wire: a
// session recorded here travels as "<id>@<installation>", and comes back
// without the suffix; one from elsewhere keeps its suffix both ways. The
// tombstones of commands recorded here also travel under the ids this
// installation had before (former: it took a new one when a clone had
// it), so that a forget reaches the copies uploaded then.
type naming struct {
	self   string
	former []string
}

func (n naming) toWire(s string) string {
	if history.SessionHost(s) != "" {
		return s
	}
	return s + history.HostSep + n.self
}

func (n naming) toLocal(s string) string {
	return strings.TrimSuffix(s, history.HostSep+n.self)
}

// encode turns a batch read from the queue into a segment's plain bytes.
func encode(seg wireSegment, b *history.SyncBatch, n naming) ([]byte, error) {
	seg.V = 1
	idx := map[string]int{}
	for _, se := range b.Sessions {
		idx[se.ID] = len(seg.Sessions)
		seg.Sessions = append(seg.Sessions, wireSession{ID: n.toWire(se.ID), Shell: se.Shell, Version: se.Version, PID: se.PID,
			Host: se.Host, User: se.User, UID: se.UID, TTY: se.TTY, StartedAt: se.StartedAt, Capture: se.Capture, Author: se.Author})
	}
	lastSeq := map[string]int64{}
	var lastT int64
	envIdx := map[string]int{}
	for _, e := range b.Commands {
		i, ok := idx[e.Session]
		if !ok {
			i = len(seg.Sessions)
			idx[e.Session] = i
			seg.Sessions = append(seg.Sessions, wireSession{ID: n.toWire(e.Session)})
		}
		w := wireCommand{S: i, Q: e.Seq - lastSeq[e.Session], X: e.ExitCode, D: e.Cwd, T: e.StartedAt - lastT, U: e.DurationUS}
		lastSeq[e.Session], lastT = e.Seq, e.StartedAt
		if utf8.ValidString(e.Command) {
			w.C = e.Command
		} else {
			w.CB = []byte(e.Command)
		}
		if !utf8.ValidString(e.Cwd) {
			w.D, w.DB = "", []byte(e.Cwd)
		}
		if len(e.Pipestatus) != 1 || e.Pipestatus[0] != e.ExitCode {
			// (Left out, it is the exit status alone; " " is none.)
			ps := make([]string, len(e.Pipestatus))
			for j, v := range e.Pipestatus {
				ps[j] = strconv.Itoa(v)
			}
			w.P = strings.Join(ps, " ")
			if w.P == "" {
				w.P = " "
			}
		}
		if e.Source != "" && e.Source != "hook" {
			w.R = e.Source
		}
		if c, ok := b.Contexts[history.Key{Session: e.Session, Seq: e.Seq}]; ok {
			x := &wireContext{K: c.Key, G: c.Repo, B: c.Branch, H: c.Head, Y: c.Dirty + 1}
			if c.Env != nil {
				j, err := json.Marshal(c.Env) // keys sorted: the same values, the same text
				if err != nil {
					return nil, err
				}
				k, ok := envIdx[string(j)]
				if !ok {
					seg.Envs = append(seg.Envs, string(j))
					k = len(seg.Envs)
					envIdx[string(j)] = k
				}
				x.E = k
			}
			w.K = x
		}
		seg.Commands = append(seg.Commands, w)
	}
	for _, o := range b.Outputs {
		seg.Outputs = append(seg.Outputs, wireOutput{S: n.toWire(o.Session), Q: o.Seq, St: o.Stream, Text: o.Text,
			Bytes: o.Bytes, Flags: int(o.Flags), At: o.CreatedAt})
	}
	for _, nt := range b.Notes {
		seg.Notes = append(seg.Notes, wireNote{S: n.toWire(nt.Session), Q: nt.Seq, Text: nt.Text, At: nt.CreatedAt})
	}
	for _, k := range b.Tombstones {
		seg.Forget = append(seg.Forget, wireKey{n.toWire(k.Session), k.Seq})
		if history.SessionHost(k.Session) == "" {
			for _, f := range n.former {
				seg.Forget = append(seg.Forget, wireKey{k.Session + history.HostSep + f, k.Seq})
			}
		}
	}
	return json.Marshal(seg)
}

// decode reads a segment's plain bytes back into its header and a batch,
// session ids still as they travel.
func decode(plain []byte) (wireSegment, *history.SyncBatch, error) {
	var seg wireSegment
	if err := json.Unmarshal(plain, &seg); err != nil {
		return seg, nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	if seg.V != 1 {
		return seg, nil, fmt.Errorf("%w: it is in format %d, which this hookd does not know: upgrade hookd", errFormat, seg.V)
	}
	b := &history.SyncBatch{Upto: seg.Upto}
	for _, s := range seg.Sessions {
		b.Sessions = append(b.Sessions, history.Session{ID: s.ID, Shell: s.Shell, Version: s.Version, PID: s.PID,
			Host: s.Host, User: s.User, UID: s.UID, TTY: s.TTY, StartedAt: s.StartedAt, Capture: s.Capture, Author: s.Author})
	}
	lastSeq := map[int]int64{}
	var lastT int64
	for _, w := range seg.Commands {
		if w.S < 0 || w.S >= len(seg.Sessions) {
			return seg, nil, fmt.Errorf("%w: a command names session %d of %d", ErrDamaged, w.S, len(seg.Sessions))
		}
		seq := lastSeq[w.S] + w.Q
		lastSeq[w.S] = seq
		lastT += w.T
		e := history.Entry{Session: seg.Sessions[w.S].ID, Seq: seq, Command: w.C, ExitCode: w.X, Cwd: w.D,
			StartedAt: lastT, DurationUS: w.U, Source: w.R}
		if w.CB != nil {
			e.Command = string(w.CB)
		}
		if w.DB != nil {
			e.Cwd = string(w.DB)
		}
		if w.P != "" {
			for _, f := range strings.Fields(w.P) {
				v, _ := strconv.Atoi(f)
				e.Pipestatus = append(e.Pipestatus, v)
			}
		} else {
			e.Pipestatus = []int{w.X}
		}
		if e.Source == "" {
			e.Source = "hook"
		}
		if x := w.K; x != nil {
			c := history.Context{Key: x.K, Repo: x.G, Branch: x.B, Head: x.H, Dirty: x.Y - 1}
			if c.Dirty < -1 || c.Dirty > 1 {
				c.Dirty = -1
			}
			if x.E > 0 {
				if x.E > len(seg.Envs) {
					return seg, nil, fmt.Errorf("%w: a command names environment %d of %d", ErrDamaged, x.E, len(seg.Envs))
				}
				if err := json.Unmarshal([]byte(seg.Envs[x.E-1]), &c.Env); err != nil {
					return seg, nil, fmt.Errorf("%w: environment %d: %v", ErrDamaged, x.E, err)
				}
				if c.Env == nil {
					c.Env = map[string]string{}
				}
			}
			if b.Contexts == nil {
				b.Contexts = map[history.Key]history.Context{}
			}
			b.Contexts[history.Key{Session: e.Session, Seq: e.Seq}] = c
		}
		b.Commands = append(b.Commands, e)
	}
	for _, o := range seg.Outputs {
		text := o.Text
		if text == nil {
			text = []byte{}
		}
		b.Outputs = append(b.Outputs, history.Output{Session: o.S, Seq: o.Q, Stream: o.St, Text: text, Bytes: o.Bytes,
			Flags: history.OutputFlags(o.Flags), CreatedAt: o.At})
	}
	for _, k := range seg.Forget {
		b.Tombstones = append(b.Tombstones, history.Key{Session: k.S, Seq: k.Q})
	}
	for _, nt := range seg.Notes {
		b.Notes = append(b.Notes, history.SyncNote{Key: history.Key{Session: nt.S, Seq: nt.Q}, Text: nt.Text, CreatedAt: nt.At})
	}
	return seg, b, nil
}
