package analyze_test

import (
	"testing"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/analyzetest"
)

func TestRulesDockerNetwork(t *testing.T) {
	withDockerd := func(f *analyzetest.Facts) { f.Exes = append(f.Exes, "dockerd") }
	runCases(t, []ruleCase{
		{name: "daemon-down", cmd: "docker ps", out: "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\n", env: withDockerd, want: "service docker start", cause: "daemon"},
		{name: "daemon-absent", cmd: "docker ps", out: "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\n", want: "", cause: "dockerd is not installed"},
		{name: "daemon-systemd", cmd: "docker ps", out: "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?\n", env: func(f *analyzetest.Facts) {
			withDockerd(f)
			user(f)
			f.Files["/run/systemd/system/"] = ""
		}, want: "sudo systemctl start docker"},
		{name: "socket-permission", cmd: "docker ps", out: "permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Get \"http://%2Fvar%2Frun%2Fdocker.sock/v1.24/containers/json\": dial unix /var/run/docker.sock: connect: permission denied\n", env: both(user, exes("usermod")), want: "sudo docker ps", also: "sudo usermod -aG docker $USER && newgrp docker", typ: analyze.PermissionDenied},
		{name: "build-context", cmd: "docker build -t app", out: "docker: 'docker build' requires 1 argument\n", want: "docker build -t app ."},
		{name: "uppercase-tag", cmd: "docker build -t MyApp .", exit: 125, out: "invalid argument \"MyApp\" for \"-t, --tag\" flag: invalid reference format: repository name (library/MyApp) must be lowercase\n", want: "docker build -t myapp ."},
		{name: "name-in-use", cmd: "docker run --name web nginx", exit: 125, out: "docker: Error response from daemon: Conflict. The container name \"/web\" is already in use by container \"abc\".\n", want: "docker rm -f web && docker run --name web nginx"},
		{name: "subcommand-typo", cmd: "docker biuld .", out: "docker: unknown command: docker biuld\n\nRun 'docker --help' for more information\n", want: "docker build ."},
		{name: "refused", cmd: "curl http://127.0.0.1:9/", exit: 7, out: "curl: (7) Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server\n", want: "", cause: "refused", typ: analyze.NetworkError},
		{name: "refused-ssh", cmd: "ssh -p 2222 127.0.0.1", exit: 255, out: "ssh: connect to host 127.0.0.1 port 2222: Connection refused\n", want: "", cause: "SSH server"},
		{name: "refused-but-listening", cmd: "curl http://localhost:8080/", exit: 7, out: "curl: (7) Failed to connect to localhost port 8080 after 0 ms: Couldn't connect to server\n", env: func(f *analyzetest.Facts) {
			f.Ports = map[int]analyze.Listener{8080: {PID: 42, Command: "node"}}
		}, want: "", cause: "node (pid 42)"},
		{name: "dns-typo", cmd: "git clone https://gihtub.com/u/r.git", exit: 128, out: "fatal: unable to access 'https://gihtub.com/u/r.git/': Could not resolve host: gihtub.com\n", want: "git clone https://github.com/u/r.git"},
		{name: "dns-unknown", cmd: "curl https://nonexistent.invalid", exit: 6, out: "curl: (6) Could not resolve host: nonexistent.invalid\n", want: "", cause: "could not be resolved"},
		{name: "scheme-typo", cmd: "curl htps://example.com", out: "curl: (1) Protocol \"htps\" not supported or disabled in libcurl\n", want: "curl https://example.com"},
		{name: "silent-curl", cmd: "curl -s http://localhost:3000", exit: 7, want: "", cause: "failed to connect"},
		{name: "host-key-changed", cmd: "ssh deploy@web1", exit: 255, out: "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\nOffending ECDSA key in /home/u/.ssh/known_hosts:3\n", want: "ssh-keygen -R web1"},
		{name: "port-in-use", cmd: "python3 -m http.server 8000", out: "OSError: [Errno 98] Address already in use\n", env: func(f *analyzetest.Facts) {
			f.Ports = map[int]analyze.Listener{8000: {PID: 77, Command: "python3"}}
		}, want: "python3 -m http.server 8001", also: "kill 77", cause: "python3 (pid 77)"},
		{name: "port-in-use-node", cmd: "node server.js", out: "Error: listen EADDRINUSE: address already in use :::3000\n", want: "", cause: "Port 3000"},
		{name: "port-in-use-docker", cmd: "docker run -p 8080:80 nginx", exit: 125, out: "docker: Error response from daemon: driver failed programming external connectivity: Bind for 0.0.0.0:8080 failed: port is already allocated.\n", want: "docker run -p 8081:80 nginx"},
		{name: "negative", cmd: "curl http://x", out: "<html>ok</html>", exit: 22, want: ""},
	})
}

func TestRulesArchive(t *testing.T) {
	tarHead := func(name string) func(*analyzetest.Facts) {
		return func(f *analyzetest.Facts) {
			b := make([]byte, 512)
			copy(b[257:], "ustar")
			f.Files[name] = string(b)
		}
	}
	runCases(t, []ruleCase{
		{name: "z-on-plain", cmd: "tar -xzf release.tar", exit: 2, out: "\ngzip: stdin: not in gzip format\ntar: Child returned status 1\ntar: Error is not recoverable: exiting now\n", env: tarHead("/w/release.tar"), want: "tar -xf release.tar"},
		{name: "j-on-gz-by-name", cmd: "tar xjf d.tar.gz", exit: 2, out: "bzip2: (stdin) is not a bzip2 file.\ntar: Child returned status 2\n", env: files("/w/d.tar.gz"), want: "tar xzf d.tar.gz"},
		{name: "unzip-targz", cmd: "unzip site.tar.gz", exit: 9, out: "Archive:  site.tar.gz\n  End-of-central-directory signature not found.\n", env: files("/w/site.tar.gz"), want: "tar -xzf site.tar.gz"},
		{name: "gunzip-zip", cmd: "gunzip data.zip", exit: 2, out: "gzip: data.zip: unknown suffix -- ignored\n", env: func(f *analyzetest.Facts) { f.Files["/w/data.zip"] = "PK\x03\x04rest" }, want: "unzip data.zip"},
		{name: "tar-on-zip", cmd: "tar -xf a.zip", exit: 2, out: "tar: This does not look like a tar archive\n", env: func(f *analyzetest.Facts) { f.Files["/w/a.zip"] = "PK\x03\x04rest" }, want: "unzip a.zip"},
		{name: "missing-f", cmd: "tar -xz r.tar.gz", exit: 2, out: "tar: Refusing to read archive contents from terminal (missing -f option?)\n", env: files("/w/r.tar.gz"), want: "tar -xzf r.tar.gz"},
		{name: "swapped", cmd: "tar -czf src backup.tar.gz", exit: 2, out: "tar: backup.tar.gz: Cannot stat: No such file or directory\ntar (child): src: Cannot open: Is a directory\n", env: files("/w/src/a"), want: "tar -czf backup.tar.gz src"},
		{name: "empty", cmd: "tar -czf backup.tar.gz", exit: 2, out: "tar: Cowardly refusing to create an empty archive\n", want: "", cause: "no files"},
		{name: "gzip-dir", cmd: "gzip logs", exit: 2, out: "gzip: logs is a directory -- ignored\n", env: files("/w/logs/a"), want: "tar -czf logs.tar.gz logs"},
		{name: "negative", cmd: "tar -xf ok.tar", exit: 2, out: "tar: ok.tar: Cannot open: No such file or directory\n", want: ""},
	})
}

func TestRulesAptSystemShell(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "apt-typo", cmd: "apt-get install -y pyhton3-venv", exit: 100, out: "Reading package lists...\nE: Unable to locate package pyhton3-venv\n", want: "apt-get install -y python3-venv"},
		{name: "apt-typo-from-lists", cmd: "apt install libfrobz-dev", exit: 100, out: "E: Unable to locate package libfrobz-dev\n", env: func(f *analyzetest.Facts) { f.AptNames = []string{"libfrob-dev", "libfroba-dev", "zzz"} }, want: "apt install libfrob-dev"},
		{name: "apt-python2", cmd: "apt install python-pip", exit: 100, out: "E: Package 'python-pip' has no installation candidate\n", want: "apt install python3-pip"},
		// Debian's names beside the one typed (apt-get's output on this machine).
		{name: "apt-part-is-a-package", cmd: "apt-get install nodejs-npm", exit: 100,
			out: "Reading package lists...\nBuilding dependency tree...\nReading state information...\nE: Unable to locate package nodejs-npm\n",
			env: func(f *analyzetest.Facts) { f.AptNames = []string{"node-is-npm", "nodejs", "nodejs-doc", "npm"} }, want: "apt-get install npm"},
		{name: "apt-name-taken", cmd: "apt-get install fd", exit: 100,
			out: "Reading package lists...\nBuilding dependency tree...\nReading state information...\nE: Unable to locate package fd\n",
			env: func(f *analyzetest.Facts) { f.AptNames = []string{"fd-find", "fdm", "fdupes"} }, want: "apt-get install fd-find", also: "apt-get install fdm"},
		{name: "apt-many-longer-names: none offered", cmd: "apt-get install qqx", exit: 100, out: "E: Unable to locate package qqx\n",
			env: func(f *analyzetest.Facts) { f.AptNames = []string{"qqx-a", "qqx-b", "qqx-c"} }, want: "apt update && apt-get install qqx"},
		{name: "apt-unknown", cmd: "apt install qqqqqqqq", exit: 100, out: "E: Unable to locate package qqqqqqqq\n", want: "apt update && apt install qqqqqqqq"},
		{name: "apt-lock", cmd: "apt install jq", exit: 100, out: "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1234 (apt)\n", want: "", cause: "apt (pid 1234)"},
		{name: "apt-operation", cmd: "apt instal jq", exit: 100, out: "E: Invalid operation instal\n", want: "apt install jq"},
		{name: "dpkg-interrupted", cmd: "apt install jq", exit: 100, out: "E: dpkg was interrupted, you must manually run 'dpkg --configure -a' to correct the problem.\n", want: "dpkg --configure -a"},
		{name: "no-systemd", cmd: "systemctl restart nginx", out: "System has not been booted with systemd as init system (PID 1). Can't operate.\nFailed to connect to bus: Host is down\n", want: "", cause: "systemd", typ: analyze.ConfigurationError},
		{name: "unit-typo", cmd: "systemctl restart ngnix", exit: 5, out: "Failed to restart ngnix.service: Unit ngnix.service not found.\n", env: files("/lib/systemd/system/nginx.service", "/lib/systemd/system/ssh.service"), want: "systemctl restart nginx"},
		{name: "systemctl-verb", cmd: "systemctl strat nginx", out: "Unknown command verb 'strat', did you mean 'start'?\n", want: "systemctl start nginx"},
		{name: "kill-none", cmd: "kill 999999", out: "bash: kill: (999999) - No such process\n", want: "", cause: "no process"},
		{name: "export-spaces", cmd: "export FOO = bar", out: "bash: export: `=': not a valid identifier\n", want: "export FOO=bar"},
		{name: "export-blank-in-value", cmd: "export PATH=$PATH: /opt/bin", out: "bash: export: `/opt/bin': not a valid identifier\n", want: "export PATH=$PATH:/opt/bin"},
		{name: "bracket", cmd: "[ -f notes.txt]", exit: 2, out: "bash: [: missing `]'\n", want: "[ -f notes.txt ]"},
		{name: "zsh-no-match", cmd: "pip install requests[socks]", out: "zsh: no matches found: requests[socks]\n", shell: "zsh", want: "pip install 'requests[socks]'"},
		{name: "crlf", cmd: "./run.sh", exit: 126, out: "bash: ./run.sh: /bin/bash^M: bad interpreter: No such file or directory\n", env: files("/w/run.sh"), want: `sed -i 's/\r$//' run.sh && ./run.sh`},
		{name: "crlf-bash52", cmd: "./run.sh", exit: 127, out: "bash: ./run.sh: cannot execute: required file not found\n", env: func(f *analyzetest.Facts) { f.Files["/w/run.sh"] = "#!/bin/bash\r\necho\r\n" }, want: `sed -i 's/\r$//' run.sh && ./run.sh`},
		{name: "integer", cmd: "[ 1 -eq abc ]", exit: 2, out: "bash: [: abc: integer expression expected\n", want: "", cause: "integer"},
		{name: "syntax", cmd: "for i in 1 2; echo $i; done", exit: 2, out: "bash: syntax error near unexpected token `echo'\n", want: "", typ: analyze.SyntaxError},
		{name: "segfault", cmd: "./app", exit: 139, want: "", cause: "segmentation fault"},
		{name: "tool-run-hint", cmd: "cargo build", exit: 1, out: "error: rustup could not choose a version of cargo to run, because one wasn't specified explicitly, and no default is configured.\nhelp: run 'rustup default stable' to download the latest stable release of Rust and set it as your default toolchain.\n", env: func(f *analyzetest.Facts) { f.Exes = append(f.Exes, "rustup") }, want: "rustup default stable"},
		{name: "negative-help-hint", cmd: "docker run", exit: 1, out: "\"docker run\" requires at least 1 argument.\nSee 'docker run --help'.\n", want: ""},
	})
}
