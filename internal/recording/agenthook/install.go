package agenthook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hookd/hookd/internal/shellwords"
)

// Settings is where agent's hook goes in home, the user's home directory
// (config, $XDG_CONFIG_HOME or ""): Claude Code's and Gemini CLI's
// settings.json, Codex's config.toml, opencode's plugin directory.
func Settings(agent, home, config string) (string, error) {
	if config == "" {
		config = filepath.Join(home, ".config")
	}
	switch agent {
	case "claude-code":
		return filepath.Join(home, ".claude", "settings.json"), nil
	case "gemini":
		return filepath.Join(home, ".gemini", "settings.json"), nil
	case "codex":
		return filepath.Join(home, ".codex", "config.toml"), nil
	case "opencode":
		return filepath.Join(config, "opencode", "plugins", "hookd.js"), nil
	case "copilot":
		// Copilot CLI loads hooks from the repository it works in.
		return filepath.Join(".github", "hooks", "hookd.json"), nil
	}
	return "", fmt.Errorf("no hook for %q: want one of %s", agent, strings.Join(Hooked, ", "))
}

// hookCommand is the command line an agent runs for hookd's hook.
func hookCommand(agent, bin string) string {
	return shellwords.QuoteWord(bin) + " agent-hook " + agent
}

// ours reports whether command is hookd's hook for agent (whichever hookd
// binary it names).
func ours(command, agent string) bool {
	return strings.HasSuffix(strings.TrimSpace(command), " agent-hook "+agent)
}

// CheckHooked are the agents whose pre-tool hook hookd check answers
// (hookd check --hook AGENT), which Install adds when asked (Hooks.Check).
var CheckHooked = []string{"claude-code"}

// checkCommand is the command line of hookd's consent hook for agent.
func checkCommand(agent, bin string) string {
	return shellwords.QuoteWord(bin) + " check --hook " + agent
}

// oursCheck reports whether command is hookd's consent hook for agent.
func oursCheck(command, agent string) bool {
	return strings.HasSuffix(strings.TrimSpace(command), " check --hook "+agent)
}

// Hooks says which of hookd's hooks Install adds or takes out.
type Hooks struct {
	// Check is the consent hook (hookd check --hook AGENT) besides the
	// recording one. It changes the agent's permission flow (a risky
	// command is asked about even when the agent's settings allow it), so
	// it is only added when asked for; once there, a later install keeps
	// it. Installing with Check adds it; uninstalling with Check takes out
	// only it; uninstalling without takes out both.
	Check bool
}

// Edit returns the text of agent's settings file old (nil: none yet) with
// hookd's hook installed (install) or taken out, and whether that changed
// anything. Everything else is kept: other hooks and settings, the order
// of JSON keys, TOML comments and order (only the lines between hookd's
// markers are hookd's).
func Edit(agent, bin string, old []byte, install bool, which Hooks) ([]byte, bool, error) {
	if which.Check && !slices.Contains(CheckHooked, agent) {
		return nil, false, fmt.Errorf("hookd's consent hook is for %s only: %s's own pre-tool hook can run hookd check -- CMD",
			strings.Join(CheckHooked, ", "), agent)
	}
	var out []byte
	var err error
	switch agent {
	case "claude-code", "gemini":
		out, err = editJSON(agent, bin, old, install, which)
	case "codex":
		out, err = editTOML(agent, bin, old, install)
	case "opencode":
		out, err = editPlugin(bin, old, install)
	case "copilot":
		out, err = editCopilot(bin, old, install)
	default:
		return nil, false, fmt.Errorf("no hook for %q: want one of %s", agent, strings.Join(Hooked, ", "))
	}
	if err != nil {
		return nil, false, err
	}
	return out, !bytes.Equal(out, old), nil
}

// Install edits the settings file at path (see Edit), first copying what
// it held to path.hookd-backup; a file hookd would empty (its own plugin)
// is removed. It returns whether the file changed and the backup's path
// ("" when none was made).
func Install(agent, bin, path string, install bool, which Hooks) (changed bool, backup string, err error) {
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, "", err
	}
	out, changed, err := Edit(agent, bin, old, install, which)
	if err != nil || !changed {
		return false, "", err
	}
	mode := os.FileMode(0o600)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	if old != nil {
		backup = path + ".hookd-backup"
		if err := writeFile(backup, old, 0o600); err != nil {
			return false, "", fmt.Errorf("backup: %w", err)
		}
	}
	if len(out) == 0 && (agent == "opencode" || agent == "copilot") {
		return true, backup, os.Remove(path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return false, backup, err
	}
	return true, backup, writeFile(path, out, mode)
}

// writeFile writes b to path whole: a temporary file renamed into place.
func writeFile(path string, b []byte, mode os.FileMode) error {
	tmp := path + ".hookd-tmp"
	if err := os.WriteFile(tmp, b, mode); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// hookGroups are the matcher groups hookd adds to a JSON settings file,
// event by event, in order; check adds the consent hook (Claude Code).
func hookGroups(agent, bin string, check bool) []kv {
	cmd := hookCommand(agent, bin)
	if agent == "gemini" {
		// Gemini CLI runs hooks synchronously; its timeout is in ms.
		h := obj{{"name", "hookd"}, {"type", "command"}, {"command", cmd}, {"timeout", json.Number("5000")}}
		return []kv{
			{"BeforeAgent", obj{{"hooks", []any{h}}}},
			{"AfterTool", obj{{"matcher", "run_shell_command"}, {"hooks", []any{h}}}},
		}
	}
	h := obj{{"type", "command"}, {"command", cmd}, {"async", true}, {"timeout", json.Number("10")}}
	groups := []kv{
		{"UserPromptSubmit", obj{{"hooks", []any{h}}}},
		{"PostToolUse", obj{{"matcher", "Bash"}, {"hooks", []any{h}}}},
		{"PostToolUseFailure", obj{{"matcher", "Bash"}, {"hooks", []any{h}}}},
	}
	if check {
		// Not async: Claude Code waits for its answer before the command.
		c := obj{{"type", "command"}, {"command", checkCommand(agent, bin)}, {"timeout", json.Number("10")}}
		groups = append(groups, kv{"PreToolUse", obj{{"matcher", "Bash"}, {"hooks", []any{c}}}})
	}
	return groups
}

// editJSON installs or removes hookd's groups in a settings.json: any
// hook of hookd's for agent is taken out first (so a second install, or
// one from another hookd binary, leaves one), then the groups added at the
// end of their events' lists. The consent hook follows which (Hooks).
func editJSON(agent, bin string, old []byte, install bool, which Hooks) ([]byte, error) {
	doc := obj{}
	if len(bytes.TrimSpace(old)) > 0 {
		v, err := decodeOrdered(old)
		if err != nil {
			return nil, fmt.Errorf("not JSON hookd can edit (%v): merge hookd agent-hook %s --print-config by hand", err, agent)
		}
		o, ok := v.(obj)
		if !ok {
			return nil, errors.New("the settings file is not a JSON object")
		}
		doc = o
	}
	before := encodeOrdered(doc)
	hooks, _ := doc.get("hooks").(obj)
	if doc.get("hooks") != nil && hooks == nil {
		return nil, errors.New(`"hooks" is not an object`)
	}
	// Take out hookd's own: all of them, but the recording hook when only
	// the consent hook is uninstalled. A consent hook there is put back by
	// an install.
	hadCheck := false
	drop := func(c string) bool {
		if oursCheck(c, agent) {
			hadCheck = true
			return true
		}
		return ours(c, agent) && (install || !which.Check)
	}
	for i := range hooks {
		groups, ok := hooks[i].v.([]any)
		if !ok {
			continue
		}
		var kept []any
		for _, g := range groups {
			go_, ok := g.(obj)
			if !ok {
				kept = append(kept, g)
				continue
			}
			hs, ok := go_.get("hooks").([]any)
			if !ok {
				kept = append(kept, g)
				continue
			}
			var keep []any
			for _, h := range hs {
				if ho, ok := h.(obj); ok {
					if c, _ := ho.get("command").(string); drop(c) {
						continue
					}
				}
				keep = append(keep, h)
			}
			if len(keep) == 0 && len(hs) > 0 {
				continue // a group of hookd's only
			}
			kept = append(kept, go_.set("hooks", keep))
		}
		if kept == nil {
			kept = []any{}
		}
		hooks[i].v = kept
	}
	if install {
		for _, g := range hookGroups(agent, bin, which.Check || hadCheck) {
			groups, _ := hooks.get(g.k).([]any)
			hooks = hooks.set(g.k, append(groups, g.v))
		}
	} else {
		// Events hookd's removal left empty go.
		var left obj
		for _, e := range hooks {
			if groups, ok := e.v.([]any); ok && len(groups) == 0 {
				continue
			}
			left = append(left, e)
		}
		hooks = left
	}
	switch {
	case hooks != nil:
		doc = doc.set("hooks", hooks)
	case doc.get("hooks") != nil:
		doc = doc.del("hooks")
	}
	out := encodeOrdered(doc)
	if bytes.Equal(out, before) {
		return old, nil // nothing to do: the file as it was, spaces and all
	}
	return out, nil
}

// The lines of config.toml between these are hookd's.
const (
	tomlBegin = "# >>> hookd agent-hook codex: written by hookd agent-hook codex --install, removed by --uninstall"
	tomlEnd   = "# <<< hookd agent-hook codex"
)

// inlineHooks finds hook events a config.toml defines inline (an array
// value), which a [[hooks.EVENT]] table could not be added to.
// (Compiled when first used.)
var inlineHooks = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*(hooks\.)?(PostToolUse|UserPromptSubmit)\s*=`)
})

// editTOML installs or removes hookd's block in Codex's config.toml,
// editing only the lines between its markers: the rest of the file,
// comments and order included, is kept byte for byte.
func editTOML(agent, bin string, old []byte, install bool) ([]byte, error) {
	text := string(old)
	start := strings.Index(text, tomlBegin)
	end := strings.Index(text, tomlEnd)
	if start >= 0 && end > start {
		end += len(tomlEnd)
		if end < len(text) && text[end] == '\n' {
			end++
		}
		// A blank line hookd put before its block goes with it.
		if start >= 2 && text[start-1] == '\n' && text[start-2] == '\n' {
			start--
		}
		text = text[:start] + text[end:]
	} else if start >= 0 || end >= 0 {
		return nil, errors.New("hookd's block in config.toml has lost one of its marker lines: fix it by hand")
	}
	if !install {
		return []byte(text), nil
	}
	if inlineHooks().MatchString(text) {
		return nil, errors.New("config.toml defines its hooks inline (EVENT = [...]): add hookd agent-hook codex --print-config's tables by hand")
	}
	cmd := jsonString(hookCommand(agent, bin))
	var b strings.Builder
	b.WriteString(text)
	if text != "" && !strings.HasSuffix(text, "\n") {
		b.WriteString("\n")
	}
	if text != "" {
		b.WriteString("\n")
	}
	b.WriteString(tomlBegin + "\n")
	b.WriteString(codexTables(cmd))
	b.WriteString(tomlEnd + "\n")
	out := b.String()
	if out == string(old) {
		return old, nil
	}
	return []byte(out), nil
}

// codexTables are Codex's hook tables for the hook command cmd (a TOML
// string).
func codexTables(cmd string) string {
	return "[[hooks.UserPromptSubmit]]\n[[hooks.UserPromptSubmit.hooks]]\ntype = \"command\"\ncommand = " + cmd + "\ntimeout = 10\n" +
		"[[hooks.PostToolUse]]\nmatcher = \"Bash\"\n[[hooks.PostToolUse.hooks]]\ntype = \"command\"\ncommand = " + cmd + "\ntimeout = 10\n"
}

// pluginMarker opens the plugin file hookd writes for opencode: a file
// without it is not hookd's, and is never overwritten or removed.
const pluginMarker = "// hookd: written by `hookd agent-hook opencode --install`, removed by --uninstall."

// editPlugin writes or removes hookd's opencode plugin.
func editPlugin(bin string, old []byte, install bool) ([]byte, error) {
	if len(old) > 0 && !bytes.HasPrefix(old, []byte(pluginMarker)) {
		return nil, errors.New("the plugin file is not hookd's (no marker line): move it away first")
	}
	if !install {
		return nil, nil
	}
	return []byte(OpencodePlugin(bin)), nil
}

// OpencodePlugin is the opencode plugin that sends hookd each bash call
// (tool.execute.before notes when it started and its arguments,
// tool.execute.after sends it with its output, status and duration) and
// each prompt (chat.message), to `bin agent-hook opencode` on its stdin,
// in the background: opencode never waits on it.
func OpencodePlugin(bin string) string {
	return pluginMarker + `
// It sends each bash call opencode runs, and each prompt, to hookd's history.
import { spawn } from "node:child_process";

const HOOKD = ` + jsonString(bin) + `;

function send(payload) {
  try {
    const p = spawn(HOOKD, ["agent-hook", "opencode"], { stdio: ["pipe", "ignore", "ignore"], detached: true });
    p.on("error", () => {});
    p.stdin.on("error", () => {});
    p.stdin.end(JSON.stringify(payload));
    p.unref();
  } catch {}
}

export const HookdPlugin = async ({ directory }) => {
  const calls = new Map();
  return {
    "chat.message": async (input, output) => {
      const text = (output?.parts ?? []).filter((p) => p?.type === "text").map((p) => p.text).join("\n");
      if (text) send({ event: "chat.message", sessionID: input?.sessionID ?? "", cwd: directory, prompt: text });
    },
    "tool.execute.before": async (input, output) => {
      if (input?.tool === "bash") calls.set(input.callID, { at: Date.now(), args: output?.args ?? {} });
    },
    "tool.execute.after": async (input, output) => {
      if (input?.tool !== "bash") return;
      const c = calls.get(input.callID);
      calls.delete(input.callID);
      send({
        event: "tool.execute.after", sessionID: input.sessionID ?? "", tool: "bash", cwd: directory,
        duration_ms: c ? Date.now() - c.at : 0, args: input.args ?? c?.args ?? {},
        output: typeof output?.output === "string" ? output.output : undefined, metadata: output?.metadata ?? {},
      });
    },
  };
};
`
}

// An ordered JSON object: its keys in the file's order.
type (
	kv struct {
		k string
		v any
	}
	obj []kv
)

func (o obj) get(k string) any {
	for _, e := range o {
		if e.k == k {
			return e.v
		}
	}
	return nil
}

func (o obj) set(k string, v any) obj {
	for i := range o {
		if o[i].k == k {
			o[i].v = v
			return o
		}
	}
	return append(o, kv{k, v})
}

func (o obj) del(k string) obj {
	var out obj
	for _, e := range o {
		if e.k != k {
			out = append(out, e)
		}
	}
	return out
}

// decodeOrdered decodes one JSON value, objects as obj, numbers as
// json.Number (as written).
func decodeOrdered(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more after the JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t {
	case json.Delim('{'):
		o := obj{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			o = append(o, kv{kt.(string), v})
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token()
		return a, err
	}
	return t, nil
}

// encodeOrdered writes v indented by two spaces, as the agents write
// their settings.
func encodeOrdered(v any) []byte {
	var b bytes.Buffer
	encodeIndent(&b, v, "")
	b.WriteByte('\n')
	return b.Bytes()
}

func encodeIndent(b *bytes.Buffer, v any, indent string) {
	in := indent + "  "
	switch v := v.(type) {
	case obj:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, e := range v {
			b.WriteString(in + jsonString(e.k) + ": ")
			encodeIndent(b, e.v, in)
			if i < len(v)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range v {
			b.WriteString(in)
			encodeIndent(b, e, in)
			if i < len(v)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	case string:
		b.WriteString(jsonString(v))
	case json.Number:
		b.WriteString(string(v))
	case bool:
		fmt.Fprint(b, v)
	case nil:
		b.WriteString("null")
	}
}

// CopilotHooks is the hooks file hookd adds to a repository for GitHub
// Copilot CLI (.github/hooks/hookd.json, version 1): postToolUse and
// userPromptSubmitted run `bin agent-hook copilot`.
func CopilotHooks(bin string) string {
	h := []any{obj{{"type", "command"}, {"bash", hookCommand("copilot", bin)}, {"timeoutSec", json.Number("10")}}}
	return string(encodeOrdered(obj{{"version", json.Number("1")}, {"hooks", obj{{"userPromptSubmitted", h}, {"postToolUse", h}}}}))
}

// editCopilot writes or removes hookd's hooks file for Copilot CLI; a file
// of that name that does not run hookd's hook is not hookd's, and is left
// alone.
func editCopilot(bin string, old []byte, install bool) ([]byte, error) {
	if len(old) > 0 && !bytes.Contains(old, []byte(" agent-hook copilot")) {
		return nil, errors.New("the hooks file is not hookd's: move it away first")
	}
	if !install {
		return nil, nil
	}
	return []byte(CopilotHooks(bin)), nil
}
