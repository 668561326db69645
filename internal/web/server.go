// Package web is hookd serve: a local web page over the history, drawn
// from the same engines as the terminal views (internal/search for the
// search as you type, internal/fix/before for "it worked before").
//
// It is safe by default. It listens on the loopback address only; every
// request must carry the access token (in the URL it prints, or in the
// cookie the first visit sets) and name this server in its Host header
// (DNS rebinding) and, when it has one, in its Origin (cross-site
// requests); it only reads, except to forget a command, which takes a POST
// with a CSRF token; every page is drawn by html/template, which escapes
// what it prints, under a Content Security Policy that allows no inline
// script or style and nothing from anywhere but the server itself (its
// script and style sheet are embedded in the binary).
package web

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hookd/hookd/history"
	"github.com/hookd/hookd/internal/recording/recall"
	"github.com/hookd/hookd/internal/redact"
	"github.com/hookd/hookd/internal/search"
)

// Options are what a Server serves.
type Options struct {
	Store  *history.Store
	Reader *recall.Reader // reads outputs (the outbox too, and why one is missing)
	// Redactor redacts a note before it is stored (nil: the built-in
	// rules), as hookd note does with the configuration's rules.
	Redactor *redact.Redactor
	Engine   *search.Engine // the search, as Ctrl-R's
	// Home is shown as ~ in directories.
	Home string
	// Forgot is called after commands were forgotten from the page (to
	// remove the search's cache file, as hookd forget does).
	Forgot func()
	// Log receives the requests refused and the errors (nil: none).
	Log *slog.Logger
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Server is one hookd serve.
type Server struct {
	o     Options
	token string // the access token
	csrf  string // the token a POST's form carries
	addr  string // host:port as listened on, "127.0.0.1:PORT"
	port  int

	// engine holds one token: one search (or forget) at a time, as the
	// engine narrows the previous query. A request waiting for it gives up
	// when its context ends.
	engine chan struct{}
	// typing: per page (its p parameter), the cancel of the search in
	// flight, which the page's next key supersedes (see search).
	typingMu sync.Mutex
	typing   map[string]*typed

	cutMu sync.Mutex
	last  *cut // the last output cut into parts
}

// Listen binds the loopback address, on port (0: a free one chosen by the
// system), and returns the server with its listener. Only 127.0.0.1 is
// ever bound: another machine, or a container on the host's network,
// cannot reach it.
func Listen(o Options, port int) (*Server, net.Listener, error) {
	if port < 0 || port > 65535 {
		return nil, nil, fmt.Errorf("port %d: want 0 to 65535", port)
	}
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, nil, err
	}
	s, err := newServer(o, l.Addr().(*net.TCPAddr).Port)
	if err != nil {
		l.Close()
		return nil, nil, err
	}
	return s, l, nil
}

func newServer(o Options, port int) (*Server, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	token, err := randomToken()
	if err != nil {
		return nil, err
	}
	csrf, err := randomToken()
	if err != nil {
		return nil, err
	}
	return &Server{o: o, token: token, csrf: csrf, port: port, addr: "127.0.0.1:" + strconv.Itoa(port),
		engine: make(chan struct{}, 1), typing: map[string]*typed{}}, nil
}

func randomToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// URL is the address to open: the page with the access token.
func (s *Server) URL() string { return "http://" + s.addr + "/?token=" + s.token }

// Addr is host:port listened on.
func (s *Server) Addr() string { return s.addr }

// Serve answers requests on l until ctx ends.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			hs.Shutdown(sctx)
			cancel()
		case <-done:
		}
	}()
	err := hs.Serve(l)
	close(done)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// cookieName is the access cookie's name: one per port, since cookies do
// not tell ports apart (two servers at once keep their own).
func (s *Server) cookieName() string { return "hookd_" + strconv.Itoa(s.port) }

// Handler is the server's whole handler, its checks first.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.handleIndex)
	mux.HandleFunc("GET /c/{id}", s.handleCommand)
	mux.HandleFunc("GET /c/{id}/raw", s.handleRaw)
	mux.HandleFunc("POST /c/{id}/forget", s.handleForget)
	mux.HandleFunc("POST /c/{id}/note", s.handleNote)
	mux.HandleFunc("GET /stats", s.handleStats)
	mux.HandleFunc("GET /static/{name}", s.handleStatic)
	return s.guard(mux)
}

// The security headers of every answer.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set("Cache-Control", "no-store")
		if why := s.refuse(r); why != "" {
			s.o.Log.Warn("serve: request refused", "why", why, "method", r.Method, "path", r.URL.Path, "host", r.Host)
			http.Error(w, "refused: "+why, http.StatusForbidden)
			return
		}
		// The token of the URL becomes a cookie, and leaves the address
		// bar (and the browser's history) at once.
		if t := r.URL.Query().Get("token"); t != "" && r.Method == http.MethodGet {
			http.SetCookie(w, &http.Cookie{Name: s.cookieName(), Value: s.token, Path: "/", HttpOnly: true,
				SameSite: http.SameSiteStrictMode})
			q := r.URL.Query()
			q.Del("token")
			// This server's own path only ("//host/…" would leave it).
			to := "/" + strings.TrimLeft(r.URL.Path, "/")
			if len(q) > 0 {
				to += "?" + q.Encode()
			}
			http.Redirect(w, r, to, http.StatusSeeOther)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// refuse says why r is refused, "" when it is not.
func (s *Server) refuse(r *http.Request) string {
	if !s.ownHost(r.Host) {
		return "foreign Host"
	}
	// A form's POST from this server's own page carries "Origin: null"
	// under Referrer-Policy: no-referrer; the browser then says the
	// request is same-origin in Sec-Fetch-Site, which a page cannot forge
	// (an opaque origin's request is cross-site).
	if o := r.Header.Get("Origin"); o != "" && !s.ownOrigin(o) &&
		!(o == "null" && r.Header.Get("Sec-Fetch-Site") == "same-origin") {
		return "foreign Origin"
	}
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default: // cross-site, same-site (another port of this machine is another site's)
		return "cross-site request"
	}
	if !s.authorized(r) {
		return "no token: open the address hookd serve printed"
	}
	if r.Method == http.MethodPost {
		if !equal(r.PostFormValue("csrf"), s.csrf) {
			return "no CSRF token"
		}
	}
	return ""
}

func (s *Server) ownHost(host string) bool {
	return host == s.addr || host == "localhost:"+strconv.Itoa(s.port)
}

func (s *Server) ownOrigin(origin string) bool {
	o, ok := strings.CutPrefix(origin, "http://")
	return ok && s.ownHost(o)
}

func (s *Server) authorized(r *http.Request) bool {
	if t := r.URL.Query().Get("token"); t != "" {
		return equal(t, s.token)
	}
	c, err := r.Cookie(s.cookieName())
	return err == nil && equal(c.Value, s.token)
}

func equal(a, b string) bool {
	return a != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
