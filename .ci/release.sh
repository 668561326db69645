#!/usr/bin/env bash
# The release part of CI (.ci/run calls it): make release, then every way
# of installing hookd without Go, checked on this machine as a user would:
#   - the binaries are static, arm64 runs under qemu-user where it exists;
#   - the .deb installs (dpkg -i), the installed hookd records a command in
#     a real bash and zsh, and removing it (dpkg -r) leaves the history;
#   - scripts/install.sh against a local HTTP server on 127.0.0.1: a good
#     checksum installs, a bad one refuses and leaves nothing behind.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

start=$SECONDS
make release
echo "make release: $((SECONDS - start)) s"
ls -l dist/*.tar.gz dist/*.deb dist/*.rpm

for arch in amd64 arm64; do
  f=$(file -b dist/hookd_linux_$arch/hookd)
  echo "$arch: $f"
  [[ $f == *"statically linked"* ]] || { echo "hookd for $arch is not static" >&2; exit 1; }
done
[[ $(file -b dist/hookd_linux_arm64/hookd) == *aarch64* ]]
dist/hookd_linux_amd64/hookd version --json | grep -q '"fts5":true'
if command -v qemu-aarch64 >/dev/null 2>&1; then
  out=$(qemu-aarch64 dist/hookd_linux_arm64/hookd version --json)
  echo "arm64 under qemu: $out"
  [[ $out == *'"arch":"arm64"'* ]]
else
  echo "qemu-aarch64 missing: the arm64 binary is checked with file only"
fi

# The .deb, installed for real, then removed.
deb=$(ls dist/hookd_*_amd64.deb)
dpkg -i "$deb"
test -x /usr/bin/hookd
test -f /usr/share/man/man1/hookd.1.gz
test -f /usr/share/bash-completion/completions/hookd
test -f /usr/share/zsh/vendor-completions/_hookd
test -f /usr/share/fish/vendor_completions.d/hookd.fish
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
HOOKD_TEST_INSTALLED=/usr/bin/hookd go test -tags sqlite_fts5 -count=1 -run 'TestCaptureFixUsesOutput' ./cmd/hookd # a command captured with its output, a fix offered, in real bash and zsh
# A history of this user's, made by the installed binary, survives removal.
printf 'echo kept\n' >"$home/hist"
env -i HOME="$home" PATH=/usr/bin:/bin XDG_DATA_HOME="$home/data" /usr/bin/hookd import bash --file "$home/hist"
env -i HOME="$home" PATH=/usr/bin:/bin XDG_DATA_HOME="$home/data" /usr/bin/hookd status
dpkg -r hookd
if test -e /usr/bin/hookd; then echo "dpkg -r left /usr/bin/hookd" >&2; exit 1; fi
kept=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from commands where command = ?", ("echo kept",)).fetchone()[0])' "$home/data/hookd/history.db")
[[ $kept == 1 ]] || { echo "dpkg -r lost the history ($kept)" >&2; exit 1; }

# scripts/install.sh against a local server.
srv=$(mktemp -d)
cp dist/SHA256SUMS dist/*.tar.gz "$srv/"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory "$srv" "$port" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$home" "$srv"' EXIT
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/SHA256SUMS" >/dev/null && break; sleep 0.1; done
HOME="$home" sh scripts/install.sh --url "http://127.0.0.1:$port" | tee "$home/out"
"$home/.local/bin/hookd" version | grep -q '^hookd '
grep -qF 'init bash)"' "$home/out"
touch "$home/.bashrc"
HOME="$home" sh scripts/install.sh --url "http://127.0.0.1:$port" --rc >/dev/null
HOME="$home" sh scripts/install.sh --url "http://127.0.0.1:$port" --rc >/dev/null
[[ $(grep -c 'init bash)"' "$home/.bashrc") == 1 ]] || { echo "--rc is not idempotent" >&2; exit 1; }
# A tampered archive: refused, nothing installed, nothing left in TMPDIR.
bad=$(mktemp -d)
sed -i -E "s/^[0-9a-f]{64}(  .*_linux_amd64[.]tar[.]gz)\$/$(printf '0%.0s' $(seq 64))\1/" "$srv/SHA256SUMS"
grep -q '^0\{64\}  .*amd64' "$srv/SHA256SUMS"
if HOME="$bad" TMPDIR="$bad" sh scripts/install.sh --url "http://127.0.0.1:$port" 2>"$bad.err"; then
  echo "install.sh installed an archive whose checksum does not match" >&2
  exit 1
fi
grep -q 'checksum mismatch' "$bad.err"
[[ -z $(ls -A "$bad") ]] || { echo "install.sh left files behind:" >&2; ls -laR "$bad" >&2; exit 1; }
rm -rf "$bad" "$bad.err"
echo "release checks: $((SECONDS - start)) s"
