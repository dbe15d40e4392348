// The path functions the hooks use. On POSIX the common cases are answered here with string
// operations: a path with no empty, `.` or `..` segment is already what node:path would make of
// it. Everything else (and everything on Windows) goes to node:path, loaded on first use: loading
// it is a good part of what the tool-call hooks add to the runtime's start (bench/README.md), and
// most runs never need it. tests/unit/node/node_path.test.ts holds every function
// against node:path.posix. Import from here in lib/ and hooks/ (tests/unit/sources.test.ts checks it).
import type * as NodePath from "node:path";

const POSIX = process.platform !== "win32";
const SLASH = 47;
/** An empty, `.` or `..` segment: what node:path's normalization would change besides a final slash. */
const ODD_SEGMENT = /\/\/|(?:^|\/)\.\.?(?:\/|$)/;

let loaded: typeof NodePath | undefined;
function nodePath(): typeof NodePath {
  return loaded ??= process.getBuiltinModule("node:path") as typeof NodePath;
}

/** The platform's path separator. */
export const sep: string = POSIX ? "/" : "\\";

/** node:path's `isAbsolute`. */
export function isAbsolute(path: string): boolean {
  return POSIX ? path.charCodeAt(0) === SLASH : nodePath().isAbsolute(path);
}

/** node:path's `join`: the non-empty parts joined with the separator, normalized; "." for none. */
export function join(...parts: string[]): string {
  if (POSIX) {
    let path = "";
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      if (p !== "") path = path === "" ? p : `${path}/${p}`;
    }
    if (path !== "" && !ODD_SEGMENT.test(path)) return path;
  }
  return nodePath().join(...parts);
}

/** node:path's `resolve`: the parts from the right until one is absolute (else the working directory first), normalized. */
export function resolve(...parts: string[]): string {
  if (POSIX) {
    let path = "";
    for (let i = parts.length - 1; i >= 0 && path.charCodeAt(0) !== SLASH; i--) {
      if (parts[i] !== "") path = path === "" ? parts[i] : `${parts[i]}/${path}`;
    }
    if (path.charCodeAt(0) === SLASH && !ODD_SEGMENT.test(path)) {
      return path.length > 1 && path.charCodeAt(path.length - 1) === SLASH ? path.slice(0, -1) : path;
    }
  }
  return nodePath().resolve(...parts);
}

/** node:path's `relative`: the path from `from` to `to`, both resolved first; "" when they are the same. */
export function relative(from: string, to: string): string {
  if (POSIX && isPlainAbsolute(from) && isPlainAbsolute(to)) {
    if (from === to) return "";
    const prefix = from === "/" ? "/" : `${from}/`;
    if (to.startsWith(prefix)) return to.slice(prefix.length);
  }
  return nodePath().relative(from, to);
}

/** An absolute path that resolves to itself: no odd segment, no final slash but the root's. */
function isPlainAbsolute(path: string): boolean {
  return path.charCodeAt(0) === SLASH && (path.length === 1 || path.charCodeAt(path.length - 1) !== SLASH) &&
    !ODD_SEGMENT.test(path);
}

/** node:path's `dirname`. */
export function dirname(path: string): string {
  if (!POSIX) return nodePath().dirname(path);
  if (path === "") return ".";
  // The last slash before the last name (trailing slashes skipped); one at 0 does not count.
  let last = path.length - 1;
  while (last > 0 && path.charCodeAt(last) === SLASH) last--;
  const at = last > 0 ? path.lastIndexOf("/", last) : -1;
  const rooted = path.charCodeAt(0) === SLASH;
  if (at <= 0) return rooted ? "/" : ".";
  if (rooted && at === 1) return "//";
  return path.slice(0, at);
}

/** node:path's `basename` (no suffix argument: its corner cases are not worth copying). */
export function basename(path: string): string {
  if (!POSIX) return nodePath().basename(path);
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === SLASH) end--;
  return path.slice(path.lastIndexOf("/", end - 1) + 1, end);
}
