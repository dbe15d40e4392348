import { closeSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

let counter = 0;

/**
 * Replaces a small cache file atomically (exclusive owner-only temp file, then rename) without
 * fsync: the monitor state is rewritten on every prompt and costs nothing to lose, while an fsync
 * costs milliseconds each time. A crash leaves the old file or a stray temp file, never a torn one
 * under the final name, except on file systems that reorder the rename before the data, where
 * a reader then finds an empty or invalid file and treats it as missing.
 */
export function writeStateFile(path: string, text: string): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${(counter++).toString(36)}.tmp`);
  const bytes = new TextEncoder().encode(text);
  let fd = -1;
  try {
    fd = openSync(tmp, "wx", 0o600);
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
    closeSync(fd);
    fd = -1;
    renameSync(tmp, path);
  } catch (err) {
    if (fd >= 0) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch { /* never created, or renamed */ }
    throw err;
  }
}
