package config

import (
	"errors"
	"fmt"
	"os"

	"github.com/goccy/go-yaml"
)

// PatternSpec is one entry of the patterns file: the user's own rule for
// recognising a failure and fixing it (see analyze.Pattern for the meaning).
type PatternSpec struct {
	Name        string    `yaml:"name"`
	Command     string    `yaml:"command"`
	Output      string    `yaml:"output"`
	ErrorType   string    `yaml:"error_type"`
	Explanation string    `yaml:"explanation"`
	Fixes       []FixSpec `yaml:"fixes"`
}

// FixSpec is one fix of a PatternSpec.
type FixSpec struct {
	Command     string `yaml:"command"`
	Explanation string `yaml:"explanation"`
}

// ExamplePatterns is a commented patterns file.
const ExamplePatterns = `# ~/.config/hookd/patterns.yaml: your own failures and their fixes
- name: terraform-init
  command: '^terraform (plan|apply)'            # regular expression on the command line
  output: 'Please run "(?P<init>terraform init)"'  # and/or on its output
  error_type: configuration_error
  explanation: The working directory is not initialised.
  fixes:                                         # at most 3; {command}, {args}, {1}, {init}
    - command: '{init} && {command}'
      explanation: Initialise, then run it again.
`

// LoadPatterns reads the patterns file at path. A missing file is no error.
// A file that cannot be read as YAML gives no patterns and a warning naming
// the file and line.
func LoadPatterns(path string) ([]PatternSpec, []string) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []string{fmt.Sprintf("%s: %v; no patterns used", path, err)}
	}
	var ps []PatternSpec
	if err := yaml.UnmarshalWithOptions(data, &ps, yaml.Strict()); err != nil {
		return nil, []string{fmt.Sprintf("%s: %s; no patterns used", path, yamlError(err))}
	}
	return ps, nil
}
