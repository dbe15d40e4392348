#!/bin/sh
# launch-worker.sh: start a Claude Code worker session on a dispatch file, recorded the way
# rehydrate reads it (docs/dispatch.md, "Launching a worker").
#
#   launch-worker.sh <dispatch-file> [claude args...]
#
# 1. resolves <dispatch-file> to an absolute path; a missing or non-regular file is refused
#    (one line on stderr, exit 2);
# 2. writes that path, as the first line, to ${REHYDRATE_DISPATCH_PATH_FILE:-$HOME/.claude/worker-dispatch-path}
#    (atomically: a temporary file in the same folder, mode 600, renamed over the old one);
# 3. exports REHYDRATE_DISPATCH_FILE with the same path for the worker and its hooks;
# 4. execs ${CLAUDE_BIN:-claude} with the claude args, or, when none are given, with a first
#    prompt telling the worker to read its dispatch file.
#
# rehydrate reads the path file named by its config key dispatch.dispatchPathFile: when you set
# REHYDRATE_DISPATCH_PATH_FILE to another file, set that key to the same file.
set -eu

me=launch-worker.sh

case ${1-} in
-h | --help)
  printf 'usage: %s <dispatch-file> [claude args...]\n' "$me"
  exit 0
  ;;
'')
  printf 'usage: %s <dispatch-file> [claude args...]\n' "$me" >&2
  exit 2
  ;;
esac

given=$1
shift

if [ ! -f "$given" ]; then
  printf '%s: not a regular file: %s\n' "$me" "$given" >&2
  exit 2
fi

# The absolute path: the file's folder resolved by cd, then its name. The trailing "x" keeps
# command substitution from eating a folder name's final newlines.
dir=$(dirname -- "$given")
base=$(basename -- "$given")
dir=$(CDPATH='' cd -- "$dir" && pwd -P && echo x) || {
  printf '%s: cannot enter the folder of %s\n' "$me" "$given" >&2
  exit 2
}
dir=${dir%?x}
case $dir in
*/) dispatch=$dir$base ;;
*) dispatch=$dir/$base ;;
esac

nl='
'
case $dispatch in
*"$nl"*)
  printf '%s: the dispatch path holds a newline, which the path file cannot record\n' "$me" >&2
  exit 2
  ;;
esac

path_file=${REHYDRATE_DISPATCH_PATH_FILE:-${HOME:?HOME is not set}/.claude/worker-dispatch-path}
path_dir=$(dirname -- "$path_file")
(umask 077 && mkdir -p -- "$path_dir")

tmp=$(mktemp "$path_dir/.worker-dispatch-path.XXXXXX")
trap 'rm -f -- "$tmp"' EXIT
trap 'exit 130' HUP INT TERM
chmod 600 "$tmp"
printf '%s\n' "$dispatch" >"$tmp"
mv -f -- "$tmp" "$path_file"
trap - EXIT HUP INT TERM

REHYDRATE_DISPATCH_FILE=$dispatch
export REHYDRATE_DISPATCH_FILE

if [ "$#" -eq 0 ]; then
  set -- "Read $dispatch and carry out the dispatch; record progress under ## Progress."
fi
exec "${CLAUDE_BIN:-claude}" "$@"
