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

// drainWait bounds how long the end of the input waits for the next
// answer: thousands of requests take longer than that in all, but while
// answers come, it waits.
var drainWait = 30 * time.Second

// A JSON array is a JSON-RPC batch. MCP 2025-06-18 removed batching, and
// the SDK ends the session at a batch it does not take: any batch once a
// version from 2025-06-18 on is agreed (or none yet), an empty one, one
// with an element that is not a message or a repeated id. guard passes a
// batch on only where the SDK answers it (a well-formed batch under an
// older version), and otherwise answers it itself as JSON-RPC says: an
// empty batch with one error, any other with an array holding an error
// for each request (with its id, so that the client's call ends) and for
// each element that is not a message (id null); notifications get none.

// batchless is the first MCP version without JSON-RPC batches.
const batchless = "2025-06-18"

// lockedWriter serialises whole messages from the SDK and from guard, and
// counts off the requests they answer.
type lockedWriter struct {
	mu      sync.Mutex
	w       io.Writer
	pending map[string]bool // the ids of the requests not answered yet
	partial []byte          // a message the SDK has not finished writing
	changed chan struct{}   // closed (and replaced) when pending shrinks
	version string          // the MCP version agreed in the initialize answer
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
			if bytes.Contains(l.partial[:i], []byte(`"protocolVersion"`)) {
				var init struct {
					Result struct {
						ProtocolVersion string `json:"protocolVersion"`
					} `json:"result"`
				}
				if json.Unmarshal(l.partial[:i], &init) == nil && init.Result.ProtocolVersion != "" {
					l.version = init.Result.ProtocolVersion
				}
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

// batch decides what becomes of a batch: answered here (answer, nil when
// it holds no request to answer), or passed on to the SDK as the lines of
// forward: its requests as one batch, and each other message on a line of
// its own (the SDK loses the answers of a batch that mixes requests and
// notifications; JSON-RPC leaves their order to the server).
func (l *lockedWriter) batch(items []json.RawMessage) (answer []byte, forward [][]byte) {
	if len(items) == 0 {
		return errorLine(nil, -32600, "Invalid Request: an empty batch"), nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	why := "Invalid Request: JSON-RPC batches are not part of MCP " + batchless + " and later (this session's version is " +
		l.version + "): send each message on a line of its own"
	if l.version == "" {
		why = "Invalid Request: a batch before the session is initialized"
	}
	pass := l.version != "" && l.version < batchless
	msgs := make([]jsonrpc.Message, len(items))
	seen := map[string]bool{}
	for i, raw := range items {
		m, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			pass = false
			continue
		}
		msgs[i] = m
		if r, ok := m.(*jsonrpc.Request); ok && r.IsCall() {
			id := fmt.Sprint(r.ID.Raw())
			if seen[id] || l.pending[id] {
				pass = false
				why = "Invalid Request: the batch repeats the id of a request not answered yet"
			}
			seen[id] = true
		}
	}
	if pass {
		var calls []json.RawMessage
		for i, m := range msgs {
			if r, ok := m.(*jsonrpc.Request); ok && r.IsCall() {
				calls = append(calls, items[i])
			} else {
				forward = append(forward, items[i])
			}
		}
		if len(calls) > 0 {
			b, _ := json.Marshal(calls)
			forward = append(forward, b)
		}
		return nil, forward
	}
	var answers []json.RawMessage
	for i, m := range msgs {
		switch m := m.(type) {
		case nil:
			answers = append(answers, errorMessage(nil, -32600, fmt.Sprintf("Invalid Request: element %d of the batch is not a JSON-RPC message", i+1)))
		case *jsonrpc.Request:
			if m.IsCall() {
				id, _ := json.Marshal(m.ID.Raw())
				answers = append(answers, errorMessage(id, -32600, why))
			}
		}
	}
	if len(answers) == 0 {
		return nil, nil
	}
	b, _ := json.Marshal(answers)
	return append(b, '\n'), nil
}

// batchOf is batch for a line that is a JSON array; any other line is
// passed on as it is.
func (l *lockedWriter) batchOf(line []byte) (answer []byte, forward [][]byte) {
	if i := bytes.IndexAny(line, "[{"); i < 0 || line[i] != '[' {
		return nil, [][]byte{line}
	}
	var items []json.RawMessage
	if json.Unmarshal(line, &items) != nil {
		return nil, [][]byte{line}
	}
	return l.batch(items)
}

// drain waits until every request passed on has been answered, or until
// drainWait has passed without an answer.
func (l *lockedWriter) drain() {
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
		deadline := time.NewTimer(drainWait)
		select {
		case <-ch:
			deadline.Stop()
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
					resp, forward := out.batchOf(line)
					if resp != nil {
						out.Write(resp)
					}
					for _, m := range forward {
						out.expect(m)
						if _, werr := pw.Write(append(m, '\n')); werr != nil {
							return
						}
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
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	var id json.RawMessage
	if json.Unmarshal(line, &probe) == nil && len(probe.ID) > 0 {
		id = probe.ID
	}
	return errorLine(id, code, msg)
}

// errorMessage is a JSON-RPC error response (id nil: null).
func errorMessage(id json.RawMessage, code int, msg string) json.RawMessage {
	var v any
	if id != nil {
		v = id
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": v, "error": map[string]any{"code": code, "message": msg}})
	return b
}

// errorLine is errorMessage on a line of its own.
func errorLine(id json.RawMessage, code int, msg string) []byte {
	return append(errorMessage(id, code, msg), '\n')
}
