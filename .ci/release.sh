#!/usr/bin/env bash
# The release part of CI (.ci/run calls it): make release, then every way
# of installing hookd without Go, checked on this machine as a user would:
#   - the binaries are static, arm64 runs under qemu-user where it exists;
#   - the .deb installs (dpkg -i), the installed hookd records a command in
#     a real bash and zsh, and removing it (dpkg -r) leaves the history;
#   - the .rpm installs with rpm's own tools into a scratch root (this is a
#     Debian machine: no rpm-based userland), puts the .deb's files where the
#     .deb does, its binary runs there alone, and rpm -e leaves the history;
#   - scripts/install.sh against a local HTTP server on 127.0.0.1: a good
#     checksum installs, a bad one refuses and leaves nothing behind;
#   - the licence: carried when LICENSE exists (a copy of the tree with one,
#     built again elsewhere under another host name, which also shows the
#     build reproducible), a warning line while it does not.
#
# Under pipefail a pipeline into `grep -q` fails where grep, done at its
# first match, ends the command before it has written the rest (SIGPIPE,
# 141): the checks read to the end (`grep … >/dev/null`).
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
dist/hookd_linux_amd64/hookd version --json | grep '"fts5":true' >/dev/null
if command -v qemu-aarch64 >/dev/null 2>&1; then
  out=$(qemu-aarch64 dist/hookd_linux_arm64/hookd version --json)
  echo "arm64 under qemu: $out"
  [[ $out == *'"arch":"arm64"'* ]]
else
  echo "qemu-aarch64 missing: the arm64 binary is checked with file only"
fi

t=$SECONDS
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
HOOKD_TEST_INSTALLED=/usr/bin/hookd go test -tags sqlite_fts5 -count=1 -run 'TestInstalledSmoke' ./cmd/hookd # a command captured with its output, a fix offered, hookd status clean, in real bash and zsh
# A history of this user's, made by the installed binary, survives removal.
printf 'echo kept\n' >"$home/hist"
env -i HOME="$home" PATH=/usr/bin:/bin XDG_DATA_HOME="$home/data" /usr/bin/hookd import bash --file "$home/hist"
env -i HOME="$home" PATH=/usr/bin:/bin XDG_DATA_HOME="$home/data" /usr/bin/hookd status
dpkg -r hookd
if test -e /usr/bin/hookd; then echo "dpkg -r left /usr/bin/hookd" >&2; exit 1; fi
kept=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from commands where command = ?", ("echo kept",)).fetchone()[0])' "$home/data/hookd/history.db")
[[ $kept == 1 ]] || { echo "dpkg -r lost the history ($kept)" >&2; exit 1; }

echo ".deb checks: $((SECONDS - t)) s"
t=$SECONDS
# The .rpm, installed with rpm (Debian's package) into a scratch root: its
# own database there, nothing of the host's touched, no dependency to
# resolve (the binary is static; --nodeps because the root has no
# userland). Debian's rpm warns on every install that it is not its
# package manager: that line is dropped.
rpmroot() { local root=$1; shift; rpm --root "$root" --dbpath /var/lib/rpm "$@" 2> >(grep -v 'use Alien\|assuming you know' >&2); }
# The files of a .deb and of a .rpm, one path a line (no directories).
debfiles() { dpkg-deb -c "$1" | awk '$1 !~ /^d/ {print substr($6, 2)}' | sort; }
rpmfiles() { rpm -qlp "$1" 2>/dev/null | sort; }
for arch in amd64 arm64; do
  rpmarch=$([[ $arch == amd64 ]] && echo x86_64 || echo aarch64)
  r=$(ls dist/hookd-*."$rpmarch".rpm) d=$(ls dist/hookd_*_"$arch".deb)
  meta=$(rpm -qp --queryformat '%{NAME}|%{VERSION}|%{RELEASE}|%{ARCH}' "$r" 2>/dev/null)
  want="hookd|$(dpkg-deb -f "$d" Version)|1|$rpmarch"
  [[ $meta == "$want" ]] || { echo "$r: name|version|release|arch is $meta, want $want (the .deb's)" >&2; exit 1; }
  # The same files as the .deb, the licence apart (Debian's copyright,
  # rpm's %license file: the last part of this script).
  diff <(debfiles "$d" | grep -v '^/usr/share/doc/hookd/copyright$') \
    <(rpmfiles "$r" | grep -v '^/usr/share/licenses/hookd/')
  rpm -qip "$r" 2>/dev/null | grep -E '^(Name|Version|Architecture|License) *:'
done
rpmfiles "$(ls dist/hookd-*.x86_64.rpm)" | grep -x /usr/share/man/man1/hookd.1.gz >/dev/null
root=$(mktemp -d)
trap 'rm -rf "$home" "$root"' EXIT
rpmroot "$root" --initdb
rpmroot "$root" -i --nodeps dist/hookd-*.x86_64.rpm
[[ $(rpmroot "$root" -qa) == hookd-* ]]
rpmroot "$root" -V hookd # sizes, modes, digests as the package says
for f in /usr/bin/hookd /usr/share/man/man1/hookd.1.gz /usr/share/bash-completion/completions/hookd \
  /usr/share/zsh/vendor-completions/_hookd /usr/share/fish/vendor_completions.d/hookd.fish; do
  test -f "$root$f" || { echo "rpm -i did not install $f" >&2; exit 1; }
done
test -x "$root/usr/bin/hookd"
cmp "$root/usr/bin/hookd" dist/hookd_linux_amd64/hookd
# The installed binary run inside the root, which holds nothing else (no
# libc, no shell, no /proc, no /dev): a history of a user's, made there.
inroot() { env -i HOME=/home/u PATH=/usr/bin /usr/sbin/chroot "$root" /usr/bin/hookd "$@"; }
mkdir -p "$root/home" && mkdir -m 0700 "$root/home/u"
printf 'echo kept by rpm -e\n' >"$root/home/u/hist"
inroot version --json | grep '"fts5":true' >/dev/null
inroot import bash --file /home/u/hist
inroot status >/dev/null
rpmroot "$root" -e hookd
left=$(cd "$root" && find . ! -type d ! -path './var/lib/rpm/*' ! -path './home/*' | sort)
[[ -z $left ]] || { echo "rpm -e left: $left" >&2; exit 1; }
kept=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from commands where command = ?", ("echo kept by rpm -e",)).fetchone()[0])' "$root/home/u/.local/share/hookd/history.db")
[[ $kept == 1 ]] || { echo "rpm -e lost the history ($kept)" >&2; exit 1; }
rm -rf "$root"
echo ".rpm checks: $((SECONDS - t)) s"
t=$SECONDS

# scripts/install.sh against a local server.
srv=$(mktemp -d)
cp dist/SHA256SUMS dist/*.tar.gz "$srv/"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory "$srv" "$port" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$home" "$srv"' EXIT
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/SHA256SUMS" >/dev/null && break; sleep 0.1; done
HOME="$home" sh scripts/install.sh --url "http://127.0.0.1:$port" | tee "$home/out"
"$home/.local/bin/hookd" version | grep '^hookd ' >/dev/null
grep -qF 'init bash)"' "$home/out"
touch "$home/.bashrc"
HOME="$home" sh scripts/install.sh --url "http://127.0.0.1:$port" --rc >/dev/null
HOME="$home" sh scripts/install.sh --url "http://127.0.0.1:$port" --rc >/dev/null
[[ $(grep -c 'init bash)"' "$home/.bashrc") == 1 ]] || { echo "--rc is not idempotent" >&2; exit 1; }
# --prefix, and the archive picked for the machine: where uname -m says
# aarch64, the arm64 one. This amd64 machine cannot run it (no binfmt for
# qemu), which the script checks before installing: it names the arm64
# archive and installs nothing; where it can, it is installed.
mkdir -p "$home/fake"
# shellcheck disable=SC2016 # the fake uname's own $1 and $@
printf '#!/bin/sh\ncase $1 in -m) echo aarch64 ;; *) exec /bin/uname "$@" ;; esac\n' >"$home/fake/uname"
chmod +x "$home/fake/uname"
if HOME="$home" PATH="$home/fake:$PATH" sh scripts/install.sh --url "http://127.0.0.1:$port" --prefix "$home/opt" >/dev/null 2>"$home/err"; then
  cmp "$home/opt/bin/hookd" dist/hookd_linux_arm64/hookd
else
  grep -q '_linux_arm64.tar.gz does not run here' "$home/err" || { cat "$home/err" >&2; exit 1; }
  test ! -e "$home/opt"
fi
HOME="$home" sh scripts/install.sh --url "http://127.0.0.1:$port" --prefix "$home/opt" >/dev/null
cmp "$home/opt/bin/hookd" dist/hookd_linux_amd64/hookd
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
echo "install.sh checks: $((SECONDS - t)) s"
t=$SECONDS

# The licence. hookd's LICENSE (and its SPDX id, the Makefile's
# LICENSE_SPDX) is the owner's to add. While there is none, say so: the
# archives and packages carry none (checked, so the line stays true).
licence_in() { # $1: a tree make release ran in, $2: its SPDX id or nothing
  local t=$1 id=$2 r d a
  r=$(ls "$t"/dist/hookd-*.x86_64.rpm) d=$(ls "$t"/dist/hookd_*_amd64.deb) a=$(ls "$t"/dist/hookd_*_linux_amd64.tar.gz)
  [[ $(rpm -qp --queryformat '%{LICENSE}' "$r" 2>/dev/null) == "$id" ]] || { echo "$r: License tag is not '$id'" >&2; return 1; }
  if [[ -z $id ]]; then
    if rpm -qp -L "$r" 2>/dev/null | grep . >/dev/null || debfiles "$d" | grep copyright >/dev/null || tar -tzf "$a" | grep LICENSE >/dev/null; then
      echo "there is no LICENSE, yet a package carries a licence file" >&2
      return 1
    fi
    return 0
  fi
  # The .deb's copyright and the archive's LICENSE are the file, byte
  # for byte; the .rpm's, installed into a scratch root, is its %license.
  dpkg-deb --fsys-tarfile "$d" | tar -xOf - ./usr/share/doc/hookd/copyright | cmp - "$t/LICENSE"
  tar -xzOf "$a" --wildcards '*/LICENSE' | cmp - "$t/LICENSE"
  [[ $(rpm -qp -L "$r" 2>/dev/null) == /usr/share/licenses/hookd/LICENSE ]]
  local root; root=$(mktemp -d)
  rpmroot "$root" --initdb && rpmroot "$root" -i --nodeps "$r"
  cmp "$root/usr/share/licenses/hookd/LICENSE" "$t/LICENSE"
  rm -rf "$root"
}
if [[ -f LICENSE ]]; then
  # shellcheck disable=SC2016 # make, not the shell, expands it
  id=$(make -s --eval='print-spdx: ; @echo $(LICENSE_SPDX)' print-spdx)
  licence_in . "$id"
  echo "licence: $id, in the archives, the .deb and the .rpm"
else
  licence_in . ""
  echo "warning: no LICENSE: the archives, the .deb and the .rpm carry no licence; the owner adds one (docs/install.md, \"The licence\")"
fi
# A copy of this tree with a LICENSE (a stand-in text, not a choice of
# licence), made somewhere else under another host name: the licence is
# in every package, and the build reproducible: the amd64 binary is the
# same bytes as dist's (-trimpath, the commit's date, no build id), and
# so are the archive and packages once the LICENSE is gone again (the
# .rpm names no build host: packaging/nfpm.yaml).
copy=$(mktemp -d)
trap 'kill $server 2>/dev/null; rm -rf "$home" "$srv" "$copy"' EXIT
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$copy"
printf 'A stand-in licence text for .ci/release.sh.\n' >"$copy/LICENSE"
read -r version commit date < <(dist/hookd_linux_amd64/hookd version --json |
  python3 -c 'import json,sys; v=json.load(sys.stdin); print(v["version"], v["commit"], v["date"])')
epoch=$(date -d "$date" +%s)
elsewhere() { unshare --uts sh -c 'hostname hookd-release-check && exec "$@"' sh "$@"; }
elsewhere make -C "$copy" -s release ARCHES=amd64 LICENSE_SPDX=LicenseRef-stand-in \
  VERSION="$version" COMMIT="$commit" SOURCE_DATE_EPOCH="$epoch" \
  >/dev/null 2> >(grep -v 'not a git repository' >&2) # the copy is no repository: what git would say is given
cmp "$copy/dist/hookd_linux_amd64/hookd" dist/hookd_linux_amd64/hookd ||
  { echo "the release build is not reproducible: the amd64 binary differs" >&2; exit 1; }
licence_in "$copy" LicenseRef-stand-in
# Without the LICENSE, the copy's packages are dist's, byte for byte.
rm "$copy/LICENSE"
elsewhere make -C "$copy" -s packages ARCHES=amd64 VERSION="$version" COMMIT="$commit" SOURCE_DATE_EPOCH="$epoch" \
  >/dev/null 2> >(grep -v 'not a git repository\|no LICENSE file' >&2)
diff <(grep -E '_amd64|x86_64' dist/SHA256SUMS) "$copy/dist/SHA256SUMS" ||
  { echo "the release is not reproducible: the amd64 artifacts differ (above)" >&2; exit 1; }
echo "a LICENSE is carried: checked in a copy with a stand-in one; licence and reproducibility checks: $((SECONDS - t)) s"
echo "release checks: $((SECONDS - start)) s"
