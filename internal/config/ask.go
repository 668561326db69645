package config

import (
	"errors"
	"fmt"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
)

// LLM says which language model `hookd ask` and the AI analysis of failures
// use, and how to reach it. The environment variables HOOKD_LLM_PROVIDER,
// HOOKD_LLM_BASE_URL, HOOKD_LLM_MODEL and HOOKD_LLM_API_KEY override it.
type LLM struct {
	// Provider is the kind of service (auto, the default, takes the
	// first one that is set up).
	Provider Provider `yaml:"provider"`
	// Model is the provider's name for the model; "" is the provider's
	// default.
	Model string `yaml:"model"`
	// BaseURL is the address of an OpenAI-compatible server or of
	// Ollama; "" is the provider's usual address.
	BaseURL URL `yaml:"base_url"`
	// APIKeyEnv names the environment variable that holds the API key
	// ("" is the provider's usual one, such as OPENAI_API_KEY). The key
	// itself never goes in this file.
	APIKeyEnv EnvName `yaml:"api_key_env"`
	// Command is the command line run for provider command: the question
	// on its stdin, the answer on its stdout.
	Command string `yaml:"command"`
	// Timeout bounds one question, answer included (default 60s).
	Timeout Duration `yaml:"timeout"`
}

// Ask shapes the questions put to the LLM: the prompt template, its
// variables, and what is added to it. A project's .hookd.yml may carry
// this section too.
type Ask struct {
	// Prefix typed at the start of a command line asks the rest as a
	// question ("??", the default; "" turns it off).
	Prefix string `yaml:"prefix"`
	// Offer puts a command from the answer on the next command line, for
	// the user to run or not (default true).
	Offer bool `yaml:"offer"`
	// Budget bounds the context sent with a question, in estimated tokens
	// (default DefaultBudget): long outputs are cut to their head, tail and error
	// lines, the oldest commands dropped first. Fit it to the model's
	// window (a local model's is often small).
	Budget int `yaml:"budget"`
	// Reasoning is what is shown of a model's reasoning: dim (the
	// default) or hide.
	Reasoning Reasoning `yaml:"reasoning"`
	// Template is the prompt, with $NAME variables: the built-in ones
	// ($_LLM_PREPEND, $_SCREEN, $_LAST, …) and those of Variables. ""
	// is the built-in system prompt.
	Template string `yaml:"template"`
	// Variables are the user's own variables for Template.
	Variables map[string]string `yaml:"variables"`
	// Skills add instructions to $_LLM_PREPEND when the question matches.
	Skills []Skill `yaml:"skills"`
	// ContextCommands run before each question; their outputs go with
	// it, each in a block of its own.
	ContextCommands []ContextCommand `yaml:"context_commands"`
	// Profiles are named variants of this section, chosen with
	// --profile or by their When.
	Profiles map[string]Profile `yaml:"profiles"`
}

// Skill adds instructions to the prompt for the questions it matches.
type Skill struct {
	// Pattern is matched against the question.
	Pattern Regexp `yaml:"pattern"`
	// LLMPrepend is the text added to $_LLM_PREPEND when it matches.
	LLMPrepend string `yaml:"llm_prepend"`
}

// UnmarshalYAML reads a skill; one without a pattern, or whose pattern
// does not compile, is refused whole (one warning, at the skill).
func (s *Skill) UnmarshalYAML(n ast.Node) error {
	var p struct {
		Pattern    ast.Node `yaml:"pattern"`
		LLMPrepend string   `yaml:"llm_prepend"`
	}
	if err := yaml.NodeToValue(n, &p, yaml.Strict()); err != nil {
		return err
	}
	if p.Pattern == nil {
		return reject(n, errors.New("a skill needs a pattern"))
	}
	var re Regexp
	if err := re.UnmarshalYAML(p.Pattern); err != nil {
		return reject(n, fmt.Errorf("pattern: %w", err))
	}
	*s = Skill{Pattern: re, LLMPrepend: p.LLMPrepend}
	return nil
}

// ContextCommand is a command run before a question, whose output goes
// with the question in a block labelled with its name.
type ContextCommand struct {
	// Name labels the block ("" is the command itself).
	Name string `yaml:"name"`
	// Command is the command line, run by the user's shell.
	Command string `yaml:"command"`
	// OnFailure says what a failure (an exit status other than 0, or the
	// timeout) does: warn (the default), ignore or fail.
	OnFailure OnFailure `yaml:"on_failure"`
	// Timeout bounds the command (default 10s).
	Timeout Duration `yaml:"timeout"`
}

// Defaults of a context command.
const (
	DefaultContextTimeout = 10 * time.Second
	DefaultLLMTimeout     = 60 * time.Second
)

// UnmarshalYAML reads a context command, with the defaults for what it
// does not say; one without a command is refused.
func (c *ContextCommand) UnmarshalYAML(n ast.Node) error {
	type plain ContextCommand
	p := plain{OnFailure: OnFailureWarn, Timeout: Duration(DefaultContextTimeout)}
	if err := yaml.NodeToValue(n, &p, yaml.Strict()); err != nil {
		return err
	}
	if p.Command == "" {
		return reject(n, errors.New("a context command needs a command"))
	}
	*c = ContextCommand(p)
	return nil
}

// Profile is a named variant of the ask section: what it sets replaces
// the section's own.
type Profile struct {
	// When chooses the profile without --profile.
	When struct {
		// Cwd matches the working directory.
		Cwd Glob `yaml:"cwd"`
	} `yaml:"when"`
	Template        string            `yaml:"template"`
	Variables       map[string]string `yaml:"variables"`
	Skills          []Skill           `yaml:"skills"`
	ContextCommands []ContextCommand  `yaml:"context_commands"`
}

// DefaultBudget is the context budget of a question (ask.budget), of
// hookd ctx and of MCP's command_context when none is given, in
// estimated tokens.
const DefaultBudget = 8000
