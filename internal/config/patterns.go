package config

import (
	"errors"
	"os"

	"github.com/hookd/hookd/internal/yamlpos"
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
	// Line is where the entry starts in the file, for warnings about it.
	Line int `yaml:"-"`
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
// An entry that cannot be read is skipped with a Warning naming the file,
// the line and the column; the other entries still apply. A file that is
// not a YAML list gives no patterns and a Warning.
func LoadPatterns(path string) ([]PatternSpec, []Warning) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []Warning{{File: path, Msg: err.Error(), Then: "no patterns used"}}
	}
	src, w := parse(path, data)
	if w != nil {
		w.Then = "no patterns used"
		return nil, []Warning{*w}
	}
	ps, warns, ok := decode(src, func() []PatternSpec { return nil }, true)
	for i := range warns {
		warns[i].Then = "pattern skipped"
	}
	if !ok {
		warns[len(warns)-1].Then = "no patterns used"
		return nil, warns
	}
	for i := range ps {
		ps[i].Line, _ = yamlpos.Of(src.item(i))
	}
	return ps, inOrder(warns)
}
