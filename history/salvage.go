package history

import (
	"context"
	"fmt"
	"os"
)

// SalvageStats counts what Salvage found and copied.
type SalvageStats struct {
	// Pages is how many pages were scanned; BadPages how many of them
	// could not be parsed (damaged b-tree pages, pages of random bytes,
	// pages missing from a truncated file).
	Pages, BadPages int
	// Rows copied into the store (new ones only).
	Commands, Sessions, Outputs, Spools, Asks int
	// Intents and Prompts: why an agent ran a command, and what it was
	// asked (schema 8).
	Intents, Prompts int
}

// Salvage copies every row it can read from the damaged database file at
// path into s, as SQLite's .recover would but without SQLite reading the
// file: it scans the file page by page, independently of page 1 and the
// schema, decodes the records of the b-tree pages and recognises the rows
// of hookd's tables by their shape. A page that the -wal file beside path
// holds a committed newer copy of is read from there, when that file is
// present and intact enough; it is not required.
//
// Rows s already holds are kept: commands are matched by session and
// sequence number (a salvaged command keeps its old id unless s uses it),
// sessions by id, outputs by session, sequence number and stream, spools by
// name, an agent's intents and prompts by session and sequence number. The
// full-text index follows, as it would for AddCommand.
//
// Salvage never fails because of the damage itself: only an unreadable
// path, an error writing s, or ctx ending (which leaves s unchanged) are
// returned.
func (s *Store) Salvage(ctx context.Context, path string) (SalvageStats, error) {
	return s.salvageHook(ctx, path, nil)
}

// salvageHook is Salvage, calling page (when not nil) before each page
// scanned: the tests' way in.
func (s *Store) salvageHook(ctx context.Context, path string, page func()) (SalvageStats, error) {
	var st SalvageStats
	p, err := openDamaged(ctx, path)
	if err != nil {
		return st, fmt.Errorf("salvage %s: %w", path, err)
	}
	defer p.close()
	if p.npages == 0 {
		return st, nil
	}
	w := &salvageWriter{ctx: ctx, db: s.db, fts: s.fts, st: &st}
	defer w.close()

	// The freelist's pages may still hold rows deleted since (those not
	// deleted with secure_delete, as forget does): leave them out when
	// page 1 says reliably which they are.
	var skip map[uint32]bool
	sc := newScanner(p)
	if p.page(1, sc.page) {
		if ps, _ := headerPageSize(sc.page); ps == p.ps {
			skip = p.freePages(sc.page)
		}
	}
	stop := func() bool {
		if page != nil {
			page()
		}
		return w.err != nil || ctx.Err() != nil
	}
	st.Pages, st.BadPages = sc.scanAll(skip, stop, w.add)
	if err := ctx.Err(); err != nil {
		return SalvageStats{}, fmt.Errorf("salvage %s: %w", path, err)
	}
	if err := w.commit(); err != nil {
		return SalvageStats{}, fmt.Errorf("salvage %s: %w", path, classify(err))
	}
	// Salvaged outputs are indexed by FillOutputIndex: searched by
	// reading them until then.
	s.ofts = s.fts && s.oftsFilled(ctx)
	return st, nil
}

// openDamaged opens the database file at path (and its WAL) for scanning,
// choosing the page size: the header's when it is intact, else the WAL's,
// else the one with which the most rows decode.
func openDamaged(ctx context.Context, path string) (*pager, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	var h [100]byte
	f.ReadAt(h[:], 0) // a short file leaves zeros: no header
	ps, usable := headerPageSize(h[:])
	p := &pager{f: f, size: fi.Size()}
	if wal, err := os.Open(path + "-wal"); err == nil {
		wps, at := readWAL(ctx, wal, ps)
		if wps == 0 {
			wal.Close()
		} else {
			p.wal, p.walAt = wal, at
			if ps == 0 {
				ps, usable = wps, wps
			}
		}
	}
	if ps == 0 {
		ps = bestPageSize(ctx, p)
		usable = ps
	}
	p.setPageSize(ps, usable)
	return p, nil
}

func (p *pager) setPageSize(ps, usable int) {
	p.ps, p.usable = ps, usable
	n := (p.size + int64(ps) - 1) / int64(ps)
	if n > 1<<31 {
		n = 1 << 31
	}
	p.npages = uint32(n)
	// The WAL may grow the database, by at most a page per frame: a
	// page number beyond is not to be believed (nor scanned up to).
	limit := int64(p.npages) + int64(len(p.walAt))
	for k := range p.walAt {
		if int64(k) > limit {
			delete(p.walAt, k)
		} else {
			p.npages = max(p.npages, k)
		}
	}
}

func (p *pager) close() {
	p.f.Close()
	if p.wal != nil {
		p.wal.Close()
	}
}

// bestPageSize tries each possible page size on a sample of the file (the
// whole file if the sample has no rows) and returns the one with which the
// most rows of hookd's tables decode; 4096, hookd's, when none does better.
func bestPageSize(ctx context.Context, p *pager) int {
	sizes := []int{4096, 512, 1024, 2048, 8192, 16384, 32768, 65536}
	const block, window, windows = 65536, 4 * 65536, 16
	score := func(ps int, sample bool) int {
		p.setPageSize(ps, ps)
		sc := newScanner(p)
		rows := 0
		count := func(c *cell) {
			if tableOf(c) != tableNone {
				rows++
			}
		}
		if !sample {
			sc.scanAll(nil, func() bool { return ctx.Err() != nil }, count)
			return rows
		}
		// Windows at multiples of 64 KiB start on a page boundary
		// whatever the page size.
		nb := (p.size + block - 1) / block
		w := min(int64(windows), nb)
		for i := range w {
			off := i * nb / w * block
			for n := uint32(off/int64(ps)) + 1; int64(n-1)*int64(ps) < off+window && n <= p.npages; n++ {
				if ctx.Err() != nil {
					return rows
				}
				sc.scanPage(n, count)
			}
		}
		return rows
	}
	for _, sample := range []bool{true, false} {
		best, bestRows := 4096, 0
		for _, ps := range sizes {
			if r := score(ps, sample); r > bestRows {
				best, bestRows = ps, r
			}
		}
		if bestRows > 0 {
			return best
		}
	}
	return 4096
}
