package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hookd/hookd/internal/ai/llm"
)

// providerKeys sets every provider key variable (llm.KeyVars, with the
// configured MY_LLM_KEY) to a value of its own and returns the values.
func providerKeys(set func(k, v string)) []string {
	var vals []string
	for i, k := range llm.KeyVars("MY_LLM_KEY") {
		v := fmt.Sprintf("sk-secret-%02d-0123456789abcdef", i)
		set(k, v)
		vals = append(vals, v)
	}
	return vals
}

// leaked returns the entries of env that carry a provider key.
func leaked(env []string, vals []string) []string {
	var bad []string
	for _, kv := range env {
		for _, v := range vals {
			if strings.Contains(kv, v) {
				bad = append(bad, kv)
			}
		}
	}
	return bad
}

// TestCommandEnvLoadsFirst (issue 31): the environment of the commands
// hookd starts (a prompt file's !`cmd`, a chain's run steps, context
// commands) is made from the configuration before it is read, on a fresh
// process where nothing has loaded it yet: it is never nil (which would
// be this process's environment, keys included) and holds no provider
// key, the configured api_key_env's included.
func TestCommandEnvLoadsFirst(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	os.MkdirAll(filepath.Join(home, ".config", "hookd"), 0o700)
	os.WriteFile(filepath.Join(home, ".config", "hookd", "config.yaml"), []byte("llm:\n  api_key_env: MY_LLM_KEY\n"), 0o600)
	vals := providerKeys(t.Setenv)
	t.Setenv("HOOKD_TEST_VISIBLE", "yes")
	for name, get := range map[string]func(e *env) []string{
		"prompt file":             func(e *env) []string { return e.promptOptions(home).Env },
		"chain, context commands": func(e *env) []string { return e.commandEnv() },
	} {
		e, err := newEnv(strings.NewReader(""), &strings.Builder{}, &strings.Builder{})
		if err != nil {
			t.Fatal(err)
		}
		got := get(e)
		if got == nil {
			t.Errorf("%s: nil environment (the child would inherit every key)", name)
		}
		if bad := leaked(got, vals); len(bad) > 0 {
			t.Errorf("%s: provider keys reach the command: %q", name, bad)
		}
		if !strings.Contains(strings.Join(got, "\n"), "HOOKD_TEST_VISIBLE=yes") {
			t.Errorf("%s: the rest of the environment is missing", name)
		}
	}
}

// TestProviderKeysNotInChildren (issue 31): with every provider key
// variable set, a chain's run step and a prompt file's !`cmd` (the
// processes, as hookd starts them) see the rest of the environment and
// none of the keys.
func TestProviderKeysNotInChildren(t *testing.T) {
	h := newHome(t)
	var env []string
	vals := providerKeys(func(k, v string) { env = append(env, k+"="+v) })
	env = append(env, "HOOKD_TEST_VISIBLE=yes")
	conf := filepath.Join(h.Path(".config"), "hookd")
	os.MkdirAll(filepath.Join(conf, "commands"), 0o700)
	os.WriteFile(filepath.Join(conf, "config.yaml"), []byte("llm:\n  api_key_env: MY_LLM_KEY\nprompt_files:\n  allow: ['printenv']\n"), 0o600)
	os.WriteFile(filepath.Join(conf, "commands", "keys.md"), []byte("env:\n!`printenv`\n"), 0o600)
	file := writeChain(t, t.TempDir(), "steps:\n  - run: printenv\n")
	for name, args := range map[string][]string{"chain": {"chain", file}, "prompt file": {"expand", "keys"}} {
		out, errOut, err := hookdIn(h, h.Dir, env, args...)
		if err != nil || !strings.Contains(out, "HOOKD_TEST_VISIBLE=yes") {
			t.Fatalf("%s: %v %s\n%s", name, err, errOut, out)
		}
		for _, v := range vals {
			if strings.Contains(out, v) {
				t.Errorf("%s: a provider key reached the command:\n%s", name, out)
				break
			}
		}
	}
}
