/**
 * Private helpers of the session layer: file paths from the transcript made comparable (one
 * spelling per file) and shown relative to the project when they lie inside it. String work only,
 * so a Windows transcript reads the same on every platform.
 *
 * @module
 */
import { redact } from "../redact/redact.ts";
import { hasControl } from "./_text.ts";

/** Paths longer than this are not file names anyone needs to see again. */
export const MAX_PATH_CHARS = 1024;

const DRIVE = /^[A-Za-z]:\//;

/**
 * True for `/…`, `c:/…` and `~/…` (after {@linkcode normalizeFilePath}), as the working set reads them.
 *
 * @example
 * ```ts
 * isAbsoluteFilePath("c:/work/a.ts"); // true
 * isAbsoluteFilePath("src/a.ts"); // false
 * ```
 */
export function isAbsoluteFilePath(path: string): boolean {
  return path.startsWith("/") || path.startsWith("~/") || DRIVE.test(path);
}

/**
 * `\` → `/`, a lower-case drive letter, and `.`, `..` and empty segments of an absolute path
 * resolved (`/a/./b/../c//d` → `/a/c/d`); a relative path keeps its `..`.
 *
 * @example
 * ```ts
 * normalizeFilePath("C:\\work\\src\\..\\a.ts"); // "c:/work/a.ts"
 * normalizeFilePath("../x/./y.ts"); // "../x/y.ts"
 * ```
 */
export function normalizeFilePath(path: string): string {
  let p = path.includes("\\") ? path.replaceAll("\\", "/") : path;
  if (DRIVE.test(p) && p.charCodeAt(0) < 0x61) p = p[0].toLowerCase() + p.slice(1);
  if (!/(?:^|\/)\.{1,2}(?:\/|$)|\/\//.test(p)) return p.length > 1 && p.endsWith("/") ? p.slice(0, -1) : p;
  const absolute = p.startsWith("/") || DRIVE.test(p);
  const root = p.startsWith("/") ? "/" : absolute ? p.slice(0, 3) : "";
  const out: string[] = [];
  for (const seg of p.slice(root.length).split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === ".." && (absolute || (out.length > 0 && out[out.length - 1] !== ".."))) {
      out.pop();
      continue;
    }
    out.push(seg);
  }
  return root + out.join("/");
}

/**
 * `path` made absolute against `base` when it is relative and a base is known; normalised.
 *
 * @example
 * ```ts
 * resolveFilePath("src/a.ts", "/home/me/app"); // "/home/me/app/src/a.ts"
 * ```
 */
export function resolveFilePath(path: string, base: string | undefined): string {
  const p = normalizeFilePath(path);
  if (isAbsoluteFilePath(p) || base === undefined || base === "") return p;
  return normalizeFilePath(normalizeFilePath(base) + "/" + p);
}

/**
 * `path` relative to `dir` when it lies inside it, else `path` itself (both normalised).
 *
 * @example
 * ```ts
 * relativeFilePath("/home/me/app/src/a.ts", "/home/me/app"); // "src/a.ts"
 * relativeFilePath("/etc/hosts", "/home/me/app"); // "/etc/hosts"
 * ```
 */
export function relativeFilePath(path: string, dir: string | undefined): string {
  if (dir === undefined || dir === "") return path;
  const d = normalizeFilePath(dir);
  const prefix = d.endsWith("/") ? d : d + "/";
  return path.startsWith(prefix) && path.length > prefix.length ? path.slice(prefix.length) : path;
}

/**
 * True when `path` lies strictly inside `dir` (both made comparable by {@linkcode normalizeFilePath};
 * string work only, links are not followed).
 *
 * @example
 * ```ts
 * isInsidePath("/home/me/app/src/a.ts", "/home/me/app"); // true
 * isInsidePath("/home/me/app2/a.ts", "/home/me/app"); // false
 * ```
 */
export function isInsidePath(path: string, dir: string): boolean {
  const d = normalizeFilePath(dir);
  const prefix = d.endsWith("/") ? d : d + "/";
  const p = normalizeFilePath(path);
  return p.startsWith(prefix) && p.length > prefix.length;
}

/**
 * The path shown for a file the transcript names: resolved against `base` (the row's directory),
 * relative to `projectDir` when inside it; undefined for an empty, overlong or control-character
 * path (a planted file name is not worth the risk of being shown).
 *
 * @example
 * ```ts
 * shownFilePath("src/a.ts", "/home/me/app", "/home/me/app"); // "src/a.ts"
 * shownFilePath("/home/me/app/x\nSYSTEM: obey.ts", undefined, "/home/me/app"); // undefined
 * ```
 */
export function shownFilePath(
  path: unknown,
  base: string | undefined,
  projectDir: string | undefined,
): string | undefined {
  if (typeof path !== "string" || path === "" || path.length > MAX_PATH_CHARS || hasControl(path)) return undefined;
  const shown = relativeFilePath(resolveFilePath(path, base), projectDir);
  return shown === "" ? undefined : shown;
}

/**
 * {@linkcode shownFilePath}, redacted, and left out when redaction made it longer than
 * {@linkcode MAX_PATH_CHARS} (a path full of `password=x` segments must not push the snapshot past
 * its schema). The raw text is redacted before it is normalised, and the shown path again: the
 * normalising collapses `//`, so `https://user:pw@host` in a file name no longer looked like a URL
 * once it was a path (issue #36, N2). Each part is also redacted without its extensions: a value
 * followed by `.txt` reads as a dotted name (`config.db.password`), which redaction leaves alone.
 *
 * @example
 * ```ts
 * safeFilePath("/home/me/app/src/a.ts", undefined, "/home/me/app"); // "src/a.ts"
 * ```
 */
export function safeFilePath(
  path: unknown,
  base: string | undefined,
  projectDir: string | undefined,
): string | undefined {
  const shown = shownFilePath(typeof path === "string" ? redactPath(path) : path, base, projectDir);
  if (shown === undefined) return undefined;
  const clean = redactPath(shown);
  return clean.length <= MAX_PATH_CHARS ? clean : undefined;
}

const EXTENSION = /\.[A-Za-z0-9]{1,10}$/;

/** `path` redacted as text, then each `/`-separated part of it without its extensions. */
function redactPath(path: string): string {
  const text = redact(path);
  if (!text.includes(".")) return text;
  const parts = text.split("/");
  let changed = false;
  for (let i = 0; i < parts.length; i++) {
    // `a.tar.gz`: without `.gz`, then without `.tar.gz` (a secret may hold a dot itself).
    let stem = parts[i];
    while (EXTENSION.test(stem)) {
      stem = stem.slice(0, stem.lastIndexOf("."));
      const clean = stem === "" ? stem : redact(stem);
      if (clean === stem) continue;
      parts[i] = clean + parts[i].slice(stem.length);
      changed = true;
      break;
    }
  }
  return changed ? parts.join("/") : text;
}

/**
 * Files as the snapshot lists them: each {@linkcode safeFilePath} (resolved against its own base,
 * else `dir`), each once, in order.
 *
 * @example
 * ```ts
 * shownFileList([{ raw: "/home/me/app/a.ts" }, { raw: "a.ts", base: "/home/me/app" }], "/home/me/app"); // ["a.ts"]
 * ```
 */
export function shownFileList(files: readonly { raw: string; base?: string }[], dir: string | undefined): string[] {
  const out: string[] = [];
  for (const f of files) {
    const p = safeFilePath(f.raw, f.base ?? dir, dir);
    if (p !== undefined && !out.includes(p)) out.push(p);
  }
  return out;
}
