package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rivo/uniseg"
)

// screen is a small terminal for tests: it understands printable text
// (wrapping at the width, after the last column is written), newline (as a
// tty prints it: to the first column of the next row), carriage return, and
// the Writer's own sequences — SGR, cursor up, erase below — and fails on
// anything else, so that a test also proves nothing else was printed.
type screen struct {
	width  int
	cells  [][]string
	row    int
	col    int
	wrap   bool // the last column was written: the next character wraps
	colour bool // an SGR with a colour was seen
}

func newScreen(width int) *screen { return &screen{width: width, cells: [][]string{nil}} }

func (s *screen) put(cluster string, w int) {
	if w == 0 {
		// A character of no width joins the one before it.
		last := s.col - 1
		if s.wrap {
			last = s.col
		}
		if row := s.cells[s.row]; last >= 0 && last < len(row) {
			row[last] += cluster
		}
		return
	}
	if s.wrap || s.col+w > s.width {
		s.newline()
	}
	for len(s.cells[s.row]) < s.col+w {
		s.cells[s.row] = append(s.cells[s.row], " ")
	}
	s.cells[s.row][s.col] = cluster
	for i := 1; i < w; i++ {
		s.cells[s.row][s.col+i] = ""
	}
	s.col += w
	if s.col == s.width {
		s.col--
		s.wrap = true
	}
}

func (s *screen) newline() {
	s.row++
	s.col = 0
	s.wrap = false
	for len(s.cells) <= s.row {
		s.cells = append(s.cells, nil)
	}
}

// write interprets out, or returns an error that says what it did not
// understand.
func (s *screen) write(out string) error {
	for out != "" {
		switch c := out[0]; {
		case c == '\n':
			s.newline()
			out = out[1:]
		case c == '\t':
			s.put(" ", 1)
			for s.col%8 != 0 && !s.wrap {
				s.put(" ", 1)
			}
			out = out[1:]
		case c == '\r':
			s.col, s.wrap = 0, false
			out = out[1:]
		case c == 0x1b:
			n, err := s.escape(out)
			if err != nil {
				return err
			}
			out = out[n:]
		case c < 0x20 || c == 0x7f:
			return fmt.Errorf("control character %q in output", c)
		default:
			cluster, rest, w, _ := uniseg.FirstGraphemeClusterInString(out, -1)
			for _, r := range cluster {
				if r >= 0x80 && r < 0xa0 {
					return fmt.Errorf("C1 control %U in output", r)
				}
			}
			s.put(cluster, w)
			out = rest
		}
	}
	return nil
}

func (s *screen) escape(out string) (int, error) {
	if len(out) < 2 || out[1] != '[' {
		return 0, fmt.Errorf("escape sequence %q is not CSI", head(out))
	}
	i := 2
	for i < len(out) && (out[i] >= '0' && out[i] <= '9' || out[i] == ';' || out[i] == ':') {
		i++
	}
	if i == len(out) {
		return 0, fmt.Errorf("unfinished CSI %q", out)
	}
	params := out[2:i]
	switch out[i] {
	case 'm':
		if params != "" && params != "0" && params != "2" && params != "22" {
			s.colour = true
		}
	case 'A':
		n, err := strconv.Atoi(params)
		if err != nil || n < 1 {
			return 0, fmt.Errorf("cursor up %q", out[:i+1])
		}
		s.row = max(s.row-n, 0)
		s.wrap = false
	case 'J':
		if params != "" {
			return 0, fmt.Errorf("erase %q", out[:i+1])
		}
		if s.col < len(s.cells[s.row]) {
			s.cells[s.row] = s.cells[s.row][:s.col]
		}
		s.cells = s.cells[:s.row+1]
	default:
		return 0, fmt.Errorf("CSI %q is not the writer's", out[:i+1])
	}
	return i + 1, nil
}

func head(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// text returns the screen's rows, trailing spaces and trailing empty rows
// removed.
func (s *screen) text() string {
	var b strings.Builder
	for _, row := range s.cells {
		b.WriteString(strings.TrimRight(strings.Join(row, ""), " "))
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}
