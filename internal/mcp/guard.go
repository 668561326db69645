package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The SDK ends the session at the first line of its input that is not a
// JSON-RPC message. An agent's bug, or a stray line from whatever shares
// its pipe, would then take hookd's tools away for the rest of its
// session: guard answers such a line itself, as JSON-RPC says (-32700
// parse error, -32600 invalid request), and passes only well-formed lines
// on. MCP's stdio transport frames each message as one line.

// maxLine bounds one message (the SDK's own default bound).
const maxLine = 16 << 20

// The SDK also ends the session, and cancels the calls it is answering,
// as soon as its input ends: `printf '…' | hookd mcp` in a script, or an
// agent that writes its last request and closes the pipe, would lose the
// answers. guard holds the end of the input back until every request read
// has been answered (or drainWait has passed).

// drainWait bounds how long the end of the input waits for answers.
const drainWait = 30 * time.Second

// lockedWriter serialises whole messages from the SDK and from guard, and
// counts off the requests they answer.
type lockedWriter struct {
	mu      sync.Mutex
	w       io.Writer
	pending map[string]bool // the ids of the requests not answered yet
	partial []byte          // a message the SDK has not finished writing
	changed chan struct{}   // closed (and replaced) when pending shrinks
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.w.Write(p)
	if len(l.pending) > 0 {
		l.partial = append(l.partial, p[:n]...)
		for {
			i := bytes.IndexByte(l.partial, '\n')
			if i < 0 {
				break
			}
			for _, id := range messageIDs(l.partial[:i], false) {
				delete(l.pending, id)
			}
			l.partial = l.partial[i+1:]
		}
		if l.changed != nil {
			close(l.changed)
			l.changed = nil
		}
	}
	if len(l.pending) == 0 {
		l.partial = nil
	}
	return n, err
}

// expect notes the requests of a message that is passed on.
func (l *lockedWriter) expect(line []byte) {
	ids := messageIDs(line, true)
	if len(ids) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.pending == nil {
		l.pending = map[string]bool{}
	}
	for _, id := range ids {
		l.pending[id] = true
	}
}

// drain waits until every request passed on has been answered, or until
// drainWait has passed.
func (l *lockedWriter) drain() {
	deadline := time.NewTimer(drainWait)
	defer deadline.Stop()
	for {
		l.mu.Lock()
		if len(l.pending) == 0 {
			l.mu.Unlock()
			return
		}
		if l.changed == nil {
			l.changed = make(chan struct{})
		}
		ch := l.changed
		l.mu.Unlock()
		select {
		case <-ch:
		case <-deadline.C:
			return
		}
	}
}

// messageIDs are the ids of the requests (requests true) or responses
// (false) in one line: a message or a batch.
func messageIDs(line []byte, requests bool) []string {
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) != nil {
		batch = []json.RawMessage{line}
	}
	var ids []string
	for _, m := range batch {
		msg, err := jsonrpc.DecodeMessage(m)
		if err != nil {
			continue
		}
		switch m := msg.(type) {
		case *jsonrpc.Request:
			if requests && m.IsCall() {
				ids = append(ids, fmt.Sprint(m.ID.Raw()))
			}
		case *jsonrpc.Response:
			if !requests {
				ids = append(ids, fmt.Sprint(m.ID.Raw()))
			}
		}
	}
	return ids
}

// guard returns the lines of in that are JSON-RPC messages, answering the
// others on out; its end comes once the requests read have been answered.
func guard(in io.Reader, out *lockedWriter) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := readLine(br)
			if len(bytes.TrimSpace(line)) > 0 {
				if resp := check(line); resp != nil {
					out.Write(resp)
				} else {
					out.expect(line)
					if _, werr := pw.Write(append(line, '\n')); werr != nil {
						return
					}
				}
			}
			if err != nil {
				out.drain()
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr
}

// readLine reads one line without its newline; a line longer than
// maxLine is read to its end and returned as a placeholder that is not
// JSON (nil content is never returned for it).
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	long := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !long {
			line = append(line, chunk...)
			if len(line) > maxLine {
				line, long = []byte("\x00line too long"), true
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), err
	}
}

// check returns the error response for a line that is not a JSON-RPC
// message, or nil for one that is.
func check(line []byte) []byte {
	code, msg := 0, ""
	switch {
	case !json.Valid(line):
		code, msg = -32700, "Parse error: the line is not JSON (each MCP message is one line of JSON)"
	default:
		var batch []json.RawMessage
		if json.Unmarshal(line, &batch) == nil {
			return nil // a batch: the SDK answers it
		}
		if _, err := jsonrpc.DecodeMessage(line); err != nil {
			code, msg = -32600, "Invalid Request: "+err.Error()
		}
	}
	if code == 0 {
		return nil
	}
	var id any
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &probe) == nil && len(probe.ID) > 0 {
		id = probe.ID
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	return append(b, '\n')
}
