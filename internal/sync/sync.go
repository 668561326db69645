// Package sync keeps every installation's history on every installation,
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
// runs, and the agent runs it in the background (Loop).
package sync

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/sync/s3"
)

// Outputs says which captured outputs travel.
type Outputs string

// The sync.outputs modes.
const (
	OutputsNone  Outputs = "none"
	OutputsSmall Outputs = "small" // up to Settings.OutputLimit bytes each (the default)
	OutputsAll   Outputs = "all"
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
	Interval    time.Duration
}

// ParseURL splits s3://BUCKET/PREFIX.
func ParseURL(raw string) (bucket, prefix string, err error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "s3" || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", "", fmt.Errorf("%q: want s3://BUCKET or s3://BUCKET/PREFIX", raw)
	}
	prefix = strings.Trim(u.Path, "/")
	if prefix != "" {
		prefix += "/"
	}
	return u.Host, prefix, nil
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

// maxObject bounds what a GET reads.
const maxObject = 1 << 30

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
}

func (m Moved) String() string {
	return fmt.Sprintf("up %s, %s, %d forgotten in %s; down %s, %s, %d forgotten from %s of %s",
		count(m.UpCommands, "command"), count(m.UpOutputs, "output"), m.UpForgotten, count(m.UpSegments, "segment"),
		count(m.DownCommands, "command"), count(m.DownOutputs, "output"), m.DownForgotten, count(m.DownSegments, "segment"),
		count(m.Hosts, "other host"))
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
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
	p := &pass{Syncer: s, ctx: ctx, store: store, c: c, key: key, db: db, names: naming{s.HostID}}
	store.SetSyncMeta(ctx, map[string]string{metaLastAttempt: s.now().UTC().Format(time.RFC3339Nano)})
	err = p.run()
	if p.moved.DownForgotten > 0 && s.Forgotten != nil {
		s.Forgotten()
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
	hosts := make([]string, 0, len(heads))
	for h := range heads {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	for _, host := range hosts {
		if host == p.HostID {
			continue
		}
		p.moved.Hosts++
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

// heads lists heads/: each installation's head numbers, in order.
func (p *pass) heads() (map[string][]int64, error) {
	l, err := p.c.List(p.ctx, p.Settings.Prefix+headsDir, "", "")
	if err != nil {
		return nil, err
	}
	out := map[string][]int64{}
	for _, o := range l.Objects {
		host, num, ok := strings.Cut(strings.TrimPrefix(o.Key, p.Settings.Prefix+headsDir), "/")
		n, err := strconv.ParseInt(num, 10, 64)
		if !ok || err != nil || host == "" {
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
// changed) opens the history's marker with it.
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
	size       int64
}

// listSegments lists host's segments that end after the number after.
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
		start, end, ok := parseSegment(strings.TrimPrefix(o.Key, dir))
		if !ok || end <= after {
			continue
		}
		out = append(out, segment{name: strings.TrimPrefix(o.Key, p.Settings.Prefix), start: start, end: end, size: o.Size})
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

// fetch gets and opens a segment.
func (p *pass) fetch(name string) (wireSegment, *history.SyncBatch, error) {
	data, err := p.c.Get(p.ctx, p.Settings.Prefix+name, maxObject)
	if err != nil {
		return wireSegment{}, nil, err
	}
	plain, err := open(p.key, name, data)
	if err != nil {
		return wireSegment{}, nil, fmt.Errorf("segment %s: %w", name, err)
	}
	seg, b, err := decode(plain)
	if err != nil {
		return seg, nil, fmt.Errorf("segment %s: %w", name, err)
	}
	return seg, b, nil
}

// download merges host's segments after the last one merged here. A
// segment that vanished between the listing and the fetch (compacted by
// its host) makes it list again, once.
func (p *pass) download(host string) error {
	for attempt := 0; ; attempt++ {
		merged, err := p.merged(host)
		if err != nil {
			return err
		}
		segs, err := p.listSegments(host, merged)
		if err != nil {
			return err
		}
		err = p.mergeAll(host, cover(segs, merged))
		if errors.Is(err, s3.ErrNotFound) && attempt == 0 {
			continue
		}
		return err
	}
}

// mergeAll fetches the segments (up to four at once, ahead of the merge)
// and merges them in order, each in a transaction of its own that also
// records how far the host is merged.
func (p *pass) mergeAll(host string, segs []segment) error {
	type got struct {
		seg wireSegment
		b   *history.SyncBatch
		err error
	}
	ctx, cancel := context.WithCancel(p.ctx)
	defer cancel()
	results := make([]chan got, len(segs))
	sem := make(chan struct{}, 4)
	for i := range segs {
		results[i] = make(chan got, 1)
	}
	go func() {
		for i, sg := range segs {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			go func(i int, name string) {
				pp := *p
				pp.ctx = ctx
				seg, b, err := pp.fetch(name)
				results[i] <- got{seg, b, err}
			}(i, sg.name)
		}
	}()
	for i, sg := range segs {
		var r got
		select {
		case r = <-results[i]:
		case <-p.ctx.Done():
			return p.ctx.Err()
		}
		<-sem
		if r.err != nil {
			return r.err
		}
		if r.seg.Host != host || r.seg.Start != sg.start || r.seg.End != sg.end {
			return fmt.Errorf("segment %s: %w (it says it is %s's %d-%d)", sg.name, ErrDamaged, r.seg.Host, r.seg.Start, r.seg.End)
		}
		st, err := p.store.Merge(p.ctx, host, r.seg.Label, sg.end, r.b, p.names.toLocal)
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
// database restored from an older copy) are read back first: what they
// hold is taken off the queue when this database wrote them, and merged
// (it changes nothing already here) in any case.
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
		for _, sg := range cover(ahead, seq) {
			if err := p.adopt(sg.name, sg.end); err != nil {
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
	for {
		b, err := p.store.SyncPending(p.ctx, 0, limit, segmentBytes, keep)
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
		err = p.c.Put(p.ctx, p.Settings.Prefix+name, sealed, true)
		if errors.Is(err, s3.ErrExists) {
			// Written by an earlier pass that stopped before noting it
			// (or a retried request that had in fact succeeded).
			if err := p.adopt(name, n); err != nil {
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
// database did not note: its rows leave the queue when this database
// wrote it, and its content is merged.
func (p *pass) adopt(name string, end int64) error {
	seg, b, err := p.fetch(name)
	if err != nil {
		return err
	}
	if seg.DB == p.db {
		if err := p.store.Uploaded(p.ctx, seg.Upto, nil); err != nil {
			return err
		}
	}
	if _, err := p.store.Merge(p.ctx, p.HostID, p.Label, end, b, p.names.toLocal); err != nil {
		return err
	}
	return p.store.SetSyncMeta(p.ctx, map[string]string{metaSeq: strconv.FormatInt(end, 10)})
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
