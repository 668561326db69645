package main

import (
	"context"
	"fmt"
	"github.com/spf13/pflag"
	"io"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/mcp"
	"github.com/hookd/hookd/internal/recording/agenthook"
)

// cmdMCP serves coding agents the history over MCP on stdin and stdout
// (package mcp), or prints the setup an agent needs to start it.
func cmdMCP(fs *pflag.FlagSet) runFunc {
	printConfig := fs.String("print-config", "", "print what `AGENT` (claude-code, codex, gemini, cursor) needs to start hookd's MCP server, and where it goes")
	return func(ctx context.Context, e *env, args []string) error {
		if len(args) > 0 {
			return usagef("no arguments (the agent starts hookd mcp and speaks MCP on its stdin and stdout)")
		}
		if *printConfig != "" {
			s, err := agenthook.MCPConfig(*printConfig, e.executable())
			if err != nil {
				return usageError{err.Error()}
			}
			fmt.Fprintf(e.stderr, "# %s\n", s.Where)
			_, err = io.WriteString(e.stdout, s.Text)
			return err
		}
		o := mcp.Options{
			Open:     e.openFlushed,
			Recover:  e.recoverStore,
			Reader:   e.reader,
			Redactor: e.rules().Redactor,
			Budget:   e.config().Ask.Budget,
			Version:  version,
			WorkedBefore: func(ctx context.Context, s *history.Store, en history.Entry) string {
				return e.workedBefore(ctx, s, en)
			},
			// The search's cache (Ctrl-R's), read and never written.
			SearchCache: e.paths.SearchCache,
		}
		return mcp.Serve(ctx, o, e.stdin, e.stdout)
	}
}
