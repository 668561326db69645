package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"

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

// lockedWriter serialises whole messages from the SDK and from guard.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// guard returns the lines of in that are JSON-RPC messages, answering the
// others on out.
func guard(in io.Reader, out io.Writer) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := readLine(br)
			if len(bytes.TrimSpace(line)) > 0 {
				if resp := check(line); resp != nil {
					out.Write(resp)
				} else if _, werr := pw.Write(append(line, '\n')); werr != nil {
					return
				}
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr
}

var errTooLong = errors.New("line too long")

// readLine reads one line without its newline; a line longer than
// maxLine is read to its end and returned as errTooLong's marker (nil
// content is never returned for it: a placeholder that is not JSON).
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
