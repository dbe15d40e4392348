import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "../node/fs.ts";
import { basename, dirname, join } from "../node/path.ts";

/** Options for {@linkcode writeFileAtomic}. */
export interface WriteFileAtomicOptions {
  /** Permission bits of the new file. Default 0o600 (owner only). */
  mode?: number;
  /**
   * fsync the data before the rename. Default true. False only for caches rewritten on every
   * prompt (the context-monitor state): a crash then leaves the old file, a stray temp file, or on
   * file systems that reorder the rename before the data an empty file that readers treat as
   * missing; never a torn file under the final name on ext4/xfs/apfs/ntfs.
   */
  sync?: boolean;
  /**
   * Also fsync the directory, so the rename itself survives a power cut. Default false: without
   * it a crash still leaves the old or the new complete file; with it the new one is also durable.
   * Skipped on Windows.
   */
  syncDir?: boolean;
}

let counter = 0;

/**
 * Writes a file so that readers only ever see the old complete content or the
 * new complete content: the data goes to a fresh temporary file in the same
 * directory (created exclusively, owner-only), is fsynced, and is renamed over
 * the target (then, with `syncDir`, the directory is fsynced). A crash at any
 * point leaves the old or the new complete file and at worst a stray `*.tmp` file. Throws on failure after
 * removing its temporary file.
 *
 * @example
 * ```ts
 * writeFileAtomic("/home/a/.local/state/rehydrate/s.json", JSON.stringify({ ok: true }));
 * ```
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, options: WriteFileAtomicOptions = {}): void {
  const mode = options.mode ?? 0o600;
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.${(counter++).toString(36)}.tmp`);
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  let fd = -1;
  try {
    fd = openSync(tmp, "wx", mode);
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
    if (options.sync ?? true) fsyncSync(fd);
    closeSync(fd);
    fd = -1;
    renameSync(tmp, path);
  } catch (err) {
    if (fd >= 0) {
      try {
        closeSync(fd);
      } catch { /* already failing */ }
    }
    try {
      unlinkSync(tmp);
    } catch { /* never created, or already renamed */ }
    throw err;
  }
  if (options.syncDir === true && process.platform !== "win32") {
    try {
      const dfd = openSync(dir, "r");
      try {
        fsyncSync(dfd);
      } finally {
        closeSync(dfd);
      }
    } catch { /* some filesystems refuse a directory fsync; the rename is done */ }
  }
}
