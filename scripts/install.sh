#!/bin/sh
# Install hookd from its release archives, without Go:
#
#   curl -fsSL URL/install.sh | sh
#   sh install.sh [--prefix DIR] [--url BASE] [--rc]
#
# It picks the archive for this machine (uname -m), checks it against
# SHA256SUMS, and puts hookd in PREFIX/bin (default ~/.local/bin). It then
# prints the line to add to your rc file; with --rc it adds it to
# ~/.bashrc and ~/.zshrc itself (those that exist), once. A checksum that
# does not match installs nothing. BASE (--url, or HOOKD_INSTALL_URL) is
# where SHA256SUMS and the archives are.
set -eu

url=${HOOKD_INSTALL_URL:-https://github.com/hookd/hookd/releases/latest/download}
prefix=${HOME}/.local
rc=

die() {
  printf 'hookd install: %s\n' "$*" >&2
  exit 1
}

while [ $# -gt 0 ]; do
  case $1 in
  --prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; prefix=$2; shift 2 ;;
  --prefix=*) prefix=${1#--prefix=}; shift ;;
  --url) [ $# -ge 2 ] || die "--url needs a URL"; url=$2; shift 2 ;;
  --url=*) url=${1#--url=}; shift ;;
  --rc) rc=1; shift ;;
  -h | --help)
    sed -n '2,12s/^# \{0,1\}//p' "$0" 2>/dev/null || true
    exit 0
    ;;
  *) die "unknown option $1 (--prefix DIR, --url BASE, --rc)" ;;
  esac
done

case $(uname -s) in
Linux) ;;
*) die "release archives are for Linux; elsewhere: go install -tags sqlite_fts5 github.com/hookd/hookd/cmd/hookd@latest" ;;
esac
case $(uname -m) in
x86_64 | amd64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
*) die "no release archive for $(uname -m)" ;;
esac

if command -v curl >/dev/null 2>&1; then
  fetch() { curl -fsSL -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q -O "$2" "$1"; }
else
  die "needs curl or wget"
fi
if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d' ' -f1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | cut -d' ' -f1; }
else
  die "needs sha256sum or shasum to check the download"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hookd-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

fetch "$url/SHA256SUMS" "$tmp/SHA256SUMS" || die "cannot download $url/SHA256SUMS"
# The line of this architecture's archive: "HASH  hookd_VERSION_linux_ARCH.tar.gz".
line=$(grep "  hookd_[^ /]*_linux_${arch}\.tar\.gz\$" "$tmp/SHA256SUMS" | tail -n 1)
[ -n "$line" ] || die "SHA256SUMS lists no archive for linux/$arch"
want=${line%% *}
name=${line##* }
fetch "$url/$name" "$tmp/$name" || die "cannot download $url/$name"
got=$(sha256 "$tmp/$name")
[ "$got" = "$want" ] || die "checksum mismatch for $name (got $got, SHA256SUMS says $want): nothing installed"

mkdir -p "$tmp/x"
tar -xzf "$tmp/$name" -C "$tmp/x" || die "cannot unpack $name"
dir=$tmp/x/${name%.tar.gz}
[ -f "$dir/hookd" ] || die "$name holds no hookd"
"$dir/hookd" version >/dev/null 2>&1 || die "the hookd in $name does not run here"

bin=$prefix/bin
mkdir -p "$bin"
# Into place by a rename in the same directory: a shell running the old
# binary keeps it until it execs the new one.
cp "$dir/hookd" "$bin/.hookd.new"
chmod 0755 "$bin/.hookd.new"
mv -f "$bin/.hookd.new" "$bin/hookd"
printf 'installed %s\n' "$("$bin/hookd" version | head -n 1) in $bin/hookd"

case :${PATH}: in
*:"$bin":*) cmd=hookd ;;
*) cmd=$bin/hookd ;;
esac
if [ -z "$rc" ]; then
  printf 'add this line to the end of ~/.bashrc (or ~/.zshrc, with zsh for bash):\n'
  # shellcheck disable=SC2016 # the $( ) is for the rc file, printed as is
  printf '    eval "$(%s init bash)"\n' "$cmd"
  exit 0
fi
for sh in bash zsh; do
  file=$HOME/.${sh}rc
  [ -f "$file" ] || continue
  line="eval \"\$($cmd init $sh)\""
  if grep -qF "$line" "$file"; then
    printf '%s already has the line\n' "$file"
  else
    printf '\n%s\n' "$line" >>"$file"
    printf 'added to %s: %s\n' "$file" "$line"
  fi
done
