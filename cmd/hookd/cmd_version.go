package main

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/spf13/pflag"
)

// version, commit and buildDate are set by the release build (Makefile):
//
//	-ldflags "-X main.version=V -X main.commit=C -X main.buildDate=RFC3339"
//
// A plain go build or go install leaves commit and buildDate empty: they
// are then read from what Go stamped into the binary (vcs.revision,
// vcs.time), when it was built in a git work tree.
var (
	version   = "0.1.0-dev"
	commit    = ""
	buildDate = ""
)

// versionInfo is what hookd version prints; its JSON names are a contract
// (docs/install.md).
type versionInfo struct {
	Version string `json:"version"`
	Commit  string `json:"commit"`
	Date    string `json:"date"`
	Go      string `json:"go"`
	SQLite  string `json:"sqlite"`
	FTS5    bool   `json:"fts5"`
	OS      string `json:"os"`
	Arch    string `json:"arch"`
}

func currentVersion() versionInfo {
	v := versionInfo{Version: version, Commit: commit, Date: buildDate, Go: runtime.Version(),
		SQLite: history.SQLiteVersion(), FTS5: history.FTS5, OS: runtime.GOOS, Arch: runtime.GOARCH}
	if v.Commit == "" || v.Date == "" {
		if bi, ok := debug.ReadBuildInfo(); ok {
			modified := false
			for _, s := range bi.Settings {
				switch s.Key {
				case "vcs.revision":
					if v.Commit == "" {
						v.Commit = s.Value
					}
				case "vcs.time":
					if v.Date == "" {
						v.Date = s.Value
					}
				case "vcs.modified":
					modified = s.Value == "true"
				}
			}
			if modified && commit == "" && v.Commit != "" {
				v.Commit += "-dirty"
			}
		}
	}
	return v
}

func cmdVersion(fs *pflag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print one JSON object: version, commit, date, go, sqlite, fts5, os, arch")
	return func(ctx context.Context, e *env, args []string) error {
		if len(args) > 0 {
			return usagef("unexpected argument %q", args[0])
		}
		v := currentVersion()
		if *asJSON {
			return json.NewEncoder(e.stdout).Encode(v)
		}
		fmt.Fprintf(e.stdout, "hookd %s\n", v.Version)
		commit, date := v.Commit, v.Date
		if commit == "" {
			commit = "unknown"
		}
		if t, err := time.Parse(time.RFC3339, date); err == nil {
			date = t.UTC().Format("2006-01-02 15:04:05 UTC")
		} else if date == "" {
			date = "unknown"
		}
		fts := "with full-text search (FTS5)"
		if !v.FTS5 {
			fts = "without FTS5: search falls back to substring matching (build with -tags sqlite_fts5)"
		}
		fmt.Fprintf(e.stdout, "commit   %s\nbuilt    %s\ngo       %s %s/%s\nsqlite   %s, %s\n", commit, date, v.Go, v.OS, v.Arch, v.SQLite, fts)
		return nil
	}
}
