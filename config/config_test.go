package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadMissingIsDefault(t *testing.T) {
	c, warns := Load(filepath.Join(t.TempDir(), "none.yaml"), "/home/u")
	if len(warns) != 0 || c.Capture != "" || len(c.IgnoreRE) != 0 {
		t.Errorf("Load(missing) = %+v, %q; want defaults, no warnings", c, warns)
	}
}

func TestLoadGood(t *testing.T) {
	p := write(t, Example)
	c, warns := Load(p, "/home/u")
	if len(warns) != 0 {
		t.Fatalf("Load(Example) warnings: %q", warns)
	}
	if c.Capture != "pty" || len(c.IgnoreRE) != 1 || c.History.IgnoreDirs[0] != "/home/u/private" || len(c.Redact.Patterns) != 1 {
		t.Errorf("Load(Example) = %+v", c)
	}
	if !c.IgnoreRE[0].MatchString("ls") || c.IgnoreRE[0].MatchString("ls -la") {
		t.Errorf("ignore pattern compiled wrong")
	}
}

func TestLoadBad(t *testing.T) {
	tests := []struct {
		name, content string
		want          []string // substrings of the one warning
		defaults      bool     // the whole file is dropped
	}{
		{"unknown key", "capture: pty\nhistory:\n  ignre: [x]\n", []string{"config.yaml", "line 3", "ignre"}, true},
		{"syntax", "capture: [\n", []string{"config.yaml", "line 1"}, true},
		{"bad regex", "history:\n  ignore:\n    - 'a('\n    - '^ok$'\n", []string{"config.yaml:3", "history.ignore", "pattern skipped"}, false},
		{"bad capture", "capture: sometimes\n", []string{"config.yaml:1", "capture must be pty or off"}, false},
		{"bad redact regex", "redact:\n  patterns: ['(?P<secret>x']\n", []string{"config.yaml:2", "redact.patterns"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, warns := Load(write(t, tt.content), "/home/u")
			if len(warns) != 1 {
				t.Fatalf("Load(%q) warnings = %q; want one", tt.content, warns)
			}
			for _, w := range tt.want {
				if !strings.Contains(warns[0], w) {
					t.Errorf("Load(%q) warning %q lacks %q", tt.content, warns[0], w)
				}
			}
			if tt.name == "bad regex" && len(c.IgnoreRE) != 1 {
				t.Errorf("the good pattern was not kept: %+v", c.History.Ignore)
			}
			if tt.defaults && (c.Capture != "" || len(c.IgnoreRE) != 0) {
				t.Errorf("want defaults, got %+v", c)
			}
		})
	}
}

func TestLoadPatterns(t *testing.T) {
	p := write(t, ExamplePatterns)
	ps, warns := LoadPatterns(p)
	if len(warns) != 0 || len(ps) != 1 || ps[0].Name != "terraform-init" || len(ps[0].Fixes) != 1 || ps[0].Fixes[0].Command != "{init} && {command}" {
		t.Fatalf("LoadPatterns(example) = %+v, %q", ps, warns)
	}
	ps, warns = LoadPatterns(write(t, "- name: x\n  outptu: y\n"))
	if len(ps) != 0 || len(warns) != 1 || !strings.Contains(warns[0], "line 2") {
		t.Errorf("LoadPatterns(typo) = %+v, %q; want no patterns and a warning with the line", ps, warns)
	}
	if ps, warns := LoadPatterns(filepath.Join(t.TempDir(), "none")); ps != nil || warns != nil {
		t.Errorf("LoadPatterns(missing) = %v, %v", ps, warns)
	}
}

func TestOutputSettings(t *testing.T) {
	c, warns := Load(filepath.Join(t.TempDir(), "none.yaml"), "/home/u")
	if len(warns) != 0 || c.OutputLimit != 1<<20 || c.OutputKeepBytes != 500<<20 || c.OutputKeepDays != 90 {
		t.Errorf("defaults = %d, %d, %d, %q", c.OutputLimit, c.OutputKeepBytes, c.OutputKeepDays, warns)
	}
	for _, tt := range []struct {
		yaml        string
		limit, keep int64
		days        int
		warn        string
	}{
		{"output:\n  limit: 64KiB\n  keep_size: 1GB\n  keep_days: 7\n", 64 << 10, 1e9, 7, ""},
		{"output:\n  limit: 2097152\n  keep_size: 0\n  keep_days: 0\n", 2 << 20, 0, 0, ""},
		{"output:\n  limit: '2 m'\n", 2 << 20, 500 << 20, 90, ""},
		{"output:\n  limit: 10\n", 1 << 20, 500 << 20, 90, "config.yaml:2: output.limit: 10 bytes is below the minimum"},
		{"output:\n  keep_size: lots\n", 1 << 20, 500 << 20, 90, "config.yaml:2: output.keep_size: size \"lots\""},
		{"output:\n  keep_size: 5XB\n", 1 << 20, 500 << 20, 90, "unknown unit"},
		{"output:\n  keep_days: -1\n", 1 << 20, 500 << 20, 90, "config.yaml:2: output.keep_days must be 0"},
	} {
		c, warns := Load(write(t, tt.yaml), "/home/u")
		if c.OutputLimit != tt.limit || c.OutputKeepBytes != tt.keep || c.OutputKeepDays != tt.days {
			t.Errorf("%q: got %d, %d, %d; want %d, %d, %d", tt.yaml, c.OutputLimit, c.OutputKeepBytes, c.OutputKeepDays, tt.limit, tt.keep, tt.days)
		}
		if (tt.warn == "") != (len(warns) == 0) || (tt.warn != "" && !strings.Contains(strings.Join(warns, "\n"), tt.warn)) {
			t.Errorf("%q: warnings %q; want %q", tt.yaml, warns, tt.warn)
		}
	}
}

func TestFixSettings(t *testing.T) {
	c, warns := Load(write(t, "fix:\n  command: ''\n  key: '^[x'\n  learn: true\n"), "/h")
	if len(warns) != 0 || c.FixCommand != "" || c.FixKey != "^[x" || !c.Fix.Learn {
		t.Errorf("got %q %q %v, %q", c.FixCommand, c.FixKey, c.Fix.Learn, warns)
	}
	c, warns = Load(write(t, "fix:\n  command: 'rm -rf'\n  key: '^1'\n"), "/h")
	if len(warns) != 2 || c.FixCommand != "fix" || c.FixKey != "^Xf" {
		t.Errorf("bad values: got %q %q, %q; want the defaults and two warnings", c.FixCommand, c.FixKey, warns)
	}
	for key, want := range map[string]string{"^Xf": "\x18f", `\ef`: "\x1bf", "^?": "\x7f", "^x^f": "\x18\x06", "": ""} {
		if b, err := KeyBytes(key); err != nil || string(b) != want {
			t.Errorf("KeyBytes(%q) = %q, %v; want %q", key, b, err, want)
		}
	}
}
