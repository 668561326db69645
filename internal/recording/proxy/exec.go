package proxy

import (
	"fmt"
	"os/exec"
	"strings"
	"syscall"
)

// ShellArgv is the command line of an interactive shell at path ("" is
// /bin/sh), as a login shell with login.
func ShellArgv(path string, login bool) []string {
	if path == "" {
		path = "/bin/sh"
	}
	argv := []string{path, "-i"}
	if login {
		argv = append(argv, "-l")
	}
	return argv
}

// WithoutEnv returns env without the variables named.
func WithoutEnv(env []string, names ...string) []string {
	out := env[:0:0]
outer:
	for _, kv := range env {
		for _, n := range names {
			if strings.HasPrefix(kv, n+"=") {
				continue outer
			}
		}
		out = append(out, kv)
	}
	return out
}

// Exec replaces this process with the program at path ("" is argv[0],
// looked up in PATH when it has no slash), for when the proxy cannot run
// it: the user keeps a shell. It returns only when the exec failed.
func Exec(path string, argv, env []string) error {
	if path == "" {
		path = argv[0]
	}
	if !strings.Contains(path, "/") {
		if p, err := exec.LookPath(path); err == nil {
			path = p
		}
	}
	if err := syscall.Exec(path, argv, env); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
