import { lstatSync, readdirSync, unlinkSync } from "../node/fs.ts";
import { join } from "../node/path.ts";
import { currentUid, unsafeDirReason } from "./files.ts";

/** Options for {@linkcode sweepStaleFiles}. */
export interface SweepStaleFilesOptions {
  /** Files not written for this long are removed. Default seven days, as the session snapshots. */
  maxAgeMs?: number;
  /** Clock. Default now. */
  now?: Date;
  /** Most entries looked at per directory and run. Default 100: about a millisecond. */
  maxEntries?: number;
  /**
   * Where in a directory's listing the run starts (wrapping round). Default a random place, so that
   * runs over a directory larger than `maxEntries` do not all look at the same entries.
   */
  start?: number;
}

/** What a per-session folder holds: `<session key>.json`, and `.<name>.tmp` of a write killed midway. */
const OURS = /\.(?:json|tmp)$/;

/**
 * Removes the per-session files nothing else removes (the fill warning's `fill/<session>.json`,
 * the usual prompt's memo `quiet/<session>.json`) once they have not been written for `maxAgeMs`,
 * and the temp files of writes killed midway there. In each of `dirs` (a missing one is skipped):
 * only a private directory of ours (not a link, owned by us, not writable by others), and in it only
 * regular files owned by us named `*.json` or `*.tmp`, never links (`lstat`) or anything else. The
 * work is bounded: the listing holds names only, and at most `maxEntries` of them are looked at,
 * from a random place on, so a folder that grew huge is emptied over several runs without making
 * one of them slow. Returns how many files were removed. Never throws.
 *
 * @example
 * ```ts
 * import { sweepStaleFiles } from "./sweep_stale_files.ts";
 *
 * sweepStaleFiles(["/home/me/.local/state/rehydrate/fill", "/home/me/.local/state/rehydrate/quiet"]);
 * ```
 */
export function sweepStaleFiles(dirs: readonly string[], options: SweepStaleFilesOptions = {}): number {
  const cutoff = (options.now ?? new Date()).getTime() - (options.maxAgeMs ?? 7 * 86_400_000);
  const max = options.maxEntries ?? 100;
  const uid = currentUid();
  let removed = 0;
  for (const dir of dirs) {
    // A linked or foreign folder is not ours to empty (and its files may be anyone's).
    if (unsafeDirReason(dir) !== null) continue;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    const n = names.length;
    if (n === 0) continue;
    const first = Math.floor(Math.abs(options.start ?? Math.random() * n)) % n;
    for (let i = 0; i < Math.min(n, max); i++) {
      const name = names[(first + i) % n];
      if (!OURS.test(name)) continue;
      const path = join(dir, name);
      try {
        const st = lstatSync(path);
        if (!st.isFile() || (uid >= 0 && st.uid !== uid) || st.mtimeMs > cutoff) continue;
        unlinkSync(path);
        removed++;
      } catch { /* gone already, or not ours to remove */ }
    }
  }
  return removed;
}
