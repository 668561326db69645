package analyze

import (
	"context"
	"fmt"
	"strings"
)

var (
	goToFixRe     = lazyRegexp(`to (?:add|update)(?: it)?:\n\s+(go (?:get|mod|work) [^\n]+)`)
	goNotStdRe    = lazyRegexp(`package (\S+) is not in (?:std|GOROOT)`)
	goCompileRe   = lazyRegexp(`(?m)^(?:# \S+\n)?\.?/?([^\s:]+\.go):(\d+):(?:\d+:)? (.+)$`)
	goUnusedImpRe = lazyRegexp(`"([^"]+)" imported and not used`)
	goUnusedVarRe = lazyRegexp(`declared and not used: (\S+)|(\S+) declared (?:and|but) not used`)
	goNoModuleRe  = lazyRegexp(`(?:cannot find module providing package|no required module provides package) ([^\s:;]+)`)
	goVersionRe   = lazyRegexp(`go\.mod requires go >= (\S+) \(running go (\S+)`)
	goModuleArgRe = lazyRegexp(`^[a-zA-Z0-9][a-zA-Z0-9._~/-]*(?:@[a-zA-Z0-9._+-]+)?$`)
)

func ruleGo(ctx context.Context, f *Failure) *Finding {
	c := f.call("go")
	if c == nil {
		return nil
	}
	if m := f.find(goToFixRe); m != nil {
		cmd := strings.TrimSpace(m[1])
		fx := fix(cmd, 0.92, "Add the module, as go itself suggests.")
		if w := strings.Fields(cmd); len(w) == 3 && w[1] == "get" && goModuleArgRe.MatchString(w[2]) || cmd == "go mod tidy" || cmd == "go mod download" {
			fx.Command = strings.Join(w, " ") // a module path the rule checked: go get MODULE[@VERSION]
		} else {
			fx.Untrusted = true
		}
		fd := found(MissingDependency, 0.92, "A required module is missing from go.mod or go.sum.", fx)
		if !strings.HasPrefix(cmd, "go mod tidy") {
			fd.Fixes = append(fd.Fixes, fix("go mod tidy", 0.8, "Add all missing modules and drop unused ones."))
		}
		return fd
	}
	if f.has("'go install' requires a version") && c.sub() == "install" {
		for j := c.subIndex() + 1; j < len(c.Args) && j > 0; j++ {
			if a := c.Args[j]; !strings.HasPrefix(a, "-") && !strings.Contains(a, "@") {
				return found(ConfigurationError, 0.9, "Outside a module, go install needs a version, such as @latest.",
					fix(f.putWord(c, j, a+"@latest"), 0.9, "Install the latest version."))
			}
		}
	}
	if f.has("go.mod file not found", "cannot find main module") {
		return noProjectFile(ctx, f, "go.mod", "go mod init MODULE-PATH (for example go mod init example.com/hello)")
	}
	if m := f.find(goNoModuleRe); m != nil {
		return found(MissingDependency, 0.88, fmt.Sprintf("No module in go.mod provides the package %s.", m[1]),
			fix("go get "+m[1], 0.88, "Add the module that provides %s.", m[1]),
			fix("go mod tidy", 0.84, "Add all missing modules to go.mod and go.sum."))
	}
	if f.has("no required module provides package", "missing go.sum entry") {
		return found(MissingDependency, 0.88, "A required module is missing from go.mod or go.sum.", fix("go mod tidy", 0.88, "Add the missing modules to go.mod and go.sum."))
	}
	if f.has("cannot determine module path") {
		return explain(ConfigurationError, 0.9, "go mod init needs the module path here, as in go mod init example.com/NAME (usually the repository's URL without https://).")
	}
	if m := f.find(goNotStdRe); m != nil && c.subIndex() > 0 && indexOf(c.Args[c.subIndex():], m[1]) < 0 {
		return explain(MissingDependency, 0.85, "No standard-library package is named %s: a typo in an import path, or a module path without its domain.", m[1])
	}
	if m := f.find(goNotStdRe); m != nil {
		pkg := m[1]
		fd := found(FileNotFound, 0.88, fmt.Sprintf("%s is neither a file nor a package path: go run wants a .go file or a package such as .", pkg))
		for j := c.subIndex() + 1; j < len(c.Args) && j > 0; j++ {
			if c.Args[j] != pkg {
				continue
			}
			if f.isFile(ctx, pkg+".go") {
				fd.Fixes = append(fd.Fixes, fix(f.putWord(c, j, pkg+".go"), 0.9, "Name the file %s.go.", pkg))
			}
			if f.isDir(ctx, pkg) {
				fd.Fixes = append(fd.Fixes, fix(f.putWord(c, j, "./"+pkg), 0.88, "Name the local package ./%s.", pkg))
			}
			fd.Fixes = append(fd.Fixes, fix(f.replaceWord(c, j, "."), 0.84, "Run the package in this directory."))
		}
		return fd
	}
	if c.sub() == "run" && f.has("no such file or directory") && f.exists(ctx, "go.mod") {
		// The near-name search offers the file; the package is another way.
		for j := c.subIndex() + 1; j < len(c.Args) && j > 0; j++ {
			if strings.HasSuffix(c.Args[j], ".go") && !f.exists(ctx, c.Args[j]) {
				return found(FileNotFound, 0.5, fmt.Sprintf("%s does not exist.", c.Args[j]),
					fix(f.replaceWord(c, j, "."), 0.7, "Run the package in this directory."))
			}
		}
	}
	if m := f.find(goVersionRe); m != nil {
		return explain(ConfigurationError, 0.88, "go.mod requires Go %s but this is Go %s; install a newer Go, or set GOTOOLCHAIN=auto to let go fetch one.", m[1], m[2])
	}
	if f.has("no go files in") {
		return explain(FileNotFound, 0.85, "There are no Go files in that directory; run the command where the package is, or name the package path.")
	}
	if f.has("build constraints exclude all go files") {
		return explain(ConfigurationError, 0.8, "Build constraints (//go:build lines or _os/_arch file names) exclude every file for this platform.")
	}
	if m := f.find(goCompileRe); m != nil {
		where := fmt.Sprintf("%s:%s", m[1], m[2])
		msg := strings.TrimSpace(m[3])
		switch {
		case goUnusedImpRe.MatchString(msg):
			imp := goUnusedImpRe.FindStringSubmatch(msg)[1]
			return explain(SyntaxError, 0.9, "Go refuses unused imports: %q is imported but not used (%s); remove the import or use it.", imp, where)
		case goUnusedVarRe.MatchString(msg):
			v := goUnusedVarRe.FindStringSubmatch(msg)
			return explain(SyntaxError, 0.9, "Go refuses unused variables: %s is declared and not used (%s); use it, remove it, or assign it to _.", v[1]+v[2], where)
		case strings.HasPrefix(msg, "undefined:"):
			return explain(SyntaxError, 0.85, "Compile error at %s: %s — a misspelt name, a missing import, or a file left out of the build.", where, msg)
		}
		return explain(SyntaxError, 0.8, "Go compile error at %s: %s", where, msg)
	}
	return nil
}
