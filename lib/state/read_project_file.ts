import { closeSync, constants, fstatSync, openSync, realpathSync } from "../node/fs.ts";
import { readFd } from "../node/read_fd.ts";
import { isAbsolute, relative, resolve } from "../node/path.ts";

/** Why a project file was refused or could not be read. A closed set. */
export type ProjectFileProblem =
  /** `..`, an absolute path or a link leading out of the root, or a file with a second hard link. */
  | "outside"
  /** Nothing there. */
  | "missing"
  /** A FIFO, socket, device or directory. */
  | "not_regular"
  /** Larger than the size cap. */
  | "too_large"
  /** Any other I/O error. */
  | "unreadable";

/** Result of {@linkcode readProjectFile}. */
export type ReadProjectFileResult =
  | { ok: true; text: string; size: number; complete: boolean; real: string; mtimeMs: number }
  | { ok: false; problem: ProjectFileProblem };

/** Options of {@linkcode readProjectFile}. */
export interface ReadProjectFileOptions {
  /** Refuse files larger than this (bytes). Default: no refusal, only `headBytes` are read. */
  maxBytes?: number;
  /** Read at most this many bytes from the start. Default: the whole file (up to `maxBytes`). */
  headBytes?: number;
  /** `realpath` of the root, when the caller already has it. Default: looked up. */
  realRoot?: string;
}

const O_NONBLOCK = (constants as Record<string, number>).O_NONBLOCK ?? 0;

/**
 * The one read primitive for a path a project names (SECURITY.md, "Nothing outside the project is
 * read"; issue #36, rule 6): reads `path` (relative to `root`, or absolute) only when its real path
 * lies inside `realpath(root)` (a symbolic link on the way that leads out is refused, whether it is
 * the file or a folder above it), it is a regular file with a single link (a second hard link may
 * be any file of the user's, linked in) and not over `maxBytes`. The file is opened by its checked
 * real path, non-blocking (a FIFO cannot hang the hook), and checked again through the descriptor.
 * Never throws.
 *
 * @example
 * ```ts
 * import { readProjectFile } from "./read_project_file.ts";
 * const r = readProjectFile("/work/repo", "00-system/.cache/precompact_state.json", { maxBytes: 256 * 1024 });
 * if (r.ok) JSON.parse(r.text);
 * else console.log(r.problem); // "outside" when 00-system links to ~
 * ```
 */
export function readProjectFile(
  root: string,
  path: string,
  options: ReadProjectFileOptions = {},
): ReadProjectFileResult {
  if (root === "" || path.includes("\0")) return { ok: false, problem: "outside" };
  let real: string;
  let realRoot: string;
  try {
    realRoot = options.realRoot ?? realpathSync(root);
    real = realpathSync(resolve(root, path));
  } catch (err) {
    const code = (err as { code?: string }).code;
    return {
      ok: false,
      problem: code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP" ? "missing" : "unreadable",
    };
  }
  const rel = relative(realRoot, real);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return { ok: false, problem: "outside" };
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
    if (st.nlink > 1) return { ok: false, problem: "outside" };
    if (options.maxBytes !== undefined && st.size > options.maxBytes) return { ok: false, problem: "too_large" };
    const bytes = readFd(fd, Math.min(st.size, options.headBytes ?? st.size));
    const text = new TextDecoder().decode(bytes);
    return { ok: true, text, size: st.size, complete: bytes.length >= st.size, real, mtimeMs: st.mtimeMs };
  } catch {
    return { ok: false, problem: "unreadable" };
  } finally {
    closeSync(fd);
  }
}
