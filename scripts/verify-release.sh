#!/bin/sh
# verify-release.sh DIR TARGET [--version V] [--docker IMAGE]: the per-platform check of a release
# before it is published. DIR/rehydrate-V-TARGET[.exe] must match its line in DIR/SHA256SUMS, and
# running it with --version must print V (default: package.json's version).
#
#   sh scripts/verify-release.sh dist/release linux-x64
#   sh scripts/verify-release.sh dist/release linux-x64-musl --docker alpine:3.20
#
# --docker runs the binary in that image (the musl targets on a glibc runner). One-line errors.
set -eu

die() {
  printf 'verify-release: %s\n' "$*" >&2
  exit 1
}

[ "$#" -ge 2 ] || die "usage: verify-release.sh DIR TARGET [--version V] [--docker IMAGE]"
dir=$1
target=$2
shift 2
version=""
image=""
while [ "$#" -gt 0 ]; do
  case "$1" in
    --version) [ "$#" -ge 2 ] || die "--version needs a value"; version=$2; shift 2 ;;
    --docker) [ "$#" -ge 2 ] || die "--docker needs an image"; image=$2; shift 2 ;;
    *) die "unknown option \"$1\"" ;;
  esac
done
if [ -z "$version" ]; then
  version=$(sed -n 's/^  "version": *"\([^"]*\)".*/\1/p' "$(dirname "$0")/../package.json" | head -n 1)
fi
[ -n "$version" ] || die "no version: pass --version"

exe=""
case "$target" in windows-*) exe=.exe ;; esac
file="rehydrate-$version-$target$exe"
[ -f "$dir/$file" ] || die "$dir/$file is missing"
[ -f "$dir/SHA256SUMS" ] || die "$dir/SHA256SUMS is missing"

expected=$(awk -v f="$file" '$2 == f || $2 == "*" f { print $1; exit }' "$dir/SHA256SUMS")
[ -n "$expected" ] || die "SHA256SUMS has no line for $file"
if command -v sha256sum >/dev/null 2>&1; then
  actual=$(sha256sum "$dir/$file" | cut -d ' ' -f 1)
else
  actual=$(shasum -a 256 "$dir/$file" | cut -d ' ' -f 1)
fi
actual=${actual#\\}
[ "$actual" = "$expected" ] || die "checksum mismatch for $file: SHA256SUMS says $expected, the file is $actual"

chmod 755 "$dir/$file"
if [ -n "$image" ]; then
  abs=$(cd "$dir" && pwd)
  out=$(docker run --rm -v "$abs:/release:ro" "$image" "/release/$file" --version) || die "$file --version failed in $image"
else
  out=$("$dir/$file" --version) || die "$file --version failed"
fi
out=$(printf '%s' "$out" | tr -d '\r')
[ "$out" = "$version" ] || die "$file --version printed \"$out\", expected $version"
printf 'verify-release: %s: checksum ok, --version %s\n' "$file" "$out"
