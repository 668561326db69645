package analyze

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

var (
	refusedRes = []lazyRegexp{
		lazyRegexp(`Failed to connect to (\S+) port (\d+)`),
		lazyRegexp(`connect to host (\S+) port (\d+): Connection refused`),
		lazyRegexp(`connect to (\S+) port (\d+) \(tcp\) failed`),
		lazyRegexp(`ECONNREFUSED (\S+?):(\d+)`),
		lazyRegexp(`(?:connect|dial tcp) \[?([^\s\]]+?)\]?:(\d+): connect: connection refused`),
		lazyRegexp(`Could not connect to \S+ at (\S+?):(\d+)`),
		lazyRegexp(`connection to server at "[^"]*" \((\S+)\), port (\d+) failed`),
		lazyRegexp(`(?:Connecting to|connect to) \S+ \|?(\S+?)\|?:(\d+)\.\.\. failed: Connection refused`),
	}
	resolveRes = []lazyRegexp{
		lazyRegexp(`Could not resolve host: (\S+)`),
		lazyRegexp(`unable to resolve host address ['‘]([^'’]+)['’]`),
		lazyRegexp(`getaddrinfo (?:ENOTFOUND|EAI_AGAIN) (\S+)`),
		lazyRegexp(`lookup (\S+?)(?: on \S+)?: no such host`),
		lazyRegexp(`(?:ssh|ping): (?:Could not resolve hostname )?(\S+?): (?:Name or service not known|Temporary failure in name resolution|No address associated with hostname)`),
		lazyRegexp(`Failed to resolve ['"]?([^'"\s]+)`),
		lazyRegexp(`Unknown host:? (\S+)`),
	}
	wgetErrorRe   = lazyRegexp(`ERROR (\d{3}): ([^\n.]+)`)
	httpErrorRe   = lazyRegexp(`The requested URL returned error: (\d+)`)
	keyPermsRe    = lazyRegexp(`Permissions (0\d+) for '([^']+)' are too open`)
	urlSchemeRe   = lazyRegexp(`Protocol "?([a-zA-Z0-9+.-]+)"? not supported`)
	hostChangedRe = lazyRegexp(`REMOTE HOST IDENTIFICATION HAS CHANGED|Offending (?:\S+ )?key (?:for IP )?in (\S+):(\d+)`)
	inUseRes      = []lazyRegexp{
		lazyRegexp(`(?i)address already in use[^\n]*?[: ](\d{2,5})\b`),
		lazyRegexp(`(?i)(?:listen|bind)(?: tcp)?[^\n]*?:(\d{2,5})[^\n]*address already in use`),
		lazyRegexp(`Bind for [^\s]*?:(\d+) failed: port is already allocated`),
		lazyRegexp(`bind\(\) to \S+?:(\d+) failed \(98`),
		lazyRegexp(`(?i)port (\d{2,5}) is already in use|port (\d{2,5}) (?:is )?(?:already )?(?:in use|taken)`),
	}
	wellKnownHosts = lazyValue[[]string]{make: func() []string {
		return strings.Fields(`github.com gitlab.com bitbucket.org google.com www.google.com pypi.org
		files.pythonhosted.org registry.npmjs.org npmjs.com docker.io registry-1.docker.io hub.docker.com
		proxy.golang.org golang.org go.dev crates.io deb.debian.org archive.ubuntu.com security.debian.org
		raw.githubusercontent.com objects.githubusercontent.com api.github.com example.com localhost
		cloudflare.com amazon.com aws.amazon.com s3.amazonaws.com quay.io ghcr.io gcr.io stackoverflow.com
		wikipedia.org en.wikipedia.org python.org nodejs.org rust-lang.org static.rust-lang.org`)
	}}
	urlSchemes = lazyValue[[]string]{make: func() []string {
		return strings.Fields(`http https ftp ftps sftp scp file ws wss smtp imap ldap dict tftp`)
	}}
)

func isLocalHost(h string) bool {
	h = strings.Trim(h, "[]")
	return h == "localhost" || strings.HasPrefix(h, "127.") || h == "::1" || h == "0.0.0.0" || h == ""
}

func ruleNetwork(ctx context.Context, f *Failure) *Finding {
	for _, re := range refusedRes {
		m := f.find(re)
		if m == nil {
			continue
		}
		return connectionRefused(ctx, f, m[1], m[2])
	}
	if f.has("connection refused") {
		return connectionRefused(ctx, f, "", "")
	}
	if m := f.find(hostChangedRe); m != nil && f.has("REMOTE HOST IDENTIFICATION HAS CHANGED") {
		host := sshHost(f)
		fd := found(NetworkError, 0.9, "The server's host key differs from the one remembered in known_hosts: the server was reinstalled, or someone is intercepting the connection.")
		if host != "" {
			fd.Fixes = append(fd.Fixes, fix("ssh-keygen -R "+shellwords.QuoteWord(host), 0.75, "Forget the old key (only if you know why it changed), then connect again."))
		}
		return fd
	}
	if m := f.find(keyPermsRe); m != nil {
		return found(PermissionDenied, 0.92, fmt.Sprintf("ssh refuses the private key %s because other users may read it (permissions %s).", m[2], m[1]),
			fix("chmod 600 "+shellwords.QuotePath(m[2])+" && "+strings.TrimSpace(f.Command), 0.9, "Make the key readable by you alone, then connect."))
	}
	if f.has("host key verification failed") {
		return explain(NetworkError, 0.85, "ssh could not verify the server's host key (unknown host in a non-interactive session, or a changed key); connect once interactively to accept it.")
	}
	if f.has("permission denied (publickey") {
		return explain(PermissionDenied, 0.88, "The server refused your SSH key (Permission denied (publickey)): the key is not in its authorized_keys, or the user name is wrong.")
	}
	for _, re := range resolveRes {
		m := f.find(re)
		if m == nil {
			continue
		}
		return hostNotFound(f, strings.Trim(m[1], "'\".,:"))
	}
	if f.has("temporary failure in name resolution", "name or service not known", "temporary failure resolving", "could not resolve", "nodename nor servname") {
		return explain(NetworkError, 0.85, "The host name could not be resolved (DNS): check the name, your network connection and /etc/resolv.conf.")
	}
	if m := f.find(urlSchemeRe); m != nil {
		for i := range f.Calls {
			c := &f.Calls[i]
			for j := 1; j < len(c.Args); j++ {
				scheme, rest, ok := strings.Cut(c.Args[j], "://")
				if !ok || scheme != m[1] {
					continue
				}
				if ms := closest(strings.ToLower(scheme), urlSchemes.get(), nil); len(ms) > 0 {
					return found(SyntaxError, 0.9, fmt.Sprintf("%s:// is not a protocol; did you mean %s://?", scheme, ms[0].word),
						fix(f.putWord(c, j, ms[0].word+"://"+rest), min(ms[0].score, 0.92), "Use %s://.", ms[0].word))
				}
			}
		}
	}
	switch {
	case f.has("100% packet loss"):
		return explain(NetworkError, 0.8, "No reply came back (100%% packet loss): the host is down, or it or a firewall drops ping.")
	case f.has("network is unreachable"):
		return explain(NetworkError, 0.85, "The network is unreachable: this machine has no route there (no connection, or no IPv6 route).")
	case f.has("no route to host"):
		return explain(NetworkError, 0.85, "No route to host: the host is down or a firewall rejects the connection.")
	case f.has("connection timed out", "operation timed out", "timed out after", "i/o timeout", "connect timeout"):
		return explain(NetworkError, 0.8, "The connection timed out: the host is down, the port is filtered by a firewall, or the network is slow.")
	case f.has("ssl certificate problem", "certificate verify failed", "x509: certificate", "self signed certificate", "self-signed certificate"):
		return explain(NetworkError, 0.85, "The server's TLS certificate is not trusted (self-signed, expired, or a missing CA bundle); fix the certificate rather than disabling verification.")
	case f.has("connection reset by peer"):
		return explain(NetworkError, 0.75, "The server closed the connection abruptly (connection reset by peer).")
	}
	if f.has("can't connect to local mysql server", "can't connect to local server through socket") {
		return explain(NetworkError, 0.85, "The MySQL/MariaDB server is not running (its socket is missing); start it, or connect over TCP with -h 127.0.0.1.")
	}
	if f.has("is the server running locally and accepting connections", "is the server running on that host and accepting") {
		return explain(NetworkError, 0.85, "The PostgreSQL server is not running or not listening where psql looks; start it, or give -h and -p.")
	}
	if m := wgetErrorRe.FindStringSubmatch(f.Output); m != nil {
		return explain(NetworkError, 0.85, "The server answered HTTP %s (%s): %s.", m[1], strings.TrimSpace(m[2]), httpMeaning(m[1]))
	}
	if m := httpErrorRe.FindStringSubmatch(f.Output); m != nil {
		return explain(NetworkError, 0.85, "The server answered HTTP %s: %s.", m[1], httpMeaning(m[1]))
	}
	return nil
}

func httpMeaning(code string) string {
	switch code {
	case "400":
		return "the request is malformed"
	case "401":
		return "authentication is required"
	case "403":
		return "access is forbidden"
	case "404":
		return "there is nothing at that URL"
	case "429":
		return "too many requests, slow down"
	case "500", "502", "503", "504":
		return "the server failed"
	}
	return "the request failed"
}

// connectionRefused explains a refused connection, checking whether
// anything listens on a local port.
func connectionRefused(ctx context.Context, f *Failure, host, port string) *Finding {
	where := ""
	switch {
	case host != "" && port != "":
		where = fmt.Sprintf(" on %s port %s", host, port)
	case port != "":
		where = " on port " + port
	}
	service := "the server"
	if c := f.main(); c != nil && (c.Name() == "ssh" || c.Name() == "scp" || c.Name() == "sftp") {
		service = "an SSH server"
	}
	cause := fmt.Sprintf("Connection refused: nothing is listening%s; is %s running (and on that port)?", where, service)
	if p, err := strconv.Atoi(port); err == nil && isLocalHost(host) {
		if l, ok := f.Env.ListeningPort(ctx, p); ok {
			cause = fmt.Sprintf("Connection refused%s, although %s listens there: it may accept only some addresses (IPv4 or IPv6).", where, listenerName(l))
		}
	}
	return explain(NetworkError, 0.88, "%s", cause)
}

func listenerName(l Listener) string {
	switch {
	case l.Command != "" && l.PID > 0:
		return fmt.Sprintf("%s (pid %d)", l.Command, l.PID)
	case l.PID > 0:
		return fmt.Sprintf("pid %d", l.PID)
	}
	return "a process"
}

// hostNotFound explains a failed name lookup and corrects a mistyped
// well-known host.
func hostNotFound(f *Failure, host string) *Finding {
	cause := fmt.Sprintf("The host name %s could not be resolved (DNS): a typo, or no network connection.", host)
	if contains(wellKnownHosts.get(), strings.ToLower(host)) {
		return explain(NetworkError, 0.88, "%s could not be resolved: the network or DNS is down (the name itself is right).", host)
	}
	ms := closest(strings.ToLower(host), wellKnownHosts.get(), nil)
	if len(ms) > 0 && ms[0].dist > 2 {
		ms = nil
	}
	if len(ms) == 0 || host == "" {
		return explain(NetworkError, 0.85, "%s", cause)
	}
	for i := range f.Calls {
		c := &f.Calls[i]
		for j := 1; j < len(c.Args); j++ {
			if k := strings.Index(c.Args[j], host); k >= 0 {
				fixed := c.Args[j][:k] + ms[0].word + c.Args[j][k+len(host):]
				return found(NetworkError, 0.88, fmt.Sprintf("The host name %s does not exist; did you mean %s?", host, ms[0].word),
					fix(f.putWord(c, j, fixed), min(ms[0].score, 0.9), "Use %s.", ms[0].word))
			}
		}
	}
	return explain(NetworkError, 0.85, "%s", cause)
}

// sshHost returns the host an ssh-like command connects to, in the form
// known_hosts uses ([host]:port for a non-standard port).
func sshHost(f *Failure) string {
	c := f.call("ssh", "scp", "sftp", "git")
	if c == nil {
		return ""
	}
	port := ""
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		if (a == "-p" || a == "-P") && j+1 < len(c.Args) {
			port = c.Args[j+1]
			j++
			continue
		}
		if strings.HasPrefix(a, "-") {
			if len(a) == 2 && strings.Contains("bcDEeFIiJLlmOoQRSWw", a[1:]) {
				j++
			}
			continue
		}
		host := a
		if _, h, ok := strings.Cut(host, "@"); ok {
			host = h
		}
		if h, _, ok := strings.Cut(host, ":"); ok {
			host = h
		}
		if port != "" && port != "22" {
			return "[" + host + "]:" + port
		}
		return host
	}
	return ""
}

func rulePortInUse(ctx context.Context, f *Failure) *Finding {
	if !f.has("address already in use", "already allocated", "eaddrinuse", "already in use", "address in use") {
		return nil
	}
	port := 0
	for _, re := range inUseRes {
		for _, g := range f.find(re) {
			if n, err := strconv.Atoi(g); err == nil && port == 0 {
				port = n
			}
		}
	}
	uses := ports(f)
	if c := f.call("docker", "podman"); c != nil {
		uses = dockerHostPorts(c)
	}
	if port == 0 && len(uses) > 0 {
		port = uses[len(uses)-1].port
	}
	holder := "another process"
	var l Listener
	if port > 0 {
		if got, ok := f.Env.ListeningPort(ctx, port); ok {
			l = got
			holder = listenerName(l)
		}
	}
	cause := "The address is already in use: another process listens on that port."
	if port > 0 {
		cause = fmt.Sprintf("Port %d is already in use by %s.", port, holder)
	}
	fd := found(NetworkError, 0.9, cause)
	for i := len(uses) - 1; i >= 0; i-- {
		u := uses[i]
		if u.port != port && port != 0 {
			continue
		}
		alt := alternativePort(u.port)
		fd.Fixes = append(fd.Fixes, fix(f.replaceWord(u.call, u.index, fmt.Sprintf(u.text, alt)), 0.85, "Use port %d instead.", alt))
		break
	}
	if l.PID > 0 {
		fd.Fixes = append(fd.Fixes, fix(fmt.Sprintf("kill %d", l.PID), 0.6, "Stop %s, which holds the port.", holder))
	} else if port > 0 {
		// Unknown holder: say how to find it. Not as a fix: looking is not
		// fixing, and the honest answer may be an explanation alone.
		if f.Env.LookPath(ctx, "lsof") {
			fd.RootCause += fmt.Sprintf(" lsof -i :%d shows which process holds it.", port)
		} else if f.Env.LookPath(ctx, "ss") {
			fd.RootCause += fmt.Sprintf(" ss -ltnp 'sport = :%d' shows which process holds it.", port)
		}
	}
	return fd
}

// dockerHostPorts returns the host side of docker's -p HOST:CONTAINER.
func dockerHostPorts(c *Call) []portUse {
	var out []portUse
	for j := 1; j+1 < len(c.Args); j++ {
		if c.Args[j] != "-p" && c.Args[j] != "--publish" {
			continue
		}
		v := c.Args[j+1]
		parts := strings.Split(v, ":")
		if len(parts) < 2 {
			continue
		}
		hostPart := parts[len(parts)-2]
		n, err := strconv.Atoi(hostPart)
		if err != nil {
			continue
		}
		prefix := strings.Join(parts[:len(parts)-2], ":")
		if prefix != "" {
			prefix += ":"
		}
		text := prefix + "%d:" + strings.ReplaceAll(parts[len(parts)-1], "%", "%%")
		out = append(out, portUse{call: c, index: j + 1, port: n, text: text})
	}
	return out
}
