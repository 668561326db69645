package analyze

import (
	"context"
	"fmt"
	"strings"

	"github.com/hookd/hookd/internal/shellwords"
)

var (
	makeNoRuleRe     = lazyRegexp("No rule to make target [`'‘]([^'’]+)['’](, needed by [`'‘]([^'’]+)['’])?")
	makeSeparatorRe  = lazyRegexp(`(?m)^(\S+):(\d+): \*\*\* missing separator`)
	makeRecipeRe     = lazyRegexp(`(?m)^make(?:\[\d+\])?: \*\*\* \[([^:\]]+):(\d+): ([^\]]+)\] Error (\d+)`)
	makeCmdMissingRe = lazyRegexp(`(?m)^make(?:\[\d+\])?: ([^\s:]+): (?:Command not found|No such file or directory)`)
	mvnPhaseRe       = lazyRegexp(`Unknown lifecycle phase "([^"]+)"`)
	mvnPhasesRe      = lazyRegexp(`Available lifecycle phases are: ([^.]+(?:\.[^ ][^.]*)*)\.`)
	javacClassRe     = lazyRegexp(`Class names, '([^']+)', are only accepted if annotation processing is explicitly requested`)
	javaMainClassRe  = lazyRegexp(`Could not find or load main class (\S+)`)
	javaErrRe        = lazyRegexp(`(?m)^(\S+\.java):(\d+): error: (.+)$`)
	javaVersionRe    = lazyRegexp(`UnsupportedClassVersionError|class file version (\d+\.\d+)`)
	javaPublicRe     = lazyRegexp(`class (\S+) is public, should be declared in a file named (\S+\.java)`)
	rustErrRe        = lazyRegexp(`(?m)^error(?:\[(E\d+)\])?: (.+)\n\s*--> ([^\s:]+):(\d+)`)
	rustFoundRe      = lazyRegexp("(?m)(expected `?[^,\n]+`?, found `?[^\n]+`?)")
	rustCrateRe      = lazyRegexp("(?:unresolved import|use of undeclared (?:crate or module|type or module)|can't find crate for) `([a-zA-Z0-9_]+)")
	cHeaderRe        = lazyRegexp(`fatal error: ([^:\s]+\.h(?:pp)?|[A-Za-z0-9_/]+/[A-Za-z]+): No such file or directory`)
	cLibRe           = lazyRegexp(`cannot find -l([A-Za-z0-9_.+-]+)`)
	cUndefRe         = lazyRegexp("undefined reference to [`'‘]([A-Za-z_][A-Za-z0-9_:]*)")
	mvnJavaLineRe    = lazyRegexp(`\.java:\[\d+`)
	javaExceptionRe  = lazyRegexp(`Exception in thread`)
	rustPanicRe      = lazyRegexp(`panicked at`)
	cErrRe           = lazyRegexp(`(?m)^([^\s:]+\.(?:c|cc|cpp|cxx|h|hpp)):(\d+):(?:\d+:)? (?:fatal )?error: (.+)$`)
)

func ruleMake(ctx context.Context, f *Failure) *Finding {
	c := f.call("make", "gmake")
	if c == nil {
		return nil
	}
	if m := f.find(makeSeparatorRe); m != nil {
		return explain(SyntaxError, 0.93, "%s line %s: recipe lines must start with a tab character, not spaces (missing separator).", m[1], m[2])
	}
	if f.has("recipe commences before first target") {
		return explain(SyntaxError, 0.9, "A tab-indented line comes before any target in the makefile; only recipe lines start with a tab.")
	}
	if f.has("no targets specified and no makefile found", "make: *** no targets.") {
		return noMakefile(ctx, f, c)
	}
	if m := f.find(makeNoRuleRe); m != nil {
		target := m[1]
		if m[2] != "" {
			return explain(FileNotFound, 0.88, "%s, which %s needs, does not exist and no rule makes it.", target, m[3])
		}
		targets, err := f.Env.MakeTargets(ctx, f.Cwd)
		if err != nil && !f.exists(ctx, "Makefile") && !f.exists(ctx, "makefile") && !f.exists(ctx, "GNUmakefile") {
			return noMakefile(ctx, f, c)
		}
		fd := found(ConfigurationError, 0.9, fmt.Sprintf("The makefile has no target %q; its targets are %s.", target, strings.Join(targets, ", ")))
		if len(targets) == 0 {
			fd.RootCause = fmt.Sprintf("The makefile has no target %q.", target)
		}
		for j := 1; j < len(c.Args); j++ {
			if c.Args[j] != target {
				continue
			}
			for k, mm := range closest(target, targets, nil) {
				if k == MaxFixes {
					break
				}
				if k == 0 {
					fd.RootCause = fmt.Sprintf("The makefile has no target %q; did you mean %q?", target, mm.word)
				}
				fd.Fixes = append(fd.Fixes, fix(f.putWord(c, j, mm.word), min(mm.score, 0.93)-0.01*float64(k), "Build the target %s.", mm.word))
			}
		}
		return fd
	}
	if m := f.find(makeCmdMissingRe); m != nil {
		fd := found(CommandNotFound, 0.8, fmt.Sprintf("The recipe runs %s, which is not installed.", m[1]))
		if pkg, ok := debianPackages.get()[m[1]]; ok {
			fd.Fixes = append(fd.Fixes, fix(f.installCommand(ctx, pkg), 0.75, "Install %s, which provides %s.", pkg, m[1]))
		}
		return fd
	}
	if m := f.find(makeRecipeRe); m != nil {
		line := ""
		if i := strings.Index(f.Output, m[0]); i > 0 {
			prev := *f
			prev.Output = f.Output[:i]
			line = prev.keyLine()
		}
		if line == "" {
			line = "exit status " + m[4]
		}
		return &Finding{ErrorType: Unknown, Confidence: 0.5, RootCause: fmt.Sprintf("The recipe for %s (%s:%s) failed: %s", m[3], m[1], m[2], line)}
	}
	return nil
}

// noMakefile proposes how to build a project that has no makefile here.
func noMakefile(ctx context.Context, f *Failure, c *Call) *Finding {
	switch {
	case f.exists(ctx, "CMakeLists.txt"):
		return found(ConfigurationError, 0.85, "There is no makefile yet: this is a CMake project, which generates one.",
			fix("cmake -B build && cmake --build build", 0.85, "Configure with CMake into build/, then build."))
	case f.exists(ctx, "configure"):
		return found(ConfigurationError, 0.85, "There is no makefile yet: ./configure generates it.",
			fix("./configure && "+strings.TrimSpace(f.Command), 0.85, "Run the configure script, then make."))
	case f.exists(ctx, "meson.build"):
		return found(ConfigurationError, 0.85, "This is a Meson project, built with meson and ninja.",
			fix("meson setup build && ninja -C build", 0.8, "Configure with Meson, then build."))
	}
	es, err := f.Env.ReadDir(ctx, f.path("."))
	if err == nil {
		for _, e := range es {
			if e.Dir && (f.exists(ctx, e.Name+"/Makefile") || f.exists(ctx, e.Name+"/makefile")) {
				return found(ConfigurationError, 0.8, fmt.Sprintf("There is no makefile here, but %s/ has one.", e.Name),
					fix(f.replaceWords(c, 1, 1, "-C "+shellwords.QuotePath(e.Name)), 0.8, "Run make in %s.", e.Name))
			}
		}
	}
	return explain(ConfigurationError, 0.88, "There is no Makefile in this directory; run make where the project's Makefile is.")
}

func ruleJava(ctx context.Context, f *Failure) *Finding {
	if c := f.call("mvn", "mvnw", "./mvnw"); c != nil {
		if m := f.find(mvnPhaseRe); m != nil {
			var phases []string
			if pm := f.find(mvnPhasesRe); pm != nil {
				for _, p := range strings.Split(pm[1], ",") {
					phases = append(phases, strings.TrimSpace(p))
				}
			}
			fd := found(ConfigurationError, 0.9, fmt.Sprintf("Maven has no lifecycle phase %q.", m[1]))
			for j := 1; j < len(c.Args); j++ {
				if c.Args[j] != m[1] {
					continue
				}
				for k, mm := range closest(m[1], phases, nil) {
					if k == 2 {
						break
					}
					fd.RootCause = fmt.Sprintf("Maven has no lifecycle phase %q; did you mean %q?", m[1], mm.word)
					fd.Fixes = append(fd.Fixes, fix(f.putWord(c, j, mm.word), min(mm.score, 0.93)-0.01*float64(k), "Run the %s phase.", mm.word))
					break
				}
			}
			return fd
		}
		if f.has("no goals have been specified") {
			return found(ConfigurationError, 0.9, "Maven needs a lifecycle phase or goal to run, such as package.",
				fix(f.replaceWords(c, len(c.Args), len(c.Args), "package"), 0.88, "Compile, test and package the project."),
				fix(f.replaceWords(c, len(c.Args), len(c.Args), "clean install"), 0.8, "Build from scratch and install into the local repository."),
				fix(f.replaceWords(c, len(c.Args), len(c.Args), "compile"), 0.75, "Only compile."))
		}
		if f.has("there is no pom in this directory", "does not contain a pom.xml", "requires a project to execute but there is no pom") {
			return noProjectFile(ctx, f, "pom.xml", "mvn archetype:generate")
		}
		if f.has("could not resolve dependencies") {
			return explain(MissingDependency, 0.8, "Maven could not download a dependency: check its coordinates, your network, and the repositories configured.")
		}
		if f.has("compilation failure") {
			line := f.keyLineMatching(mvnJavaLineRe)
			return explain(SyntaxError, 0.8, "The Java code does not compile: %s", strings.TrimPrefix(line, "[ERROR] "))
		}
	}
	if c := f.call("javac"); c != nil {
		if m := f.find(javacClassRe); m != nil {
			for j := 1; j < len(c.Args); j++ {
				if c.Args[j] == m[1] {
					return found(SyntaxError, 0.92, "javac compiles source files: name the file with its .java extension.",
						fix(f.putWord(c, j, m[1]+".java"), 0.92, "Compile %s.java.", m[1]))
				}
			}
		}
		if m := f.find(javaPublicRe); m != nil {
			return explain(SyntaxError, 0.9, "The public class %s must be in a file named %s; rename the file or the class.", m[1], m[2])
		}
		if m := f.find(javaErrRe); m != nil {
			return explain(SyntaxError, 0.85, "Java compile error at %s:%s: %s", m[1], m[2], m[3])
		}
	}
	if c := f.call("java"); c != nil {
		if m := f.find(javaMainClassRe); m != nil {
			cls := m[1]
			for j := 1; j < len(c.Args); j++ {
				if c.Args[j] != cls {
					continue
				}
				if base, ok := strings.CutSuffix(cls, ".class"); ok {
					return found(FileNotFound, 0.9, "java takes a class name, not a .class file.", fix(f.putWord(c, j, base), 0.9, "Run the class %s.", base))
				}
				if f.isFile(ctx, cls+".java") && !f.isFile(ctx, cls+".class") {
					return found(FileNotFound, 0.88, fmt.Sprintf("%s is not compiled yet.", cls),
						fix("javac "+cls+".java && "+strings.TrimSpace(f.Command), 0.85, "Compile it, then run it."),
						fix(f.putWord(c, j, cls+".java"), 0.8, "Run the source file directly (Java 11 and later)."))
				}
			}
			return explain(FileNotFound, 0.8, "java cannot find the class %s on the class path: check the name (with its package) and -cp.", cls)
		}
		if f.find(javaVersionRe) != nil {
			return explain(ConfigurationError, 0.88, "The class was compiled for a newer Java than the one running it; run a newer java, or compile with --release for this one.")
		}
	}
	if f.has("no main manifest attribute") {
		return explain(ConfigurationError, 0.88, "The jar's manifest names no Main-Class, so java -jar cannot start it; run a class with java -cp JAR CLASS, or build the jar with a Main-Class.")
	}
	if f.has("exception in thread \"main\"") {
		line := f.keyLineMatching(javaExceptionRe)
		return &Finding{ErrorType: Unknown, Confidence: 0.6, RootCause: "The program threw an exception: " + strings.TrimPrefix(line, "Exception in thread \"main\" ")}
	}
	return nil
}

func ruleRust(ctx context.Context, f *Failure) *Finding {
	c := f.call("cargo", "rustc")
	if c == nil {
		return nil
	}
	if f.has("could not find `cargo.toml`") {
		return noProjectFile(ctx, f, "Cargo.toml", "cargo init")
	}
	if m := f.find(rustCrateRe); m != nil && c.Name() == "cargo" && m[1] != "crate" && m[1] != "self" && m[1] != "super" {
		return found(MissingDependency, 0.85, fmt.Sprintf("The crate %s is not a dependency of this package.", m[1]),
			fix("cargo add "+m[1], 0.85, "Add %s to Cargo.toml.", m[1]))
	}
	if m := f.find(rustErrRe); m != nil {
		code, msg, file, line := m[1], m[2], m[3], m[4]
		detail := ""
		if d := rustFoundRe.FindStringSubmatch(f.Output); d != nil && strings.Contains(msg, "mismatched types") {
			detail = " (" + d[1] + ")"
		}
		explainCmd := ""
		if code != "" {
			explainCmd = fmt.Sprintf("; rustc --explain %s tells more", code)
		}
		return explain(SyntaxError, 0.88, "Rust compile error in %s:%s: %s%s%s", file, line, msg, detail, explainCmd)
	}
	if f.has("a bin target must be available") {
		return explain(ConfigurationError, 0.85, "This package is a library: there is no binary for cargo run; add src/main.rs or run its tests.")
	}
	if f.has("panicked at") {
		line := f.keyLineMatching(rustPanicRe)
		return &Finding{ErrorType: Unknown, Confidence: 0.6, RootCause: "The program panicked: " + line}
	}
	return nil
}

func ruleC(ctx context.Context, f *Failure) *Finding {
	c := f.call("gcc", "cc", "g++", "c++", "clang", "clang++", "make", "ld", "configure", "./configure", "cmake")
	if c == nil && !f.has("fatal error:", "undefined reference", "cannot find -l", "no acceptable c compiler") {
		return nil
	}
	if m := f.find(cHeaderRe); m != nil {
		header := m[1]
		if pkg, ok := headerPackages.get()[header]; ok {
			return found(MissingDependency, 0.9, fmt.Sprintf("The header %s is missing: its development package %s is not installed.", header, pkg),
				fix(f.installCommand(ctx, pkg), 0.9, "Install %s, which provides %s.", pkg, header))
		}
		if f.isFile(ctx, header) || strings.HasPrefix(header, "./") {
			return explain(FileNotFound, 0.7, "The header %s is not on the include path; add -I with its directory.", header)
		}
		fd := explain(MissingDependency, 0.8, "The header %s is missing: a library's development package (usually lib…-dev) is not installed.", header)
		if f.Env.LookPath(ctx, "apt-file") {
			fd.Fixes = []Fix{fix("apt-file search "+shellwords.QuoteWord(header), 0.5, "Find the package that provides the header.")}
		}
		return fd
	}
	if m := f.find(cLibRe); m != nil {
		lib := m[1]
		pkg, ok := libPackages.get()[lib]
		if !ok {
			return explain(MissingDependency, 0.8, "The linker cannot find the library %s: its development package (often lib%s-dev) is not installed.", lib, lib)
		}
		return found(MissingDependency, 0.88, fmt.Sprintf("The linker cannot find lib%s: %s is not installed.", lib, pkg),
			fix(f.installCommand(ctx, pkg), 0.88, "Install %s.", pkg))
	}
	if m := f.find(cUndefRe); m != nil && c != nil {
		sym := m[1]
		if strings.HasPrefix(sym, "std::") && (c.Name() == "gcc" || c.Name() == "cc" || c.Name() == "clang") {
			alt := "g++"
			if c.Name() == "clang" {
				alt = "clang++"
			}
			return found(MissingDependency, 0.9, "This is C++ code linked as C: the C++ standard library is missing.",
				fix(f.putWord(c, 0, alt), 0.9, "Compile and link it with %s.", alt))
		}
		if sym == "main" {
			return explain(SyntaxError, 0.85, "There is no main function to link: compile with -c for an object file, or add main.")
		}
		for _, sl := range symbolLibraries {
			if strings.HasPrefix(sym, sl.prefix) && c.Name() != "make" && c.Name() != "ld" {
				return found(MissingDependency, 0.85, fmt.Sprintf("%s is defined in a library that is not linked (%s).", sym, sl.flag),
					fix(f.replaceWords(c, len(c.Args), len(c.Args), sl.flag), 0.85, "Link with %s.", sl.flag))
			}
		}
		return explain(MissingDependency, 0.75, "The linker found no definition of %s: a source file or a library (-l…) is missing from the command.", sym)
	}
	if m := f.find(cErrRe); m != nil {
		return explain(SyntaxError, 0.8, "C/C++ compile error at %s:%s: %s", m[1], m[2], m[3])
	}
	if f.has("no acceptable c compiler found", "c compiler cannot create executables") {
		return found(MissingDependency, 0.88, "No working C compiler is installed.",
			fix(f.installCommand(ctx, "build-essential"), 0.85, "Install gcc, make and the C library headers."))
	}
	if f.has("no input files") {
		return explain(FileNotFound, 0.8, "The compiler got no source files to compile.")
	}
	return nil
}

var testFailRes = []lazyRegexp{
	lazyRegexp(`(?m)^FAILED (\S+)`),                                       // pytest
	lazyRegexp(`(?m)^--- FAIL: (\S+)`),                                    // go test
	lazyRegexp(`(?m)^not ok \d+ - (.+)$`),                                 // TAP: node --test, prove
	lazyRegexp(`(?m)^test (\S+) \.\.\. FAILED`),                           // cargo test
	lazyRegexp(`(?m)^\s*✕ (.+)$|Tests:\s+\d+ failed`),                     // jest
	lazyRegexp(`There are test failures|Tests run: \d+, Failures: [1-9]`), // maven
	lazyRegexp(`(?m)^FAIL:? (\S+)`),                                       // go, unittest
}

// ruleTests recognises a test run that ran and found failures: the command
// is fine, the code under test is not.
func ruleTests(ctx context.Context, f *Failure) *Finding {
	for _, re := range testFailRes {
		m := re.FindStringSubmatch(f.Output)
		if m == nil {
			continue
		}
		what := "some tests"
		if len(m) > 1 && strings.TrimSpace(m[1]) != "" {
			what = strings.TrimSpace(m[1])
		}
		return explain(Unknown, 0.7, "Tests failed (%s): the test command worked, the code under test did not; the output above says what was expected.", what)
	}
	return nil
}
