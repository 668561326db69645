package units

import (
	"testing"
	"time"
)

func TestDuration(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{-time.Second, "0s"},
		{0, "0s"},
		{1 * time.Microsecond, "1µs"},
		{999 * time.Microsecond, "999µs"},
		{time.Millisecond, "1.0ms"},
		{4250 * time.Microsecond, "4.2ms"},
		{10 * time.Millisecond, "10ms"},
		{999 * time.Millisecond, "999ms"},
		{time.Second, "1.0s"},
		{4200 * time.Millisecond, "4.2s"},
		{59*time.Second + 940*time.Millisecond, "59.9s"},
		{time.Minute, "1m00s"},
		{3*time.Minute + 7*time.Second, "3m07s"},
		{59*time.Minute + 59*time.Second, "59m59s"},
		{time.Hour, "1h00m"},
		{5*time.Hour + 2*time.Minute, "5h02m"},
		{99*time.Hour + 59*time.Minute, "99h59m"},
		{100 * time.Hour, "4d04h"},
		{10*24*time.Hour + 4*time.Hour + 59*time.Minute, "10d04h"},
	} {
		if got := Duration(c.d); got != c.want {
			t.Errorf("Duration(%v) = %q; want %q", c.d, got, c.want)
		}
	}
	if got := Micros(1500000); got != "1.5s" {
		t.Errorf("Micros(1500000) = %q; want 1.5s", got)
	}
}

func TestSize(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0B"},
		{1023, "1023B"},
		{1024, "1.0K"},
		{3482, "3.4K"},
		{10 << 10, "10K"},
		{(1 << 20) - 1, "1023K"},
		{1 << 20, "1.0M"},
		{1572864, "1.5M"},
		{10 << 20, "10M"},
		{5 << 30, "5120M"},
	} {
		if got := Size(c.n); got != c.want {
			t.Errorf("Size(%d) = %q; want %q", c.n, got, c.want)
		}
	}
}

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 commands"}, {1, "1 command"}, {2, "2 commands"}, {1000, "1000 commands"}} {
		if got := Count(c.n, "command"); got != c.want {
			t.Errorf("Count(%d) = %q; want %q", c.n, got, c.want)
		}
	}
}
