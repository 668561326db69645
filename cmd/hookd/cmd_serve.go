package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/hookd/hookd/internal/paths"
	"github.com/hookd/hookd/internal/search"
	"github.com/hookd/hookd/internal/web"
)

// servePublished is where hookd serve publishes its address (web.Publish).
func servePublished(e *env) string { return filepath.Join(e.paths.Runtime, "serve") }

// permalink is the address of en's page on a running hookd serve, or "".
// Only for a terminal: a pipe gets what it always got.
func permalink(e *env, id int64) string {
	if !e.stdoutTTY {
		return ""
	}
	base := web.Published(servePublished(e))
	if base == "" {
		return ""
	}
	return base + "/c/" + strconv.FormatInt(id, 10)
}

// cmdServe serves the local web page (package web) until interrupted.
func cmdServe(fs *pflag.FlagSet) runFunc {
	port := fs.Int("port", 0, "listen on `PORT` of 127.0.0.1 (default: a free one)")
	open := fs.Bool("open", false, "open the page in a browser (xdg-open)")
	return func(ctx context.Context, e *env, args []string) error {
		if len(args) > 0 {
			return usagef("no arguments expected")
		}
		s, err := e.openFlushed(ctx)
		if err != nil {
			return err
		}
		defer s.Close()
		eng := search.New(s, searchHere(e), e.paths.SearchCache)
		log, closer, err := e.logger()
		if err == nil {
			defer closer.Close()
		}
		srv, l, err := web.Listen(web.Options{Store: s, Reader: e.reader(s), Engine: eng, Home: e.home, Log: log, Redactor: e.rules().Redactor,
			Forgot: func() { search.RemoveCache(e.paths.SearchCache) }}, *port)
		if err != nil {
			return err
		}
		// hookd show and out point at the command's page while this runs
		// (the address only: web.Publish says why not the token).
		if paths.Private(e.paths.Runtime) == nil {
			if unpublish, err := web.Publish(servePublished(e), srv); err == nil {
				defer unpublish()
			}
		}
		fmt.Fprintln(e.stdout, srv.URL())
		fmt.Fprintln(e.stderr, "hookd: serving the history on 127.0.0.1 only; Ctrl-C stops it")
		if *open {
			if c := exec.Command("xdg-open", srv.URL()); c.Start() == nil {
				go c.Wait()
			} else {
				fmt.Fprintln(e.stderr, "hookd: --open: no xdg-open here: open the address above")
			}
		}
		// The search's corpus is read now, not on the first key.
		go func() {
			if eng.Load(ctx) == nil {
				saveSearchCache(e, eng)
			}
		}()
		return srv.Serve(ctx, l)
	}
}
