#!/bin/sh
# verify-release.sh DIR TARGET [--version V] [--docker IMAGE]: the per-platform check of a release
# before it is published. DIR/rehydrate-V-TARGET[.exe] must match its line in DIR/SHA256SUMS, the
# pinned DIR/install.sh and DIR/rehydrate-launcher must carry that hash, and
# running it with --version must print V (default: package.json's version), and a hook and a verb
# must run (each is a module of its own inside the binary).
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

# The release's install.sh and plugin launcher (scripts/pin-release.ts) must pin this very hash.
for pinned in install.sh rehydrate-launcher; do
  [ -f "$dir/$pinned" ] || die "$dir/$pinned is missing: build.ts --release writes it (scripts/pin-release.ts)"
  # PINNED_SUMS="<first line>\n...\n<last line>": one "<sha256>  <file>" per line, quotes stripped.
  sed -e 's/^PINNED_SUMS="//' -e 's/"$//' "$dir/$pinned" | grep -qxF "$expected  $file" ||
    die "$dir/$pinned does not pin $expected for $file"
done

chmod 755 "$dir/$file"
abs=$(cd "$dir" && pwd)
# runbin ARGS...: the binary on this platform (or in the image), stdin passed through.
runbin() {
  if [ -n "$image" ]; then
    docker run --rm -i -v "$abs:/release:ro" "$image" "/release/$file" "$@"
  else
    "$abs/$file" "$@"
  fi
}
where=""
[ -n "$image" ] && where=" in $image"
out=$(runbin --version </dev/null) || die "$file --version failed$where"
out=$(printf '%s' "$out" | tr -d '\r')
[ "$out" = "$version" ] || die "$file --version printed \"$out\", expected $version"

# A hook and a verb are bundles of their own inside the binary, which its dispatcher loads by name:
# run one of each. A hook on input it cannot parse exits 0 and prints nothing, so that alone would
# not show its bundle loaded (a dispatcher that cannot find it also exits 0, with only a line on
# stderr); its --help does.
out=$(printf '{' | runbin stop) || die "$file stop failed$where (a hook must exit 0)"
[ -z "$out" ] || die "$file stop printed \"$out\" on bad input, expected nothing"
out=$(runbin stop --help </dev/null) || die "$file stop --help failed$where"
case "$out" in *"rehydrate Stop hook"*) ;; *) die "$file stop --help printed no help: the hook's code did not load" ;; esac
out=$(runbin status --help </dev/null) || die "$file status --help failed$where"
case "$out" in *"Usage: rehydrate status"*) ;; *) die "$file status --help printed no usage" ;; esac
printf 'verify-release: %s: checksum ok and pinned, --version %s, a hook and a verb run\n' "$file" "$version"
