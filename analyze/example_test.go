package analyze_test

import (
	"context"
	"fmt"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/analyzetest"
)

func ExampleAnalyze() {
	env := &analyzetest.Facts{Exes: []string{"git", "grep", "ls"}}
	r := analyze.Analyze(context.Background(), analyze.Input{
		Command:  "gti status",
		ExitCode: 127,
		Output:   "zsh: command not found: gti\n",
		Shell:    "zsh",
		Env:      env,
	})
	fmt.Println(r.ErrorType)
	fmt.Println(r.RootCause)
	for _, f := range r.Fixes {
		fmt.Printf("%s (%s risk)\n", f.Command, f.Risk)
	}
	// Output:
	// command_not_found
	// gti: command not found. Did you mean git?
	// git status (low risk)
}

func ExampleRisk() {
	for _, cmd := range []string{"git push", "git push --force", "sudo rm -rf /"} {
		fmt.Println(analyze.Risk(cmd), cmd)
	}
	// Output:
	// low git push
	// medium git push --force
	// high sudo rm -rf /
}

func ExampleAnalyze_quiet() {
	r := analyze.Analyze(context.Background(), analyze.Input{Command: "grep TODO notes.txt", ExitCode: 1})
	fmt.Println(r.Quiet, len(r.Fixes))
	// Output: true 0
}
