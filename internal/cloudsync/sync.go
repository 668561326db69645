// Package cloudsync keeps every installation's history on every installation,
// end-to-end encrypted, through an S3-compatible bucket the user owns.
//
// Each installation (package hostid) appends to a series of its own:
// immutable segment objects under <prefix>h/<installation>/, each created
// with If-None-Match: * so that nothing is ever overwritten, each sealed
// (seal.go) under a key only the user's machines hold. A segment holds the
// commands recorded here since the last one (read from the history's
// upload queue, which the schema's triggers feed), their outputs as
// sync.outputs allows, and tombstones of forgotten commands. Every other
// installation lists the series and merges the segments it has not
// merged yet: commands are keyed by session and sequence number, so a
// merge is idempotent, and since no object is written by two
// installations, any interleaving of passes converges. An installation
// compacts its own old segments into larger ones (compact.go).
//
// A pass (Syncer.Pass) uploads, then downloads; it is what `hookd sync`
// runs, and the daemon runs it in the background (Loop).
package cloudsync

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/hookd/hookd/internal/ui/units"
	"net/http"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	gosync "sync"
	"syscall"
	"time"

	"github.com/hookd/hookd/capture"
	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/cloudsync/s3"
	"github.com/hookd/hookd/internal/config"
	"github.com/hookd/hookd/internal/hostid"
)

// Outputs says which captured outputs travel: the config's sync.outputs,
// whose values the config checks.
type Outputs = config.SyncOutputs

// The sync.outputs modes.
const (
	OutputsNone  = config.SyncOutputsNone
	OutputsSmall = config.SyncOutputsSmall // up to Settings.OutputLimit bytes each (the default)
	OutputsAll   = config.SyncOutputsAll
)

// Settings are the sync section of the configuration, resolved.
type Settings struct {
	// URL is s3://BUCKET[/PREFIX].
	URL         string
	Bucket      string
	Prefix      string // "" or ending in "/"
	Endpoint    string // "" for AWS
	Region      string
	PathStyle   bool
	Outputs     Outputs
	OutputLimit int64
	// KeepOutput is the most kept of one output merged from another
	// installation (the configuration's output.limit, as for an output
	// recorded here: head and tail around a marker); 0 keeps them whole.
	KeepOutput int64
	Interval   time.Duration
}

// Paths are the files sync uses.
type Paths struct {
	DB, Key, Lock, HostID string
}

// Syncer runs passes for one installation.
type Syncer struct {
	Settings Settings
	Paths    Paths
	Creds    s3.Credentials
	HostID   string
	Label    string // the hostname
	// Open opens the history (recovering a damaged one).
	Open func(ctx context.Context) (*history.Store, error)
	// SegmentItems is the most rows a segment takes from the queue
	// (0: DefaultSegmentItems).
	SegmentItems int
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// HTTP is the client requests go through (nil: the default), for
	// tests that count them.
	HTTP *http.Client
	// Forgotten, when set, is called after a pass that deleted commands
	// here (tombstones from another installation, even when the pass then
	// failed), so that copies of the history kept outside the database
	// (the search's cache) go with them.
	Forgotten func()
}

// DefaultSegmentItems is the most rows a new segment holds; segmentBytes
// about the most bytes of commands and outputs (with sync.outputs: all, a
// few large outputs fill a segment).
const (
	DefaultSegmentItems       = 25000
	segmentBytes        int64 = 16 << 20
)

// maxObject bounds the size of a segment object: no segment this hookd
// writes is larger (upload and fold make sure of it), so a listed object
// larger than that is not one of ours and is never fetched, and a GET
// reads no more than the listed size. (Sealing adds a few bytes to the
// plain text at worst.)
func maxObject() int64 { return int64(maxPlain) + 1<<20 }

// minObject is the size of a sealed empty body: nothing smaller is ours.
const minObject int64 = int64(headerLen) + 24 + 16

// prefetchBytes bounds the objects fetched ahead of the merge, by their
// listed sizes (one object at a time when one alone is larger).
const prefetchBytes = 64 << 20

func (s *Syncer) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Syncer) client() (*s3.Client, error) {
	return s3.New(s3.Config{Endpoint: s.Settings.Endpoint, Region: s.Settings.Region, Bucket: s.Settings.Bucket,
		PathStyle: s.Settings.PathStyle, Creds: s.Creds, HTTP: s.HTTP})
}

// The object names, relative to the prefix (what the seals authenticate).
const markerName = "hookd-sync-v1"

func segmentsDir(host string) string { return "h/" + host + "/" }

// A head names an installation's last segment: heads/<installation>/<number>,
// an empty object written after the segment (and the one before deleted),
// so that one listing of heads/ tells a pass which series grew since it
// last looked, whatever the number of installations and segments.
const headsDir = "heads/"

func headName(host string, seq int64) string { return fmt.Sprintf("%s%s/%012d", headsDir, host, seq) }

func segmentName(host string, start, end int64) string {
	return fmt.Sprintf("%s%012d-%012d", segmentsDir(host), end, start)
}

// parseSegment reads "<end>-<start>" back.
func parseSegment(base string) (start, end int64, ok bool) {
	e, st, found := strings.Cut(base, "-")
	if !found {
		return 0, 0, false
	}
	end, err1 := strconv.ParseInt(e, 10, 64)
	start, err2 := strconv.ParseInt(st, 10, 64)
	if err1 != nil || err2 != nil || start < 1 || end < start {
		return 0, 0, false
	}
	return start, end, true
}

// Moved says what a pass moved.
type Moved struct {
	UpSegments, UpCommands, UpOutputs, UpForgotten         int
	DownSegments, DownCommands, DownOutputs, DownForgotten int
	Hosts                                                  int // other installations seen
	Compacted                                              int // own segments folded into larger ones
	// Warnings are what the pass skipped or changed and the user should
	// know (an object in the bucket that is not ours, rows refused, a new
	// installation id); the pass went on past each.
	Warnings []string
}

func (m Moved) String() string {
	return fmt.Sprintf("up %s, %s, %d forgotten in %s; down %s, %s, %d forgotten from %s of %s",
		units.Count(m.UpCommands, "command"), units.Count(m.UpOutputs, "output"), m.UpForgotten, units.Count(m.UpSegments, "segment"),
		units.Count(m.DownCommands, "command"), units.Count(m.DownOutputs, "output"), m.DownForgotten, units.Count(m.DownSegments, "segment"),
		units.Count(m.Hosts, "other host"))
}

// Meta keys kept in the history.
const (
	metaSeq         = "sync_seq"          // the number of the last segment this installation wrote
	metaLastOK      = "sync_last_ok"      // RFC 3339: the last pass that completed
	metaLastAttempt = "sync_last_attempt" // RFC 3339: the last pass started
	metaLastError   = "sync_last_error"   // what the last pass failed with ("" when it completed)
	metaLastMoved   = "sync_last_moved"   // what the last completed pass moved
	metaCompacted   = "sync_compacted"    // own segments up to this number are compacted
	metaKeyChecked  = "sync_key_checked"  // the id of the key last checked against the history's marker
	metaWarnings    = "sync_warnings"     // the warnings of the last pass that had any, one a line
	metaWarningsAt  = "sync_warnings_at"  // RFC 3339: when
	metaNotOurs     = "sync_not_ours"     // objects found not ours (never fetched again), one name a line
	metaFormerIDs   = "sync_former_ids"   // this installation's earlier ids (renewed: a clone had them), one a line
)

// maxNotOurs bounds the names of objects not ours kept (the oldest go);
// maxFetchedNotOurs the objects a pass fetches that turn out not ours
// (the other series wait for the next pass); maxWarnings the warnings a
// pass keeps.
const (
	maxNotOurs        = 10000
	maxFetchedNotOurs = 64
	maxWarnings       = 50
)

// ErrNotSetUp reports an installation without a sync key.
var ErrNotSetUp = errors.New("sync is not set up here: run `hookd sync init` (first machine) or `hookd sync join` (the others)")

// ErrBusy reports another pass holding the lock.
var ErrBusy = errors.New("another sync pass is running")

// lock takes the pass lock, waiting up to wait.
func lock(ctx context.Context, path string, wait time.Duration) (func(), error) {
	if err := os.MkdirAll(dirOf(path), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, err
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			f.Close()
			return nil, ErrBusy
		}
		select {
		case <-ctx.Done():
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func dirOf(p string) string {
	if i := strings.LastIndex(p, "/"); i > 0 {
		return p[:i]
	}
	return "."
}

// pass is the state of one pass.
type pass struct {
	*Syncer
	ctx   context.Context
	store *history.Store
	c     *s3.Client
	key   Key
	db    string // this database's sync id
	names naming
	moved Moved
	// notOursSet holds the objects found not ours (by name relative to
	// the prefix), this pass's and the earlier ones'.
	notOursSet     map[string]bool
	bad            []string // in the order found (kept in metaNotOurs)
	fetchedNotOurs int      // objects this pass fetched that were not ours
}

// Pass runs one pass now: it uploads what was recorded here since the
// last one, then merges what the other installations uploaded since. It
// waits up to wait for a pass already running. What it did, or the error
// it failed with, is kept in the history for `hookd status`. Nothing is
// lost when it fails at any point: the next pass takes up where this one
// stopped.
func (s *Syncer) Pass(ctx context.Context, wait time.Duration) (Moved, error) {
	key, err := LoadKey(s.Paths.Key)
	if errors.Is(err, os.ErrNotExist) {
		return Moved{}, ErrNotSetUp
	}
	if err != nil {
		return Moved{}, err
	}
	unlock, err := lock(ctx, s.Paths.Lock, wait)
	if err != nil {
		return Moved{}, err
	}
	defer unlock()
	store, err := s.Open(ctx)
	if err != nil {
		return Moved{}, err
	}
	defer store.Close()
	db, err := store.EnableSync(ctx)
	if err != nil {
		return Moved{}, s.explain(err)
	}
	c, err := s.client()
	if err != nil {
		return Moved{}, err
	}
	p := &pass{Syncer: s, ctx: ctx, store: store, c: c, key: key, db: db, names: naming{self: s.HostID}, notOursSet: map[string]bool{}}
	m, err := store.SyncMeta(ctx)
	if err != nil {
		return Moved{}, err
	}
	p.names.former = lines(m[metaFormerIDs])
	p.bad = lines(m[metaNotOurs])
	for _, n := range p.bad {
		p.notOursSet[n] = true
	}
	store.SetSyncMeta(ctx, map[string]string{metaLastAttempt: s.now().UTC().Format(time.RFC3339Nano)})
	err = p.run()
	if p.moved.DownForgotten > 0 && s.Forgotten != nil {
		s.Forgotten()
	}
	if w := p.moved.Warnings; len(w) > maxWarnings { // the first ones, how many more, the last
		p.moved.Warnings = append(w[:maxWarnings-2:maxWarnings-2], fmt.Sprintf("… and %d more warnings", len(w)-maxWarnings+1), w[len(w)-1])
	}
	if len(p.moved.Warnings) > 0 {
		bad := p.bad[max(0, len(p.bad)-maxNotOurs):]
		store.SetSyncMeta(context.WithoutCancel(ctx), map[string]string{metaWarnings: strings.Join(p.moved.Warnings, "\n"),
			metaWarningsAt: s.now().UTC().Format(time.RFC3339Nano), metaNotOurs: strings.Join(bad, "\n")})
	}
	if err != nil {
		err = s.explain(err)
		store.SetSyncMeta(context.WithoutCancel(ctx), map[string]string{metaLastError: err.Error()})
		return p.moved, err
	}
	store.SetSyncMeta(ctx, map[string]string{metaLastOK: s.now().UTC().Format(time.RFC3339Nano), metaLastError: "",
		metaLastMoved: p.moved.String()})
	return p.moved, nil
}

func (p *pass) run() error {
	if err := p.checkKey(); err != nil {
		return err
	}
	if err := p.store.NoteHost(p.ctx, p.HostID, p.Label, 0); err != nil {
		return err
	}
	heads, err := p.heads()
	if err != nil {
		return err
	}
	if err := p.upload(heads[p.HostID]); err != nil {
		return err
	}
	// (The upload may have given this installation a new id: the old
	// one's series is then another installation's, merged as such.)
	// The installations merged here before go first: fake ones (new ids,
	// objects not ours) cannot hold them back.
	known := map[string]bool{}
	if hs, err := p.store.SyncHosts(p.ctx); err == nil {
		for _, h := range hs {
			known[h.ID] = h.Commands > 0
		}
	}
	hosts := make([]string, 0, len(heads))
	for h := range heads {
		hosts = append(hosts, h)
	}
	sort.Slice(hosts, func(i, j int) bool {
		if known[hosts[i]] != known[hosts[j]] {
			return known[hosts[i]]
		}
		return hosts[i] < hosts[j]
	})
	for _, host := range hosts {
		if host == p.HostID {
			continue
		}
		p.moved.Hosts++
		if p.fetchedNotOurs >= maxFetchedNotOurs {
			continue // (said once: notOurs)
		}
		merged, err := p.merged(host)
		if err != nil {
			return err
		}
		if heads[host][len(heads[host])-1] <= merged {
			continue // nothing new in that series: not even listed
		}
		if err := p.download(host); err != nil {
			return err
		}
	}
	return p.compact()
}

// heads lists heads/: each installation's head numbers, in order. A head
// that is not an installation's (a name hookd does not make) is reported
// once and left alone.
func (p *pass) heads() (map[string][]int64, error) {
	l, err := p.c.List(p.ctx, p.Settings.Prefix+headsDir, "", "")
	if err != nil {
		return nil, err
	}
	out := map[string][]int64{}
	for _, o := range l.Objects {
		name := strings.TrimPrefix(o.Key, p.Settings.Prefix)
		host, num, ok := strings.Cut(strings.TrimPrefix(name, headsDir), "/")
		n, err := strconv.ParseInt(num, 10, 64)
		if !ok || err != nil || n < 1 || len(num) != 12 || !hostid.Valid(host) {
			p.notOurs(name, o.Size, errName)
			continue
		}
		out[host] = append(out[host], n)
	}
	for h := range out {
		slices.Sort(out[h])
	}
	return out, nil
}

// writeHead makes this installation's head name segment seq, and deletes
// the heads before it.
func (p *pass) writeHead(seq int64, old []int64) error {
	if len(old) == 0 || old[len(old)-1] != seq {
		if err := p.c.Put(p.ctx, p.Settings.Prefix+headName(p.HostID, seq), nil, true); err != nil && !errors.Is(err, s3.ErrExists) {
			return err
		}
	}
	for _, n := range old {
		if n != seq {
			if err := p.c.Delete(p.ctx, p.Settings.Prefix+headName(p.HostID, n)); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkKey makes sure, before anything is uploaded, that the key is the
// history's: the first pass with a key (and any after the key file
// changed) opens the history's marker with it. The marker is the one
// object whose key decides "this installation's key is wrong": any other
// object that does not open with the key is not ours (trust.go).
func (p *pass) checkKey() error {
	id := p.key.ID()
	want := hex.EncodeToString(id[:])
	m, err := p.store.SyncMeta(p.ctx)
	if err != nil {
		return err
	}
	if m[metaKeyChecked] == want {
		return nil
	}
	data, err := p.c.Get(p.ctx, p.Settings.Prefix+markerName, 1<<20)
	if errors.Is(err, s3.ErrNotFound) {
		return fmt.Errorf("there is no hookd history at %s (its marker %s is missing): check sync.url, or run `hookd sync init` there", p.Settings.URL, markerName)
	}
	if err != nil {
		return err
	}
	if _, err := open(p.key, markerName, data); err != nil {
		return fmt.Errorf("the history's marker: %w", err)
	}
	return p.store.SetSyncMeta(p.ctx, map[string]string{metaKeyChecked: want})
}

// segment is a listed segment object.
type segment struct {
	name       string // relative to the prefix
	start, end int64
	size       int64 // as listed (0: not listed, up to maxObject())
	notOurs    bool  // found not ours: never fetched (it only says its numbers were taken)
}

// live returns the segments that may be fetched.
func live(segs []segment) []segment {
	return slices.DeleteFunc(slices.Clone(segs), func(sg segment) bool { return sg.notOurs })
}

// listSegments lists host's segments that end after the number after.
// An object there that cannot be a segment of ours (a name hookd does not
// make, a size no segment has) is reported once and never fetched; it and
// the ones found not ours before are listed marked notOurs.
func (p *pass) listSegments(host string, after int64) ([]segment, error) {
	dir := p.Settings.Prefix + segmentsDir(host)
	startAfter := ""
	if after > 0 {
		startAfter = fmt.Sprintf("%s%012d-~", dir, after)
	}
	l, err := p.c.List(p.ctx, dir, startAfter, "")
	if err != nil {
		return nil, err
	}
	var out []segment
	for _, o := range l.Objects {
		name := strings.TrimPrefix(o.Key, p.Settings.Prefix)
		start, end, ok := parseSegment(strings.TrimPrefix(o.Key, dir))
		switch {
		case !ok:
			p.notOurs(name, o.Size, errName)
		case end <= after:
		default:
			sg := segment{name: name, start: start, end: end, size: o.Size}
			if o.Size > maxObject() || o.Size < minObject {
				p.notOurs(name, o.Size, errSize)
			}
			sg.notOurs = p.isNotOurs(name)
			out = append(out, sg)
		}
	}
	return out, nil
}

// cover picks, from segments listed after merged, the ones to fetch in
// order: at each point the one that starts there and reaches furthest, or
// else (the originals were compacted away) the one that covers it and
// reaches furthest. It stops at a gap.
func cover(segs []segment, merged int64) []segment {
	var out []segment
	next := merged + 1
	for {
		var best *segment
		exact := false
		for i := range segs {
			sg := &segs[i]
			if sg.start > next || sg.end < next {
				continue
			}
			isExact := sg.start == next
			if best == nil || isExact && !exact || isExact == exact && sg.end > best.end {
				best, exact = sg, isExact
			}
		}
		if best == nil {
			return out
		}
		out = append(out, *best)
		next = best.end + 1
	}
}

// get fetches a segment's sealed bytes: no more than its listed size.
func (p *pass) get(ctx context.Context, sg segment) ([]byte, error) {
	limit := maxObject()
	if sg.size > 0 {
		limit = min(sg.size, limit)
	}
	data, err := p.c.Get(ctx, p.Settings.Prefix+sg.name, limit)
	if errors.Is(err, s3.ErrTooLarge) {
		return nil, &notOursError{sg.name, sg.size, errSize}
	}
	return data, err
}

// fetch gets and opens a segment of host's series.
func (p *pass) fetch(sg segment, host string) (wireSegment, *history.SyncBatch, error) {
	data, err := p.get(p.ctx, sg)
	if err != nil {
		return wireSegment{}, nil, err
	}
	return p.openSegment(sg, host, data)
}

// openSegment opens a segment of host's series fetched as data: an error
// wrapping *notOursError when it is not one of ours (not sealed with this
// history's key, altered, inflating beyond what a segment can be, or
// saying it is another segment than its name).
func (p *pass) openSegment(sg segment, host string, data []byte) (wireSegment, *history.SyncBatch, error) {
	plain, err := open(p.key, sg.name, data)
	if err != nil {
		return wireSegment{}, nil, &notOursError{sg.name, int64(len(data)), err}
	}
	seg, b, err := decode(plain)
	if errors.Is(err, ErrDamaged) {
		return seg, nil, &notOursError{sg.name, int64(len(data)), err}
	}
	if err != nil {
		return seg, nil, fmt.Errorf("segment %s: %w", sg.name, err)
	}
	if seg.Host != host || seg.Start != sg.start || seg.End != sg.end {
		return seg, nil, &notOursError{sg.name, int64(len(data)), fmt.Errorf("%w (it says it is %s's %d-%d)", ErrDamaged, seg.Host, seg.Start, seg.End)}
	}
	return seg, b, nil
}

// download merges host's segments after the last one merged here. An
// object that is not ours is reported and skipped (the segment covering
// its numbers otherwise is fetched instead), and numbers that nothing but
// such objects cover are passed over once a segment after them is there
// (their host found the name taken and moved past it). A segment that
// vanished between the listing and the fetch (compacted by its host)
// makes it list again, once.
func (p *pass) download(host string) error {
	var segs []segment
	listed := false
	for relisted := false; ; {
		merged, err := p.merged(host)
		if err != nil {
			return err
		}
		if !listed {
			if segs, err = p.listSegments(host, merged); err != nil {
				return err
			}
			listed = true
		}
		for i := range segs {
			segs[i].notOurs = segs[i].notOurs || p.isNotOurs(segs[i].name)
		}
		todo := cover(live(segs), merged)
		if len(todo) == 0 {
			// A gap taken by an object not ours: passed over up to the
			// next segment, once there is one.
			taken, next := false, int64(-1)
			for _, sg := range segs {
				taken = taken || sg.notOurs && sg.start <= merged+1 && merged+1 <= sg.end
				if !sg.notOurs && sg.start > merged+1 && (next < 0 || sg.start < next) {
					next = sg.start
				}
			}
			if !taken || next < 0 {
				return nil
			}
			if err := p.store.NoteHost(p.ctx, host, "", next-1); err != nil {
				return err
			}
			continue
		}
		err = p.mergeAll(host, todo)
		var no *notOursError
		switch {
		case errors.As(err, &no):
			p.notOurs(no.name, no.size, no.err)
			if p.fetchedNotOurs++; p.fetchedNotOurs >= maxFetchedNotOurs {
				p.moved.Warnings = append(p.moved.Warnings, fmt.Sprintf("%d objects fetched this pass were not ours: the rest of the bucket waits for the next pass", p.fetchedNotOurs))
				return nil
			}
		case errors.Is(err, s3.ErrNotFound) && !relisted:
			relisted, listed = true, false
		case errors.Is(err, errFormat):
			p.moved.Warnings = append(p.moved.Warnings, fmt.Sprintf("%v: the rest of installation %s's series waits for it", err, host))
			return nil
		default:
			return err
		}
	}
}

// fetched is an object fetched ahead of the merge.
type fetched struct {
	data []byte
	err  error
}

// prefetch fetches the segments' sealed bytes in order, up to four at
// once and no more than prefetchBytes of them (by listed size) ahead of
// what the caller took; each result comes on its own channel. Nothing is
// opened here: a segment is opened, inflated and decoded by the merge, one
// at a time, so that memory holds at most prefetchBytes of sealed bytes
// and one segment's plain text (maxPlain), however many or large the
// objects.
func (p *pass) prefetch(ctx context.Context, segs []segment) (results []chan fetched, done func(i int)) {
	results = make([]chan fetched, len(segs))
	for i := range results {
		results[i] = make(chan fetched, 1)
	}
	var mu gosync.Mutex
	cond := gosync.NewCond(&mu)
	stop := context.AfterFunc(ctx, func() { mu.Lock(); cond.Broadcast(); mu.Unlock() })
	n, held := 0, int64(0)
	weight := func(i int) int64 { return max(segs[i].size, 1) }
	go func() {
		defer stop()
		for i, sg := range segs {
			mu.Lock()
			for n > 0 && (n >= 4 || held+weight(i) > prefetchBytes) && ctx.Err() == nil {
				cond.Wait()
			}
			n++
			held += weight(i)
			mu.Unlock()
			if ctx.Err() != nil {
				return
			}
			go func(i int, sg segment) {
				data, err := p.get(ctx, sg)
				results[i] <- fetched{data, err}
			}(i, sg)
		}
	}()
	return results, func(i int) {
		mu.Lock()
		n--
		held -= weight(i)
		cond.Broadcast()
		mu.Unlock()
	}
}

// mergeAll fetches the segments (ahead of the merge: prefetch) and merges
// them in order, each in a transaction of its own that also records how
// far the host is merged. Of each, only the rows of host's own sessions
// are merged (and tombstones: a forget travels from any installation);
// outputs longer than KeepOutput are cut.
func (p *pass) mergeAll(host string, segs []segment) error {
	ctx, cancel := context.WithCancel(p.ctx)
	defer cancel()
	results, done := p.prefetch(ctx, segs)
	for i, sg := range segs {
		var r fetched
		select {
		case r = <-results[i]:
		case <-p.ctx.Done():
			return p.ctx.Err()
		}
		if r.err != nil {
			return r.err
		}
		seg, b, err := p.openSegment(sg, host, r.data)
		r.data = nil
		done(i)
		if err != nil {
			return err
		}
		if n := screen(host, b); n > 0 {
			p.moved.Warnings = append(p.moved.Warnings, fmt.Sprintf("segment %s of installation %s holds %s of other installations' sessions: refused (only a machine with this history's key can write one: check which machines have it)",
				p.where(sg.name), host, units.Count(n, "row")))
		}
		p.keepOutputs(b)
		st, err := p.store.Merge(p.ctx, host, seg.Label, sg.end, b, p.names.toLocal)
		if err != nil {
			return err
		}
		p.moved.DownSegments++
		p.moved.DownCommands += st.Commands
		p.moved.DownOutputs += st.Outputs
		p.moved.DownForgotten += st.Forgotten
	}
	return nil
}

// keepOutputs cuts the outputs longer than KeepOutput to their head and
// tail, as capture does for an output recorded here.
func (p *pass) keepOutputs(b *history.SyncBatch) {
	limit := p.Settings.KeepOutput
	for i := range b.Outputs {
		o := &b.Outputs[i]
		if limit <= 0 || int64(len(o.Text)) <= limit {
			continue
		}
		buf := capture.NewBuffer(int(limit))
		buf.Write(o.Text)
		o.Text = buf.Bytes()
		o.Flags |= history.OutputTruncated
	}
}

// merged returns how far host's segments are merged here.
func (p *pass) merged(host string) (int64, error) {
	hosts, err := p.store.SyncHosts(p.ctx)
	if err != nil {
		return 0, err
	}
	for _, h := range hosts {
		if h.ID == host {
			return h.Merged, nil
		}
	}
	return 0, nil
}

func (p *pass) meta(key string) (int64, error) {
	m, err := p.store.SyncMeta(p.ctx)
	if err != nil {
		return 0, err
	}
	if m[key] == "" {
		return 0, nil
	}
	return strconv.ParseInt(m[key], 10, 64)
}

// upload writes the queue out as new segments of this installation's
// series. Segments of ours beyond the last one this database knows of
// (a pass that stopped between storing a segment and noting it, or a
// database restored from an older copy) are read back first (adopt). A
// number taken by an object that is not ours is passed over; one taken
// by another database's segment (a clone of this installation) gives
// this one a new id, and the upload goes on in the new series.
func (p *pass) upload(heads []int64) (err error) {
	seq, err := p.meta(metaSeq)
	if err != nil {
		return err
	}
	defer func() {
		// The head follows the series, also after a pass that failed
		// half-way (and one that stopped before writing it).
		if seq > 0 && (len(heads) == 0 || heads[len(heads)-1] != seq || len(heads) > 1) {
			if herr := p.writeHead(seq, heads); err == nil {
				err = herr
			}
		}
	}()
	if len(heads) > 0 && heads[len(heads)-1] > seq {
		ahead, err := p.listSegments(p.HostID, seq)
		if err != nil {
			return err
		}
	adopting:
		for _, sg := range cover(ahead, seq) { // (those not ours too: adopt says so)
			var no *notOursError
			switch err := p.adopt(sg); {
			case errors.Is(err, errCloned):
				seq, heads = 0, nil
				break adopting
			case errors.As(err, &no):
				p.notOurs(no.name, no.size, no.err)
				break adopting // (its number is passed over below)
			case err != nil:
				return err
			}
			seq = sg.end
		}
	}
	limit := p.SegmentItems
	if limit <= 0 {
		limit = DefaultSegmentItems
	}
	keep := func(o history.Output) bool {
		switch p.Settings.Outputs {
		case OutputsNone:
			return false
		case OutputsAll:
			return true
		}
		return int64(len(o.Text)) <= p.Settings.OutputLimit
	}
	items := limit
	for {
		b, err := p.store.SyncPending(p.ctx, 0, items, segmentBytes, keep)
		if err != nil {
			return err
		}
		if b.Upto == 0 {
			return nil
		}
		n := seq + 1
		if b.Items() == 0 {
			// Rows whose commands are gone (forgotten: their tombstones
			// follow) or that may not travel: off the queue, no segment.
			if err := p.store.Uploaded(p.ctx, b.Upto, nil); err != nil {
				return err
			}
			continue
		}
		name := segmentName(p.HostID, n, n)
		plain, err := encode(wireSegment{Host: p.HostID, Label: p.Label, DB: p.db, Upto: b.Upto, Start: n, End: n}, &b, p.names)
		if err != nil {
			return err
		}
		sealed, err := seal(p.key, name, plain)
		if err != nil {
			return err
		}
		if len(plain) > maxPlain || int64(len(sealed)) > maxObject() {
			// Larger than any reader takes: fewer rows, down to one; a
			// single row that large (a huge output with sync.outputs:
			// all) stays on this machine.
			if items = min(items, b.Items()) / 2; items >= 1 {
				continue
			}
			if err := p.store.Uploaded(p.ctx, b.Upto, nil); err != nil {
				return err
			}
			p.moved.Warnings = append(p.moved.Warnings, fmt.Sprintf("a row of %d bytes is too large to sync (at most %d): it stays on this machine", len(plain), maxPlain))
			items = limit
			continue
		}
		items = limit
		err = p.c.Put(p.ctx, p.Settings.Prefix+name, sealed, true)
		if errors.Is(err, s3.ErrExists) {
			// Written by an earlier pass that stopped before noting it
			// (or a retried request that had in fact succeeded): taken
			// in. Or not ours: passed over.
			var no *notOursError
			switch err := p.adopt(segment{name: name, start: n, end: n}); {
			case errors.Is(err, errCloned):
				seq, heads = 0, nil
				continue
			case errors.As(err, &no):
				p.notOurs(no.name, no.size, no.err)
			case err != nil:
				return err
			}
			seq = n
			continue
		}
		if err != nil {
			return err
		}
		if err := p.store.Uploaded(p.ctx, b.Upto, map[string]string{metaSeq: strconv.FormatInt(n, 10)}); err != nil {
			return err
		}
		seq = n
		p.moved.UpSegments++
		p.moved.UpCommands += len(b.Commands)
		p.moved.UpOutputs += len(b.Outputs)
		p.moved.UpForgotten += len(b.Tombstones)
	}
}

// adopt takes in a segment of this installation's series that this
// database did not note, when it is this database's: every command it
// holds (and every command whose output it holds) is here, or was
// forgotten here. Its rows leave the queue when this database wrote it,
// and its content is merged (which changes nothing but what was pruned or
// forgotten since). A segment that holds commands this database never
// recorded was written by another database under this installation's id
// (a copied home directory, a cloned machine): this installation takes a
// new id (errCloned). One that holds rows of other installations'
// sessions is not ours.
func (p *pass) adopt(sg segment) error {
	if p.isNotOurs(sg.name) {
		return &notOursError{sg.name, sg.size, errKnown}
	}
	seg, b, err := p.fetch(sg, p.HostID)
	if err != nil {
		return err
	}
	if n := screen(p.HostID, b); n > 0 {
		return &notOursError{sg.name, sg.size, fmt.Errorf("it holds %s of other installations' sessions", units.Count(n, "row"))}
	}
	mine, err := p.recordedHere(b)
	if err != nil {
		return err
	}
	if !mine {
		return p.renew(sg.name)
	}
	if seg.DB == p.db {
		if err := p.store.Uploaded(p.ctx, seg.Upto, nil); err != nil {
			return err
		}
	}
	if _, err := p.store.Merge(p.ctx, p.HostID, p.Label, sg.end, b, p.names.toLocal); err != nil {
		return err
	}
	return p.store.SetSyncMeta(p.ctx, map[string]string{metaSeq: strconv.FormatInt(sg.end, 10)})
}

// Init makes a new key for a new history at the configured place: it
// creates the history's marker there (only if there is none: a history
// already there is an error that says to join it), keeps the key in the
// key file and turns sync on. It returns the key, whose Phrase the user
// must keep.
func (s *Syncer) Init(ctx context.Context) (Key, error) {
	if _, err := LoadKey(s.Paths.Key); err == nil {
		return Key{}, fmt.Errorf("this installation has a sync key already (%s): `hookd sync --status` says where it syncs", s.Paths.Key)
	}
	c, err := s.client()
	if err != nil {
		return Key{}, err
	}
	if err := c.CheckBucket(ctx); err != nil {
		return Key{}, s.explain(err)
	}
	key, err := NewKey()
	if err != nil {
		return Key{}, err
	}
	plain, _ := json.Marshal(map[string]any{"v": 1, "created_by": s.HostID, "label": s.Label, "created_at": s.now().UTC().Format(time.RFC3339)})
	sealed, err := seal(key, markerName, plain)
	if err != nil {
		return Key{}, err
	}
	if err := SaveKey(s.Paths.Key, key); err != nil {
		return Key{}, fmt.Errorf("keep the key: %w", err)
	}
	if err := c.Put(ctx, s.Settings.Prefix+markerName, sealed, true); err != nil {
		os.Remove(s.Paths.Key)
		if errors.Is(err, s3.ErrExists) {
			return Key{}, fmt.Errorf("%s already holds a hookd history: run `hookd sync join` with its recovery phrase (or choose another sync.url)", s.Settings.URL)
		}
		return Key{}, s.explain(err)
	}
	if err := s.enable(ctx); err != nil {
		return key, err
	}
	return key, nil
}

// Join checks key against the history at the configured place (nothing
// is written when it is not that history's key), keeps it in the key file
// and turns sync on.
func (s *Syncer) Join(ctx context.Context, key Key) error {
	if have, err := LoadKey(s.Paths.Key); err == nil {
		if have == key {
			return nil
		}
		return fmt.Errorf("this installation has another sync key already (%s): remove it first to join another history", s.Paths.Key)
	}
	c, err := s.client()
	if err != nil {
		return err
	}
	data, err := c.Get(ctx, s.Settings.Prefix+markerName, 1<<20)
	if errors.Is(err, s3.ErrNotFound) {
		return fmt.Errorf("there is no hookd history at %s: run `hookd sync init` on the first machine", s.Settings.URL)
	}
	if err != nil {
		return s.explain(err)
	}
	if _, err := open(key, markerName, data); err != nil {
		if errors.Is(err, ErrWrongKey) || errors.Is(err, ErrDamaged) {
			return fmt.Errorf("that recovery phrase is not the key of the history at %s: nothing was changed", s.Settings.URL)
		}
		return err
	}
	if err := SaveKey(s.Paths.Key, key); err != nil {
		return fmt.Errorf("keep the key: %w", err)
	}
	return s.enable(ctx)
}

func (s *Syncer) enable(ctx context.Context) error {
	store, err := s.Open(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	if _, err := store.EnableSync(ctx); err != nil {
		return err
	}
	return store.NoteHost(ctx, s.HostID, s.Label, 0)
}

// explain turns an error into one that says what happened and what to do.
func (s *Syncer) explain(err error) error {
	var se *s3.Error
	where := s.Settings.URL
	if s.Settings.Endpoint != "" {
		where += " at " + s.Settings.Endpoint
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, s3.ErrNoBucket):
		return fmt.Errorf("the bucket %q does not exist at %s: create it, or correct sync.url (nothing was lost; %v)", s.Settings.Bucket, where, err)
	case errors.Is(err, s3.ErrAuth):
		return fmt.Errorf("the store refused the credentials (%s): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY or the profile, and renew expired ones (nothing was lost; %v)", s.Creds.Source, err)
	case errors.Is(err, s3.ErrUnreachable):
		return fmt.Errorf("cannot reach the store (%s): nothing was lost, the next pass tries again (%v)", where, err)
	case errors.Is(err, ErrWrongKey):
		return fmt.Errorf("%v: this installation's key is not the one the history at %s is encrypted with; join it with its recovery phrase (nothing was lost)", err, s.Settings.URL)
	case history.IsDiskFull(err):
		return fmt.Errorf("the disk is full (%v): nothing was merged from the segment that failed, the next pass tries again once there is room", err)
	case errors.As(err, &se):
		return fmt.Errorf("the store answered %v (nothing was lost)", err)
	}
	return err
}

// Status is what `hookd status` and `hookd sync --status` say about sync.
type Status struct {
	Configured  bool         `json:"configured"`
	URL         string       `json:"url,omitempty"`
	Endpoint    string       `json:"endpoint,omitempty"`
	Outputs     string       `json:"outputs,omitempty"`
	Interval    string       `json:"interval,omitempty"`
	Key         bool         `json:"key"`
	HostID      string       `json:"host_id"`
	Host        string       `json:"host"`
	LastSync    string       `json:"last_sync,omitempty"`
	LastAttempt string       `json:"last_attempt,omitempty"`
	LastError   string       `json:"last_error,omitempty"`
	LastMoved   string       `json:"last_moved,omitempty"`
	Backlog     int64        `json:"backlog"`
	Segments    int64        `json:"segments"`
	Hosts       []HostStatus `json:"hosts"`
	// Warnings are what the last pass that had any skipped or changed
	// (Moved.Warnings), at WarningsAt.
	Warnings   []string `json:"warnings,omitempty"`
	WarningsAt string   `json:"warnings_at,omitempty"`
}

// HostStatus is one installation seen.
type HostStatus struct {
	ID        string `json:"id"`
	Label     string `json:"label"`
	Merged    int64  `json:"merged_segments"`
	Commands  int64  `json:"commands"`
	This      bool   `json:"this"`
	UpdatedAt string `json:"updated_at,omitempty"`
}

// Gather reads the sync state from the files and the history (no request
// to the store).
func Gather(ctx context.Context, set *Settings, paths Paths, hostID, label string, store *history.Store) Status {
	st := Status{HostID: hostID, Host: label, Hosts: []HostStatus{}}
	if set != nil {
		st.Configured = true
		st.URL, st.Endpoint, st.Outputs, st.Interval = set.URL, set.Endpoint, string(set.Outputs), set.Interval.String()
	}
	if _, err := LoadKey(paths.Key); err == nil {
		st.Key = true
	}
	if store == nil {
		return st
	}
	m, _ := store.SyncMeta(ctx)
	st.LastSync, st.LastAttempt, st.LastError, st.LastMoved = m[metaLastOK], m[metaLastAttempt], m[metaLastError], m[metaLastMoved]
	st.Segments, _ = strconv.ParseInt(m[metaSeq], 10, 64)
	st.Warnings, st.WarningsAt = lines(m[metaWarnings]), m[metaWarningsAt]
	st.Backlog, _ = store.SyncQueued(ctx, 0)
	hosts, _ := store.SyncHosts(ctx)
	for _, h := range hosts {
		hs := HostStatus{ID: h.ID, Label: h.Label, Merged: h.Merged, Commands: h.Commands, This: h.ID == hostID}
		if h.UpdatedAt > 0 {
			hs.UpdatedAt = time.UnixMicro(h.UpdatedAt).UTC().Format(time.RFC3339)
		}
		st.Hosts = append(st.Hosts, hs)
	}
	sort.SliceStable(st.Hosts, func(i, j int) bool { return st.Hosts[i].This && !st.Hosts[j].This })
	return st
}
