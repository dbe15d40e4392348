import { lstatSync, readdirSync, unlinkSync } from "../node/fs.ts";
import { join } from "../node/path.ts";

/** Options for {@linkcode sweepTempFiles}. */
export interface SweepTempFilesOptions {
  /** Only files older than this are removed. Default one hour: a live writer is never that slow. */
  olderThanMs?: number;
  /** Clock. Default now. */
  now?: Date;
  /** Most entries looked at per directory. Default 1,000. */
  maxEntries?: number;
}

const TEMP = /^\..+\.tmp$/;

/**
 * Removes the temporary files an atomic write leaves behind when its process is killed between
 * creating the file and renaming it (`.<name>.<pid>.<…>.tmp`), in each of `dirs`: regular files
 * only, never links, and only when older than `olderThanMs`. Returns how many were removed.
 * Never throws; a missing directory is skipped. PreCompact runs it, rarely enough to cost nothing.
 *
 * @example
 * ```ts
 * sweepTempFiles([join(stateDir, "sessions"), join(stateDir, "markers")]);
 * ```
 */
export function sweepTempFiles(dirs: readonly string[], options: SweepTempFilesOptions = {}): number {
  const cutoff = (options.now ?? new Date()).getTime() - (options.olderThanMs ?? 3_600_000);
  const max = options.maxEntries ?? 1000;
  let removed = 0;
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names.slice(0, max)) {
      if (!TEMP.test(name)) continue;
      const path = join(dir, name);
      try {
        const st = lstatSync(path);
        if (!st.isFile() || st.mtimeMs > cutoff) continue;
        unlinkSync(path);
        removed++;
      } catch { /* gone already, or not ours to remove */ }
    }
  }
  return removed;
}
