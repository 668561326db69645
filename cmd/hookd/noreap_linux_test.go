package main

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// noReapInit runs argv as a container's PID 1 would that never reaps: a
// child subreaper (the processes orphaned below it, the detached agent
// among them, become its children) that waits for argv's process alone,
// so that any other child that dies stays a zombie.
func noReapInit(argv []string) int {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		fmt.Fprintln(os.Stderr, "noreap:", err)
		return 1
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = os.Getenv(noReapEnv)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = slices.DeleteFunc(os.Environ(), func(v string) bool { return strings.HasPrefix(v, noReapEnv+"=") })
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		return 1
	}
	return 0
}
