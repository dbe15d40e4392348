import { closeSync, constants, fstatSync, openSync, readSync } from "../node/fs.ts";

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

/** Result of {@linkcode readPrivateFile}. */
export type ReadPrivateFileResult =
  | { ok: true; text: string; mtimeMs: number }
  | { ok: false; reason: "missing" | "symlink" | "not_regular" | "not_owner" | "too_large" | "unreadable"; message: string };

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
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (options.followLinks ? 0 : O_NOFOLLOW) | O_NONBLOCK);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, reason: "missing", message: `No file at ${path}` };
    // Followed links end in ELOOP only when they loop: nothing to read, like a missing file.
    if (options.followLinks && code === "ELOOP") return { ok: false, reason: "missing", message: `No file at ${path}: a link loop` };
    if (code === "ELOOP" || code === "EMLINK") return { ok: false, reason: "symlink", message: `Refusing ${path}: it is a symbolic link` };
    if (code === "ENXIO" || code === "EISDIR") return { ok: false, reason: "not_regular", message: `Refusing ${path}: not a regular file` };
    return { ok: false, reason: "unreadable", message: `Cannot open ${path}: ${code ?? String(err)}` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, reason: "not_regular", message: `Refusing ${path}: not a regular file` };
    const uid = typeof process.getuid === "function" ? process.getuid() : -1;
    if ((options.requireOwner ?? true) && uid >= 0 && st.uid !== uid) {
      return { ok: false, reason: "not_owner", message: `Refusing ${path}: owned by uid ${st.uid}` };
    }
    if (st.size > maxBytes) return { ok: false, reason: "too_large", message: `Refusing ${path}: larger than ${maxBytes} bytes` };
    const buf = new Uint8Array(st.size);
    let at = 0;
    while (at < buf.length) {
      const n = readSync(fd, buf, at, buf.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return { ok: true, text: new TextDecoder().decode(buf.subarray(0, at)), mtimeMs: st.mtimeMs };
  } catch (err) {
    return { ok: false, reason: "unreadable", message: `Cannot read ${path}: ${(err as Error).message}` };
  } finally {
    closeSync(fd);
  }
}
