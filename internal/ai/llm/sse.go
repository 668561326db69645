package llm

import (
	"bufio"
	"io"
	"strings"
)

// sseEvent is one server-sent event.
type sseEvent struct {
	Event string // the event: field ("" if none)
	Data  string // the data: fields, joined by newlines
}

// sseReader reads server-sent events (the text/event-stream format):
// comment lines (": keep-alive") are skipped, CRLF and LF both end lines.
type sseReader struct {
	r *bufio.Reader
}

func newSSEReader(r io.Reader) *sseReader {
	return &sseReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// Next returns the next event; io.EOF at the end of a stream that ended
// cleanly (an event not followed by its blank line is still returned).
func (s *sseReader) Next() (sseEvent, error) {
	var ev sseEvent
	var data []string
	seen := false
	for {
		line, err := s.r.ReadString('\n')
		if err != nil && (err != io.EOF || line == "") {
			if err == io.EOF && seen {
				ev.Data = strings.Join(data, "\n")
				return ev, nil
			}
			return sseEvent{}, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if !seen {
				continue
			}
			ev.Data = strings.Join(data, "\n")
			return ev, nil
		}
		if line[0] == ':' {
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "data":
			data = append(data, value)
			seen = true
		case "event":
			ev.Event = value
			seen = true
		}
	}
}
