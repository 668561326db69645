package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// NewHTTPClient returns the client New uses when given none: it honours
// the proxy variables, and gives up connecting (TLS handshake included)
// after connect.
func NewHTTPClient(connect time.Duration) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: connect, KeepAlive: 30 * time.Second}).DialContext
	t.TLSHandshakeTimeout = connect
	return &http.Client{Transport: t}
}

// RedirectError is a redirect hookd did not follow: it would have sent a
// request's body (the question) to another host than the one configured.
type RedirectError struct {
	From, To *url.URL
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("%s redirected to %s, another host: not followed, the request was not sent there", e.From.Redacted(), e.To.Redacted())
}

// sameHost is a CheckRedirect that refuses to follow a redirect leaving
// the first request's scheme and host while the request carries a body
// (a 307 or 308 re-sends it; Go drops the Authorization header, not the
// body), and otherwise does what next (nil: Go's default) does.
func sameHost(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		first := via[0]
		body := req.GetBody != nil || req.ContentLength > 0 || req.Method != http.MethodGet && req.Method != http.MethodHead
		if body && (req.URL.Host != first.URL.Host || req.URL.Scheme != first.URL.Scheme) {
			return &RedirectError{From: first.URL, To: req.URL}
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
}

// errTimeout is the cause of a context whose Config.Timeout ran out.
var errTimeout = errors.New("llm timeout")

// api is what the HTTP providers share: the client, the settings, and
// sending with retries.
type api struct {
	name   string
	cfg    Config
	hc     *http.Client
	base   string                                      // the base URL, no trailing slash
	header func(h http.Header)                         // sets the provider's headers (the key among them)
	models func(ctx context.Context) ([]string, error) // for the hint of an unknown model
}

func (a *api) keyEnv() string {
	if a.cfg.APIKeyEnv != "" {
		return a.cfg.APIKeyEnv
	}
	switch a.name {
	case OpenAI:
		return "OPENAI_API_KEY"
	case Anthropic:
		return "ANTHROPIC_API_KEY"
	}
	return "HOOKD_LLM_API_KEY"
}

// withTimeout bounds ctx by Config.Timeout, with errTimeout as the cause.
func (a *api) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return withTimeout(ctx, a.cfg.timeout())
}

func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, d, errTimeout)
}

// ctxError describes why ctx is done: the Timeout, the caller's deadline,
// or a cancellation.
func ctxError(ctx context.Context, name string, timeout time.Duration) *Error {
	switch {
	case errors.Is(context.Cause(ctx), errTimeout):
		return &Error{Kind: Timeout, Msg: fmt.Sprintf("%s: no complete answer within %v", name, timeout),
			Hint: "raise llm.timeout in config.yaml, or ask a faster model", Err: context.DeadlineExceeded}
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &Error{Kind: Timeout, Msg: name + ": deadline exceeded", Err: ctx.Err()}
	}
	return &Error{Kind: Canceled, Msg: name + ": canceled", Err: ctx.Err()}
}

// send sends a request (body nil for none), trying again after a 429 or a 5xx
// (honouring Retry-After) up to Config.Retries times. It returns a
// response with a 2xx status, whose body the caller closes, or an *Error.
func (a *api) send(ctx context.Context, method, url string, body []byte) (*http.Response, error) {
	tries := a.cfg.retries() + 1
	for attempt := 1; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
		if err != nil {
			return nil, errorf(Other, err, "%s: %s %s: %v", a.name, method, url, err)
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		req.Header.Set("User-Agent", "hookd")
		a.header(req.Header)
		resp, err := a.hc.Do(req)
		if err != nil {
			return nil, a.transportError(ctx, url, err)
		}
		if resp.StatusCode/100 == 2 {
			return resp, nil
		}
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		retryable := resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode/100 == 5
		if !retryable || attempt >= tries {
			return nil, a.statusError(ctx, resp, data, attempt)
		}
		wait := backoff(a.cfg.retryWait(), attempt)
		if ra, ok := retryAfter(resp.Header, time.Now()); ok {
			wait = ra
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return nil, a.statusError(ctx, resp, data, attempt)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctxError(ctx, a.name, a.cfg.timeout())
		case <-t.C:
		}
	}
}

// backoff is the wait before try attempt+1: base doubled each time, capped,
// with equal jitter.
func backoff(base time.Duration, attempt int) time.Duration {
	d := base << (attempt - 1)
	if d > maxRetryWait || d <= 0 {
		d = maxRetryWait
	}
	return d/2 + rand.N(d/2+1)
}

// retryAfter reads the wait a server asks for: retry-after-ms (OpenAI's,
// Anthropic's), or Retry-After in seconds or as an HTTP date.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// transportError describes a request that got no response.
func (a *api) transportError(ctx context.Context, url string, err error) error {
	if errors.Is(err, errDryRun) {
		return err
	}
	if ctx.Err() != nil {
		return ctxError(ctx, a.name, a.cfg.timeout())
	}
	var re *RedirectError
	if errors.As(err, &re) {
		return &Error{Kind: Connect, Msg: a.name + ": " + re.Error(), Err: err,
			Hint: "if the provider moved, set llm.base_url in config.yaml (or HOOKD_LLM_BASE_URL) to the new address"}
	}
	hint := "is the server running there? Set llm.base_url in config.yaml or HOOKD_LLM_BASE_URL"
	if a.name == Ollama {
		hint = "is Ollama running there (ollama serve)? Set OLLAMA_HOST, llm.base_url in config.yaml or HOOKD_LLM_BASE_URL"
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return &Error{Kind: Connect, Msg: fmt.Sprintf("%s: no connection to %s within %v", a.name, url, a.cfg.connectTimeout()),
				Hint: hint, Err: err}
		}
		return &Error{Kind: Connect, Msg: fmt.Sprintf("%s: cannot connect to %s: %v", a.name, url, op.Err), Hint: hint, Err: err}
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return &Error{Kind: Connect, Msg: fmt.Sprintf("%s: cannot resolve %s: %v", a.name, dns.Name, dns.Err), Hint: hint, Err: err}
	}
	return &Error{Kind: Connect, Msg: fmt.Sprintf("%s: %s: %v", a.name, url, unwrapURLError(err)), Hint: hint, Err: err}
}

func unwrapURLError(err error) error {
	if u, ok := err.(interface{ Unwrap() error }); ok && u.Unwrap() != nil {
		return u.Unwrap()
	}
	return err
}

// statusError describes a response whose status is not 2xx.
func (a *api) statusError(ctx context.Context, resp *http.Response, body []byte, attempts int) error {
	msg := serverMessage(body)
	st := resp.StatusCode
	e := &Error{Status: st, Msg: fmt.Sprintf("%s: %s %s: %s", a.name, resp.Request.Method, resp.Request.URL, statusText(st, msg))}
	switch {
	case st == http.StatusUnauthorized || st == http.StatusForbidden:
		e.Kind = Auth
		if a.cfg.APIKey == "" {
			e.Hint = fmt.Sprintf("no API key was sent: set %s (or HOOKD_LLM_API_KEY)", a.keyEnv())
		} else {
			e.Hint = fmt.Sprintf("check the key in %s", a.keyEnv())
		}
	case st == http.StatusNotFound && strings.Contains(strings.ToLower(msg), "model"),
		st == http.StatusBadRequest && isModelMessage(msg):
		e.Kind = Model
		if resp.Request.Method != http.MethodGet { // not when listing the models
			e.Hint = a.modelsHint(ctx)
		}
	case st == http.StatusNotFound:
		e.Hint = "check the base URL (llm.base_url, HOOKD_LLM_BASE_URL)"
	case st == http.StatusTooManyRequests:
		e.Kind = RateLimit
		e.Msg += tries(attempts)
		e.Hint = "wait a moment and ask again"
		if ra, ok := retryAfter(resp.Header, time.Now()); ok {
			e.Hint = fmt.Sprintf("the server asks to wait %v", ra.Round(time.Second))
		}
	case st/100 == 5:
		e.Kind = Server
		e.Msg += tries(attempts)
		e.Hint = "the server is failing: try again later"
	}
	return e
}

func statusText(st int, msg string) string {
	s := strconv.Itoa(st) + " " + http.StatusText(st)
	if msg = strings.TrimSuffix(msg, "."); msg != "" && !strings.EqualFold(msg, http.StatusText(st)) {
		s += ": " + msg
	}
	return s
}

func tries(n int) string {
	if n < 2 {
		return ""
	}
	return fmt.Sprintf(" (%d tries)", n)
}

func isModelMessage(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "model") && (strings.Contains(m, "not found") || strings.Contains(m, "does not exist") ||
		strings.Contains(m, "unknown") || strings.Contains(m, "invalid model") || strings.Contains(m, "not a valid model"))
}

// modelsHint lists the server's models, for the error of an unknown one.
func (a *api) modelsHint(ctx context.Context) string {
	if a.models == nil || ctx.Err() != nil {
		return ""
	}
	ms, err := a.models(ctx)
	if err != nil || len(ms) == 0 {
		if a.name == Ollama {
			return "pull it with ollama pull, or set llm.model (HOOKD_LLM_MODEL)"
		}
		return "set llm.model (HOOKD_LLM_MODEL) to one the server offers"
	}
	const maxListed = 20
	more := ""
	if len(ms) > maxListed {
		more = fmt.Sprintf(", … (%d in all)", len(ms))
		ms = ms[:maxListed]
	}
	return "the server offers " + strings.Join(ms, ", ") + more + "; set llm.model (HOOKD_LLM_MODEL)"
}

// serverMessage finds the message in an error body: {"error": {"message":
// …}} (OpenAI, Anthropic), {"error": "…"} (Ollama), {"message": …}, or the
// text itself.
func serverMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &v) == nil {
		var s string
		if json.Unmarshal(v.Error, &s) == nil && s != "" {
			return s
		}
		var o struct {
			Message string `json:"message"`
			Type    string `json:"type"`
		}
		if json.Unmarshal(v.Error, &o) == nil && o.Message != "" {
			return o.Message
		}
		if v.Message != "" {
			return v.Message
		}
	}
	s := strings.TrimSpace(string(body))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// readError describes a failure to read the stream.
func (a *api) readError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctxError(ctx, a.name, a.cfg.timeout())
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &Error{Kind: Stream, Msg: a.name + ": the answer was cut short", Hint: "ask again", Err: err}
	}
	return &Error{Kind: Stream, Msg: fmt.Sprintf("%s: reading the answer: %v", a.name, err), Hint: "ask again", Err: err}
}

func (a *api) malformed(what string, err error) error {
	return &Error{Kind: Stream, Msg: fmt.Sprintf("%s: malformed %s: %v", a.name, what, err), Err: err}
}

// getJSON GETs url into v.
func (a *api) getJSON(ctx context.Context, url string, v any) error {
	resp, err := a.send(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		if ctx.Err() != nil {
			return ctxError(ctx, a.name, a.cfg.timeout())
		}
		return a.malformed("model list", err)
	}
	return nil
}

// listModels reads a model list in the shape OpenAI and Anthropic share:
// {"data": [{"id": …}, …]}.
func (a *api) listModels(ctx context.Context, url string) ([]string, error) {
	ctx, cancel := a.withTimeout(ctx)
	defer cancel()
	var v struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := a.getJSON(ctx, url, &v); err != nil {
		return nil, err
	}
	var ms []string
	for _, m := range v.Data {
		ms = append(ms, m.ID)
	}
	return ms, nil
}
