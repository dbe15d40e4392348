// The path functions the hooks use. On POSIX they are written out here, giving exactly what
// node:path's do (tests/unit/node_path.test.ts holds them against node:path.posix): loading
// node:path cost every hook 0.16 million instructions, a seventh of what the tool-call hooks add
// to the runtime's start. On Windows they are node:path's, loaded on first use.
// Import from here in lib/ and hooks/ (tests/unit/sources.test.ts checks it).
import type * as NodePath from "node:path";

const WINDOWS = process.platform === "win32";
const SLASH = 47;
let windowsPath: typeof NodePath | undefined;
function win(): typeof NodePath {
  return windowsPath ??= process.getBuiltinModule("node:path") as typeof NodePath;
}

/** The platform's path separator. */
export const sep: string = WINDOWS ? "\\" : "/";

/** node:path's `isAbsolute`. */
export function isAbsolute(path: string): boolean {
  return WINDOWS ? win().isAbsolute(path) : path.charCodeAt(0) === SLASH;
}

/** node:path's `join`: the non-empty parts joined with the separator, normalized; "." for none. */
export function join(...parts: string[]): string {
  if (WINDOWS) return win().join(...parts);
  let path = "";
  for (const p of parts) if (p !== "") path = path === "" ? p : `${path}/${p}`;
  return normalize(path, true);
}

/** node:path's `resolve`: the parts from the right until one is absolute (else the working directory first), normalized. */
export function resolve(...parts: string[]): string {
  if (WINDOWS) return win().resolve(...parts);
  let path = "";
  for (let i = parts.length - 1; i >= -1 && path.charCodeAt(0) !== SLASH; i--) {
    const p = i >= 0 ? parts[i] : process.cwd();
    if (p !== "") path = path === "" ? p : `${p}/${path}`;
  }
  return normalize(path, false);
}

/** node:path's `relative`: the path from `from` to `to`, both resolved first; "" when they are the same. */
export function relative(from: string, to: string): string {
  if (WINDOWS) return win().relative(from, to);
  const a = resolve(from);
  const b = resolve(to);
  if (a === b) return "";
  const up = a === "/" ? [] : a.slice(1).split("/");
  const down = b === "/" ? [] : b.slice(1).split("/");
  let common = 0;
  while (common < up.length && common < down.length && up[common] === down[common]) common++;
  const out: string[] = [];
  for (let i = common; i < up.length; i++) out.push("..");
  for (let i = common; i < down.length; i++) out.push(down[i]);
  return out.join("/");
}

/** node:path's `dirname`. */
export function dirname(path: string): string {
  if (WINDOWS) return win().dirname(path);
  if (path === "") return ".";
  // The last slash that follows a name, trailing slashes skipped; the first character never counts.
  let end = -1;
  let trailing = true;
  for (let i = path.length - 1; i >= 1; i--) {
    if (path.charCodeAt(i) === SLASH) {
      if (!trailing) {
        end = i;
        break;
      }
    } else {
      trailing = false;
    }
  }
  const rooted = path.charCodeAt(0) === SLASH;
  if (end === -1) return rooted ? "/" : ".";
  if (rooted && end === 1) return "//";
  return path.slice(0, end);
}

/** node:path's `basename` (no suffix argument: its corner cases are not worth copying). */
export function basename(path: string): string {
  if (WINDOWS) return win().basename(path);
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === SLASH) end--;
  return path.slice(path.lastIndexOf("/", end - 1) + 1, end);
}

/** POSIX normalization; `keepTrailing` keeps a final slash (join), else it goes (resolve). */
function normalize(path: string, keepTrailing: boolean): string {
  if (path === "") return ".";
  const rooted = path.charCodeAt(0) === SLASH;
  const trailing = keepTrailing && path.charCodeAt(path.length - 1) === SLASH;
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg !== "..") out.push(seg);
    else if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else if (!rooted) out.push("..");
  }
  const body = out.join("/");
  if (rooted) return trailing && body !== "" ? `/${body}/` : `/${body}`;
  if (body === "") return trailing ? "./" : ".";
  return trailing ? `${body}/` : body;
}
