// hookd serve: the page's only script, embedded in the binary. It adds to
// pages that work without it: the search runs as you type, and a long
// output loads its next parts as you scroll.
"use strict";

(function () {
  function searchAsYouType() {
    var form = document.getElementById("search");
    if (!form) return;
    var pending = null, timer = null, settle = null, seq = 0;
    // This page's name for the server: its next key's search cancels the
    // one in flight there (an aborted request alone reaches it late).
    var page = Array.from(crypto.getRandomValues(new Uint8Array(8)), function (b) { return b.toString(16); }).join("");
    // Each key asks for the command lines first (from memory: at once),
    // then, when the query is long enough for Ctrl-R to search outputs,
    // for both (the outputs' index); a later key aborts both.
    function show(params, mine) {
      return fetch("/?" + params.toString(), { signal: pending.signal, credentials: "same-origin" })
        .then(function (r) { return r.text(); })
        .then(function (html) {
          if (mine !== seq) return;
          // The server escaped everything in it; the policy runs no script.
          var doc = new DOMParser().parseFromString(html, "text/html");
          var fresh = doc.getElementById("results");
          var old = document.getElementById("results");
          if (fresh && old) old.replaceWith(document.adoptNode(fresh));
          // The outputs' search was cut short to answer the key at
          // once: once typing pauses, ask for every match.
          if (fresh && fresh.dataset.partial && !params.get("all")) {
            clearTimeout(settle);
            settle = setTimeout(function () {
              if (mine !== seq) return;
              var all = new URLSearchParams(params);
              all.set("all", "1");
              show(all, mine).catch(function () {});
            }, 250);
          }
        });
    }
    function run() {
      var params = new URLSearchParams(new FormData(form));
      history.replaceState(null, "", "/?" + params.toString());
      params.set("frag", "1");
      params.set("p", page);
      if (pending) pending.abort();
      pending = new AbortController();
      var mine = ++seq;
      var where = params.get("in") || "both";
      var q = (params.get("q") || "").trim();
      var outputs = where !== "command" && q.length >= 2 && params.get("mode") !== "prefix";
      var first = Promise.resolve();
      if (where !== "output") {
        var cmds = new URLSearchParams(params);
        cmds.set("in", "command");
        first = show(cmds, mine);
      }
      if (outputs) {
        first.then(function () { if (mine === seq) return show(params, mine); }).catch(function () {});
      } else {
        first.catch(function () {});
      }
    }
    form.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(run, 30);
    });
    form.addEventListener("submit", function (ev) { ev.preventDefault(); run(); });
  }

  function loadOutputParts() {
    var art = document.getElementById("command");
    var out = document.getElementById("output");
    var more = document.getElementById("more");
    if (!art || !out || !more) return;
    var total = parseInt(art.dataset.parts, 10), next = 1, busy = false;
    function load() {
      if (busy || next >= total) return;
      busy = true;
      fetch("/c/" + art.dataset.id + "?part=" + next, { credentials: "same-origin" })
        .then(function (r) { return r.text(); })
        .then(function (html) {
          var doc = new DOMParser().parseFromString("<pre>" + html + "</pre>", "text/html");
          var pre = doc.body.firstChild;
          while (pre.firstChild) out.appendChild(document.adoptNode(pre.firstChild));
          next++;
          busy = false;
          if (next >= total) { more.remove(); obs.disconnect(); }
          else if (visible()) load();
        })
        .catch(function () { busy = false; });
    }
    function visible() {
      var r = more.getBoundingClientRect();
      return r.top < window.innerHeight * 2;
    }
    var obs = new IntersectionObserver(function (es) {
      if (es.some(function (e) { return e.isIntersecting; })) load();
    }, { rootMargin: "200% 0px" });
    obs.observe(more);
  }

  function confirmForget() {
    document.querySelectorAll("form.forget").forEach(function (f) {
      f.addEventListener("submit", function (ev) {
        if (!window.confirm("Forget this command and its output for good?")) ev.preventDefault();
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    searchAsYouType();
    loadOutputParts();
    confirmForget();
  });
})();
