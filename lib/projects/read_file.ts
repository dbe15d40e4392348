// Private helper of the project-workspace modules (lib/projects/read_manifest.ts, lib/projects/build_nexus_context.ts,
// lib/projects/session_start.ts, lib/projects/scan_skills.ts): resolving a path a user's file names and reading it
// without ever leaving the folder it must stay in, following a link out, blocking on a FIFO or
// swallowing a huge file.
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from "../node/fs.ts";
import { isAbsolute, relative, resolve, sep } from "../node/path.ts";

/** Why a path was refused or could not be read. A closed set. */
export type ProjectFileProblem =
  /** `..` or an absolute path that leaves the root, or a symbolic link resolving outside it. */
  | "outside"
  /** Nothing there. */
  | "missing"
  /** A FIFO, socket, device or directory. */
  | "not_regular"
  /** Larger than the size cap. */
  | "too_large"
  /** Any other I/O error. */
  | "unreadable";

/** A path resolved inside a root: `rel` uses `/` and never starts with `..`. */
export interface ResolvedProjectPath {
  abs: string;
  rel: string;
}

const O_NONBLOCK = (constants as Record<string, number>).O_NONBLOCK ?? 0;
const BACKSLASH = /\\/g;

/** `rel` with `/` separators. */
export function toSlash(p: string): string {
  return sep === "\\" ? p.replace(BACKSLASH, "/") : p;
}

/** True when `child` is `root` or inside it (both absolute, normalised). */
export function isInside(root: string, child: string): boolean {
  if (child === root) return true;
  const r = relative(root, child);
  return r !== "" && !r.startsWith("..") && !isAbsolute(r);
}

/**
 * Resolves `name` (relative to `root`, or absolute) lexically, refusing anything outside `root`.
 * No file system access: the link check happens in {@linkcode readInside}.
 */
export function resolveInside(root: string, name: string): ResolvedProjectPath | "outside" {
  if (name.includes("\0")) return "outside";
  const abs = resolve(root, name);
  if (!isInside(root, abs) || abs === root) return "outside";
  return { abs, rel: toSlash(relative(root, abs)) };
}

/** Result of {@linkcode readInside}. */
export type ReadInsideResult =
  | { ok: true; text: string; size: number; complete: boolean }
  | { ok: false; problem: ProjectFileProblem };

/** Options of {@linkcode readInside}. */
export interface ReadInsideOptions {
  /** Refuse files larger than this (bytes). Default: no refusal, only `headBytes` are read. */
  maxBytes?: number;
  /** Read at most this many bytes from the start. Default: the whole file (up to `maxBytes`). */
  headBytes?: number;
  /** `realpath` of the root, when the caller already has it. */
  realRoot?: string;
}

/**
 * Reads `abs` (already resolved inside `root`) when its real path is still inside the real
 * root, it is a regular file and not over `maxBytes`. Opens non-blocking, so a FIFO put in
 * place of a file cannot hang the hook, and checks the opened descriptor, not the name.
 * Never throws.
 */
export function readInside(root: string, abs: string, options: ReadInsideOptions = {}): ReadInsideResult {
  let real: string;
  let realRoot: string;
  try {
    realRoot = options.realRoot ?? realpathSync(root);
    real = realpathSync(abs);
  } catch (err) {
    const code = (err as { code?: string }).code;
    return { ok: false, problem: code === "ENOENT" || code === "ENOTDIR" ? "missing" : "unreadable" };
  }
  if (!isInside(realRoot, real) || real === realRoot) return { ok: false, problem: "outside" };
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | O_NONBLOCK);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, problem: "missing" };
    if (code === "EISDIR" || code === "ENXIO") return { ok: false, problem: "not_regular" };
    return { ok: false, problem: "unreadable" };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, problem: "not_regular" };
    // A file with a second hard link may be any file of the user's, linked in from outside.
    if (st.nlink > 1) return { ok: false, problem: "outside" };
    if (options.maxBytes !== undefined && st.size > options.maxBytes) return { ok: false, problem: "too_large" };
    const want = Math.min(st.size, options.headBytes ?? st.size);
    const buf = new Uint8Array(want);
    let at = 0;
    while (at < want) {
      const n = readSync(fd, buf, at, want - at, at);
      if (n === 0) break;
      at += n;
    }
    const complete = at >= st.size;
    return { ok: true, text: new TextDecoder().decode(buf.subarray(0, at)), size: st.size, complete };
  } catch {
    return { ok: false, problem: "unreadable" };
  } finally {
    closeSync(fd);
  }
}

/**
 * Checks, without opening it, that `abs` (already resolved inside `root`) is a regular file whose
 * real path stays inside the real root and is at most `maxBytes` long. `stat` never blocks, not
 * even on a FIFO. Never throws.
 */
export function checkInside(
  root: string,
  abs: string,
  options: { maxBytes?: number; realRoot?: string } = {},
): ProjectFileProblem | null {
  let real: string;
  let realRoot: string;
  try {
    realRoot = options.realRoot ?? realpathSync(root);
    real = realpathSync(abs);
  } catch (err) {
    const code = (err as { code?: string }).code;
    return code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP" ? "missing" : "unreadable";
  }
  if (!isInside(realRoot, real) || real === realRoot) return "outside";
  try {
    const st = statSync(real);
    if (!st.isFile()) return "not_regular";
    if (st.nlink > 1) return "outside";
    if (options.maxBytes !== undefined && st.size > options.maxBytes) return "too_large";
    return null;
  } catch {
    return "unreadable";
  }
}
