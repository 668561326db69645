package capture

import (
	"bytes"
	"io"
)

// Sink receives the commands a [Scanner] finds in the stream, in order:
// Begin, any number of Output calls, then End. Its methods must not block
// for long, since the terminal waits while they run, and must not keep p
// after returning.
type Sink interface {
	// Begin starts the output of command id.
	Begin(id ID)
	// Output gives the next chunk of the current command's raw output.
	Output(p []byte)
	// End ends the output of command id. complete is true when the
	// shell reported the end with the command's exit status; it is false
	// when the output was cut short (a new command began without an end
	// mark, or the Scanner was closed), and status is then -1.
	End(id ID, status int, complete bool)
}

// Withholder is a [Sink] that can be told to keep none of a command's
// output: the command printed a secret.
type Withholder interface {
	// Withhold drops what the sink holds of the output of command id;
	// no more of it comes.
	Withhold(id ID)
}

// Scanner is a streaming filter over the bytes a shell writes to its
// terminal. It forwards every byte to its writer except hookd's private
// marks, which it strips, and reports the output of each command to a
// [Sink].
//
// # Mark format
//
// hookd's shell hooks print two private marks per command, as OSC
// sequences in a private number space (6973 is not used by any terminal
// known to us, and the second field "hookd" names the owner):
//
//	ESC ] 6973 ; hookd ; NONCE ; C ; SESSION ; SEQ ST
//	ESC ] 6973 ; hookd ; NONCE ; D ; SESSION ; SEQ ; STATUS ST
//	ESC ] 6973 ; hookd ; NONCE ; X ; SESSION ; SEQ ST
//
// where ST is BEL (0x07) or ESC \. The C mark goes right after the
// OSC 133;C mark (output start), the D mark right before the OSC 133;D
// mark (command end), so the bytes between the two private marks are
// exactly what the command wrote:
//
//	preexec: ESC]133;C BEL  ESC]6973;hookd;NONCE;C;SESSION;SEQ BEL
//	precmd:  ESC]6973;hookd;NONCE;D;SESSION;SEQ;STATUS BEL  ESC]133;D;STATUS BEL  ESC]133;A BEL
//
// and one mark that a hookd command prints itself, on the proxy's
// terminal, before it prints a secret (see [WithholdMark]):
//
//	ESC ] 6973 ; hookd ; NONCE ; S ST
//
// and two that the hooks print around a hook of another tool that prints
// status lines while a command runs (direnv's chpwd hook in zsh; see
// [PauseMark]):
//
//	ESC ] 6973 ; hookd ; NONCE ; P ST
//	ESC ] 6973 ; hookd ; NONCE ; R ST
//
// Fields:
//   - NONCE is the Scanner's secret (see [NewNonce]);
//   - SESSION is 1 to 128 printable ASCII characters other than space
//     and ';' (hookd's HOOKD_SESSION);
//   - SEQ is 1 to 19 decimal digits, the command's sequence number within
//     its session (the history row is identified by SESSION and SEQ);
//   - STATUS is the exit status: an optional '-' and 1 to 9 digits.
//
// Anything that deviates from this grammar in any byte, or carries
// another nonce, is not a mark: it is ordinary output, forwarded and
// captured like any other byte.
//
// # Which bytes belong to which command
//
// The output of a command is every byte between a valid private C mark
// and the valid private D mark with the same session and sequence number
// (marks built by [BeginMark] and [EndMark]). OSC 133 marks are
// forwarded unchanged, so terminals that understand them gain prompt
// navigation, but they never start or end a capture: a command that
// prints OSC 133 bytes itself (cat of a recorded session, a nested shell,
// a test suite) changes nothing.
//
// # Anti-spoofing rule
//
// A private mark is valid only when it carries the Scanner's nonce, a
// secret the proxy creates per shell ([NewNonce]) and passes to the
// hooks in [NonceEnv]. Marks with another nonce, or
// malformed in any byte, are ordinary output: forwarded and captured. Of
// the valid marks:
//   - a C mark begins a command; if another command is still open, that
//     one is ended first as incomplete (its end mark was lost);
//   - a D mark ends the open command if its session and sequence number
//     match it, and is otherwise ignored (stripped, with no effect);
//   - an X mark does the same but ends the command as incomplete (End
//     with complete false): the shell did not record the command (bash
//     knows only once it has run), so its output must not be kept.
//   - an S mark withholds the open command's output (and is otherwise
//     ignored): the sink gets no more of its output, and one that is a
//     [Withholder] is told to drop what it has; the end mark ends the
//     command as usual.
//   - a P mark pauses the open command's capture and an R mark resumes
//     it: the bytes between them are forwarded but not captured. A C or
//     D mark ends the pause, so a lost R mark costs at most the rest of
//     one command's output. Without the nonce a P mark cannot be forged,
//     so a command's own output cannot hide the rest of it.
//
// The nonce protects against accidents and stray bytes, not against
// hostile code running as the user, which could read the shell's memory
// (and write the history) anyway.
//
// Marks may be split across Write calls at any byte: a possible mark at
// the end of a Write (at most a few hundred bytes, starting with ESC) is
// held back until the next Write, [Scanner.Flush] or [Scanner.Close]
// settles it. Holding back an unfinished escape sequence does not change
// what the terminal shows, since a terminal too waits for its end.
//
// Plain text costs little more than the copy to the writer: the Scanner
// looks only at ESC bytes (found with bytes.IndexByte) and at the few
// bytes after each.
//
// A Scanner is not safe for concurrent use.
type Scanner struct {
	out     io.Writer
	sink    Sink
	nonce   string
	open    bool
	held    bool // the open command's output is withheld (an S mark)
	paused  bool // the capture is paused (a P mark not yet followed by an R mark)
	cur     ID
	pending []byte // a possible mark held back from the previous Write
	scratch []byte
	err     error
}

// NewScanner returns a Scanner that forwards to out and reports to sink.
// Only private marks carrying nonce are honoured; with an empty nonce no
// mark is, and the Scanner forwards everything and captures nothing, and
// the same holds for a nonce that no mark can carry (longer than 128
// bytes, or with bytes other than printable ASCII, or with ';'). Use
// [NewNonce].
// sink may be nil, which also captures nothing but still strips valid
// marks.
func NewScanner(out io.Writer, sink Sink, nonce string) *Scanner {
	return &Scanner{out: out, sink: sink, nonce: nonce}
}

// Write forwards p to the Scanner's writer without the valid private
// marks and reports the commands it sees to the sink. It returns len(p)
// unless the writer fails; after that error the Scanner is broken and
// returns the same error from every call.
func (s *Scanner) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n := len(p)
	for len(s.pending) > 0 {
		np := len(s.pending)
		buf := append(append(s.scratch[:0], s.pending...), p[:min(len(p), maxMark)]...)
		s.scratch = buf
		m, res, mk := matchMark(buf, s.nonce)
		switch res {
		case needMore:
			s.pending = append(s.pending[:0], buf...)
			return n, nil
		case isMark:
			s.pending = s.pending[:0]
			s.mark(mk)
			p = p[m-np:]
		default:
			// The held ESC is ordinary output; rescan what follows it.
			e := bytes.IndexByte(s.pending[1:], 0x1b)
			if e < 0 {
				s.plain(s.pending)
				s.pending = s.pending[:0]
			} else {
				s.plain(s.pending[:e+1])
				s.pending = s.pending[:copy(s.pending, s.pending[e+1:])]
			}
		}
		if s.err != nil {
			return 0, s.err
		}
	}
	s.scan(p)
	if s.err != nil {
		return 0, s.err
	}
	return n, nil
}

// scan processes p with nothing held back.
func (s *Scanner) scan(p []byte) {
	start := 0 // first byte of p not yet forwarded
	i := 0     // where to look for the next ESC
	for s.err == nil {
		e := bytes.IndexByte(p[i:], 0x1b)
		if e < 0 {
			s.plain(p[start:])
			return
		}
		i += e
		if i+1 < len(p) && p[i+1] != ']' {
			i++ // the common case: CSI and other sequences
			continue
		}
		m, res, mk := matchMark(p[i:], s.nonce)
		switch res {
		case isMark:
			s.plain(p[start:i])
			s.mark(mk)
			i += m
			start = i
		case needMore:
			s.plain(p[start:i])
			s.pending = append(s.pending[:0], p[i:]...)
			return
		default:
			i++
		}
	}
}

// plain forwards p and captures it if a command is open.
func (s *Scanner) plain(p []byte) {
	if len(p) == 0 || s.err != nil {
		return
	}
	if _, err := s.out.Write(p); err != nil {
		s.err = err
		return
	}
	if s.open && !s.held && !s.paused && s.sink != nil {
		s.sink.Output(p)
	}
}

// mark acts on a valid private mark.
func (s *Scanner) mark(m mark) {
	if m.pause || m.resume {
		s.paused = m.pause && s.open
		return
	}
	if m.withhold {
		if s.open && !s.held {
			s.held = true
			if w, ok := s.sink.(Withholder); ok {
				w.Withhold(s.cur)
			}
		}
		return
	}
	if !m.end {
		s.endOpen()
		s.open, s.held, s.paused, s.cur = true, false, false, m.id
		if s.sink != nil {
			s.sink.Begin(m.id)
		}
		return
	}
	if s.open && m.id == s.cur {
		s.open, s.paused = false, false
		if s.sink != nil {
			s.sink.End(m.id, m.status, !m.discard)
		}
	}
}

// endOpen ends the open command, if any, as incomplete.
func (s *Scanner) endOpen() {
	if s.open {
		s.open = false
		if s.sink != nil {
			s.sink.End(s.cur, -1, false)
		}
	}
}

// Flush forwards the bytes held back as a possible mark, as ordinary
// output. It is never needed for correctness: until the rest of a
// sequence arrives, a terminal that got the held bytes would only be
// waiting for it. A proxy may call it when the shell's output has paused
// for a while (the hooks print each mark in one write, so a real mark is
// not left half-written for long).
func (s *Scanner) Flush() error {
	if s.err != nil {
		return s.err
	}
	p := s.pending
	s.pending = nil
	s.plain(p)
	return s.err
}

// Close flushes the held-back bytes and ends the open command, if any, as
// incomplete. It does not close the writer.
func (s *Scanner) Close() error {
	err := s.Flush()
	s.endOpen()
	return err
}
