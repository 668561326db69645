// Package scripts holds the shell code that `hookd init` prints, exactly as it
// is on disk, so that bash -n, zsh -n and shellcheck check what really runs.
package scripts

import _ "embed"

// Bash is the integration for bash 4.4 or newer.
//
//go:embed bash.sh
var Bash string

// Zsh is the integration for zsh 5.3 or newer.
//
//go:embed zsh.sh
var Zsh string

// Fish is the integration for fish 3.1 or newer.
//
//go:embed fish.fish
var Fish string
