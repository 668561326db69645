package analyze

import (
	"context"
	"fmt"
	"strings"
)

var (
	aptNoPkgRe            = lazyRegexp(`E: (?:Unable to locate package |Package '?)([^\s']+)'?(?: has no installation candidate)?`)
	aptLockRe             = lazyRegexp(`Could not get lock ([^\s.]+(?:\.[^\s.]+)*)\.?(?:\s*It is held by process (\d+) \(([^)]+)\))?`)
	dpkgConfigRe          = lazyRegexp(`dpkg was interrupted, you must manually run '(?:sudo )?(dpkg --configure -a)'`)
	unitNotFoundRe        = lazyRegexp(`Unit ([^\s]+?)(?:\.service)? (?:not found|could not be found)`)
	unrecognizedServiceRe = lazyRegexp(`(?m)^(\S+): unrecognized service`)
	jobFailedRe           = lazyRegexp(`Job for (\S+) failed`)
)

func ruleApt(ctx context.Context, f *Failure) *Finding {
	c := f.call("apt", "apt-get", "aptitude", "dpkg", "apt-cache", "add-apt-repository")
	if c == nil {
		return nil
	}
	if f.has("could not get lock") && !f.has("permission denied") {
		m := f.find(aptLockRe)
		holder := "another package manager"
		if m != nil && m[2] != "" {
			holder = fmt.Sprintf("%s (pid %s)", m[3], m[2])
		}
		return explain(ConfigurationError, 0.92, "The package database is locked by %s; wait for it to finish (unattended upgrades often hold it after boot), then try again.", holder)
	}
	if f.has("are you root", "permission denied", "requires superuser privilege", "must be root", "unable to acquire the dpkg frontend lock") && !c.Sudo {
		return found(PermissionDenied, 0.93, fmt.Sprintf("%s needs root to change the system's packages.", c.Name()),
			fix(f.prefixed(c, "sudo"), 0.93, "Run it with sudo."))
	}
	if m := f.find(dpkgConfigRe); m != nil {
		return found(ConfigurationError, 0.9, "An earlier installation was interrupted; dpkg must finish configuring before anything else.",
			fix(f.sudo(ctx)+m[1], 0.9, "Finish the interrupted configuration."))
	}
	if f.has("dependency problems prevent configuration", "dependency problems - leaving unconfigured") {
		return found(MissingDependency, 0.88, "The package's dependencies are not installed; apt can fetch them and finish the installation.",
			fix(f.sudo(ctx)+"apt --fix-broken install", 0.88, "Install the missing dependencies and configure the package."))
	}
	if f.has("--fix-broken install") || f.has("unmet dependencies") && f.has("apt --fix-broken") {
		return found(ConfigurationError, 0.85, "Installed packages have unmet dependencies; apt must repair them first.",
			fix(f.sudo(ctx)+"apt --fix-broken install", 0.85, "Let apt repair the broken dependencies."))
	}
	if m := f.find(aptNoPkgRe); m != nil {
		return aptMissingPackage(ctx, f, c, m[1])
	}
	if f.has("NO_PUBKEY") {
		return explain(ConfigurationError, 0.85, "A repository's signing key is missing (NO_PUBKEY), so apt will not trust it; install the repository's key.")
	}
	if f.has("does not have a Release file") {
		return explain(ConfigurationError, 0.85, "A repository in sources.list does not exist for this release (no Release file); fix or remove that entry.")
	}
	if f.has("held broken packages") {
		return explain(MissingDependency, 0.8, "The requested packages conflict with what is installed (held broken packages); apt cannot find a consistent set.")
	}
	return nil
}

// aptMissingPackage corrects a package name apt does not know.
func aptMissingPackage(ctx context.Context, f *Failure, c *Call, name string) *Finding {
	j := -1
	for i := 1; i < len(c.Args); i++ {
		if c.Args[i] == name {
			j = i
		}
	}
	fd := found(MissingDependency, 0.85, fmt.Sprintf("apt knows no package %s.", name))
	if j < 0 {
		return fd
	}
	if rest, ok := strings.CutPrefix(name, "python-"); ok {
		fd.Fixes = append(fd.Fixes, fix(f.putWord(c, j, "python3-"+rest), 0.86, "Debian's Python 3 packages are named python3-*."))
	}
	ms := closest(name, commonAptPackages.get(), nil)
	if len(ms) == 0 || ms[0].dist > 1 {
		if len(name) >= 2 {
			ms = append(ms, closest(name, f.Env.AptPackages(ctx, name[:2]), nil)...)
		}
	}
	seen := map[string]bool{}
	// Debian's names beside the one typed: a part of it that is a package
	// (nodejs-npm is npm), or the one or two packages that are it and a
	// suffix, where the name was taken (fd is fd-find).
	for i := 2; i+2 < len(name); i++ {
		if name[i] != '-' {
			continue
		}
		for k, part := range []string{name[i+1:], name[:i]} {
			if !seen[part] && contains(f.Env.AptPackages(ctx, part[:2]), part) {
				seen[part] = true
				fd.Fixes = append(fd.Fixes, fix(f.putWord(c, j, part), 0.87-0.03*float64(k), "Debian names the package %s.", part))
			}
		}
	}
	if len(name) >= 2 {
		var longer []string
		for _, p := range f.Env.AptPackages(ctx, name[:2]) {
			if strings.HasPrefix(p, name+"-") && !strings.HasPrefix(p, name+"-dbg") && !strings.HasSuffix(p, "-doc") {
				longer = append(longer, p)
			}
		}
		if len(longer) <= 2 {
			for _, p := range longer {
				seen[p] = true
				fd.Fixes = append(fd.Fixes, fix(f.putWord(c, j, p), 0.81, "Debian names the package %s (the name %s is another's or none).", p, name))
			}
		}
	}
	typos := 0
	for _, m := range ms {
		if seen[m.word] || typos == MaxFixes {
			continue
		}
		seen[m.word] = true
		typos++
		fd.Fixes = append(fd.Fixes, fix(f.putWord(c, j, m.word), min(m.score, 0.92), "Did you mean the package %s?", m.word))
	}
	if len(fd.Fixes) > 0 {
		fd.RootCause = fmt.Sprintf("apt knows no package %s; did you mean %s?", name, fd.Fixes[0].Command[strings.LastIndex(fd.Fixes[0].Command, " ")+1:])
		return fd
	}
	fd.RootCause = fmt.Sprintf("apt knows no package %s: the name is wrong, or the package lists are out of date.", name)
	fd.Fixes = append(fd.Fixes, fix(f.sudo(ctx)+"apt update && "+strings.TrimSpace(f.Command), 0.5, "Refresh the package lists, then try again."))
	return fd
}

func ruleSystem(ctx context.Context, f *Failure) *Finding {
	c := f.main()
	switch {
	case f.has("has not been booted with systemd", "systemd as init system") || f.has("failed to connect to bus") && f.call("systemctl", "journalctl", "hostnamectl", "timedatectl", "loginctl") != nil:
		svc := ""
		if sc := f.call("systemctl"); sc != nil && len(sc.Args) >= 3 {
			svc = fmt.Sprintf(" (for example service %s %s)", sc.Args[len(sc.Args)-1], sc.sub())
		}
		const why = "systemd is not running here (PID 1 is another init, as in most containers and WSL), so systemctl cannot manage services; use the service command%s or start the daemon directly."
		// The tool gave up before reading its verb: a typo of one
		// (timedatectl stauts) is still worth correcting.
		if i, w := vocabTypo(ctx, f, c); w != "" {
			return found(ConfigurationError, 0.92, fmt.Sprintf(why, svc)+fmt.Sprintf(" Also, %s has no subcommand %s: did you mean %s?", c.Name(), c.Args[i], w),
				fix(f.putWord(c, i, w), 0.6, "%s's completion data names %s.", c.Name(), w))
		}
		return explain(ConfigurationError, 0.92, why, svc)
	case f.has("is not in the sudoers file"):
		return explain(PermissionDenied, 0.9, "Your user may not use sudo (not in the sudoers file); ask an administrator, or use su with the root password.")
	case f.has("sudo: a terminal is required", "sudo: a password is required", "no askpass program"):
		return explain(PermissionDenied, 0.85, "sudo needs a password but has no terminal to ask for it on; run it in an interactive terminal or configure NOPASSWD.")
	}
	if m := f.find(unitNotFoundRe); m != nil {
		return unitNotFound(ctx, f, m[1])
	}
	if m := f.find(unrecognizedServiceRe); m != nil {
		return unrecognizedService(ctx, f, m[1])
	}
	if m := f.find(jobFailedRe); m != nil {
		return explain(ConfigurationError, 0.85, "%s failed to start; its log says why: journalctl -xeu %s", m[1], m[1])
	}
	if c != nil && c.Name() == "kill" && f.has("no such process") {
		return explain(Unknown, 0.85, "There is no process with that id: it has already exited (or the id is wrong).")
	}
	return nil
}

// unitNotFound corrects a mistyped systemd unit name from the unit files.
func unitNotFound(ctx context.Context, f *Failure, unit string) *Finding {
	c := f.call("systemctl", "service", "journalctl")
	fd := found(ConfigurationError, 0.8, fmt.Sprintf("There is no unit %s.", unit))
	if c == nil {
		return fd
	}
	var names []string
	for _, d := range []string{"/etc/systemd/system", "/lib/systemd/system", "/usr/lib/systemd/system", "/run/systemd/system"} {
		es, err := f.Env.ReadDir(ctx, d)
		if err != nil {
			continue
		}
		for _, e := range es {
			if n, ok := strings.CutSuffix(e.Name, ".service"); ok && !strings.HasSuffix(n, "@") {
				names = append(names, n)
			}
		}
	}
	base := strings.TrimSuffix(unit, ".service")
	for i := 1; i < len(c.Args); i++ {
		if strings.TrimSuffix(c.Args[i], ".service") != base {
			continue
		}
		for k, m := range closest(base, names, nil) {
			if k == MaxFixes {
				break
			}
			fd.Fixes = append(fd.Fixes, fix(f.putWord(c, i, m.word), min(m.score, 0.9), "The unit %s exists.", m.word))
		}
		break
	}
	return fd
}

// unrecognizedService corrects a service name from /etc/init.d.
func unrecognizedService(ctx context.Context, f *Failure, name string) *Finding {
	c := f.call("service")
	es, err := f.Env.ReadDir(ctx, "/etc/init.d")
	if c == nil || err != nil {
		return explain(ConfigurationError, 0.85, "There is no service %s (no script in /etc/init.d): check the name, or install the service.", name)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name)
	}
	fd := found(ConfigurationError, 0.85, fmt.Sprintf("There is no service %s (no script in /etc/init.d).", name))
	for j := 1; j < len(c.Args); j++ {
		if c.Args[j] != name {
			continue
		}
		for k, m := range closest(name, names, nil) {
			if k == 2 {
				break
			}
			fd.Fixes = append(fd.Fixes, fix(f.putWord(c, j, m.word), min(m.score, 0.9), "The service %s exists.", m.word))
		}
	}
	return fd
}
