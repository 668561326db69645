package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
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
	p := filepath.Join(t.TempDir(), "none.yaml")
	c, warns := Load(p, "/home/u")
	if len(warns) != 0 || !reflect.DeepEqual(c, Defaults()) {
		t.Errorf("Load(%q) = %+v, %v; want the defaults, no warnings", p, c, warns)
	}
	d := Defaults()
	if d.Capture != CapturePTY || d.Output.Limit != 1<<20 || d.Output.KeepSize != 500<<20 || d.Output.KeepDays != 90 ||
		d.Fix.Command != "fix" || d.Fix.Key != "^Xf" || d.Fix.AIKey != "^Xl" || d.LLM.Provider != ProviderAuto || d.Ask.Prefix != "??" || !d.Ask.Offer {
		t.Errorf("Defaults() = %+v", d)
	}
}

func TestLoadEmpty(t *testing.T) {
	for _, content := range []string{"", "# nothing yet\n", "---\n"} {
		c, warns := Load(write(t, content), "/home/u")
		if len(warns) != 0 || !reflect.DeepEqual(c, Defaults()) {
			t.Errorf("Load(%q) = %+v, %v; want the defaults, no warnings", content, c, warns)
		}
	}
}

func TestLoadExample(t *testing.T) {
	c, warns := Load(write(t, Example), "/home/u")
	if len(warns) != 0 {
		t.Fatalf("Load(Example) warnings: %v", warns)
	}
	if c.Capture != CapturePTY || c.History.IgnoreDirs[0] != "/home/u/private" || len(c.Redact.Patterns) != 1 ||
		c.Fix.Command != "fix" || c.Fix.Key != "^Xf" || c.Output.Limit != 1<<20 {
		t.Errorf("Load(Example) = %+v", c)
	}
	if len(c.History.Ignore) != 1 || !c.History.Ignore[0].MatchString("ls") || c.History.Ignore[0].MatchString("ls -la") {
		t.Errorf("Load(Example) ignore = %v; want ^(ls|cd|pwd)$, compiled", c.History.Ignore)
	}
	if got := c.Redact.Patterns.Sources(); !reflect.DeepEqual(got, []string{"INTERNAL-[0-9a-f]{32}"}) {
		t.Errorf("Load(Example) redact sources = %q", got)
	}
	if !reflect.DeepEqual(c.LLM, Defaults().LLM) || !reflect.DeepEqual(c.Ask, Defaults().Ask) {
		t.Errorf("Load(Example) llm, ask = %+v, %+v; want the defaults (they are commented out)", c.LLM, c.Ask)
	}
}

// TestLoadExampleLLM loads the example's llm and ask sections with their
// comment marks taken away.
func TestLoadExampleLLM(t *testing.T) {
	i := strings.Index(Example, "# llm:")
	content := Example[:i] + strings.ReplaceAll(Example[i+2:], "\n# ", "\n")
	if !strings.Contains(content, "\nllm:") || !strings.Contains(content, "\n  profiles:") {
		t.Fatalf("the example's llm and ask sections were not uncommented:\n%s", content)
	}
	c, warns := Load(write(t, content), "/home/u")
	if len(warns) != 0 {
		t.Fatalf("Load(Example uncommented) warnings: %v\n%s", warns, content)
	}
	llm := LLM{Provider: ProviderAuto, Model: "llama3.2", BaseURL: "http://localhost:11434", APIKeyEnv: "OPENAI_API_KEY",
		Command: "llm -m gpt-4o-mini", Timeout: Duration(time.Minute)}
	if c.LLM != llm {
		t.Errorf("Load(Example uncommented) llm = %+v; want %+v", c.LLM, llm)
	}
	a := c.Ask
	if a.Prefix != "??" || !a.Offer || a.Template != "$_LLM_PREPEND\n$_LAST\n" || a.Variables["TEAM"] != "platform" {
		t.Errorf("Load(Example uncommented) ask = %+v", a)
	}
	if len(a.Skills) != 1 || !a.Skills[0].Pattern.MatchString("prioritise") || a.Skills[0].LLMPrepend != "Sort by impact." {
		t.Errorf("Load(Example uncommented) skills = %+v", a.Skills)
	}
	cc := ContextCommand{Name: "Git Status", Command: "git status --short", OnFailure: OnFailureWarn, Timeout: Duration(5 * time.Second)}
	if len(a.ContextCommands) != 1 || a.ContextCommands[0] != cc {
		t.Errorf("Load(Example uncommented) context commands = %+v; want %+v", a.ContextCommands, cc)
	}
	if p := a.Profiles["work"]; p.When.Cwd != "/home/u/work/*" || p.Variables["TEAM"] != "payments" {
		t.Errorf("Load(Example uncommented) profile work = %+v", p)
	}
}

func TestLoadValues(t *testing.T) {
	tests := []struct {
		content string
		check   func(Config) bool
	}{
		{"capture: off\n", func(c Config) bool { return c.Capture == CaptureOff }},
		{"output:\n  limit: 64KiB\n  keep_size: 1GB\n  keep_days: 7\n", func(c Config) bool {
			return c.Output == Output{Limit: 64 << 10, KeepSize: 1e9, KeepDays: 7}
		}},
		{"output:\n  limit: 2097152\n  keep_size: 0\n  keep_days: 0\n", func(c Config) bool {
			return c.Output == Output{Limit: 2 << 20, KeepSize: 0, KeepDays: 0}
		}},
		{"output:\n  limit: '2 m'\n", func(c Config) bool { return c.Output.Limit == 2<<20 }},
		{"output:\n  limit:\n  keep_days:\n", func(c Config) bool { return c.Output == Defaults().Output }},
		{"fix:\n  command: ''\n  key: '^[x'\n  ai_key: ''\n  learn: true\n", func(c Config) bool {
			return reflect.DeepEqual(c.Fix, Fix{Command: "", Key: "^[x", Learn: true})
		}},
		{"fix:\n  command:\n  key:\n", func(c Config) bool { return reflect.DeepEqual(c.Fix, Defaults().Fix) }},
		{"history:\n  ignore_dirs: ['~', '~/a/../b', /x/, '']\n", func(c Config) bool {
			return reflect.DeepEqual(c.History.IgnoreDirs, []string{"/home/u", "/home/u/b", "/x"})
		}},
		{"llm:\n  provider: command\n  command: llm\n  timeout: 2.5\n", func(c Config) bool {
			return c.LLM.Provider == ProviderCommand && c.LLM.Timeout == Duration(2500*time.Millisecond)
		}},
		{"ask:\n  prefix: ''\n  offer: false\n  variables: {N: 5}\n", func(c Config) bool {
			return c.Ask.Prefix == "" && !c.Ask.Offer && c.Ask.Variables["N"] == "5"
		}},
		{"ask:\n  context_commands:\n    - command: make -n\n      timeout: 1m\n", func(c Config) bool {
			return len(c.Ask.ContextCommands) == 1 && c.Ask.ContextCommands[0] ==
				ContextCommand{Command: "make -n", OnFailure: OnFailureWarn, Timeout: Duration(time.Minute)}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.content, func(t *testing.T) {
			c, warns := Load(write(t, tt.content), "/home/u")
			if len(warns) != 0 || !tt.check(c) {
				t.Errorf("Load(%q) = %+v, %v; want no warnings and the values set", tt.content, c, warns)
			}
		})
	}
}

// TestLoadWarnings checks each warning's position and wording, and that the
// rest of the file still applies.
func TestLoadWarnings(t *testing.T) {
	tests := []struct {
		name, content string
		want          []string // each warning, after "config.yaml:"
		check         func(Config) bool
	}{
		{"comment names the key",
			"# limit: the output limit, such as 1MiB\noutput:\n  keep_days: 7\n  limit: lots\n",
			[]string{`4:10: output.limit: size "lots": want a number of bytes such as 1048576, 1MiB or 500KB; using 1MiB`},
			func(c Config) bool { return c.Output.Limit == 1<<20 && c.Output.KeepDays == 7 }},
		{"value names another key",
			"capture: off\nfix:\n  command: capture\n  key: capture off\n",
			[]string{`4:8: fix.key: key "capture off": use caret notation (^Xf is Ctrl-X then f); using ^Xf`},
			func(c Config) bool {
				return c.Capture == CaptureOff && c.Fix.Command == "capture" && c.Fix.Key == "^Xf"
			}},
		{"printable keys",
			"fix:\n  key: 12\n  ai_key: 'l^X'\n",
			[]string{
				`2:8: fix.key: key "12" starts with '1', a character typed as text, which it would take over; start it with a control key (^Xf is Ctrl-X then f); using ^Xf`,
				`3:11: fix.ai_key: key "l^X" starts with 'l', a character typed as text, which it would take over; start it with a control key (^Xf is Ctrl-X then f); using ^Xl`,
			},
			func(c Config) bool { return c.Fix.Key == "^Xf" && c.Fix.AIKey == "^Xl" }},
		{"AI key same as the fix key",
			"fix:\n  key: '^Xa'\n  ai_key: '^xa'\n",
			[]string{`3:11: fix.ai_key: the same key as fix.key; no AI key`},
			func(c Config) bool { return c.Fix.Key == "^Xa" && c.Fix.AIKey == "" }},
		{"unknown key",
			"capture: off\nhistory:\n  ignre: [x]\n",
			[]string{`3:3: history.ignre: unknown setting; ignored`},
			func(c Config) bool { return c.Capture == CaptureOff }},
		{"unknown section",
			"histroy:\n  ignore: [x]\ncapture: off\n",
			[]string{`1:1: histroy: unknown setting; ignored`},
			func(c Config) bool { return c.Capture == CaptureOff }},
		{"syntax",
			"capture: off\noutput: [\n",
			[]string{`2:9: sequence end token ']' not found; using the defaults`},
			func(c Config) bool { return reflect.DeepEqual(c, Defaults()) }},
		{"duplicate key",
			"capture: off\ncapture: pty\n",
			[]string{`2:1: mapping key "capture" already defined at [1:1]; using the defaults`},
			func(c Config) bool { return reflect.DeepEqual(c, Defaults()) }},
		{"not a mapping",
			"- capture\n",
			[]string{`1:1: want a mapping, not a sequence; using the defaults`},
			func(c Config) bool { return reflect.DeepEqual(c, Defaults()) }},
		{"bad capture",
			"capture: sometimes\n",
			[]string{`1:10: capture: want pty or off, not "sometimes"; using pty`},
			func(c Config) bool { return c.Capture == CapturePTY }},
		{"bad regex",
			"history:\n  ignore:\n    - 'a('\n    - '^ok$'\n",
			[]string{"3:7: history.ignore[0]: error parsing regexp: missing closing ): `a(`; skipped"},
			func(c Config) bool { return len(c.History.Ignore) == 1 && c.History.Ignore[0].String() == "^ok$" }},
		{"bad redact regex",
			"redact:\n  patterns: ['(?P<secret>x']\n",
			[]string{"2:14: redact.patterns[0]: error parsing regexp: missing closing ): `(?P<secret>x`; skipped"},
			func(c Config) bool { return len(c.Redact.Patterns) == 0 }},
		{"section of the wrong kind",
			"output: 5\ncapture: off\n",
			[]string{`1:9: output: want a mapping, not an int; using the defaults`},
			func(c Config) bool { return c.Output == Defaults().Output && c.Capture == CaptureOff }},
		{"limit too small",
			"output:\n  limit: 10\n",
			[]string{`2:10: output.limit: 10 bytes is below the minimum of 1KiB; using 1MiB`},
			func(c Config) bool { return c.Output.Limit == 1<<20 }},
		{"unknown unit",
			"output:\n  keep_size: 5XB\n",
			[]string{`2:14: output.keep_size: size "5XB": unknown unit "XB" (use K, M, G, KiB, MiB, GiB, KB, MB or GB); using 500MiB`},
			func(c Config) bool { return c.Output.KeepSize == 500<<20 }},
		{"negative size",
			"output:\n  keep_size: -5\n",
			[]string{`2:14: output.keep_size: size -5 is negative; using 500MiB`},
			nil},
		{"negative days",
			"output:\n  keep_days: -1\n",
			[]string{`2:14: output.keep_days: -1 days: want 0 or more; using 90`},
			func(c Config) bool { return c.Output.KeepDays == 90 }},
		{"days not a number",
			"output:\n  keep_days: soon\n",
			[]string{`2:14: output.keep_days: want a whole number, not "soon"; using 90`},
			nil},
		{"days overflow",
			"output:\n  keep_days: 99999999999999999999\n",
			[]string{`2:14: output.keep_days: 99999999999999999999 is too large; using 90`},
			nil},
		{"bad fix settings",
			"fix:\n  command: 'rm -rf'\n  key: '^1'\n  learn: maybe\n",
			[]string{
				`2:12: fix.command: fix command "rm -rf": want a plain name (letters, digits, _ and -), or '' for none; using fix`,
				`3:8: fix.key: key "^1": ^1 is not a control key; using ^Xf`,
				`4:10: fix.learn: want true or false, not "maybe"; using false`,
			},
			func(c Config) bool { return reflect.DeepEqual(c.Fix, Defaults().Fix) }},
		{"a bad name in fix.watch_env",
			"fix:\n  watch_env: [API_URL, 'NOT-A-NAME', DEPLOY_ENV]\n",
			[]string{
				`2:24: fix.watch_env[1]: "NOT-A-NAME" is not an environment variable's name; skipped`,
			},
			func(c Config) bool {
				return reflect.DeepEqual(c.Fix.WatchEnv, []EnvName{"API_URL", "DEPLOY_ENV"})
			}},
		{"in the file's order",
			"fix:\n  key: '^1'\ncapture: sometimes\n",
			[]string{
				`2:8: fix.key: key "^1": ^1 is not a control key; using ^Xf`,
				`3:10: capture: want pty or off, not "sometimes"; using pty`,
			},
			nil},
		{"unknown provider",
			"# provider: openai\nllm:\n  model: x\n  provider: gpt\n",
			[]string{`4:13: llm.provider: unknown provider "gpt" (want auto, openai, anthropic, ollama or command); using auto`},
			func(c Config) bool { return c.LLM.Provider == ProviderAuto && c.LLM.Model == "x" }},
		{"command provider without a command",
			"llm:\n  provider: command\n",
			[]string{`2:13: llm.provider: provider command needs llm.command; using auto`},
			func(c Config) bool { return c.LLM.Provider == ProviderAuto }},
		{"bad llm values",
			"llm:\n  base_url: 'ftp://x'\n  api_key_env: 'MY KEY'\n  timeout: soon\n",
			[]string{
				`2:13: llm.base_url: "ftp://x": want an http or https address such as http://localhost:11434; ignored`,
				`3:16: llm.api_key_env: "MY KEY" is not an environment variable's name; ignored`,
				`4:12: llm.timeout: duration "soon": want seconds (5, 0.5) or a duration such as 30s or 2m; using 1m0s`,
			},
			nil},
		{"bad context commands",
			"ask:\n  context_commands:\n    - {name: a, command: date, on_failure: never}\n    - {name: b}\n    - {command: ls, timeout: -1}\n",
			[]string{
				`3:44: ask.context_commands[0].on_failure: want warn, ignore or fail, not "never"; using warn`,
				`4:7: ask.context_commands[1]: a context command needs a command; skipped`,
				`5:30: ask.context_commands[2].timeout: duration "-1" is negative; using 10s`,
			},
			func(c Config) bool {
				cc := c.Ask.ContextCommands
				return len(cc) == 2 && cc[0].Name == "a" && cc[0].OnFailure == OnFailureWarn && cc[1].Command == "ls"
			}},
		{"bad skill",
			"ask:\n  skills:\n    - pattern: 'a('\n      llm_prepend: x\n    - pattern: ok\n",
			[]string{
				"3:14: ask.skills[0]: pattern: error parsing regexp: missing closing ): `a(`; skipped",
			},
			func(c Config) bool { return len(c.Ask.Skills) == 1 && c.Ask.Skills[0].Pattern.String() == "ok" }},
		{"bad profile",
			"ask:\n  profiles:\n    work:\n      when: {cwd: '[a'}\n      template: hi\n",
			[]string{`4:19: ask.profiles.work.when.cwd: "[a" is not a valid pattern; ignored`},
			func(c Config) bool { return c.Ask.Profiles["work"].Template == "hi" }},
		{"list for text",
			"ask:\n  variables: {a: [1], b: x}\n",
			[]string{`2:18: ask.variables.a: want text, not a list; ignored`},
			func(c Config) bool { return len(c.Ask.Variables) == 1 && c.Ask.Variables["b"] == "x" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := write(t, tt.content)
			c, warns := Load(p, "/home/u")
			var got []string
			for _, w := range warns {
				got = append(got, strings.TrimPrefix(w.String(), p+":"))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Load(%q) warnings =\n\t%s\nwant\n\t%s", tt.content, strings.Join(got, "\n\t"), strings.Join(tt.want, "\n\t"))
			}
			if tt.check != nil && !tt.check(c) {
				t.Errorf("Load(%q) = %+v; the rest of the file was not applied", tt.content, c)
			}
		})
	}
}

func TestLoadUnreadable(t *testing.T) {
	p := t.TempDir() // a directory cannot be read as a file
	c, warns := Load(p, "/home/u")
	if len(warns) != 1 || !strings.HasPrefix(warns[0].String(), p+": ") || warns[0].Then != "using the defaults" || !reflect.DeepEqual(c, Defaults()) {
		t.Errorf("Load(%q) = %+v, %v; want the defaults and one warning", p, c, warns)
	}
}

func TestWarningString(t *testing.T) {
	tests := []struct {
		w    Warning
		want string
	}{
		{Warning{File: "c.yaml", Line: 4, Column: 10, Key: "output.limit", Msg: "bad", Then: "using 1MiB"}, "c.yaml:4:10: output.limit: bad; using 1MiB"},
		{Warning{File: "c.yaml", Line: 4, Msg: "bad"}, "c.yaml:4: bad"},
		{Warning{File: "c.yaml", Msg: "permission denied", Then: "using the defaults"}, "c.yaml: permission denied; using the defaults"},
	}
	for _, tt := range tests {
		if got := tt.w.String(); got != tt.want {
			t.Errorf("%#v.String() = %q; want %q", tt.w, got, tt.want)
		}
	}
}

func TestSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		err  string
	}{
		{"1048576", 1 << 20, ""},
		{"1MiB", 1 << 20, ""},
		{"1m", 1 << 20, ""},
		{" 2 M ", 2 << 20, ""},
		{"500KB", 500e3, ""},
		{"3GB", 3e9, ""},
		{"7b", 7, ""},
		{"lots", 0, `size "lots": want a number of bytes`},
		{"5XB", 0, `unknown unit "XB"`},
		{"99999999999G", 0, "too large"},
		{"99999999999999999999", 0, "out of range"},
	}
	for _, tt := range tests {
		n, err := ParseSize(tt.in)
		if n != tt.want || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("ParseSize(%q) = %d, %v; want %d, %q", tt.in, n, err, tt.want, tt.err)
		}
	}
	for _, s := range []Size{0, 1, 1000, 1024, 1 << 20, 500 << 20, 1e9, 3 << 30, 1536} {
		n, err := ParseSize(s.String())
		if err != nil || Size(n) != s {
			t.Errorf("ParseSize(%q) = %d, %v; want %d (Size.String reads back)", s.String(), n, err, int64(s))
		}
	}
}

func TestKeyBytes(t *testing.T) {
	for key, want := range map[string]string{"^Xf": "\x18f", `\ef`: "\x1bf", "^?": "\x7f", "^x^f": "\x18\x06", "^[x": "\x1bx", "": ""} {
		if b, err := KeyBytes(key); err != nil || string(b) != want {
			t.Errorf("KeyBytes(%q) = %q, %v; want %q", key, b, err, want)
		}
		if b := Key(key).Bytes(); string(b) != want {
			t.Errorf("Key(%q).Bytes() = %q; want %q", key, b, want)
		}
	}
	for _, key := range []string{"^1", "a b", "^X^X^X^X^X^X^X^X^X", "12", "x", "f^X", "jk", "~"} {
		if b, err := KeyBytes(key); err == nil {
			t.Errorf("KeyBytes(%q) = %q, nil; want an error", key, b)
		}
	}
}

func TestLoadPatterns(t *testing.T) {
	p := write(t, ExamplePatterns)
	ps, warns := LoadPatterns(p)
	if len(warns) != 0 || len(ps) != 1 || ps[0].Name != "terraform-init" || ps[0].Line != 2 || len(ps[0].Fixes) != 1 || ps[0].Fixes[0].Command != "{init} && {command}" {
		t.Fatalf("LoadPatterns(example) = %+v, %v", ps, warns)
	}
	if ps, warns := LoadPatterns(filepath.Join(t.TempDir(), "none")); ps != nil || warns != nil {
		t.Errorf("LoadPatterns(missing) = %v, %v", ps, warns)
	}
	tests := []struct {
		name, content string
		want          []string // each warning, after "config.yaml:"
		names         []string // of the patterns kept
		lines         []int
	}{
		{"typo", "- name: x\n  outptu: y\n", []string{"2:3: [0].outptu: unknown setting; pattern skipped"}, nil, nil},
		{"one bad among good",
			"# fixes: a comment\n- name: a\n  command: x\n- name: b\n  fixes: nope\n- name: c\n  output: y\n",
			[]string{`5:10: [1].fixes: want a sequence, not a string; pattern skipped`}, []string{"a", "c"}, []int{2, 6}},
		{"syntax", "- name: [\n", []string{"1:9: sequence end token ']' not found; no patterns used"}, nil, nil},
		{"not a list", "name: x\n", []string{"1:5: want a sequence, not a mapping; no patterns used"}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := write(t, tt.content)
			ps, warns := LoadPatterns(p)
			var got []string
			for _, w := range warns {
				got = append(got, strings.TrimPrefix(w.String(), p+":"))
			}
			var names []string
			var lines []int
			for _, s := range ps {
				names, lines = append(names, s.Name), append(lines, s.Line)
			}
			if !reflect.DeepEqual(got, tt.want) || !reflect.DeepEqual(names, tt.names) || !reflect.DeepEqual(lines, tt.lines) {
				t.Errorf("LoadPatterns(%q) = %q at lines %v, warnings\n\t%s\nwant %q at %v,\n\t%s", tt.content, names, lines,
					strings.Join(got, "\n\t"), tt.names, tt.lines, strings.Join(tt.want, "\n\t"))
			}
		})
	}
}

func TestWarningUnder(t *testing.T) {
	for _, c := range []struct {
		key, under string
		want       bool
	}{
		{"llm.provider", "llm", true},
		{"llm", "llm", true},
		{"llmx", "llm", false},
		{"ask.llm.provider", "llm", false},
		{"", "llm", false},
		{"ask.skills[0]", "ask.skills", true},
		{"ask.skills[0].pattern", "ask.skills", true},
		{"ask.skillset", "ask.skills", false},
		{"ask.profiles.work.skills[1]", "ask.skills", false},
		{"ask.profiles.work.skills[1]", "ask.profiles.*.skills", true},
		{"ask.profiles.my.team.skills[0].pattern", "ask.profiles.*.skills", true},
		{"ask.profiles.work.template", "ask.profiles.*.skills", false},
		{"ask.profiles.skills", "ask.profiles.*.skills", false},
	} {
		if got := (Warning{Key: c.key}).Under(c.under); got != c.want {
			t.Errorf("Warning{Key: %q}.Under(%q) = %v; want %v", c.key, c.under, got, c.want)
		}
	}
}
