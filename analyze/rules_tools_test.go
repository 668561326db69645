package analyze_test

import (
	"strings"
	"testing"

	"github.com/hookd/hookd/analyze"
	"github.com/hookd/hookd/analyze/analyzetest"
)

func TestRulesPython(t *testing.T) {
	venv := func(f *analyzetest.Facts) { f.Venv = "/w/.venv" }
	runCases(t, []ruleCase{
		{name: "module", cmd: "python3 app.py", out: "Traceback (most recent call last):\n  File \"/w/app.py\", line 1, in <module>\n    import requests\nModuleNotFoundError: No module named 'requests'\n", want: "pip install requests", also: "python3 -m pip install requests", typ: analyze.MissingDependency},
		{name: "module-renamed", cmd: "python3 app.py", out: "ModuleNotFoundError: No module named 'yaml'\n", want: "pip install pyyaml"},
		{name: "module-cv2", cmd: "python3 cam.py", out: "ModuleNotFoundError: No module named 'cv2'\n", want: "pip install opencv-python"},
		{name: "module-dotted", cmd: "python3 x.py", out: "ModuleNotFoundError: No module named 'sklearn.linear_model'\n", want: "pip install scikit-learn"},
		{name: "module-PIL", cmd: "python3 x.py", out: "ImportError: No module named PIL\n", want: "pip install pillow"},
		{name: "module-bs4", cmd: "python3 x.py", out: "ModuleNotFoundError: No module named 'bs4'\n", want: "pip install beautifulsoup4"},
		{name: "module-venv", cmd: "python app.py", out: "ModuleNotFoundError: No module named 'flask'\n", env: venv, want: "python -m pip install flask", cause: "virtual environment"},
		{name: "module-m", cmd: "python3 -m black .", out: "/usr/bin/python3: No module named black\n", want: "pip install black"},
		{name: "module-tkinter", cmd: "python3 gui.py", out: "ModuleNotFoundError: No module named 'tkinter'\n", want: "apt install python3-tk"},
		{name: "module-local", cmd: "python3 tests/t.py", out: "ModuleNotFoundError: No module named 'mypkg'\n", env: files("/w/mypkg/__init__.py"), want: "", cause: "project root"},
		{name: "print-py2", cmd: "python3 legacy.py", out: "  File \"legacy.py\", line 2\n    print \"hello\"\n    ^\nSyntaxError: Missing parentheses in call to 'print'. Did you mean print(...)?\n", want: "", cause: "parentheses", typ: analyze.SyntaxError},
		{name: "indentation", cmd: "python3 bad.py", out: "  File \"/w/bad.py\", line 2\n    return 1\n    ^\nIndentationError: expected an indented block after function definition on line 1\n", want: "", cause: "indent"},
		{name: "exception", cmd: "python3 k.py", out: "Traceback (most recent call last):\n  File \"/w/k.py\", line 2, in <module>\n    print(d[\"k\"])\nKeyError: 'k'\n", want: "", cause: "KeyError"},
		{name: "externally-managed", cmd: "pip install requests", out: "error: externally-managed-environment\n\n× This environment is externally managed\n", env: debPython, want: "python3 -m venv .venv && . .venv/bin/activate && pip install requests", also: "apt install python3-requests"},
		// PyPI's pyyaml is Debian's python3-yaml; python3-pyyaml does not exist.
		{name: "externally-managed-debian-name", cmd: "pip install pyyaml", out: "error: externally-managed-environment\n\n× This environment is externally managed\n", env: debPython, want: "python3 -m venv .venv && . .venv/bin/activate && pip install pyyaml", also: "apt install python3-yaml"},
		{name: "externally-managed-python-prefix", cmd: "pip3 install python-dateutil", out: "error: externally-managed-environment\n", env: debPython, want: "python3 -m venv .venv && . .venv/bin/activate && pip install python-dateutil", also: "apt install python3-dateutil"},
		{name: "pip-import-name", cmd: "pip install cv2", out: "ERROR: Could not find a version that satisfies the requirement cv2 (from versions: none)\nERROR: No matching distribution found for cv2\n", want: "pip install opencv-python"},
		{name: "m-with-py", cmd: "python3 -m app.py", out: "/usr/bin/python3: Error while finding module specification for 'app.py' (ModuleNotFoundError: __path__ attribute not found on 'app' while trying to find 'app.py'). Try using 'app' instead of 'app.py' as the module name.\n", want: "python3 app.py"},
		{name: "negative-success-output", cmd: "python3 app.py", out: "hello\n", want: ""},
	})
}

func TestRulesNode(t *testing.T) {
	scripts := func(f *analyzetest.Facts) {
		f.Scripts = []string{"build", "dev", "test"}
		f.Files["/w/package.json"] = "{}"
	}
	runCases(t, []ruleCase{
		{name: "missing-script", cmd: "npm run biuld", out: "npm error Missing script: \"biuld\"\n", env: scripts, want: "npm run build", cause: "did you mean"},
		{name: "missing-script-old-npm", cmd: "npm run tset", out: "npm ERR! Missing script: \"tset\"\n", env: scripts, want: "npm run test"},
		{name: "missing-start", cmd: "npm start", out: "npm error Missing script: \"start\"\n", env: scripts, want: "npm run dev", cause: "build, dev, test"},
		{name: "unknown-command", cmd: "npm intsall", out: "Unknown command: \"intsall\"\n\n\nDid you mean this?\n  npm install # Install a package\n", want: "npm install"},
		{name: "unknown-command-swap", cmd: "npm tset", out: "Unknown command: \"tset\"\n\n\nDid you mean this?\n  npm set # Set a value in the npm configuration\n", want: "npm test"},
		{name: "module", cmd: "node app.js", out: "Error: Cannot find module 'express'\nRequire stack:\n- /w/app.js\n", want: "npm install express"},
		{name: "module-scoped", cmd: "node app.js", out: "Error [ERR_MODULE_NOT_FOUND]: Cannot find package '@aws-sdk/client-s3' imported from /w/app.js\n", want: "npm install @aws-sdk/client-s3"},
		{name: "module-no-node-modules", cmd: "node app.js", out: "Error: Cannot find module 'express'\n", env: files("/w/package.json"), want: "npm install"},
		{name: "entry-typo", cmd: "node sever.js", out: "Error: Cannot find module '/w/sever.js'\n    at Module._resolveFilename\n", env: files("/w/server.js"), want: "node server.js"},
		{name: "bin-missing", cmd: "npm run build", out: "> web@1.0.0 build\n> vite build\n\nsh: 1: vite: not found\n", env: files("/w/package.json"), want: "npm install && npm run build"},
		{name: "no-package-json", cmd: "npm install", exit: 254, out: "npm error code ENOENT\nnpm error enoent Could not read package.json: Error: ENOENT: no such file or directory, open '/w/package.json'\n", want: "", cause: "package.json"},
		{name: "negative", cmd: "npm test", out: "# tests 3\n# pass 2\n# fail 1\n", want: ""},
	})
}

func TestRulesGo(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "no-go-mod", cmd: "go build", out: "go: go.mod file not found in current directory or any parent directory; see 'go help modules'\n", want: "", cause: "go mod init"},
		{name: "go-get-from-output", cmd: "go build", out: "main.go:3:2: no required module provides package github.com/google/uuid; to add it:\n\tgo get github.com/google/uuid\n", want: "go get github.com/google/uuid"},
		{name: "go-proxy-off", cmd: "go build", out: "main.go:2:8: cannot find module providing package github.com/google/uuid: module lookup disabled by GOPROXY=off\n", want: "go get github.com/google/uuid", also: "go mod tidy"},
		{name: "not-in-std", cmd: "go run main", out: "package main is not in std (/usr/local/go/src/main)\n", env: files("/w/main.go"), want: "go run main.go", also: "go run ."},
		{name: "file-typo", cmd: "go run mian.go", out: "stat mian.go: no such file or directory\n", env: files("/w/main.go", "/w/go.mod"), want: "go run main.go", also: "go run ."},
		{name: "unused-import", cmd: "go build", out: "# example.com/hello\n./main.go:2:8: \"os\" imported and not used\n", want: "", cause: "unused imports"},
		{name: "unused-variable", cmd: "go vet ./...", out: "# example.com/hello\n./main.go:2:14: declared and not used: x\n", want: "", cause: "x is declared and not used"},
		{name: "unknown-command", cmd: "go biuld", exit: 2, out: "go biuld: unknown command\nRun 'go help' for usage.\n", want: "go build"},
		{name: "negative", cmd: "go test ./...", out: "--- FAIL: TestX (0.00s)\nFAIL\n", want: ""},
	})
}

func TestRulesMake(t *testing.T) {
	targets := func(f *analyzetest.Facts) {
		f.Targets = []string{"build", "install", "test"}
		f.Files["/w/Makefile"] = ""
	}
	runCases(t, []ruleCase{
		{name: "target-typo", cmd: "make tset", exit: 2, out: "make: *** No rule to make target 'tset'.  Stop.\n", env: targets, want: "make test"},
		{name: "target-plural", cmd: "make tests", exit: 2, out: "make: *** No rule to make target 'tests'.  Stop.\n", env: targets, want: "make test"},
		{name: "target-none-close", cmd: "make deploy", exit: 2, out: "make: *** No rule to make target 'deploy'.  Stop.\n", env: targets, want: "", cause: "build, install, test"},
		{name: "no-makefile", cmd: "make", exit: 2, out: "make: *** No targets specified and no makefile found.  Stop.\n", want: "", cause: "no makefile"},
		{name: "cmake-project", cmd: "make", exit: 2, out: "make: *** No targets specified and no makefile found.  Stop.\n", env: both(files("/w/CMakeLists.txt"), exes("cmake")), want: "cmake -B build && cmake --build build"},
		{name: "separator", cmd: "make build", exit: 2, out: "Makefile:2: *** missing separator.  Stop.\n", want: "", cause: "tab"},
		{name: "needed-by", cmd: "make", exit: 2, out: "make: *** No rule to make target 'gen.h', needed by 'main.o'.  Stop.\n", env: targets, want: "", cause: "gen.h"},
		{name: "negative", cmd: "make build", exit: 2, out: "make: Nothing to be done for 'build'.\n", want: ""},
	})
}

func TestRulesJavaRustC(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "javac-ext", cmd: "javac Hello", out: "error: Class names, 'Hello', are only accepted if annotation processing is explicitly requested\n1 error\n", want: "javac Hello.java"},
		{name: "java-class-file", cmd: "java Hello.class", out: "Error: Could not find or load main class Hello.class\n", want: "java Hello"},
		{name: "java-uncompiled", cmd: "java Main", out: "Error: Could not find or load main class Main\n", env: files("/w/Main.java"), want: "javac Main.java && java Main"},
		{name: "javac-error", cmd: "javac Main.java", out: "Main.java:3: error: incompatible types: String cannot be converted to int\n1 error\n", want: "", cause: "incompatible types"},
		{name: "mvn-phase", cmd: "mvn pakage", out: "[ERROR] Unknown lifecycle phase \"pakage\". You must specify a valid lifecycle phase or a goal. Available lifecycle phases are: validate, initialize, compile, test, package, verify, install, deploy, clean. -> [Help 1]\n", want: "mvn package"},
		{name: "mvn-no-goal", cmd: "mvn", out: "[ERROR] No goals have been specified for this build.\n", want: "mvn package"},
		{name: "cargo-similar", cmd: "cargo tset", exit: 101, out: "error: no such command: `tset`\n\nhelp: a command with a similar name exists: `test`\n", want: "cargo test"},
		{name: "cargo-mismatch", cmd: "cargo build", exit: 101, out: "error[E0308]: mismatched types\n --> src/main.rs:2:18\n  |\n2 |     let n: i32 = \"5\";\n  |            ---   ^^^ expected `i32`, found `&str`\n", want: "", cause: "expected `i32`, found `&str`"},
		{name: "cargo-crate", cmd: "cargo build", exit: 101, out: "error[E0432]: unresolved import `rand`\n --> src/main.rs:1:5\n", want: "cargo add rand"},
		{name: "gcc-file-typo", cmd: "gcc mian.c -o app", out: "cc1: fatal error: mian.c: No such file or directory\ncompilation terminated.\n", env: files("/w/main.c"), want: "gcc main.c -o app"},
		{name: "gcc-header", cmd: "gcc fetch.c -o fetch -lcurl", out: "fetch.c:1:10: fatal error: curl/curl.h: No such file or directory\n", want: "apt install libcurl4-openssl-dev", typ: analyze.MissingDependency},
		{name: "gcc-header-unknown", cmd: "gcc x.c", out: "x.c:1:10: fatal error: frobnicate.h: No such file or directory\n", want: "", cause: "frobnicate.h"},
		{name: "gcc-libm", cmd: "gcc m.c -o m", out: "/usr/bin/ld: /tmp/cc.o: in function `main':\nm.c:(.text+0x23): undefined reference to `sqrt'\ncollect2: error: ld returned 1 exit status\n", want: "gcc m.c -o m -lm"},
		{name: "gcc-cxx", cmd: "gcc a.cpp -o a", out: "/usr/bin/ld: a.cpp:(.text+0x1c): undefined reference to `std::cout'\n", want: "g++ a.cpp -o a"},
		{name: "ld-lib", cmd: "gcc l.c -lpcap", out: "/usr/bin/ld: cannot find -lpcap: No such file or directory\n", want: "apt install libpcap-dev"},
		{name: "gcc-syntax", cmd: "gcc s.c", out: "s.c: In function ‘main’:\ns.c:1:25: error: expected ‘;’ before ‘}’ token\n", want: "", cause: "s.c:1"},
	})
}

// debPython is a Debian machine whose apt lists know a few Python packages.
func debPython(f *analyzetest.Facts) {
	f.AptNames = []string{"python3-dateutil", "python3-requests", "python3-venv", "python3-yaml"}
}

// TestExternallyManagedUnknownPackage: pip's package that apt's lists do not
// know gets no apt install fix (python3-pyyaml does not exist), only what to
// search for.
func TestExternallyManagedUnknownPackage(t *testing.T) {
	for _, lists := range [][]string{nil, {"python3-requests"}} {
		facts := baseFacts()
		facts.AptNames = lists
		r := analyze.Analyze(t.Context(), analyze.Input{Command: "pip install pyyaml", ExitCode: 1, Cwd: "/w", Shell: "bash", Env: facts,
			Output: "error: externally-managed-environment\n\n× This environment is externally managed\n"})
		for _, fx := range r.Fixes {
			if strings.Contains(fx.Command, "apt") {
				t.Errorf("lists %v: fix %q; want no apt fix for a package apt does not know", lists, fx.Command)
			}
		}
		if !strings.Contains(r.RootCause, "python3-yaml (apt search yaml)") {
			t.Errorf("lists %v: root cause %q; want it to say what to search for", lists, r.RootCause)
		}
	}
}
