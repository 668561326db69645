package analyze

import "context"

// Facts answers questions about the environment a command failed in. Rules
// ask only for what they need, so an implementation should gather each fact
// lazily and cache it; it must be safe for concurrent use, must never change
// anything, and should give up quickly (package probe allows 200 ms per fact).
// Relative paths are relative to Input.Cwd, which callers pass in already
// resolved; a method that cannot answer returns the zero value or an error.
type Facts interface {
	// LookPath reports whether name is an executable file on the PATH.
	LookPath(ctx context.Context, name string) bool
	// Executables returns the names of the executables on the PATH, sorted.
	Executables(ctx context.Context) []string
	// Builtins, Aliases and Functions return the shell's builtins and the
	// user's aliases and functions, when known.
	Builtins(ctx context.Context) []string
	Aliases(ctx context.Context) []string
	Functions(ctx context.Context) []string
	// IsRoot reports whether the user is the superuser (so that sudo is
	// neither needed nor, in containers, present).
	IsRoot(ctx context.Context) bool
	// ReadDir lists a directory, sorted by name.
	ReadDir(ctx context.Context, dir string) ([]Entry, error)
	// Stat describes one path, following symbolic links.
	Stat(ctx context.Context, path string) (Entry, error)
	// ReadHead returns up to n bytes from the start of a regular file.
	ReadHead(ctx context.Context, path string, n int) ([]byte, error)
	// Git describes the repository that dir belongs to.
	Git(ctx context.Context, dir string) (GitInfo, error)
	// PackageScripts returns the script names of the nearest package.json at
	// or above dir, sorted.
	PackageScripts(ctx context.Context, dir string) ([]string, error)
	// MakeTargets returns the explicit targets of the makefile in dir, sorted.
	MakeTargets(ctx context.Context, dir string) ([]string, error)
	// PythonVenv returns the directory of the active Python virtual
	// environment, or "".
	PythonVenv(ctx context.Context) string
	// ListeningPort reports whether a local TCP port is being listened on,
	// and by which process when that can be known.
	ListeningPort(ctx context.Context, port int) (Listener, bool)
	// AptPackages returns the names of the Debian packages known to apt that
	// start with prefix, sorted; it may return nil when apt is absent or slow.
	AptPackages(ctx context.Context, prefix string) []string
	// Completion returns the subcommands and options that the system's
	// completion files for tool name (ParseCompletion: read as data, never
	// run); the zero Vocab when there are none.
	Completion(ctx context.Context, tool string) Vocab
	// Help returns the options a tool's help names (the words of what it
	// prints that start with a dash, one a line): argv is its name on the
	// PATH, its subcommands and "--help" or "-h", as its own message told
	// the user to run; "" when it cannot be asked.
	Help(ctx context.Context, argv []string) string
}

// Entry describes a file.
type Entry struct {
	Name    string // base name
	Dir     bool   // a directory (after following symbolic links)
	Exec    bool   // a regular file with an execute bit set
	Symlink bool   // the entry itself is a symbolic link
	Size    int64
}

// GitInfo describes a git repository.
type GitInfo struct {
	Root           string   // the top-level directory of the work tree
	Branch         string   // the current branch; "" when HEAD is detached
	Detached       bool     // HEAD is detached
	Upstream       string   // the current branch's upstream, e.g. "origin/main"
	Branches       []string // local branches, sorted
	RemoteBranches []string // remote-tracking branches, e.g. "origin/main", sorted
	Remotes        []string // remote names, sorted
}

// Listener is a process listening on a port. PID is 0 when unknown.
type Listener struct {
	PID     int
	Command string
}

// noFacts knows nothing; it stands in for a nil Input.Env.
type noFacts struct{}

func (noFacts) LookPath(context.Context, string) bool                 { return false }
func (noFacts) Executables(context.Context) []string                  { return nil }
func (noFacts) Builtins(context.Context) []string                     { return nil }
func (noFacts) Aliases(context.Context) []string                      { return nil }
func (noFacts) Functions(context.Context) []string                    { return nil }
func (noFacts) IsRoot(context.Context) bool                           { return false }
func (noFacts) ReadDir(context.Context, string) ([]Entry, error)      { return nil, errNoFacts }
func (noFacts) Stat(context.Context, string) (Entry, error)           { return Entry{}, errNoFacts }
func (noFacts) ReadHead(context.Context, string, int) ([]byte, error) { return nil, errNoFacts }
func (noFacts) Git(context.Context, string) (GitInfo, error)          { return GitInfo{}, errNoFacts }
func (noFacts) PackageScripts(context.Context, string) ([]string, error) {
	return nil, errNoFacts
}
func (noFacts) MakeTargets(context.Context, string) ([]string, error) { return nil, errNoFacts }
func (noFacts) PythonVenv(context.Context) string                     { return "" }
func (noFacts) ListeningPort(context.Context, int) (Listener, bool)   { return Listener{}, false }
func (noFacts) AptPackages(context.Context, string) []string          { return nil }
func (noFacts) Completion(context.Context, string) Vocab              { return Vocab{} }
func (noFacts) Help(context.Context, []string) string                 { return "" }

type factsError string

func (e factsError) Error() string { return string(e) }

// errNoFacts is returned by the stand-in for a nil Facts.
const errNoFacts = factsError("no environment facts")
