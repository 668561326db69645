// Package config reads hookd's configuration file and patterns file into typed settings.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Config is the whole configuration, with the defaults applied to what the
// file does not say (Defaults).
type Config struct {
	// Capture is whether hookd shell keeps each command's output (pty,
	// the default) or not (off). HOOKD_CAPTURE overrides it.
	Capture CaptureMode `yaml:"capture"`
	History History     `yaml:"history"`
	Redact  Redact      `yaml:"redact"`
	Output  Output      `yaml:"output"`
	Fix     Fix         `yaml:"fix"`
	LLM     LLM         `yaml:"llm"`
	Ask     Ask         `yaml:"ask"`
	// AI is when failures are also put to the LLM: off (the default:
	// only on demand, with hookd suggest --ai or fix --ai) or on_failure
	// (hookd run asks it about each failure).
	AI AIMode `yaml:"ai"`
	// PromptFiles configures prompt files (hookd expand, hookd ask /NAME).
	PromptFiles PromptFiles `yaml:"prompt_files"`
	// Search configures hookd search and Ctrl-R.
	Search Search `yaml:"search"`
	// Agents says what coding agents' commands (hookd agent-hook, hookd
	// record) are used for besides the history.
	Agents Agents `yaml:"agents"`
	// Sync is where the history syncs to (package sync; docs/sync.md).
	Sync Sync `yaml:"sync"`
}

// Agents configures the use of coding agents' commands.
type Agents struct {
	// Learn learns fixes from agents' commands too: a failure of the
	// agent's and the command that fixed it. Off by default, as the fixes
	// offered are the user's own.
	Learn bool `yaml:"learn"`
	// KeepPrompts keeps the prompts the user gave a coding agent
	// (redacted, never sent anywhere), so that its commands are shown
	// under the prompt that caused them. On by default.
	KeepPrompts bool `yaml:"keep_prompts"`
}

// Sync configures end-to-end encrypted sync through an S3-compatible
// bucket. Nothing syncs until URL is set and `hookd sync init` (or join)
// made the key.
type Sync struct {
	// URL is s3://BUCKET or s3://BUCKET/PREFIX.
	URL S3URL `yaml:"url"`
	// Endpoint is the store's address (http://127.0.0.1:9000); empty
	// for AWS S3.
	Endpoint URL `yaml:"endpoint"`
	// Region is the bucket's region (default: AWS_REGION, the AWS
	// profile's, else us-east-1).
	Region string `yaml:"region"`
	// PathStyle puts the bucket in the path rather than the host name:
	// the default with an endpoint (self-hosted stores), not for AWS.
	PathStyle *bool `yaml:"path_style"`
	// Outputs says which captured outputs travel: none, small (the
	// default: up to OutputLimit each) or all.
	Outputs SyncOutputs `yaml:"outputs"`
	// OutputLimit is the largest output that travels with outputs:
	// small (default 16KiB).
	OutputLimit Size `yaml:"output_limit"`
	// Interval is how often the daemon syncs (default 5m); it also syncs
	// soon after a burst of new commands. 0 turns background sync off
	// (hookd sync only).
	Interval Duration `yaml:"interval"`
}

// PromptFiles configures prompt files.
type PromptFiles struct {
	// Allow extends the built-in allowlist of the commands a prompt
	// file's !`cmd` may run: each pattern is a command's words, where *
	// matches anything (wc -l *). Only the user's config.yaml sets it; a
	// project's .hookd.yml never can.
	Allow []string `yaml:"allow"`
}

// History says which commands are not recorded.
type History struct {
	// Ignore holds regular expressions: matching commands are not recorded.
	Ignore Regexps `yaml:"ignore"`
	// IgnoreDirs holds directories: commands started in or below them
	// are not recorded. A leading ~ is the home directory; Load makes
	// each one absolute and clean.
	IgnoreDirs []string `yaml:"ignore_dirs"`
}

// Redact adds to the built-in redaction of secrets.
type Redact struct {
	// Patterns are extra regular expressions for secrets; a group named
	// "secret" marks the part to replace.
	Patterns Regexps `yaml:"patterns"`
}

// Output bounds the captured outputs.
type Output struct {
	// Limit is the most kept of one command's output (head and tail
	// around a marker); at least 1KiB (default 1MiB).
	Limit Size `yaml:"limit"`
	// KeepSize bounds all stored outputs together; the oldest lose their
	// text first (default 500MiB; 0: no limit).
	KeepSize Size `yaml:"keep_size"`
	// KeepDays is how long an output is kept (default 90; 0: no limit).
	KeepDays Days `yaml:"keep_days"`
}

// Fix configures the fixes offered after a failure.
type Fix struct {
	// Command is the name of the shell command that applies a fix (fix,
	// the default; "" for none).
	Command CommandName `yaml:"command"`
	// Key puts the next fix on the command line (^Xf, the default: Ctrl-X
	// then f; "" for none).
	Key Key `yaml:"key"`
	// AIKey asks the LLM about the last failed command, on demand (^Xl,
	// the default: Ctrl-X then l; "" for none). Its fixes then become
	// the ones Key and Command offer.
	AIKey Key `yaml:"ai_key"`
	// Learn adds, under each fix, why it works.
	Learn bool `yaml:"learn"`
	// WatchEnv names environment variables the shell hooks note for each
	// command, besides PATH and the environment managers' (VIRTUAL_ENV,
	// CONDA_PREFIX, NODE_ENV, KUBECONFIG, AWS_PROFILE, DOCKER_CONTEXT,
	// GOFLAGS), so that a failure can be explained by one that changed
	// since the same command worked (values redacted like everything else).
	WatchEnv []EnvName `yaml:"watch_env"`
}

// Output defaults.
const (
	DefaultOutputLimit    = 1 << 20
	DefaultOutputKeep     = 500 << 20
	DefaultOutputKeepDays = 90
	// MinOutputLimit is the smallest output.limit.
	MinOutputLimit = 1 << 10
	// DefaultSyncOutputLimit is the largest output that travels with
	// sync.outputs: small; DefaultSyncInterval how often the daemon syncs.
	DefaultSyncOutputLimit = 16 << 10
	DefaultSyncInterval    = 5 * time.Minute
)

// Defaults returns the configuration used when there is no file: every
// default is here.
func Defaults() Config {
	return Config{
		Capture: CapturePTY,
		Output:  Output{Limit: DefaultOutputLimit, KeepSize: DefaultOutputKeep, KeepDays: DefaultOutputKeepDays},
		Fix:     Fix{Command: "fix", Key: "^Xf", AIKey: "^Xl"},
		LLM:     LLM{Provider: ProviderAuto, Timeout: Duration(DefaultLLMTimeout)},
		Ask:     Ask{Prefix: "??", Offer: true, Reasoning: ReasoningDim, Budget: DefaultBudget},
		AI:      AIOff,
		Agents:  Agents{KeepPrompts: true},
		Search:  Search{Key: "^R", Enter: EnterAccept, Height: 12, Scope: "everything", Mode: "fuzzy"},
		Sync:    Sync{Outputs: SyncOutputsSmall, OutputLimit: DefaultSyncOutputLimit, Interval: Duration(DefaultSyncInterval)},
	}
}

// Example is a commented configuration file, for the README and `hookd
// config`.
const Example = `# ~/.config/hookd/config.yaml
capture: pty            # pty: keep each command's output (hookd shell); off: never
history:
  ignore:               # regular expressions: matching commands are not recorded
    - '^(ls|cd|pwd)$'
  ignore_dirs:          # commands started in or below these are not recorded
    - ~/private
redact:
  patterns:             # extra secrets; a (?P<secret>...) group marks the part to replace
    - 'INTERNAL-[0-9a-f]{32}'
fix:
  command: fix          # the shell command that applies a fix ('' for none)
  key: '^Xf'            # Ctrl-X f puts the next fix on the command line ('' for none)
  ai_key: '^Xl'         # Ctrl-X l asks the LLM about the last failure ('' for none)
  learn: false          # true: say why each fix works, under it
  watch_env: [API_URL]  # variables noted with each command, to explain a failure of
                        # one that worked before (PATH, VIRTUAL_ENV... are always noted)
agents:
  learn: false          # true: learn fixes from coding agents' commands too (hookd agent-hook, hookd record)
  keep_prompts: true    # false: keep no prompt given to an agent (hookd history --by-prompt)
output:
  limit: 1MiB           # kept per command (head and tail); the rest is elided
  keep_size: 500MiB     # all outputs together; the oldest go first (0: no limit)
  keep_days: 90         # outputs older than this are removed (0: no limit)
search:                 # Ctrl-R: hookd search, commands and what they printed
  key: '^R'             # the key that opens it ('' leaves Ctrl-R to the shell)
  replace: false        # true: take the key even from another tool (fzf's Ctrl-R)
  up_key: ''            # '^[[A' opens it on the Up arrow too (never, unless set)
  enter: accept         # accept: Enter puts the command on the line; run: runs it
  height: 12            # lines below the prompt
  full_screen: false    # true: the whole screen instead
  scope: everything     # where it starts: session, directory, repository, host, everything
  mode: fuzzy           # fuzzy, prefix or full-text
# llm:                  # the model behind hookd ask (HOOKD_LLM_* override it)
#   provider: auto      # auto | openai | anthropic | ollama | command
#   model: llama3.2     # '' for the provider's default
#   base_url: 'http://localhost:11434'  # OpenAI-compatible servers, Ollama
#   api_key_env: OPENAI_API_KEY         # the variable that holds the key
#   command: 'llm -m gpt-4o-mini'       # provider: command (question on stdin, answer on stdout)
#   timeout: 60s        # one question, answer included
# ask:                  # a project's .hookd.yml may carry this section too
#   prefix: '??'        # ?? QUESTION at the prompt asks it ('' turns it off)
#   offer: true         # offer a command from the answer on the next command line
#   reasoning: dim      # a model's reasoning: dim (shown dimmed) or hide
#   budget: 8000        # tokens of context at most (outputs cut to head, tail, errors)
#   template: |         # the prompt; '' for the built-in one
#     $_LLM_PREPEND
#     $_LAST
#   variables: {TEAM: platform}          # $TEAM in the template
#   skills:             # each matching pattern adds its text to $_LLM_PREPEND
#     - {pattern: 'prioriti[sz]e', llm_prepend: 'Sort by impact.'}
#   context_commands:   # run before each question; on_failure: warn | ignore | fail
#     - {name: Git Status, command: git status --short, on_failure: warn, timeout: 5}
#   profiles:           # chosen with --profile NAME, or by the working directory
#     work: {when: {cwd: '~/work/*'}, variables: {TEAM: payments}}
# sync:                 # every machine's history on every machine (docs/sync.md)
#   url: s3://my-bucket/hookd   # then: hookd sync init (first machine), hookd sync join (others)
#   endpoint: 'http://127.0.0.1:9000'  # a self-hosted store; omit for AWS S3
#   region: us-east-1
#   outputs: small      # none | small (up to output_limit each) | all
#   output_limit: 16KiB
#   interval: 5m        # the daemon syncs this often, and soon after a burst of commands
# prompt_files:         # hookd expand NAME, hookd ask /NAME (only this file sets it)
#   allow:              # more commands a prompt file may run (* matches anything)
#     - 'wc -l *'     # never make, npm run…: they run the project's own code
`

// Load reads the file at path, once: the caller keeps what it returns for
// as long as it runs. A missing file is no error: the defaults apply. A bad
// value gives way to its default with a Warning that names the file, the
// line and the column, and the rest of the file still applies; a file that
// is not YAML at all gives the defaults and one Warning. home is the home
// directory, for a leading ~.
func Load(path, home string) (Config, []Warning) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Defaults(), nil
	}
	if err != nil {
		return Defaults(), []Warning{{File: path, Msg: err.Error(), Then: "using the defaults"}}
	}
	src, w := parse(path, data)
	if w != nil {
		w.Then = "using the defaults"
		return Defaults(), []Warning{*w}
	}
	c, warns, ok := decode(src, Defaults, false)
	if !ok {
		warns[len(warns)-1].Then = "using the defaults"
		return c, warns
	}
	def := Defaults()
	if c.Output.Limit < MinOutputLimit {
		warns = append(warns, src.at("$.output.limit", fmt.Sprintf("%d bytes is below the minimum of 1KiB", c.Output.Limit), "using "+def.Output.Limit.String()))
		c.Output.Limit = def.Output.Limit
	}
	if c.LLM.Provider == ProviderCommand && c.LLM.Command == "" {
		warns = append(warns, src.at("$.llm.provider", "provider command needs llm.command", "using "+string(def.LLM.Provider)))
		c.LLM.Provider = def.LLM.Provider
	}
	if c.Search.Height < MinSearchHeight {
		warns = append(warns, src.at("$.search.height", fmt.Sprintf("%d lines is below the minimum of %d", c.Search.Height, MinSearchHeight), fmt.Sprint("using ", def.Search.Height)))
		c.Search.Height = def.Search.Height
	}
	if !validChoice(c.Search.Scope, "everything", "session", "directory", "repository", "host") {
		warns = append(warns, src.at("$.search.scope", fmt.Sprintf("unknown scope %q", c.Search.Scope), "using "+def.Search.Scope))
		c.Search.Scope = def.Search.Scope
	}
	if !validChoice(c.Search.Mode, "fuzzy", "prefix", "full-text") {
		warns = append(warns, src.at("$.search.mode", fmt.Sprintf("unknown mode %q", c.Search.Mode), "using "+def.Search.Mode))
		c.Search.Mode = def.Search.Mode
	}
	if c.Fix.AIKey != "" && c.Fix.AIKey.same(c.Fix.Key) {
		warns = append(warns, src.at("$.fix.ai_key", "the same key as fix.key", "no AI key"))
		c.Fix.AIKey = ""
	}
	var dirs []string
	for _, d := range c.History.IgnoreDirs {
		if d != "" {
			dirs = append(dirs, filepath.Clean(expandHome(d, home)))
		}
	}
	c.History.IgnoreDirs = dirs
	for name, p := range c.Ask.Profiles {
		g := string(p.When.Cwd)
		e := expandHome(g, home)
		if e != g && strings.HasSuffix(g, "/") && !strings.HasSuffix(e, "/") {
			e += "/" // Match reads a final / as /**
		}
		p.When.Cwd = Glob(e)
		c.Ask.Profiles[name] = p
	}
	return c, inOrder(warns)
}

func validChoice(v string, choices ...string) bool {
	for _, c := range choices {
		if v == c {
			return true
		}
	}
	return false
}

// expandHome replaces a leading ~ in path with home.
func expandHome(path, home string) string {
	if path == "~" || strings.HasPrefix(path, "~/") {
		return filepath.Join(home, path[1:])
	}
	return path
}
