#!/bin/sh
# install.sh: download the rehydrate binary for this machine, verify it against the release's
# SHA256SUMS, and install it (default ~/.local/bin/rehydrate).
#
#   sh install.sh                          latest release, into ~/.local/bin
#   sh install.sh --version 0.1.0 --dir /usr/local/bin
#   REHYDRATE_BASE_URL=http://127.0.0.1:8080 sh install.sh
#
# Options (and the environment variables that set them):
#   --version V      release to install, e.g. 0.1.0           REHYDRATE_VERSION  (default: latest)
#   --dir DIR        where to put the binary                   REHYDRATE_INSTALL_DIR (~/.local/bin)
#   --base-url URL   directory holding SHA256SUMS and the      REHYDRATE_BASE_URL
#                    rehydrate-<version>-<target> files        (default: the GitHub release)
#   --target T       skip detection: linux-x64, linux-arm64, linux-x64-musl, linux-arm64-musl,
#                    darwin-x64, darwin-arm64, windows-x64     REHYDRATE_TARGET
#   --name NAME      file name to install as (default rehydrate, rehydrate.exe on Windows)
#   --quiet          print nothing but errors
#   REHYDRATE_DOWNLOADER=wget uses wget even when curl is installed.
#
# The project's GitHub repository. OWNER is a placeholder until the project is published: replace
# it here (or set REHYDRATE_REPO=owner/name) so the default download URL points at real releases.
REPO="${REHYDRATE_REPO:-OWNER/rehydrate}"
#
# Errors are one line on stderr and a non-zero exit; nothing is installed unless the checksum
# matches. Needs curl or wget, and sha256sum or shasum.
set -eu

version="${REHYDRATE_VERSION:-}"
dir="${REHYDRATE_INSTALL_DIR:-}"
base="${REHYDRATE_BASE_URL:-}"
target="${REHYDRATE_TARGET:-}"
name=""
quiet=0
tmp=""

die() {
  printf 'install.sh: %s\n' "$*" >&2
  exit 1
}

say() {
  if [ "$quiet" -eq 0 ]; then printf '%s\n' "$*"; fi
}

cleanup() {
  if [ -n "$tmp" ]; then rm -rf "$tmp"; fi
}

usage() {
  sed -n '2,18s/^# \{0,1\}//p' "$0" 2>/dev/null || true
}

need_value() {
  if [ "$2" -lt 2 ]; then die "$1 needs a value; run install.sh --help"; fi
}

while [ "$#" -gt 0 ]; do
  case "$1" in
    --version) need_value "$1" "$#"; version="$2"; shift 2 ;;
    --version=*) version="${1#*=}"; shift ;;
    --dir) need_value "$1" "$#"; dir="$2"; shift 2 ;;
    --dir=*) dir="${1#*=}"; shift ;;
    --base-url) need_value "$1" "$#"; base="$2"; shift 2 ;;
    --base-url=*) base="${1#*=}"; shift ;;
    --target) need_value "$1" "$#"; target="$2"; shift 2 ;;
    --target=*) target="${1#*=}"; shift ;;
    --name) need_value "$1" "$#"; name="$2"; shift 2 ;;
    --name=*) name="${1#*=}"; shift ;;
    --quiet | -q) quiet=1; shift ;;
    --help | -h) usage; exit 0 ;;
    *) die "unknown option \"$1\"; run install.sh --help" ;;
  esac
done

version="${version#v}"

detect_target() {
  os=$(uname -s 2>/dev/null || echo unknown)
  arch=$(uname -m 2>/dev/null || echo unknown)
  case "$os" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT) os=windows ;;
    *) die "unsupported operating system \"$os\"; download a binary by hand or use --target" ;;
  esac
  case "$arch" in
    x86_64 | amd64 | x64) arch=x64 ;;
    aarch64 | arm64 | armv8*) arch=arm64 ;;
    *) die "unsupported CPU architecture \"$arch\"; download a binary by hand or use --target" ;;
  esac
  # An x64 shell under Rosetta on an Apple silicon Mac: the native binary is faster.
  if [ "$os" = darwin ] && [ "$arch" = x64 ] &&
    [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
    arch=arm64
  fi
  if [ "$os" = windows ] && [ "$arch" != x64 ]; then
    die "unsupported platform windows-$arch; only windows-x64 is released"
  fi
  libc=""
  if [ "$os" = linux ]; then
    if ls /lib/ld-musl-* >/dev/null 2>&1 || { ldd --version 2>&1 | grep -q musl; }; then
      libc=-musl
    fi
  fi
  printf '%s-%s%s\n' "$os" "$arch" "$libc"
}

if [ -z "$target" ]; then target=$(detect_target); fi
case "$target" in
  linux-x64 | linux-arm64 | linux-x64-musl | linux-arm64-musl | darwin-x64 | darwin-arm64 | windows-x64) ;;
  *) die "unknown target \"$target\"; known: linux-x64, linux-arm64, linux-x64-musl, linux-arm64-musl, darwin-x64, darwin-arm64, windows-x64" ;;
esac
exe=""
case "$target" in windows-*) exe=.exe ;; esac

if [ -z "$base" ]; then
  case "$REPO" in
    OWNER/*) die "no download location: set REHYDRATE_BASE_URL (or --base-url), or REHYDRATE_REPO=owner/name" ;;
  esac
  if [ -n "$version" ]; then
    base="https://github.com/$REPO/releases/download/v$version"
  else
    base="https://github.com/$REPO/releases/latest/download"
  fi
fi
base="${base%/}"

if command -v curl >/dev/null 2>&1 && [ "${REHYDRATE_DOWNLOADER:-curl}" = curl ]; then
  fetch() { curl --fail --silent --show-error --location --retry 2 --output "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget --quiet --tries=3 --output-document="$2" "$1"; }
else
  die "neither curl nor wget is installed; install one of them"
fi

if command -v sha256sum >/dev/null 2>&1; then
  sha256() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
  sha256() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
else
  die "neither sha256sum nor shasum is installed; cannot verify the download"
fi

if [ -z "$dir" ]; then
  [ -n "${HOME:-}" ] || die "HOME is not set; use --dir DIR"
  dir="$HOME/.local/bin"
fi
if [ -z "$name" ]; then name="rehydrate$exe"; fi

mkdir -p "$dir" 2>/dev/null || die "cannot create $dir"
# The temporary files live next to the destination so the final mv is a rename on one file system.
tmp=$(mktemp -d "$dir/.rehydrate-install.XXXXXX" 2>/dev/null) || die "cannot write to $dir"
trap cleanup EXIT
trap 'exit 130' INT TERM

download() {
  if ! fetch "$1" "$2" 2>"$tmp/err"; then
    why=$(head -n 1 "$tmp/err" | sed 's/^curl: ([0-9]*) //')
    die "download failed: $1${why:+ ($why)}"
  fi
}

download "$base/SHA256SUMS" "$tmp/SHA256SUMS"

if [ -z "$version" ]; then
  # Latest release: its SHA256SUMS names the file, and so the version.
  file=$(sed -n "s/^[0-9a-f]\{64\}[ *][ *]*\(rehydrate-[0-9][^ ]*-$target$exe\)\$/\1/p" "$tmp/SHA256SUMS" | head -n 1)
  [ -n "$file" ] || die "SHA256SUMS at $base lists no binary for $target"
  version=${file#rehydrate-}
  version=${version%"-$target$exe"}
else
  file="rehydrate-$version-$target$exe"
fi

file_re=$(printf '%s' "$file" | sed 's/[.]/\\./g')
expected=$(sed -n "s/^\([0-9a-f]\{64\}\)[ *][ *]*$file_re\$/\1/p" "$tmp/SHA256SUMS" | head -n 1)
[ -n "$expected" ] || die "SHA256SUMS at $base has no entry for $file"

download "$base/$file" "$tmp/$file"

actual=$(sha256 "$tmp/$file")
[ "$actual" = "$expected" ] ||
  die "checksum mismatch for $file: expected $expected, got $actual; nothing was installed"

chmod 755 "$tmp/$file"
mv -f "$tmp/$file" "$dir/$name" || die "cannot install $dir/$name"

say "Installed rehydrate $version ($target) to $dir/$name"
case ":${PATH:-}:" in
  *":$dir:"*) cmd="$name" ;;
  *)
    cmd="$dir/$name"
    say "Note: $dir is not on your PATH; add it, or use the full path below."
    ;;
esac
case "$cmd" in *' '*) cmd="\"$cmd\"" ;; esac
say "Next: register the hooks in your project:"
say "  cd your-project && $cmd install --project ."
