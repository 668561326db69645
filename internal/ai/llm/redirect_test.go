package llm

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestRedirectToAnotherHost (issue 20, item 9): a 307 from the provider's
// URL to another host does not re-send the question there; the error says
// where it pointed. A redirect on the same host is still followed.
func TestRedirectToAnotherHost(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		http.Error(w, "gotcha", http.StatusTeapot)
	}))
	defer other.Close()
	for _, code := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+r.URL.Path, code)
		}))
		p, err := New(Config{Provider: OpenAI, BaseURL: provider.URL, APIKey: "k", Model: "m", Retries: -1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Stream(context.Background(), Request{Messages: []Message{{Role: "user", Content: "the secret question"}}}, func(Event) error { return nil })
		var re *RedirectError
		if err == nil || !errors.As(err, &re) || !strings.Contains(err.Error(), "redirected to "+other.URL) || !strings.Contains(err.Error(), "not followed") {
			t.Errorf("%d: err = %v", code, err)
		}
		provider.Close()
	}
	if n := elsewhere.Load(); n != 0 {
		t.Fatalf("the other host got %d requests", n)
	}
	// The same host: followed.
	var mux http.ServeMux
	srv := httptest.NewServer(&mux)
	defer srv.Close()
	mux.HandleFunc("/old/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/v1/chat/completions", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n"))
	})
	p, _ := New(Config{Provider: OpenAI, BaseURL: srv.URL + "/old", APIKey: "k", Model: "m", Retries: -1}, nil)
	res, err := p.Stream(context.Background(), Request{Messages: []Message{{Role: "user", Content: "q"}}}, func(Event) error { return nil })
	if err != nil || res.Text != "hi" {
		t.Errorf("same-host redirect: %q %v", res.Text, err)
	}
}
