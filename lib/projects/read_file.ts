// Private helper of the project-workspace modules (lib/projects/read_manifest.ts, lib/projects/build_nexus_context.ts,
// lib/projects/session_start.ts, lib/projects/scan_skills.ts): resolving a path a user's file names and reading it
// without ever leaving the folder it must stay in, following a link out, blocking on a FIFO or
// swallowing a huge file.
import { realpathSync, statSync } from "../node/fs.ts";
import { isAbsolute, relative, resolve, sep } from "../node/path.ts";
import { type ProjectFileProblem, readProjectFile } from "../state/read_project_file.ts";

/** Why a path was refused or could not be read. A closed set. */
export type { ProjectFileProblem } from "../state/read_project_file.ts";

/** A path resolved inside a root: `rel` uses `/` and never starts with `..`. */
export interface ResolvedProjectPath {
  abs: string;
  rel: string;
}

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
 * Reads `abs` (already resolved inside `root`) through the one read primitive for project paths,
 * `readProjectFile` of lib/state/read_project_file.ts: its real path still inside the real root,
 * a regular file with one link, not over `maxBytes`, opened non-blocking. Never throws.
 */
export function readInside(root: string, abs: string, options: ReadInsideOptions = {}): ReadInsideResult {
  const r = readProjectFile(root, abs, options);
  return r.ok ? { ok: true, text: r.text, size: r.size, complete: r.complete } : r;
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
