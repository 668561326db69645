package analyze

import (
	"context"
	"fmt"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

var (
	dockerNeedsArgRe   = lazyRegexp(`["']?docker (?:buildx )?build["']? requires (?:exactly )?1 argument`)
	dockerLowercaseRe  = lazyRegexp(`(?i)repository name (?:\([^)]*\) )?must be lowercase|invalid tag .*: repository name must be lowercase`)
	dockerNameInUseRe  = lazyRegexp(`The container name "/([^"]+)" is already in use`)
	dockerPullDenyRe   = lazyRegexp(`pull access denied for ([^,\s]+)|repository ([^\s]+) not found|manifest for (\S+) not found|manifest unknown`)
	dockerNoDockerfile = lazyRegexp(`(?i)failed to read dockerfile|unable to evaluate symlinks in dockerfile path|cannot locate specified dockerfile`)
)

func ruleDocker(ctx context.Context, f *Failure) *Finding {
	c := f.call("docker", "docker-compose", "podman")
	if c == nil {
		return nil
	}
	cmd := strings.TrimSpace(f.Command)
	switch {
	case f.has("permission denied while trying to connect to the docker daemon socket", "permission denied") && f.has("docker.sock"):
		fd := found(PermissionDenied, 0.92, "You may not use the Docker socket: your user is not in the docker group.")
		if !c.Sudo {
			fd.Fixes = append(fd.Fixes, fix(f.prefixed(c, "sudo"), 0.85, "Run docker as root this time."))
		}
		fd.Fixes = append(fd.Fixes, fix("sudo usermod -aG docker $USER && newgrp docker", 0.8, "Join the docker group (for good; other sessions need a new login)."))
		return fd
	case f.has("cannot connect to the docker daemon", "is the docker daemon running", "docker daemon is not running", "error during connect"):
		fd := found(ConfigurationError, 0.9, "The Docker daemon is not running (or not reachable through DOCKER_HOST).")
		if !f.Env.LookPath(ctx, "dockerd") {
			fd.RootCause = "The Docker daemon is not running (or not reachable through DOCKER_HOST), and dockerd is not installed on this machine: only the client is."
		} else if _, err := f.Env.Stat(ctx, "/run/systemd/system"); err == nil {
			fd.Fixes = append(fd.Fixes, fix(f.sudo(ctx)+"systemctl start docker", 0.85, "Start the Docker service."))
		} else if f.Env.LookPath(ctx, "service") {
			fd.Fixes = append(fd.Fixes, fix(f.sudo(ctx)+"service docker start", 0.8, "Start the Docker service."))
		} else {
			fd.RootCause += " Start the daemon (dockerd, or Docker Desktop)."
		}
		return fd
	}
	if f.find(dockerNeedsArgRe) != nil {
		return found(SyntaxError, 0.92, "docker build needs a build context, usually . for the current directory.",
			fix(f.replaceWords(c, len(c.Args), len(c.Args), "."), 0.92, "Build with the current directory as context."))
	}
	if f.has("'compose' is not a docker command", "unknown command: docker compose", "docker: unknown command: compose") || f.has("unknown shorthand flag") && c.sub() == "compose" {
		fd := found(CommandNotFound, 0.88, "The docker compose plugin is not installed.")
		if f.Env.LookPath(ctx, "docker-compose") {
			fd.Fixes = append(fd.Fixes, fix(f.replaceWords(c, 0, c.subIndex()+1, "docker-compose"), 0.9, "Use the standalone docker-compose."))
		} else {
			fd.Fixes = append(fd.Fixes, fix(f.installCommand(ctx, "docker-compose"), 0.7, "Install docker-compose (then run it as docker-compose)."))
			fd.Fixes = append(fd.Fixes, fix(f.installCommand(ctx, "docker-compose-plugin"), 0.65, "Install the compose plugin, from Docker's own repository."))
		}
		return fd
	}
	if f.find(dockerLowercaseRe) != nil {
		if j := dockerImageArg(c); j > 0 && c.Args[j] != strings.ToLower(c.Args[j]) {
			low := strings.ToLower(c.Args[j])
			return found(SyntaxError, 0.9, "Docker image names must be lowercase.",
				fix(f.putWord(c, j, low), 0.9, "Use the lowercase name %s.", low))
		}
	}
	if m := f.find(dockerNameInUseRe); m != nil {
		return found(ConfigurationError, 0.88, fmt.Sprintf("A container named %s exists already.", m[1]),
			fix("docker rm -f "+shellwords.QuoteWord(m[1])+" && "+cmd, 0.8, "Remove the old container, then run the new one."),
			fix("docker start "+shellwords.QuoteWord(m[1]), 0.75, "Start the existing container instead."))
	}
	if f.find(dockerNoDockerfile) != nil {
		es, err := f.Env.ReadDir(ctx, f.path("."))
		fd := found(FileNotFound, 0.85, "There is no Dockerfile in the build context.")
		if err == nil {
			for _, e := range es {
				ln := strings.ToLower(e.Name)
				if !e.Dir && e.Name != "Dockerfile" && (strings.HasPrefix(ln, "dockerfile") || strings.HasSuffix(ln, ".dockerfile") || strings.HasPrefix(ln, "containerfile")) {
					fd.Fixes = append(fd.Fixes, fix(f.replaceWords(c, c.subIndex()+1, c.subIndex()+1, "-f "+shellwords.QuotePath(e.Name)), 0.85, "Build with %s.", e.Name))
				}
			}
		}
		if len(fd.Fixes) == 0 {
			return explain(FileNotFound, 0.85, "There is no Dockerfile in the build context; create one, or name it with -f.")
		}
		return fd
	}
	if c.sub() == "push" && f.has("requested access to the resource is denied", "unauthorized: authentication required", "authentication required") {
		return found(PermissionDenied, 0.88, "The registry refused the push: you are not logged in to it, or the image is not named after an account you may push to (user/app).",
			fix("docker login && "+cmd, 0.8, "Log in to the registry, then push again."),
			fix("docker login", 0.75, "Log in to the registry."))
	}
	if m := f.find(dockerPullDenyRe); m != nil {
		img := strings.TrimSpace(m[1] + m[2] + m[3])
		if img == "" {
			img = "the image"
		}
		return explain(ConfigurationError, 0.85, "The registry has no image %s (or it is private: docker login first); check the name and tag.", img)
	}
	if f.has("no configuration file provided", "can't find a suitable configuration file") {
		return noProjectFile(ctx, f, "compose.yaml", "a compose.yaml (or docker-compose.yml)")
	}
	if f.has("executable file not found in $path") {
		return explain(CommandNotFound, 0.85, "The command given to the container does not exist in its image.")
	}
	if f.has("no such container") {
		return explain(ConfigurationError, 0.85, "There is no such container; docker ps -a lists them.")
	}
	return nil
}

// dockerImageArg returns the index of the image name of a docker command:
// the value of -t/--tag, or the first argument after the subcommand.
func dockerImageArg(c *Call) int {
	for j := 1; j+1 < len(c.Args); j++ {
		if c.Args[j] == "-t" || c.Args[j] == "--tag" {
			return j + 1
		}
	}
	for j := c.subIndex() + 1; j > 0 && j < len(c.Args); j++ {
		if !strings.HasPrefix(c.Args[j], "-") {
			return j
		}
	}
	return -1
}
