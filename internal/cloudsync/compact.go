package cloudsync

import (
	"errors"
	"fmt"
	"github.com/hookd/hookd/internal/ui/units"
	"strconv"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/cloudsync/s3"
)

// Compaction keeps the number of objects an installation's series holds,
// and so what a pass lists and a new machine fetches, small: once
// compactAfter segments were written since the last compaction, the
// installation folds its own runs of consecutive small segments (all but
// the newest keepRecent, which the other machines are likely still
// fetching) into one segment per run of up to compactTarget bytes,
// named for the numbers it covers (<end>-<start>), and then deletes the
// originals. The folded segment leaves out the commands forgotten since
// (their tombstones stay, for the machines that merged the command
// earlier), so a forgotten command's ciphertext leaves the bucket too.
//
// Readers choose what to fetch by the numbers in the names (cover): a
// machine that merged part of a run fetches the originals while they are
// there and the folded segment after, and merging it again changes
// nothing.
var (
	compactAfter  int64 = 64
	keepRecent    int64 = 16
	compactTarget int64 = 4 << 20
)

// SetCompaction changes the compaction thresholds, for tests; it returns
// a function that puts them back.
func SetCompaction(after, recent, target int64) (restore func()) {
	a, r, t := compactAfter, keepRecent, compactTarget
	compactAfter, keepRecent, compactTarget = after, recent, target
	return func() { compactAfter, keepRecent, compactTarget = a, r, t }
}

func (p *pass) compact() error {
	seq, err := p.meta(metaSeq)
	if err != nil {
		return err
	}
	done, err := p.meta(metaCompacted)
	if err != nil {
		return err
	}
	if seq-done < compactAfter {
		return nil
	}
	limit := seq - keepRecent
	segs, err := p.listSegments(p.HostID, done)
	if err != nil {
		return err
	}
	// Past the compacted numbers this installation wrote single segments
	// only (and a fold a pass stopped before noting): a run there is read
	// and checked before it is taken for one of ours.
	for i, sg := range segs {
		if sg.notOurs || sg.start == sg.end || sg.start <= done {
			continue
		}
		_, b, err := p.fetch(sg, p.HostID)
		var no *notOursError
		if errors.As(err, &no) {
			p.notOurs(no.name, no.size, no.err)
			segs[i].notOurs = true
			continue
		}
		if err != nil {
			return err
		}
		ok, err := p.ownSegment(sg, b)
		if err != nil {
			return err
		}
		segs[i].notOurs = !ok
	}
	// The segments to fold: those this pass can see whole, in order,
	// no larger than the target alone.
	var runs [][]segment
	var run []segment
	var size int64
	flush := func() {
		if len(run) > 1 {
			runs = append(runs, run)
		}
		run, size = nil, 0
	}
	for _, sg := range cover(live(segs), done) {
		if sg.end > limit {
			break
		}
		if len(run) > 0 && (size+sg.size > compactTarget || sg.start != run[len(run)-1].end+1) {
			flush()
		}
		run = append(run, sg)
		size += sg.size
	}
	flush()
	for _, r := range runs {
		if err := p.fold(r); err != nil {
			return err
		}
	}
	return p.store.SetSyncMeta(p.ctx, map[string]string{metaCompacted: strconv.FormatInt(limit, 10)})
}

// fold writes the segments of run as one and deletes them.
func (p *pass) fold(run []segment) error {
	all := &history.SyncBatch{}
	seen := map[string]bool{}
	for _, sg := range run {
		seg, b, err := p.fetch(sg, p.HostID)
		var no *notOursError
		if errors.As(err, &no) {
			p.notOurs(no.name, no.size, no.err) // (the run is folded without it next time)
			return nil
		}
		if err != nil {
			return err
		}
		if ok, err := p.ownSegment(sg, b); err != nil || !ok {
			return err
		}
		if seg.Upto > all.Upto {
			all.Upto = seg.Upto
		}
		for _, se := range b.Sessions {
			if !seen[se.ID] {
				seen[se.ID] = true
				all.Sessions = append(all.Sessions, se)
			}
		}
		all.Commands = append(all.Commands, b.Commands...)
		for k, c := range b.Contexts {
			if all.Contexts == nil {
				all.Contexts = map[history.Key]history.Context{}
			}
			all.Contexts[k] = c
		}
		all.Outputs = append(all.Outputs, b.Outputs...)
		all.Tombstones = append(all.Tombstones, b.Tombstones...)
		all.Notes = append(all.Notes, b.Notes...)
	}
	// Forgotten since: left out.
	var keys []history.Key
	for _, e := range all.Commands {
		keys = append(keys, history.Key{Session: p.names.toLocal(e.Session), Seq: e.Seq})
	}
	dead, err := p.store.Tombstoned(p.ctx, keys)
	if err != nil {
		return err
	}
	cmds := all.Commands[:0]
	for _, e := range all.Commands {
		if !dead[history.Key{Session: p.names.toLocal(e.Session), Seq: e.Seq}] {
			cmds = append(cmds, e)
		}
	}
	all.Commands = cmds
	outs := all.Outputs[:0]
	for _, o := range all.Outputs {
		if !dead[history.Key{Session: p.names.toLocal(o.Session), Seq: o.Seq}] {
			outs = append(outs, o)
		}
	}
	all.Outputs = outs
	notes := all.Notes[:0]
	for _, nt := range all.Notes {
		if !dead[history.Key{Session: p.names.toLocal(nt.Session), Seq: nt.Seq}] {
			notes = append(notes, nt)
		}
	}
	all.Notes = notes
	if len(all.Sessions) > maxItems || len(all.Commands) > maxItems || len(all.Outputs) > maxItems || len(all.Tombstones) > maxItems || len(all.Notes) > maxItems {
		return nil // more than a reader takes: the run stays as it is
	}
	start, end := run[0].start, run[len(run)-1].end
	name := segmentName(p.HostID, start, end)
	plain, err := encode(wireSegment{Host: p.HostID, Label: p.Label, DB: p.db, Upto: all.Upto, Start: start, End: end}, all, p.names)
	if err != nil {
		return err
	}
	sealed, err := seal(p.key, name, plain)
	if err != nil {
		return err
	}
	if len(plain) > maxPlain || int64(len(sealed)) > maxObject() {
		return nil // larger than a reader takes: the run stays as it is
	}
	// Already there: an earlier pass folded the same run and stopped
	// before deleting the originals; or someone else made it, when the
	// originals stay.
	err = p.c.Put(p.ctx, p.Settings.Prefix+name, sealed, true)
	if errors.Is(err, s3.ErrExists) {
		there := segment{name: name, start: start, end: end}
		_, b, ferr := p.fetch(there, p.HostID)
		var no *notOursError
		if errors.As(ferr, &no) {
			p.notOurs(no.name, no.size, no.err)
			return nil
		}
		if ferr != nil {
			return ferr
		}
		if ok, err := p.ownSegment(there, b); err != nil || !ok {
			return err
		}
	} else if err != nil {
		return err
	}
	for _, sg := range run {
		if sg.name == name {
			continue
		}
		if err := p.c.Delete(p.ctx, p.Settings.Prefix+sg.name); err != nil {
			return err
		}
	}
	p.moved.Compacted += len(run)
	return nil
}

// ownSegment checks a segment of numbers this installation wrote itself (so
// not a clone's: a clone shows itself beyond them, in adopt) and returns
// true when it is this installation's. One that holds other
// installations' rows or commands never recorded here was written by
// someone holding the key: it is reported, and deleted, so that no
// machine reading the series later takes it for this installation's.
func (p *pass) ownSegment(sg segment, b *history.SyncBatch) (bool, error) {
	why := ""
	if n := screen(p.HostID, b); n > 0 {
		why = fmt.Sprintf("it holds %s of other installations' sessions", units.Count(n, "row"))
	} else if mine, err := p.recordedHere(b); err != nil {
		return false, err
	} else if !mine {
		why = "it holds commands this installation never recorded"
	}
	if why == "" {
		return true, nil
	}
	p.notOurs(sg.name, sg.size, errors.New(why+": deleted from this installation's series"))
	return false, p.c.Delete(p.ctx, p.Settings.Prefix+sg.name)
}
