package before

import "time"

// comparisonJSON is the shape of a comparison in JSON (worked_before, in
// hookd suggest --json and hookd diff --json).
type comparisonJSON struct {
	ID          int64            `json:"id"`
	When        string           `json:"when"`
	Command     string           `json:"command"`
	Cwd         string           `json:"cwd"`
	Exact       bool             `json:"exact"`
	Line        string           `json:"line,omitempty"`
	Differences []differenceJSON `json:"differences"`
}

type differenceJSON struct {
	Kind     string  `json:"kind"`
	Name     string  `json:"name,omitempty"`
	Then     string  `json:"then"`
	Now      string  `json:"now"`
	Redacted bool    `json:"redacted,omitempty"`
	Weight   float64 `json:"weight"`
	Text     string  `json:"text"`
}

// JSON is the JSON shape of the comparison c (nil for none).
func JSON(c *Comparison) any {
	if c == nil {
		return nil
	}
	out := comparisonJSON{ID: c.Then.ID, When: c.Then.Started.UTC().Format(time.RFC3339), Command: c.Then.Command,
		Cwd: c.Then.Cwd, Exact: c.Exact, Line: c.Line, Differences: []differenceJSON{}}
	for _, d := range c.Differences {
		out.Differences = append(out.Differences, differenceJSON{Kind: d.Kind, Name: d.Name, Then: d.Then, Now: d.Now,
			Redacted: d.Redacted, Weight: d.Weight, Text: d.Text})
	}
	return out
}
