package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
)

// Sent is a request as a provider sends it.
type Sent struct {
	Provider string
	Model    string
	// Method and URL of the HTTP request; for provider Command, Method is
	// "" and URL the command line.
	Method, URL string
	// Header holds the request's headers, the key masked.
	Header http.Header
	// Body is the request's body as sent (for Command, its stdin): the
	// tools and the schema are in it, as the provider sends them.
	Body []byte
	// Tools names the Request's tools, and Schema its schema ("" for
	// none), for the summary String gives; Ignored says the provider
	// does not send the tools (provider Command).
	Tools   []string
	Schema  string
	Ignored bool
}

// errDryRun is what the recording transport of DryRun answers.
var errDryRun = errors.New("dry run: not sent")

// recorder is a RoundTripper that records a request and refuses to send it.
type recorder struct {
	req  *http.Request
	body []byte
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.req = req
	if req.Body != nil {
		r.body, _ = io.ReadAll(req.Body)
		req.Body.Close()
	}
	return nil, errDryRun
}

// DryRun returns exactly what Stream would send for req with cfg (a
// resolved Config), without sending it.
func DryRun(ctx context.Context, cfg Config, req Request) (Sent, error) {
	cfg.Retries = -1
	rec := &recorder{}
	p, err := New(cfg, &http.Client{Transport: rec})
	if err != nil {
		return Sent{}, err
	}
	model := cmpOr(req.Model, p.Model())
	var tools []string
	for _, t := range req.Tools {
		tools = append(tools, t.Name)
	}
	schema := ""
	if req.Schema != nil {
		schema = req.Schema.name()
	}
	if c, ok := p.(*command); ok {
		return Sent{Provider: Command, Model: model, URL: c.cfg.Command, Body: []byte(c.prompt(req)),
			Tools: tools, Schema: schema, Ignored: len(tools) > 0}, nil
	}
	_, err = p.Stream(ctx, req, nil)
	if !errors.Is(err, errDryRun) || rec.req == nil {
		return Sent{}, fmt.Errorf("dry run %s: %w", p.Name(), err)
	}
	h := rec.req.Header.Clone()
	for _, k := range []string{"Authorization", "X-Api-Key"} {
		if v := h.Get(k); v != "" {
			scheme, key, ok := strings.Cut(v, " ")
			if ok && k == "Authorization" {
				h.Set(k, scheme+" "+mask(key))
			} else {
				h.Set(k, mask(v))
			}
		}
	}
	return Sent{Provider: p.Name(), Model: model, Method: rec.req.Method, URL: rec.req.URL.String(), Header: h, Body: rec.body,
		Tools: tools, Schema: schema}, nil
}

// mask hides a key but for its last 4 characters (if it is long enough
// for that to give nothing away).
func mask(key string) string {
	if len(key) < 16 {
		return "****"
	}
	return "****" + key[len(key)-4:]
}

// String shows s for a person: provider, model, the tools and the schema
// if any, the request line, the headers in order, and the body (JSON
// indented).
func (s Sent) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "provider: %s\n", s.Provider)
	if s.Model != "" { // a command provider has none: its command chooses
		fmt.Fprintf(&b, "model: %s\n", s.Model)
	}
	if len(s.Tools) > 0 {
		fmt.Fprintf(&b, "tools: %s", strings.Join(s.Tools, ", "))
		if s.Ignored {
			fmt.Fprintf(&b, " (not sent: provider %s has no tool calls)", s.Provider)
		}
		b.WriteString("\n")
	}
	if s.Schema != "" {
		fmt.Fprintf(&b, "schema: %s\n", s.Schema)
	}
	if s.Method == "" {
		fmt.Fprintf(&b, "command: sh -c %s\n\n", s.URL)
		b.Write(s.Body)
		return b.String()
	}
	fmt.Fprintf(&b, "%s %s\n", s.Method, s.URL)
	keys := make([]string, 0, len(s.Header))
	for k := range s.Header {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, v := range s.Header[k] {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	b.WriteString("\n")
	var ind bytes.Buffer
	if json.Indent(&ind, s.Body, "", "  ") == nil {
		b.Write(ind.Bytes())
		b.WriteString("\n")
	} else {
		b.Write(s.Body)
	}
	return b.String()
}
