package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"time"
)

// Request is one call to the daemon: one JSON line on the socket.
type Request struct {
	Op string `json:"op"` // "status", "flush" or "stop"
}

// Status is the daemon's answer: one JSON line.
type Status struct {
	OK         bool   `json:"ok"`
	Error      string `json:"error,omitempty"`
	PID        int    `json:"pid"`
	Version    string `json:"version"`
	StartedAt  string `json:"started_at"`
	LastIngest string `json:"last_ingest,omitempty"`
	Ingested   int64  `json:"ingested"`
	Ignored    int64  `json:"ignored"`
	Bad        int64  `json:"bad"`
	LastError  string `json:"last_error,omitempty"`
}

// Call sends req to the daemon listening on sock and returns its answer.
func Call(ctx context.Context, sock string, req Request) (Status, error) {
	var st Status
	d := net.Dialer{}
	conn, err := d.DialContext(ctx, "unix", sock)
	if err != nil {
		return st, fmt.Errorf("daemon: %w", err)
	}
	defer conn.Close()
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(5 * time.Second)
	}
	conn.SetDeadline(deadline)
	if err := json.NewEncoder(conn).Encode(req); err != nil {
		return st, fmt.Errorf("daemon: %w", err)
	}
	line, err := bufio.NewReader(conn).ReadBytes('\n')
	if err != nil {
		return st, fmt.Errorf("daemon: %w", err)
	}
	if err := json.Unmarshal(line, &st); err != nil {
		return st, fmt.Errorf("daemon: bad answer: %w", err)
	}
	if !st.OK {
		return st, fmt.Errorf("daemon: %s", st.Error)
	}
	return st, nil
}
