#!/bin/sh
# check-release.sh [--tagged] TAG: refuses to release unless the tree is exactly a commit and
# every version source agrees with TAG. Run it before tagging, and CI runs it on the tag.
#
#   sh scripts/check-release.sh v0.2.0            before `git tag v0.2.0`: the tag must not exist
#                                                 yet, here or on origin
#   sh scripts/check-release.sh --tagged v0.2.0   in the release workflow: the tag must exist and
#                                                 point at HEAD
#
# Always: no uncommitted or untracked changes; TAG is v<package.json version>; plugin.json and the
# plugin launcher carry the same version; hashes pinned in install.sh and the launcher are that
# version's or none; CHANGELOG.md has a "## <version>" section.
# Errors are one line on stderr and exit 1.
set -eu

die() {
  printf 'check-release: %s\n' "$*" >&2
  exit 1
}

tagged=0
tag=""
for arg in "$@"; do
  case "$arg" in
    --tagged) tagged=1 ;;
    --help | -h) sed -n '2,13s/^# \{0,1\}//p' "$0"; exit 0 ;;
    -*) die "unknown option \"$arg\"; run check-release.sh --help" ;;
    *) [ -z "$tag" ] || die "one tag only; run check-release.sh --help"; tag=$arg ;;
  esac
done
[ -n "$tag" ] || die "no tag given; usage: check-release.sh [--tagged] v1.2.3"

top=$(git rev-parse --show-toplevel 2>/dev/null) || die "not inside a git repository"
cd "$top"

dirty=$(git status --porcelain --untracked-files=normal)
if [ -n "$dirty" ]; then
  die "the working tree has uncommitted or untracked changes ($(printf '%s\n' "$dirty" | wc -l | tr -d ' ') paths, see git status); commit or stash them"
fi

case "$tag" in
  v[0-9]*.[0-9]*.[0-9]*) ;;
  *) die "\"$tag\" is not a version tag like v1.2.3" ;;
esac
version=${tag#v}

# The top-level "version" of a JSON file (two-space indentation, as npm writes it).
json_version() {
  sed -n 's/^  "version": *"\([^"]*\)".*/\1/p' "$1" | head -n 1
}

pkg=$(json_version package.json)
[ -n "$pkg" ] || die "package.json has no version"
[ "$pkg" = "$version" ] || die "tag $tag does not match package.json's version $pkg"
if [ -f lib/hook/version.ts ]; then
  lib=$(sed -n 's/^export const VERSION: string = "\([^"]*\)";$/\1/p' lib/hook/version.ts | head -n 1)
  [ "$lib" = "$version" ] || die "lib/hook/version.ts has VERSION \"$lib\", not $version"
fi
if [ -f .claude-plugin/plugin.json ]; then
  plugin=$(json_version .claude-plugin/plugin.json)
  [ "$plugin" = "$version" ] || die ".claude-plugin/plugin.json has version \"$plugin\", not $version"
fi
if [ -f plugin/rehydrate-launcher ]; then
  launcher=$(sed -n 's/^VERSION=//p' plugin/rehydrate-launcher | head -n 1)
  [ "$launcher" = "$version" ] || die "plugin/rehydrate-launcher has VERSION=$launcher, not $version"
fi
escaped=$(printf '%s' "$version" | sed 's/[.]/\\./g')
# Hashes pinned in the tracked install.sh and launcher (scripts/pin-release.ts --tree) are this
# version's or none: the plugin ships from git, and stale pins would name another release's files.
for pinned in install.sh plugin/rehydrate-launcher; do
  [ -f "$pinned" ] || continue
  stale=$(sed -n '/^# --- pinned by/,/^# --- end of pinned values ---$/p' "$pinned" |
    grep -Eo 'rehydrate-[0-9][^ "]*' | grep -v "^rehydrate-$escaped-" | head -n 1 || true)
  [ -z "$stale" ] ||
    die "$pinned pins the hash of $stale, not of a $version binary; empty its PINNED_SUMS, or run scripts/pin-release.ts --tree on the $version release"
done
grep -Eq "^## \[?v?$escaped\]?( |\$)" CHANGELOG.md ||
  die "CHANGELOG.md has no \"## $version\" section; rename \"## Unreleased\" to it and add a new empty \"## Unreleased\""

head=$(git rev-parse HEAD)
if [ "$tagged" -eq 1 ]; then
  at=$(git rev-parse -q --verify "refs/tags/$tag^{commit}") || die "tag $tag does not exist"
  [ "$at" = "$head" ] || die "tag $tag points at $at, not at the checked-out commit $head"
  printf 'check-release: %s is the clean checked-out commit and matches every version source\n' "$tag"
else
  if git rev-parse -q --verify "refs/tags/$tag" >/dev/null; then die "tag $tag exists already"; fi
  if git remote get-url origin >/dev/null 2>&1; then
    if git ls-remote --exit-code --tags origin "refs/tags/$tag" >/dev/null 2>&1; then
      die "tag $tag exists already on origin"
    fi
  fi
  printf 'check-release: ready to tag %s at %s\n' "$tag" "$head"
fi
