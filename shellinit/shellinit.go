// Package shellinit produces the shell code that `hookd init` prints.
package shellinit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hookd/hookd/scripts"
)

// binMarker ends the one line of each script that names the hookd binary.
const binMarker = " # @bin@"

var sources = map[string]string{
	"bash": scripts.Bash,
	"zsh":  scripts.Zsh,
}

// Shells returns the names of the supported shells, sorted.
func Shells() []string {
	names := make([]string, 0, len(sources))
	for name := range sources {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Script returns the integration code for shell, with bin (the absolute path
// of the hookd binary) filled in as the only generated value.
func Script(shell, bin string) (string, error) {
	src, ok := sources[shell]
	if !ok {
		return "", fmt.Errorf("unsupported shell %q (supported: %s)", shell, strings.Join(Shells(), ", "))
	}
	lines := strings.SplitAfter(src, "\n")
	found := false
	for i, line := range lines {
		trimmed := strings.TrimRight(line, "\n")
		if !strings.HasSuffix(trimmed, binMarker) {
			continue
		}
		eq := strings.IndexByte(trimmed, '=')
		if eq < 0 {
			return "", fmt.Errorf("script for %s: marked line has no assignment", shell)
		}
		lines[i] = trimmed[:eq+1] + Quote(bin) + "\n"
		found = true
	}
	if !found {
		return "", fmt.Errorf("script for %s: no line marked %q", shell, strings.TrimSpace(binMarker))
	}
	return strings.Join(lines, ""), nil
}

// Quote returns s as one single-quoted word that bash and zsh both read back
// as exactly s. s must not contain a NUL byte, which no shell word can hold.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
