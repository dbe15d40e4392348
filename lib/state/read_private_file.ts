import { closeSync, constants, fstatSync, openSync } from "../node/fs.ts";
import { readFd } from "../node/read_fd.ts";

/** Options for {@linkcode readPrivateFile}. */
export interface ReadPrivateFileOptions {
  /** Largest file read, in bytes. Default 1 MiB: our state files are small. */
  maxBytes?: number;
  /** Require the file to be owned by the current user (POSIX). Default true. */
  requireOwner?: boolean;
  /**
   * Follow a symbolic link instead of refusing it. Default false. Files a project may hold as
   * links (its config, ORCHESTRATION.yaml) set it; the open still never blocks and only a regular
   * file is read, so a link to /dev/zero or a FIFO cannot hang the hook.
   */
  followLinks?: boolean;
}

/** Why {@linkcode readPrivateFile} or {@linkcode readPrivateBytes} read nothing. A closed set. */
export type ReadPrivateFileFailure = {
  ok: false;
  reason: "missing" | "symlink" | "not_regular" | "not_owner" | "too_large" | "unreadable";
  message: string;
};

/** Result of {@linkcode readPrivateFile}. */
export type ReadPrivateFileResult = { ok: true; text: string; mtimeMs: number } | ReadPrivateFileFailure;

/** Result of {@linkcode readPrivateBytes}. */
export type ReadPrivateBytesResult =
  | { ok: true; bytes: Uint8Array; mode: number; mtimeMs: number }
  | ReadPrivateFileFailure;

const O_NOFOLLOW = (constants as Record<string, number>).O_NOFOLLOW ?? 0;
const O_NONBLOCK = (constants as Record<string, number>).O_NONBLOCK ?? 0;

/**
 * Reads one of our own state files defensively: opens it without following a
 * symbolic link and without blocking (a FIFO put in its place cannot hang the
 * hook), then refuses anything that is not a regular file owned by the
 * current user or is larger than `maxBytes`. Never throws.
 *
 * @example
 * ```ts
 * const r = readPrivateFile("/home/a/.local/state/rehydrate/sessions/x.json");
 * if (r.ok) JSON.parse(r.text);
 * ```
 */
export function readPrivateFile(path: string, options: ReadPrivateFileOptions = {}): ReadPrivateFileResult {
  const r = readPrivateBytes(path, options);
  return r.ok ? { ok: true, text: new TextDecoder().decode(r.bytes), mtimeMs: r.mtimeMs } : r;
}

/**
 * {@linkcode readPrivateFile} without the decoding: the bytes as they are on disk (a BOM kept),
 * with the file's permission bits, for a caller that rewrites the file or backs it up byte for
 * byte. The same refusals and limits; never throws.
 *
 * @example
 * ```ts
 * const r = readPrivateBytes("/work/repo/.claude/settings.json", { requireOwner: false, followLinks: true });
 * if (r.ok) console.log(r.bytes.length, (r.mode & 0o777).toString(8));
 * ```
 */
export function readPrivateBytes(path: string, options: ReadPrivateFileOptions = {}): ReadPrivateBytesResult {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (options.followLinks ? 0 : O_NOFOLLOW) | O_NONBLOCK);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, reason: "missing", message: `No file at ${path}` };
    // Followed links end in ELOOP only when they loop: nothing to read, like a missing file.
    if (options.followLinks && code === "ELOOP") {
      return { ok: false, reason: "missing", message: `No file at ${path}: a link loop` };
    }
    if (code === "ELOOP" || code === "EMLINK") {
      return { ok: false, reason: "symlink", message: `Refusing ${path}: it is a symbolic link` };
    }
    if (code === "ENXIO" || code === "EISDIR") {
      return { ok: false, reason: "not_regular", message: `Refusing ${path}: not a regular file` };
    }
    return { ok: false, reason: "unreadable", message: `Cannot open ${path}: ${code ?? String(err)}` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, reason: "not_regular", message: `Refusing ${path}: not a regular file` };
    const uid = typeof process.getuid === "function" ? process.getuid() : -1;
    if ((options.requireOwner ?? true) && uid >= 0 && st.uid !== uid) {
      return { ok: false, reason: "not_owner", message: `Refusing ${path}: owned by uid ${st.uid}` };
    }
    if (st.size > maxBytes) {
      return { ok: false, reason: "too_large", message: `Refusing ${path}: larger than ${maxBytes} bytes` };
    }
    return { ok: true, bytes: readFd(fd, st.size), mode: st.mode, mtimeMs: st.mtimeMs };
  } catch (err) {
    return { ok: false, reason: "unreadable", message: `Cannot read ${path}: ${(err as Error).message}` };
  } finally {
    closeSync(fd);
  }
}
