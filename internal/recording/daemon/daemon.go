package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/cloudsync"
	"github.com/hookd/hookd/internal/paths"
	"github.com/hookd/hookd/internal/recording/ingest"
)

// ErrRunning reports that another daemon holds the lock.
var ErrRunning = errors.New("a daemon is already running")

// Options configure the daemon. Paths are absolute.
type Options struct {
	Version    string
	SpoolDir   string        // where the shells write
	OutboxDir  string        // where captured outputs wait (package outbox)
	PIDFile    string        // "pid version", read by the shell code
	RuntimeDir string        // socket and lock; 0700
	DBPath     string        // the history database
	Interval   time.Duration // between ingestion passes
	Rules      *ingest.Rules
	// Retention limits for stored outputs: outputs older than MaxAge, and
	// the oldest beyond MaxOutputBytes in all, lose their text (0: no
	// limit). Applied at start and every PruneEvery.
	MaxAge         time.Duration
	MaxOutputBytes int64
	PruneEvery     time.Duration
	Log            *slog.Logger
	// Sync, when set, syncs the history in the background (package
	// sync): it runs beside the ingestion, which tells it how many
	// commands each pass added.
	Sync *cloudsync.Loop
	// Exe is the path of the running binary; the daemon exits when the file
	// there changes (an upgrade), so that the next start runs the new one.
	Exe string
}

// SocketPath and LockPath name the files in the runtime directory.
func SocketPath(runtimeDir string) string { return filepath.Join(runtimeDir, "agent.sock") }
func lockPath(runtimeDir string) string   { return filepath.Join(runtimeDir, "agent.lock") }

type daemon struct {
	opt   Options
	store *history.Store
	start time.Time

	mu         sync.Mutex
	lastIngest time.Time
	total      ingest.Stats
	lastErr    string
	flush      chan chan struct{}
}

// Run runs the daemon until ctx ends or a client asks it to stop. Only one
// daemon runs per runtime directory: a second one returns ErrRunning at once.
func Run(ctx context.Context, opt Options) error {
	if err := os.MkdirAll(opt.RuntimeDir, 0o700); err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	lock, err := os.OpenFile(lockPath(opt.RuntimeDir), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return ErrRunning
		}
		return fmt.Errorf("daemon: lock: %w", err)
	}
	log := opt.Log
	// Directories an older version or a loose umask made open to others.
	for _, dir := range []string{opt.SpoolDir, filepath.Dir(opt.SpoolDir), filepath.Dir(opt.DBPath)} {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() && fi.Mode().Perm()&0o077 != 0 {
			os.Chmod(dir, 0o700)
		}
	}
	store, err := openStore(ctx, opt.DBPath, log)
	if err != nil {
		return err
	}

	sock := SocketPath(opt.RuntimeDir)
	os.Remove(sock) // stale: we hold the lock
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return fmt.Errorf("daemon: listen: %w", err)
	}
	defer os.Remove(sock)
	defer ln.Close()
	os.Chmod(sock, 0o600)

	if err := os.MkdirAll(filepath.Dir(opt.PIDFile), 0o700); err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	if err := paths.WriteAtomic(opt.PIDFile, fmt.Appendf(nil, "%d %s\n", os.Getpid(), opt.Version)); err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	defer removeIfOurs(opt.PIDFile)

	d := &daemon{opt: opt, store: store, start: time.Now(), flush: make(chan chan struct{})}
	defer func() {
		if d.store != nil {
			d.store.Close()
		}
	}()
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	go d.serve(ctx, ln, stop)
	if opt.Sync != nil {
		opt.Sync.Init()
		go opt.Sync.Run(ctx)
	}
	log.Info("daemon started", "pid", os.Getpid(), "version", opt.Version, "db", opt.DBPath)

	exeID := fileID(opt.Exe)
	tick := time.NewTicker(opt.Interval)
	defer tick.Stop()
	upgrade := time.NewTicker(10 * time.Second)
	defer upgrade.Stop()
	every := opt.PruneEvery
	if every <= 0 {
		every = 10 * time.Minute
	}
	prune := time.NewTicker(every)
	defer prune.Stop()
	d.ingest(ctx)
	d.prune(ctx)
	for {
		select {
		case <-ctx.Done():
			d.ingest(context.Background()) // a last pass, so a clean stop leaves nothing behind
			log.Info("daemon stopped")
			return nil
		case <-tick.C:
			d.ingest(ctx)
		case done := <-d.flush:
			d.ingest(ctx)
			close(done)
		case <-prune.C:
			d.prune(ctx)
		case <-upgrade.C:
			if id := fileID(opt.Exe); exeID != "" && id != exeID {
				log.Info("binary changed on disk; exiting so that the new one starts", "exe", opt.Exe)
				stop()
			}
		}
	}
}

func openStore(ctx context.Context, path string, log *slog.Logger) (*history.Store, error) {
	store, aside, err := history.OpenRecover(ctx, path, 10*time.Second, true)
	if aside != "" {
		log.Error("history database was corrupt: moved aside, what could be read of it salvaged into a new one", "moved_to", aside)
	}
	if err != nil {
		return nil, fmt.Errorf("daemon: %w", err)
	}
	return store, nil
}

// prune applies the retention limits to stored outputs.
func (d *daemon) prune(ctx context.Context) {
	if d.opt.MaxAge <= 0 && d.opt.MaxOutputBytes <= 0 || d.store == nil {
		return
	}
	var before int64
	if d.opt.MaxAge > 0 {
		before = time.Now().Add(-d.opt.MaxAge).UnixMicro()
	}
	st, err := d.store.PruneOutputs(ctx, before, d.opt.MaxOutputBytes)
	if err != nil {
		d.opt.Log.Warn("prune outputs", "error", err)
		return
	}
	if st.Outputs > 0 {
		d.opt.Log.Info("pruned outputs", "outputs", st.Outputs, "bytes", st.Bytes)
	}
}

func (d *daemon) ingest(ctx context.Context) {
	if d.store == nil || d.store.Replaced() {
		if !d.reopen(ctx, "the database file was moved or removed") {
			return
		}
	}
	st, err := ingest.Pass(ctx, d.store, d.opt.SpoolDir, d.opt.OutboxDir, d.opt.Rules, time.Now())
	if errors.Is(err, history.ErrCorrupt) || errors.Is(err, ingest.ErrReplaced) {
		// Nothing was taken from the spools that was not stored: open the
		// database again (recovering it if it is corrupt) and go on.
		d.record(st, nil)
		if !d.reopen(ctx, err.Error()) {
			return
		}
		st, err = ingest.Pass(ctx, d.store, d.opt.SpoolDir, d.opt.OutboxDir, d.opt.Rules, time.Now())
	}
	d.record(st, err)
	if st.Added > 0 && d.opt.Sync != nil {
		d.opt.Sync.Kick(st.Added)
	}
	if err == nil {
		// Fixes the user made by hand, learned here rather than on the
		// failure path (which only reads them).
		ls, err := ingest.Learn(ctx, d.store, d.opt.Rules)
		if err != nil {
			d.opt.Log.Warn("learn", "error", err)
		} else if ls.Learned > 0 || ls.Vetoed > 0 {
			d.opt.Log.Debug("learned", "commands", ls.Commands, "pairs", ls.Learned, "vetoed", ls.Vetoed)
		}
		d.fillOutputIndex(ctx)
	}
}

// fillOutputIndex indexes, for the search, outputs stored before the output
// index was made (an upgrade, a recovered database): a quarter of a second
// of it per pass, so that no command waits long for the database.
func (d *daemon) fillOutputIndex(ctx context.Context) {
	start := time.Now()
	for time.Since(start) < 250*time.Millisecond {
		done, err := d.store.FillOutputIndex(ctx, 2000)
		if err != nil {
			d.opt.Log.Warn("fill the output index", "error", err)
			return
		}
		if done {
			return
		}
	}
}

// reopen opens the database again after it was replaced or found corrupt;
// a corrupt one is moved aside and salvaged into a new one. It reports
// whether a database is open (the next pass tries again if not).
func (d *daemon) reopen(ctx context.Context, why string) bool {
	if d.store != nil {
		d.store.Close()
		d.store = nil
	}
	d.opt.Log.Warn("reopening the history database", "why", why)
	s, err := openStore(ctx, d.opt.DBPath, d.opt.Log)
	if err != nil {
		d.mu.Lock()
		d.lastErr = err.Error()
		d.mu.Unlock()
		d.opt.Log.Error("cannot open the history database", "error", err)
		return false
	}
	d.store = s
	return true
}

// record adds a pass's figures to the daemon's and logs its problems.
func (d *daemon) record(st ingest.Stats, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.lastIngest = time.Now()
	d.total.Added += st.Added
	d.total.Ignored += st.Ignored
	d.total.Bad += st.Bad
	for _, p := range st.Problems {
		d.opt.Log.Warn("ingest", "problem", p)
	}
	if err != nil {
		d.lastErr = err.Error()
		d.opt.Log.Error("ingest failed", "error", err)
	} else if st.Added > 0 || st.Removed > 0 || st.Outputs > 0 {
		d.opt.Log.Debug("ingested", "added", st.Added, "ignored", st.Ignored, "bad", st.Bad, "removed", st.Removed,
			"outputs", st.Outputs, "outputs_dropped", st.OutputsDropped)
	}
}

func (d *daemon) serve(ctx context.Context, ln net.Listener, stop func()) {
	go func() { <-ctx.Done(); ln.Close() }()
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		go d.handle(ctx, conn.(*net.UnixConn), stop)
	}
}

func (d *daemon) handle(ctx context.Context, conn *net.UnixConn, stop func()) {
	defer conn.Close()
	if err := checkPeer(conn); err != nil {
		d.opt.Log.Warn("refused a connection", "error", err)
		return
	}
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	line, err := bufio.NewReader(io.LimitReader(conn, 4096)).ReadBytes('\n')
	if err != nil {
		return
	}
	var req Request
	reply := d.status()
	if err := json.Unmarshal(line, &req); err != nil {
		reply = Status{Error: "bad request"}
	} else {
		switch req.Op {
		case "status":
		case "flush":
			done := make(chan struct{})
			select {
			case d.flush <- done:
				<-done
			case <-ctx.Done():
			}
			reply = d.status()
		case "stop":
			defer stop()
		default:
			reply = Status{Error: fmt.Sprintf("unknown op %q", req.Op)}
		}
	}
	json.NewEncoder(conn).Encode(reply)
}

func (d *daemon) status() Status {
	d.mu.Lock()
	defer d.mu.Unlock()
	st := Status{OK: true, PID: os.Getpid(), Version: d.opt.Version, StartedAt: d.start.UTC().Format(time.RFC3339),
		Ingested: int64(d.total.Added), Ignored: int64(d.total.Ignored), Bad: int64(d.total.Bad), LastError: d.lastErr}
	if !d.lastIngest.IsZero() {
		st.LastIngest = d.lastIngest.UTC().Format(time.RFC3339Nano)
	}
	return st
}

// checkPeer refuses a client that is not the daemon's own user.
func checkPeer(conn *net.UnixConn) error {
	raw, err := conn.SyscallConn()
	if err != nil {
		return err
	}
	var uid int
	var cerr error
	if err := raw.Control(func(fd uintptr) { uid, cerr = peerUID(int(fd)) }); err != nil {
		return err
	}
	if cerr != nil {
		return cerr
	}
	if uid != os.Getuid() {
		return fmt.Errorf("peer uid %d is not %d", uid, os.Getuid())
	}
	return nil
}

// removeIfOurs removes the pid file unless another daemon has written its own.
func removeIfOurs(path string) {
	b, err := os.ReadFile(path)
	if err == nil && strings.HasPrefix(string(b), fmt.Sprintf("%d ", os.Getpid())) {
		os.Remove(path)
	}
}

// fileID identifies the file at path by device, inode, size and mtime.
func fileID(path string) string {
	if path == "" {
		return ""
	}
	fi, err := os.Stat(path)
	if err != nil {
		return "gone"
	}
	s := fi.Sys().(*syscall.Stat_t)
	return fmt.Sprintf("%d:%d:%d:%d", s.Dev, s.Ino, fi.Size(), fi.ModTime().UnixNano())
}
