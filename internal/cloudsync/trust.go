package cloudsync

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/hostid"
)

// What a pass trusts (docs/design.md §5.14, threat model). The bucket is
// anyone's who can write to it, and every machine holding the key can
// write any object; so a pass:
//
//   - takes the key to be wrong only when the history's marker does not
//     open with it (checkKey); any other object that does not open, is
//     larger than a segment can be (checked on the listing, before any
//     GET), inflates beyond maxPlain, or says it is another segment than
//     its name, is not ours: reported once (Moved.Warnings, the status),
//     remembered (metaNotOurs: never fetched again) and skipped, and the
//     rest merges; a number it took is passed over, by its host (which
//     moves past it) and by the readers;
//   - merges from a segment of installation H only the rows of H's own
//     sessions ("…@H"), and tombstones (screen): no segment adds or
//     changes a command of another installation, and nothing merged
//     becomes a command recorded here;
//   - takes a segment of its own series that it did not note (adopt) only
//     when every command in it was recorded here; one that holds commands
//     this database never recorded was written by another database with
//     this installation's id (a copied home directory, a cloned machine),
//     and this installation takes a new id (renew).

var (
	errName   = errors.New("not a name hookd makes")
	errSize   = errors.New("larger or smaller than any segment")
	errKnown  = errors.New("found not ours before")
	errFormat = errors.New("a newer hookd's segment")
	// errOtherKey: sealed with another key than the history's.
	errOtherKey = errors.New("sealed with a key that is not this history's")
	// errCloned: this installation took a new id (renew).
	errCloned = errors.New("this installation took a new id")
)

// notOursError is an object in the bucket that is not one of ours.
type notOursError struct {
	name string // relative to the prefix
	size int64
	err  error
}

func (e *notOursError) Error() string { return fmt.Sprintf("%s is not ours: %v", e.name, e.err) }
func (e *notOursError) Unwrap() error { return e.err }

// where names an object as the user can find it.
func (p *pass) where(name string) string {
	return "s3://" + p.Settings.Bucket + "/" + p.Settings.Prefix + name
}

// notOurs reports an object that is not ours, once: the warning says
// which, where and why, and the object is never fetched again.
func (p *pass) notOurs(name string, size int64, why error) {
	if p.isNotOurs(name) {
		return
	}
	p.notOursSet[name] = true
	p.bad = append(p.bad, name)
	if errors.Is(why, ErrWrongKey) {
		why = errOtherKey // (the history's marker opened with ours)
	}
	p.moved.Warnings = append(p.moved.Warnings, fmt.Sprintf("an object in the bucket is not ours: %s (%d bytes: %v); skipped, the rest was merged (someone who can write to the bucket put it there: delete it)",
		p.where(name), size, why))
}

func (p *pass) isNotOurs(name string) bool { return p.notOursSet[name] }

// screen keeps, of a batch from installation host's series, the rows of
// host's own sessions (and every tombstone), and returns how many rows it
// refused.
func screen(host string, b *history.SyncBatch) int {
	own := func(s string) bool { return history.SessionHost(s) == host }
	n := 0
	keep := func(ok bool) bool {
		if !ok {
			n++
		}
		return ok
	}
	ss := b.Sessions[:0]
	for _, se := range b.Sessions {
		if keep(own(se.ID)) {
			ss = append(ss, se)
		}
	}
	b.Sessions = ss
	cs := b.Commands[:0]
	for _, e := range b.Commands {
		if keep(own(e.Session)) {
			cs = append(cs, e)
		} else {
			delete(b.Contexts, history.Key{Session: e.Session, Seq: e.Seq})
		}
	}
	b.Commands = cs
	outs := b.Outputs[:0]
	for _, o := range b.Outputs {
		if keep(own(o.Session)) {
			outs = append(outs, o)
		}
	}
	b.Outputs = outs
	return n
}

// recordedHere reports whether every command of a batch of this
// installation's series (and every command whose output it holds) is in
// this history with the same text, or was forgotten here.
func (p *pass) recordedHere(b *history.SyncBatch) (bool, error) {
	text := map[history.Key]*string{}
	for i, e := range b.Commands {
		text[history.Key{Session: p.names.toLocal(e.Session), Seq: e.Seq}] = &b.Commands[i].Command
	}
	for _, o := range b.Outputs {
		k := history.Key{Session: p.names.toLocal(o.Session), Seq: o.Seq}
		if _, ok := text[k]; !ok {
			text[k] = nil
		}
	}
	keys := make([]history.Key, 0, len(text))
	for k := range text {
		keys = append(keys, k)
	}
	have, err := p.store.CommandTexts(p.ctx, keys)
	if err != nil {
		return false, err
	}
	var missing []history.Key
	for k, want := range text {
		got, ok := have[k]
		switch {
		case !ok:
			missing = append(missing, k)
		case want != nil && got != *want:
			return false, nil // another command under that key
		}
	}
	if len(missing) == 0 {
		return true, nil
	}
	dead, err := p.store.Tombstoned(p.ctx, missing)
	if err != nil {
		return false, err
	}
	for _, k := range missing {
		if !dead[k] {
			return false, nil
		}
	}
	return true, nil
}

// renew gives this installation a new id, another database having
// written segment name of its series (hostid.Renew), and starts its new
// series: what this database uploaded under the old id stays there (the
// old id is noted as merged up to it, so it never comes back as another
// installation's), the other database's segments after it are merged as
// that installation's, and forgets go out under both ids.
func (p *pass) renew(name string) error {
	old := p.HostID
	if p.Paths.HostID == "" {
		return fmt.Errorf("segment %s of this installation's series was written by another database, and this installation cannot take a new id (no id file)", p.where(name))
	}
	seq, err := p.meta(metaSeq)
	if err != nil {
		return err
	}
	id, err := hostid.Renew(p.Paths.HostID, old)
	if err != nil {
		return err
	}
	if id == old {
		return fmt.Errorf("installation id %s: could not make a new one", old)
	}
	p.names.former = append(p.names.former, old)
	if err := p.store.NoteHost(p.ctx, old, p.Label, seq); err != nil {
		return err
	}
	if err := p.store.SetSyncMeta(p.ctx, map[string]string{metaSeq: "", metaCompacted: "",
		metaFormerIDs: strings.Join(p.names.former, "\n")}); err != nil {
		return err
	}
	p.HostID, p.names.self = id, id
	if err := p.store.NoteHost(p.ctx, id, p.Label, 0); err != nil {
		return err
	}
	p.moved.Warnings = append(p.moved.Warnings, fmt.Sprintf("two installations had the id %s: segment %s holds commands this database never recorded (a copied home directory or a cloned machine?). This installation is now %s; the other keeps %s, and what it records arrives here as another installation's",
		old, p.where(name), id, old))
	return errCloned
}

// lines splits a meta value kept one item a line.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
