package analyze

import (
	"path/filepath"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
	"mvdan.cc/sh/v3/syntax"
)

// This file rates commands that run code other than what the user sees on
// the line: shell payloads (sh -c, eval, exec), programs piped into an
// interpreter, configuration that makes a tool run a program (git -c
// core.pager=…, GIT_SSH_COMMAND=…), package registry changes and
// publishing.

// maxPayloadDepth bounds how deeply nested payloads (sh -c "sh -c '…'") are
// parsed; deeper nesting is rated high, as only obfuscation needs it.
const maxPayloadDepth = 4

// payloadRisk rates code that a shell runs from a string: at least medium,
// since the line shown is not the command that runs, and more if the code
// itself is.
func payloadRisk(code string, depth int) string {
	if depth+1 >= maxPayloadDepth {
		return RiskHigh
	}
	return MaxRisk(RiskMedium, riskDepth(code, depth+1))
}

// isShellName reports a shell, which runs its -c payload or its standard
// input.
func isShellName(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "busybox":
		return true
	}
	return false
}

// isInterpreter reports a program that runs code it reads: a shell or a
// scripting language.
func isInterpreter(name string) bool {
	if isShellName(name) {
		return true
	}
	switch strings.TrimRight(name, "0123456789.") {
	case "python", "pypy", "perl", "ruby", "node", "nodejs", "php", "lua", "deno", "bun", "pwsh", "osascript", "tclsh", "Rscript":
		return true
	}
	return false
}

// shellRisk rates sh/bash/zsh … and eval: a -c payload or eval's words are
// parsed and rated, and are at least medium.
func shellRisk(name string, rest []string, depth int) string {
	if name == "eval" {
		if len(rest) == 0 {
			return RiskLow
		}
		return payloadRisk(strings.Join(rest, " "), depth)
	}
	for i, a := range rest {
		if a == "--" || !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+") {
			return RiskLow // a script file, read by the user or not: as ./script
		}
		if a[0] == '-' && !strings.HasPrefix(a, "--") && strings.Contains(a[1:], "c") {
			for _, p := range rest[i+1:] {
				if !strings.HasPrefix(p, "-") {
					return payloadRisk(p, depth)
				}
			}
			return RiskMedium
		}
	}
	return RiskLow
}

// inlineCode reports an interpreter's option that takes its program from
// the next word (python3 -c, perl -e, ruby -e, node -e/-p, php -r).
func inlineCode(args []string) bool {
	for _, a := range args {
		switch a {
		case "-c", "-e", "-E", "--eval", "-p", "--print", "-r":
			return true
		case "--":
			return false
		}
		if !strings.HasPrefix(a, "-") {
			return false // the script, then its own arguments
		}
	}
	return false
}

// trapRisk rates trap: its first word is code the shell runs later, rated
// as sh -c's (trap - SIG and trap ” SIG run nothing).
func trapRisk(_ string, args []string, depth int) string {
	if len(args) < 2 || args[0] == "" || strings.HasPrefix(args[0], "-") {
		return RiskLow
	}
	return payloadRisk(args[0], depth)
}

// sourceRisk rates source and .: a file is read as the user's own script
// (low, as ./script), but standard input or a descriptor is code from
// elsewhere.
func sourceRisk(_ string, args []string, _ int) string {
	if len(args) > 0 && (strings.HasPrefix(args[0], "/dev/") || strings.HasPrefix(args[0], "/proc/")) {
		return RiskMedium
	}
	return RiskLow
}

// readsProgram reports whether an interpreter called with args takes its
// program from standard input: no script, no inline code, or "-".
func readsProgram(name string, args []string) bool {
	shell := isShellName(name)
	for i, a := range args {
		switch {
		case a == "-":
			return true
		case a == "--":
			return i+1 == len(args) || shell || args[i+1] == "-"
		case !strings.HasPrefix(a, "-"):
			return false // a script file
		case shell && !strings.HasPrefix(a, "--") && strings.Contains(a[1:], "s"):
			return true // sh -s: commands from standard input
		case shell && !strings.HasPrefix(a, "--") && strings.Contains(a[1:], "c"):
			return false
		}
		switch a {
		case "-c", "-m", "-e", "-E", "--eval", "-p", "--print", "-r", "--command":
			return false // inline code, rated as a payload where parsed
		}
	}
	return true
}

// edgeArgs returns the words of the program at one end of a statement
// (the last command of a pipeline when last is set, the first otherwise),
// past its wrappers.
func edgeArgs(s *syntax.Stmt, src string, last bool) []string {
	if s == nil {
		return nil
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		ws, _ := shellwords.CallWords(c, src)
		args := shellwords.Values(ws)
		if len(args) == 0 {
			return nil
		}
		return args[shellwords.Unwrap(args).Prog:]
	case *syntax.BinaryCmd:
		if last {
			return edgeArgs(c.Y, src, true)
		}
		return edgeArgs(c.X, src, false)
	}
	return nil
}

// pipeRisk rates a pipeline: anything piped into a shell or an interpreter
// that runs its standard input as a program (curl … | sh, … | python3) is
// high.
func pipeRisk(b *syntax.BinaryCmd, src string) string {
	right := edgeArgs(b.Y, src, false)
	if len(right) == 0 {
		return RiskLow
	}
	name := filepath.Base(right[0])
	if isInterpreter(name) && readsProgram(name, right[1:]) {
		return RiskHigh
	}
	return RiskLow
}

// runsDownload reports a shell or an interpreter whose code comes from a
// download in a substitution: bash <(curl …), sh -c "$(wget -O- …)",
// eval "$(curl …)", source <(curl …).
func runsDownload(c *syntax.CallExpr, src string) bool {
	if len(c.Args) < 2 {
		return false
	}
	ws, _ := shellwords.CallWords(c, src)
	args := shellwords.Values(ws)
	if len(args) < 2 {
		return false
	}
	name := filepath.Base(args[shellwords.Unwrap(args).Prog])
	if !isInterpreter(name) && name != "eval" && name != "source" && name != "." {
		return false
	}
	found := false
	for _, w := range c.Args[1:] {
		syntax.Walk(w, func(n syntax.Node) bool {
			if ce, ok := n.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
				switch filepath.Base(shellwords.Eval(ce.Args[0], src).Value) {
				case "curl", "wget", "fetch", "aria2c", "http", "https", "xh":
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// assignRisk rates setting a variable that makes programs run other
// programs (GIT_SSH_COMMAND, LD_PRELOAD, …: high), or changes where
// packages come from (npm_config_registry, PIP_INDEX_URL, GOPROXY, …:
// medium).
func assignRisk(name, value string) string {
	up := strings.ToUpper(name)
	switch up {
	case "LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "BASH_ENV", "ENV", "PROMPT_COMMAND",
		"GIT_SSH_COMMAND", "GIT_SSH", "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_PROXY_COMMAND",
		"GIT_CONFIG_PARAMETERS", "GIT_EXEC_PATH", "GIT_TEMPLATE_DIR", "PERL5OPT", "RUBYOPT", "NODE_OPTIONS",
		"NPM_CONFIG_SCRIPT_SHELL", "NPM_CONFIG_GIT", "NPM_CONFIG_NODE_OPTIONS":
		return RiskHigh
	case "PAGER", "GIT_PAGER", "MANPAGER", "EDITOR", "VISUAL", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "BROWSER":
		switch filepath.Base(strings.Fields(value + " x")[0]) {
		case "cat", "less", "more", "most", "bat", "vi", "vim", "nvim", "nano", "emacs", "code", "x":
			return RiskLow
		}
		return RiskHigh
	case "NPM_CONFIG_REGISTRY", "YARN_REGISTRY", "YARN_NPM_REGISTRY_SERVER", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL",
		"PIP_TRUSTED_HOST", "UV_INDEX_URL", "UV_EXTRA_INDEX_URL", "UV_INDEX", "GOPROXY", "GONOSUMDB", "GONOSUMCHECK",
		"GOSUMDB", "GOINSECURE", "GOFLAGS", "GEM_SOURCE", "CARGO_REGISTRY_DEFAULT", "GIT_CONFIG_COUNT":
		return RiskMedium
	}
	if strings.HasPrefix(up, "GIT_CONFIG_KEY_") {
		if gitKeyRunsProgram(value, "") {
			return RiskHigh
		}
		return RiskMedium
	}
	if strings.HasPrefix(up, "CARGO_REGISTRIES_") || strings.HasPrefix(up, "NPM_CONFIG_") && strings.HasSuffix(up, "REGISTRY") {
		return RiskMedium
	}
	return RiskLow
}

// gitKeyRunsProgram reports a git configuration key whose value git runs
// as a program (core.pager, core.sshCommand, alias.x=!cmd, filter drivers,
// credential helpers, …) or which pulls in configuration or hooks from
// elsewhere (include.path, core.hooksPath).
func gitKeyRunsProgram(key, value string) bool {
	key = strings.ToLower(key)
	switch key {
	case "core.pager", "core.sshcommand", "core.editor", "core.fsmonitor", "core.hookspath", "core.askpass",
		"core.gitproxy", "core.alternaterefscommand", "credential.helper", "sequence.editor", "diff.external",
		"gpg.program", "uploadpack.packobjectshook", "include.path", "init.templatedir",
		"interactive.difffilter", "protocol.allow", "protocol.ext.allow", "safe.directory", "web.browser":
		return true
	}
	section, _, _ := strings.Cut(key, ".")
	last := key[strings.LastIndexByte(key, '.')+1:]
	switch section {
	case "alias":
		return strings.HasPrefix(strings.TrimSpace(value), "!")
	case "pager", "includeif", "credential":
		return true
	case "submodule":
		return last == "update" && strings.HasPrefix(strings.TrimSpace(value), "!")
	case "filter":
		return last == "clean" || last == "smudge" || last == "process"
	case "diff":
		return last == "textconv" || last == "command"
	case "merge":
		return last == "driver"
	case "remote":
		return last == "uploadpack" || last == "receivepack"
	case "difftool", "mergetool", "browser", "man":
		return last == "cmd" || last == "path"
	case "gpg":
		return last == "program"
	case "protocol":
		return last == "allow"
	}
	return false
}

// gitConfigArg rates a "key=value" given to git -c or --config.
func gitConfigArg(kv string) string {
	key, value, _ := strings.Cut(kv, "=")
	if gitKeyRunsProgram(key, value) {
		return RiskHigh
	}
	return RiskLow
}

// gitSubRisk rates the git subcommands that run programs or persistently
// change configuration: git config KEY VALUE, rebase --exec, bisect run,
// submodule foreach, and the options naming programs to run.
func gitSubRisk(sub string, rest []string, depth int) string {
	risk := RiskLow
	for i, a := range rest {
		nextArg := ""
		if i+1 < len(rest) {
			nextArg = rest[i+1]
		}
		switch {
		case a == "--upload-pack" || a == "--receive-pack" || strings.HasPrefix(a, "--upload-pack=") || strings.HasPrefix(a, "--receive-pack="),
			(a == "--exec" || strings.HasPrefix(a, "--exec=")) && sub != "rebase",
			a == "-u" && (sub == "clone" || sub == "fetch" || sub == "ls-remote" || sub == "archive"),
			a == "--template" || strings.HasPrefix(a, "--template="):
			return RiskHigh
		case (a == "-c" || a == "--config") && (sub == "clone" || sub == "submodule"):
			risk = MaxRisk(risk, gitConfigArg(nextArg))
		case strings.HasPrefix(a, "--config="):
			risk = MaxRisk(risk, gitConfigArg(strings.TrimPrefix(a, "--config=")))
		}
	}
	switch sub {
	case "config":
		args := []string{}
		for _, a := range rest {
			if !strings.HasPrefix(a, "-") {
				args = append(args, a)
			}
		}
		if len(args) > 0 && (args[0] == "set" || args[0] == "--add") {
			args = args[1:]
		}
		if len(args) >= 2 {
			if gitKeyRunsProgram(args[0], strings.Join(args[1:], " ")) {
				return RiskHigh
			}
			risk = MaxRisk(risk, RiskLow)
		}
	case "rebase":
		for i, a := range rest {
			if (a == "-x" || a == "--exec") && i+1 < len(rest) {
				risk = MaxRisk(risk, payloadRisk(rest[i+1], depth))
			} else if strings.HasPrefix(a, "--exec=") {
				risk = MaxRisk(risk, payloadRisk(strings.TrimPrefix(a, "--exec="), depth))
			}
		}
	case "bisect":
		if len(rest) > 1 && rest[0] == "run" {
			risk = MaxRisk(risk, MaxRisk(RiskMedium, callRisk(rest[1:], depth+1)))
		}
	case "submodule":
		for i, a := range rest {
			if a == "foreach" {
				for _, p := range rest[i+1:] {
					if !strings.HasPrefix(p, "-") {
						risk = MaxRisk(risk, payloadRisk(strings.Join(rest[i+1:], " "), depth))
						break
					}
				}
			}
		}
	}
	return risk
}

// registryFlag reports whether a package manager's flag points it at
// another registry or index.
func registryFlag(a string) bool {
	for _, f := range []string{"--registry", "--index-url", "--extra-index-url", "--trusted-host", "--find-links",
		"--index", "--default-index", "--source", "--clear-sources", "--add-source"} {
		if a == f || strings.HasPrefix(a, f+"=") {
			return true
		}
	}
	return strings.HasPrefix(a, "--@") && strings.Contains(a, ":registry")
}

// packageRisk rates package managers: publishing is at least medium, and
// so is pointing them at another registry or index; config that makes them
// run programs (npm's script-shell) is high; npm exec, npx and dlx are
// rated by the command they run.
func packageRisk(name string, rest []string, depth int) string {
	risk := RiskLow
	sub, subAt := "", -1
	for i, a := range rest {
		if !strings.HasPrefix(a, "-") {
			sub, subAt = a, i
			break
		}
	}
	after := []string{}
	if subAt >= 0 {
		after = rest[subAt+1:]
	}
	for _, a := range rest {
		switch {
		case strings.HasPrefix(a, "--script-shell") || strings.HasPrefix(a, "--node-options"):
			return RiskHigh
		case registryFlag(a):
			risk = MaxRisk(risk, RiskMedium)
		case (a == "-i" || a == "-f") && (name == "pip" || name == "pip3" || name == "uv"),
			(a == "-s") && name == "gem" && (sub == "install" || sub == "update"),
			(a == "-a" || a == "--add") && name == "gem" && sub == "sources":
			risk = MaxRisk(risk, RiskMedium)
		}
	}
	switch name {
	case "npm", "pnpm", "yarn", "bun", "bunx", "npx":
		switch sub {
		case "publish", "unpublish", "deprecate", "owner", "dist-tag", "npm", "token", "adduser", "login":
			if sub != "npm" || contains(after, "publish") {
				risk = MaxRisk(risk, RiskMedium)
			}
		case "config", "set", "c":
			args := after
			if sub != "set" {
				if len(args) == 0 || args[0] != "set" {
					break
				}
				args = args[1:]
			}
			risk = MaxRisk(risk, npmConfigRisk(args))
		case "exec", "x", "dlx":
			risk = MaxRisk(risk, execRisk(after, depth))
		}
		if name == "npx" || name == "bunx" {
			risk = MaxRisk(risk, execRisk(rest, depth))
		}
	case "cargo":
		switch sub {
		case "publish", "yank", "owner", "login":
			risk = MaxRisk(risk, RiskMedium)
		}
	case "gem":
		switch sub {
		case "push", "yank", "owner", "signin":
			risk = MaxRisk(risk, RiskMedium)
		}
	case "twine", "flit", "poetry", "hatch", "uv", "pdm":
		switch sub {
		case "upload", "publish":
			risk = MaxRisk(risk, RiskMedium)
		case "source":
			if len(after) > 0 && after[0] == "add" {
				risk = MaxRisk(risk, RiskMedium)
			}
		}
	case "pip", "pip3":
		if sub == "config" && len(after) > 1 && after[0] == "set" && strings.Contains(strings.ToLower(after[1]), "index") {
			risk = MaxRisk(risk, RiskMedium)
		}
	case "go":
		if sub == "env" && (contains(after, "-w") || contains(after, "-u")) {
			risk = MaxRisk(risk, RiskMedium)
		}
	case "add-apt-repository", "apt-key":
		risk = MaxRisk(risk, RiskMedium)
	case "helm", "mvn", "gradle", "dotnet":
		if sub == "push" || sub == "deploy" || sub == "publish" || sub == "nuget" && contains(after, "push") {
			risk = MaxRisk(risk, RiskMedium)
		}
	}
	return risk
}

// npmConfigRisk rates "npm config set KEY VALUE" (or KEY=VALUE): changing
// the configuration is medium, keys that name programs are high.
func npmConfigRisk(args []string) string {
	var words []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			words = append(words, a)
		}
	}
	if len(words) == 0 {
		return RiskLow
	}
	key, _, _ := strings.Cut(words[0], "=")
	key = strings.ToLower(key)
	switch key {
	case "script-shell", "shell", "git", "editor", "browser", "node-options", "onload-script", "init-module", "viewer":
		return RiskHigh
	}
	return RiskMedium
}

// execRisk rates what npm exec, npx and dlx run: the command after the
// package options, or a -c payload.
func execRisk(args []string, depth int) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-c" || a == "--call":
			if i+1 < len(args) {
				return payloadRisk(args[i+1], depth)
			}
			return RiskMedium
		case strings.HasPrefix(a, "--call="):
			return payloadRisk(strings.TrimPrefix(a, "--call="), depth)
		case a == "--":
			return callRisk(args[i+1:], depth+1)
		case a == "-p" || a == "--package":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return callRisk(args[i:], depth+1)
		}
	}
	return RiskLow
}
