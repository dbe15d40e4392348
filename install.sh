#!/bin/sh
# install.sh: download the rehydrate binary for this machine, check it against the SHA-256 pinned
# in this script for its release, and install it (default ~/.local/bin/rehydrate).
#
#   sh install.sh                          the release this script pins, into ~/.local/bin
#   sh install.sh --dir /usr/local/bin
#   sh install.sh --version 0.2.0 --sums ./SHA256SUMS     another release, against sums you trust
#
# Options (and the environment variables that set them):
#   --version V      release to install (default: the one      REHYDRATE_VERSION
#                    this script pins)
#   --dir DIR        where to put the binary                   REHYDRATE_INSTALL_DIR (~/.local/bin)
#   --base-url URL   https:// directory holding the            REHYDRATE_BASE_URL
#                    rehydrate-<version>-<target> files        (default: the GitHub release)
#   --sums FILE      a local SHA256SUMS to check against instead of the hashes pinned here
#   --target T       skip detection: linux-x64, linux-arm64, linux-x64-musl, linux-arm64-musl,
#                    darwin-x64, darwin-arm64, windows-x64     REHYDRATE_TARGET
#   --name NAME      file name to install as (default rehydrate, rehydrate.exe on Windows)
#   --quiet          print nothing but errors
#
# The binary is checked against a hash that travels with this script (written into it by
# scripts/pin-release.ts when the release is built), never against a file fetched from the same
# place as the binary. Downloads are HTTPS only, redirects included. Errors are one line on stderr
# and a non-zero exit; nothing is installed unless the hash matches. Needs curl, and sha256sum or
# shasum.
#
# --- pinned by scripts/pin-release.ts when a release is built; do not edit by hand ---
REPO=""
PINNED_VERSION=""
PINNED_SUMS=""
# --- end of pinned values ---
set -eu

# Tools are looked up only in absolute PATH entries outside the project: an empty entry, `.` or
# any relative one would let the current directory (a cloned repository) supply `curl` or `sed`.
safe_path() {
  old_ifs=$IFS
  IFS=:
  set -f
  kept=""
  for entry in ${PATH:-}; do
    case $entry in /*) ;; *) continue ;; esac
    case /$entry/ in */./* | */../*) continue ;; esac
    case ${CLAUDE_PROJECT_DIR:-} in /?*) case $entry/ in "${CLAUDE_PROJECT_DIR%/}"/*) continue ;; esac ;; esac
    kept=${kept:+$kept:}$entry
  done
  set +f
  IFS=$old_ifs
  PATH=${kept:-/usr/bin:/bin}
  export PATH
}
safe_path

version="${REHYDRATE_VERSION:-}"
dir="${REHYDRATE_INSTALL_DIR:-}"
base="${REHYDRATE_BASE_URL:-}"
target="${REHYDRATE_TARGET:-}"
sums=""
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
  sed -n '2,25s/^# \{0,1\}//p' "$0" 2>/dev/null || true
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
    --sums) need_value "$1" "$#"; sums="$2"; shift 2 ;;
    --sums=*) sums="${1#*=}"; shift ;;
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
if [ -z "$version" ]; then
  [ -n "$PINNED_VERSION" ] ||
    die "this install.sh pins no release (it is the repository's copy, not a release's): use the install.sh attached to a release, or pass --version V --sums FILE"
  version=$PINNED_VERSION
fi
case "$version" in
  *[!0-9A-Za-z.+-]* | [!0-9]*) die "\"$version\" is not a release version like 0.2.0" ;;
esac
if [ -z "$sums" ] && [ "$version" != "$PINNED_VERSION" ]; then
  if [ -n "$PINNED_VERSION" ]; then
    die "this install.sh pins the hashes of $PINNED_VERSION, not $version: use the install.sh of that release, or pass --sums FILE with a SHA256SUMS you trust"
  fi
  die "this install.sh pins no release (it is the repository's copy, not a release's): use the install.sh attached to a release, or pass --sums FILE with a SHA256SUMS you trust"
fi
if [ -n "$sums" ]; then
  if [ ! -f "$sums" ] || [ ! -r "$sums" ]; then die "cannot read the sums file $sums"; fi
fi

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
file="rehydrate-$version-$target$exe"

# The expected hash, known before anything is downloaded.
if [ -n "$sums" ]; then
  sums_text=$(sed -n '1,200p' "$sums")
  sums_from="$sums"
else
  sums_text=$PINNED_SUMS
  sums_from="the hashes pinned in install.sh"
fi
expected=$(printf '%s\n' "$sums_text" | awk -v f="$file" '($2 == f || $2 == "*" f) && $1 ~ /^[0-9a-f]+$/ && length($1) == 64 { print $1; exit }')
[ -n "$expected" ] || die "$sums_from have no entry for $file"

if [ -z "$base" ]; then
  [ -n "$REPO" ] ||
    die "no download location: this install.sh names no repository; set REHYDRATE_BASE_URL (or --base-url) to an https:// mirror"
  base="https://github.com/$REPO/releases/download/v$version"
fi
base="${base%/}"
case "$base" in
  https://?*) ;;
  *) die "refusing to download from $base: only https:// is allowed" ;;
esac

command -v curl >/dev/null 2>&1 ||
  die "curl is not installed; install it (rehydrate downloads over HTTPS only, and needs curl to refuse a redirect to http://)"
# -q first: no ~/.curlrc can change the options below. --proto and --proto-redir refuse http://,
# on the first request and on every redirect.
fetch() {
  curl -q --fail --silent --show-error --location --max-redirs 5 --proto '=https' --proto-redir '=https' \
    --tlsv1.2 --retry 2 --output "$2" "$1"
}

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

if ! fetch "$base/$file" "$tmp/$file" 2>"$tmp/err"; then
  why=$(head -n 1 "$tmp/err" | sed 's/^curl: ([0-9]*) //')
  die "download failed: $base/$file${why:+ ($why)}"
fi

actual=$(sha256 "$tmp/$file")
actual=${actual#\\}
[ "$actual" = "$expected" ] ||
  die "checksum mismatch for $file: $sums_from say $expected, the download is $actual; nothing was installed"

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
