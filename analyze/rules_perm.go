package analyze

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

var (
	deniedRe      = lazyRegexp(`(?i)permission denied|\beacces\b|operation not permitted|are you root|must be (?:run as )?root|must be superuser|requires? (?:superuser|root) privilege|only root can|need to be root|run (?:it |this )?as root|access denied|authentication is required|interactive authentication required|insufficient privileges|not allowed to|you don't have (?:enough |sufficient )?permission`)
	redirDeniedRe = lazyRegexp(`(?m)^(?:bash|zsh|sh)(?:: line \d+| \d+)?: (?:permission denied: )?([^:\n]+?)(?:: Permission denied)?\s*$`)
	portArgRe     = lazyRegexp(`^(?:(--?[a-zA-Z-]*port[a-zA-Z-]*=)|(.*:))?(\d{1,5})$`)
)

func rulePermission(ctx context.Context, f *Failure) *Finding {
	if !deniedRe.MatchString(f.Output) {
		return nil
	}
	if f.has("docker.sock", "docker daemon", "(publickey", "publickey)", "/var/lib/dpkg", "/var/lib/apt", "/var/cache/apt", "dpkg frontend", "externally-managed") {
		return nil // rules_docker.go, rules_network.go, rules_apt.go and rules_python.go know these
	}
	if privilegedPort(f) != nil {
		return nil
	}
	// A script without execute permission is rules_shell.go's.
	for _, re := range notExecRes {
		if m := f.find(re); m != nil && f.callByName(m[1]) != nil {
			return nil
		}
	}
	// Writing through a redirection: sudo does not apply to the shell's
	// redirection, tee does the writing instead.
	if m := f.find(redirDeniedRe); m != nil {
		target := strings.TrimSpace(m[1])
		for i := range f.Calls {
			c := &f.Calls[i]
			for _, r := range c.Redirs {
				if r.Target != target || r.Op != ">" && r.Op != ">>" && r.Op != ">|" || r.FD != "" && r.FD != "1" {
					continue
				}
				cmd := f.Input.Command
				without := strings.TrimSpace(cmd[:r.span[0]]) + cmd[r.span[1]:]
				if c.Sudo && len(c.start) > 0 && c.start[0] < r.span[0] {
					// sudo did not help the redirection; tee takes its place.
					without = strings.TrimSpace(cmd[:c.span[0]]+cmd[c.start[0]:r.span[0]]) + cmd[r.span[1]:]
				}
				tee := "sudo tee "
				if r.Op == ">>" {
					tee = "sudo tee -a "
				}
				fixed := strings.TrimSpace(without) + " | " + tee + shellwords.QuotePath(target) + " > /dev/null"
				return found(PermissionDenied, 0.88, fmt.Sprintf("You may not write %s; sudo cannot help a redirection, which your shell opens before the command runs.", target),
					fix(fixed, 0.88, "Write the file through sudo tee."))
			}
		}
	}
	c := f.main()
	if c == nil {
		return nil
	}
	line := f.keyLineMatching(deniedRe)
	if c.Sudo {
		return explain(PermissionDenied, 0.6, "Denied even with sudo: %s", line)
	}
	if c.Name() == "cd" {
		return explain(PermissionDenied, 0.8, "You may not enter that directory: %s", line)
	}
	switch c.Name() {
	case "ulimit", "export", "source", ".", "alias", "set", "umask", "exec", "pushd", "popd", "read":
		return explain(PermissionDenied, 0.75, "%s is a shell builtin, so sudo cannot run it: %s", c.Name(), line)
	}
	if c.Name() == "ssh" || c.Name() == "scp" || c.Name() == "git" && f.has("could not read from remote") {
		return nil
	}
	if f.deniedRoot(ctx) {
		// Root was denied: something other than privilege is in the way.
		return found(PermissionDenied, 0.5, "Denied although you are root, so sudo cannot help: the file or its directory may be immutable (lsattr shows an i; chattr -i clears it), on a read-only filesystem, or refused by a security module.")
	}
	conf := 0.82
	return found(PermissionDenied, conf, fmt.Sprintf("Permission denied: %s", strings.TrimSpace(line)),
		fix(f.prefixed(c, "sudo"), conf, "Run the command with root privileges."))
}

// keyLineMatching returns the first output line matching re, or the key line.
func (f *Failure) keyLineMatching(re lazyRegexp) string {
	for _, l := range strings.Split(f.Output, "\n") {
		if re.MatchString(l) {
			return strings.TrimSpace(l)
		}
	}
	return f.keyLine()
}

// portUse is a port number given on a command line.
type portUse struct {
	call  *Call
	index int    // the word
	port  int    // the number
	text  string // the word with the number replaced by %d
}

// ports returns the ports a command line names: plain numbers, host:port,
// --port=N, -p N and --port N.
func ports(f *Failure) []portUse {
	var out []portUse
	for i := range f.Calls {
		c := &f.Calls[i]
		for j := 1; j < len(c.Args); j++ {
			m := portArgRe.FindStringSubmatch(c.Args[j])
			if m == nil {
				continue
			}
			n, err := strconv.Atoi(m[3])
			if err != nil || n == 0 || n > 65535 {
				continue
			}
			prev := c.Arg(j - 1)
			isPort := m[1] != "" || m[2] != "" || strings.Contains(strings.ToLower(prev), "port") || prev == "-p" || prev == "-P" ||
				c.Name() == "python3" || c.Name() == "python" || c.Name() == "nc" || c.Name() == "ncat" || c.Name() == "socat"
			if !isPort {
				continue
			}
			out = append(out, portUse{call: c, index: j, port: n, text: m[1] + m[2] + "%d"})
		}
	}
	return out
}

// alternativePort proposes a free-looking port instead of p.
func alternativePort(p int) int {
	switch {
	case p == 80:
		return 8080
	case p == 443:
		return 8443
	case p < 1024:
		return 8000 + p
	case p == 8080:
		return 8081
	case p == 65535:
		return 65534
	}
	return p + 1
}

// privilegedPort returns the port below 1024 that a server was refused, or nil.
func privilegedPort(f *Failure) *portUse {
	if !f.has("permission denied", "eacces", "permissionerror", "operation not permitted") {
		return nil
	}
	if !f.has("bind", "listen", "socket", "port", "server") {
		return nil
	}
	for _, p := range ports(f) {
		if p.port < 1024 {
			return &p
		}
	}
	return nil
}

func rulePrivilegedPort(ctx context.Context, f *Failure) *Finding {
	p := privilegedPort(f)
	if p == nil {
		return nil
	}
	alt := alternativePort(p.port)
	fd := found(PermissionDenied, 0.9, fmt.Sprintf("Ports below 1024 are privileged: only root may listen on port %d.", p.port))
	fd.Fixes = append(fd.Fixes,
		fix(f.replaceWord(p.call, p.index, fmt.Sprintf(p.text, alt)), 0.88, "Listen on unprivileged port %d instead.", alt),
		fix(f.prefixed(p.call, "sudo"), 0.84, "Run the server as root to bind port %d.", p.port))
	return fd
}
