#!/bin/sh
# make.sh: makes the upgrade test's fixtures (schemaN-COMMIT.db) again.
#
# For each commit of main where history/schema.go's migrations list grew
# (git log --first-parent main -- history/schema.go: the merge or commit
# that brought each schema version to main), it checks
# the commit out in a throwaway worktree, builds that commit's hookd and
# mkfixture.go.txt (copied in as internal/mkfixture), imports a small bash
# history with that hookd (`hookd import bash`), then runs mkfixture,
# which opens the database with that commit's history package and adds a
# row to every table the schema has (sessions, commands, outputs, asks,
# learned fixes, sync state, contexts: see mkfixture.go.txt). The
# database, checkpointed into one file, is copied here.
#
# Run from anywhere in the repository: sh history/testdata/upgrade/make.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(git -C "$here" rev-parse --show-toplevel)
work=$(mktemp -d)
cleanup() {
	for d in "$work"/src*; do
		[ -d "$d" ] && git -C "$repo" worktree remove --force "$d"
	done
	rm -rf "$work"
}
trap cleanup EXIT

# version commit
while read -r v commit; do
	src=$work/src-$commit
	git -C "$repo" worktree add --detach "$src" "$commit" >/dev/null 2>&1
	mkdir -p "$src/internal/mkfixture"
	cp "$here/mkfixture.go.txt" "$src/internal/mkfixture/main.go"
	(cd "$src" && go build -tags sqlite_fts5 -o "$work/hookd-$commit" ./cmd/hookd &&
		go build -tags sqlite_fts5 -o "$work/mkfixture-$commit" ./internal/mkfixture)
	home=$work/home-$commit
	mkdir -p "$home/run"
	chmod 700 "$home/run"
	printf '#1763990000\nls -la\n#1763990060\ngit status\n#1763990120\ncd /tmp\n' >"$home/.bash_history"
	env -i PATH="$PATH" HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" \
		XDG_STATE_HOME="$home/state" XDG_CACHE_HOME="$home/cache" XDG_RUNTIME_DIR="$home/run" SHELL=/bin/bash \
		"$work/hookd-$commit" import bash >/dev/null
	db=$home/data/hookd/history.db
	"$work/mkfixture-$commit" "$db"
	got=$(sqlite3 "$db" 'PRAGMA user_version' 2>/dev/null || echo "$v")
	[ "$got" = "$v" ] || { echo "make.sh: $commit wrote schema $got, want $v" >&2; exit 1; }
	cp "$db" "$here/schema$v-$(echo "$commit" | cut -c1-7).db"
	chmod 0644 "$here/schema$v-$(echo "$commit" | cut -c1-7).db"
done <<'LIST'
1 fe6411c475a3f04947a54774fea5d5f7059d26ad
2 e1e9390a7282b920a08ee1684345f7934b6b0d19
3 a91ee0b694cd7a621e5493fb64cc6dc674dd1451
4 da7eaed6547d0de686627ff07a4d734a2de37f22
5 f14c2a06dab318ff94b910a78b32a905c6dd37ee
6 a9fb341e51dc0df4efcc43b5d597f9223e0c7363
7 f786542b098af6980979a2db10e2ba7ee6a36987
LIST
