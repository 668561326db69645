package history

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Run is one recorded command, with only what a search filters and ranks
// on (package search keeps a million of them in memory).
type Run struct {
	ID        int64
	Command   string
	ExitCode  int
	StartedAt int64 // µs
	Cwd       string
	Session   string
}

// Runs calls fn for every command whose id is above after, in id order.
func (s *Store) Runs(ctx context.Context, after int64, fn func(Run) error) error {
	rows, err := s.db.QueryContext(ctx, `SELECT id, command, exit_code, started_at, cwd, session FROM commands
		WHERE id > ? ORDER BY id`, after)
	if err != nil {
		return fmt.Errorf("read commands: %w", classify(err))
	}
	defer rows.Close()
	var r Run
	for rows.Next() {
		if err := rows.Scan(&r.ID, &r.Command, &r.ExitCode, &r.StartedAt, &r.Cwd, &r.Session); err != nil {
			return fmt.Errorf("read commands: %w", classify(err))
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read commands: %w", classify(err))
	}
	return nil
}

// SessionAuthors returns the sessions of coding agents (sessions.author
// not empty: hookd agent-hook, hookd record), with their author, by
// session id. The user's own sessions are not listed.
func (s *Store) SessionAuthors(ctx context.Context) (map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, author FROM sessions WHERE author <> ''`)
	if err != nil {
		return nil, fmt.Errorf("read sessions: %w", classify(err))
	}
	defer rows.Close()
	m := map[string]string{}
	for rows.Next() {
		var id, author string
		if err := rows.Scan(&id, &author); err != nil {
			return nil, fmt.Errorf("read sessions: %w", classify(err))
		}
		m[id] = author
	}
	return m, rows.Err()
}

// Generation identifies the state of the history for a cache of it: the
// highest command id, and a value that changes whenever commands are
// deleted (forget) or the database is replaced by a recovered one. A cache
// made at the same generation holds the commands up to MaxID exactly.
type Generation struct {
	MaxID  int64
	Forget string // changes with every forget
	Tag    string // the command text of MaxID (another database's rows differ)
}

// Generation returns the history's current generation.
func (s *Store) Generation(ctx context.Context) (Generation, error) {
	var g Generation
	err := s.db.QueryRowContext(ctx, `SELECT COALESCE(max(id), 0),
		COALESCE((SELECT value FROM meta WHERE key = 'forget_gen'), ''),
		COALESCE((SELECT command FROM commands ORDER BY id DESC LIMIT 1), '') FROM commands`).Scan(&g.MaxID, &g.Forget, &g.Tag)
	if err != nil {
		return g, fmt.Errorf("history generation: %w", classify(err))
	}
	return g, nil
}

// Tag returns the text of the command id, or "" (see Generation).
func (s *Store) Tag(ctx context.Context, id int64) string {
	var t string
	s.db.QueryRowContext(ctx, `SELECT command FROM commands WHERE id = ?`, id).Scan(&t)
	return t
}

// OutputSearch selects commands by their output.
type OutputSearch struct {
	// Words must all occur in the output (ASCII case ignored). With the
	// output index, a word matches at the start of a word of the output
	// (see OutputQuery); without it, anywhere.
	Words    []string
	Failed   bool
	Session  string
	Cwd      string // started in this directory
	CwdUnder string // started in this directory or below it
	Since    int64  // µs
	// Authors, when not nil, keeps only the commands of these authors
	// ("" for the user's own shells), as Query.Authors.
	Authors []string
	// ThisHost keeps only the commands recorded by this installation (not
	// synced from another), as Query.ThisHost.
	ThisHost bool
	Limit    int
}

// HasOutputIndex reports whether outputs are searched through the full-text
// index (builds with -tags sqlite_fts5, once it holds every output: see
// FillOutputIndex).
func (s *Store) HasOutputIndex() bool { return s.ofts }

// SearchOutputs returns the commands whose output holds every word, newest
// first. Through the output index, the words are looked up whole first,
// and as prefixes only when that found fewer than the limit: a common
// word's prefix query merges the lists of every word it starts, which
// takes long, while its whole-word list is read newest first and stops at
// the limit.
func (s *Store) SearchOutputs(ctx context.Context, q OutputSearch) ([]Entry, error) {
	res, _, err := s.searchWholeThenPrefix(ctx, q, OutputQuery(q.Words), 0)
	return res, err
}

// SearchOutputsTyped is SearchOutputs for a query typed key by key (the
// web page's search as you type): the words before the last are whole, the
// last one may be the start of a word, and looking it up as a prefix gets
// within (a prefix of two or three letters can start thousands of words,
// whose lists FTS5 merges before it returns a row: 0.6 s at 1M commands).
// When that runs out, the results are those of the whole words, and cut
// says more may match: the next key, or the same query asked without a
// limit, finds them.
func (s *Store) SearchOutputsTyped(ctx context.Context, q OutputSearch, within time.Duration) (res []Entry, cut bool, err error) {
	n := len(q.Words)
	prefix := outputQuery(q.Words[:max(n-1, 0)], false)
	if last := outputQuery(q.Words[max(n-1, 0):], true); last != "" {
		prefix = strings.TrimPrefix(prefix+" AND "+last, " AND ")
	}
	return s.searchWholeThenPrefix(ctx, q, prefix, within)
}

// searchWholeThenPrefix looks the words up whole through the output index,
// then with the FTS5 query prefix when that found fewer than the limit,
// within that long (0: no limit; cut when it ran out), the two merged.
// Without the index it reads the outputs.
func (s *Store) searchWholeThenPrefix(ctx context.Context, q OutputSearch, prefix string, within time.Duration) ([]Entry, bool, error) {
	if !s.ofts || OutputQuery(q.Words) == "" {
		res, err := s.searchOutputs(ctx, q, "")
		return res, false, err
	}
	exact := outputQuery(q.Words, false)
	res, err := s.searchOutputs(ctx, q, exact)
	if err != nil || prefix == exact || (q.Limit > 0 && len(res) >= q.Limit) {
		return res, false, err
	}
	pctx := ctx
	if within > 0 {
		var cancel context.CancelFunc
		pctx, cancel = context.WithTimeout(ctx, within)
		defer cancel()
	}
	more, err := s.searchOutputs(pctx, q, prefix)
	if err != nil {
		if ctx.Err() == nil && pctx.Err() != nil {
			return res, true, nil
		}
		return nil, false, err
	}
	return mergeNewest(res, more, q.Limit), false, nil
}

// mergeNewest merges two lists of entries, each newest first, each entry
// once, up to limit (0: all).
func mergeNewest(res, more []Entry, limit int) []Entry {
	out := make([]Entry, 0, len(res)+len(more))
	i, j := 0, 0
	for (i < len(res) || j < len(more)) && (limit <= 0 || len(out) < limit) {
		switch {
		case j == len(more) || (i < len(res) && res[i].ID > more[j].ID):
			out = append(out, res[i])
			i++
		case i == len(res) || more[j].ID > res[i].ID:
			out = append(out, more[j])
			j++
		default: // the same
			out = append(out, res[i])
			i++
			j++
		}
	}
	return out
}

// searchOutputs runs one search: through the output index with the FTS5
// query fq, or reading the outputs when fq is "".
func (s *Store) searchOutputs(ctx context.Context, q OutputSearch, fq string) ([]Entry, error) {
	var w where
	from := entryFrom
	order := " ORDER BY c.id DESC"
	if fq != "" {
		// The index hands its rows over newest first (rowid is the
		// command's id), so that the search stops at the limit.
		from = ` FROM outputs_fts f JOIN commands c ON c.id = f.rowid LEFT JOIN sessions s ON s.id = c.session
	LEFT JOIN outputs o ON o.session = c.session AND o.seq = c.seq AND o.stream = ''`
		w.add(`outputs_fts MATCH ?`, fq)
		order = " ORDER BY f.rowid DESC"
	}
	// The index finds candidates; the text decides (a word with no letter
	// or digit, or a prefix match the words do not make).
	for _, word := range q.Words {
		w.add(`o.text LIKE ? ESCAPE '\'`, "%"+likeEscape(word)+"%")
	}
	if len(q.Words) == 0 {
		w.add("length(o.text) > 0")
	}
	if !w.common(filter{q.Failed, q.Session, q.Cwd, q.CwdUnder, q.Since, q.Authors, q.ThisHost}) {
		return nil, nil
	}
	query := "SELECT " + entryColumns + from + " WHERE " + strings.Join(w.clauses, " AND ") + order
	if q.Limit > 0 {
		query += fmt.Sprintf(" LIMIT %d", q.Limit)
	}
	return s.entries(ctx, "search outputs", query, w.args...)
}

// Entries returns the entries with the given ids (those that exist).
func (s *Store) Entries(ctx context.Context, ids []int64) (map[int64]Entry, error) {
	m := make(map[int64]Entry, len(ids))
	if len(ids) == 0 {
		return m, nil
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, id)
	}
	b.WriteByte(']')
	rows, err := s.db.QueryContext(ctx, "SELECT "+entryColumns+entryFrom+" WHERE c.id IN (SELECT value FROM json_each(?))", b.String())
	if err != nil {
		return nil, fmt.Errorf("get commands: %w", classify(err))
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return nil, fmt.Errorf("get commands: %w", classify(err))
		}
		m[e.ID] = e
	}
	return m, rows.Err()
}
