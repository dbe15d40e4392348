import { lstatSync, readdirSync, unlinkSync } from "../node/fs.ts";
import { join } from "../node/path.ts";
import { compactionsDir, currentUid, markersDir, sessionsDir, unsafeDirReason } from "../state/files.ts";

/** Options for {@linkcode expireRereadState}. */
export interface ExpireRereadStateOptions {
  /** The current time. Default `new Date()`. */
  now?: Date;
  /** Markers, compaction records and delivery claims older than this are deleted. Default 86400. */
  maxAgeSeconds?: number;
  /** Handler registrations not refreshed for this long are deleted. Default 30 days. */
  registrationMaxAgeSeconds?: number;
  /** Most directory entries looked at per directory. Default 500. */
  maxEntries?: number;
}

/**
 * Deletes what the re-read and delivery state leaves behind: markers never
 * consumed, half-consumed markers of a hook that died (`*.consumed.*`) and
 * temporary files of an interrupted write (after a minute), compaction records and delivery claims older than
 * `maxAgeSeconds`, and handler registrations not refreshed for
 * `registrationMaxAgeSeconds` (each compaction of a handler session refreshes
 * it). Only regular files owned by the current user in private directories
 * are touched. Returns how many files were deleted. Never throws.
 *
 * @example
 * ```ts
 * expireRereadState(ctx.stateDir(), { maxAgeSeconds: ctx.config().dispatch.markerMaxAgeSeconds });
 * ```
 */
export function expireRereadState(stateDir: string, options: ExpireRereadStateOptions = {}): number {
  const now = (options.now ?? new Date()).getTime();
  const maxAge = (options.maxAgeSeconds ?? 86400) * 1000;
  const roleAge = (options.registrationMaxAgeSeconds ?? 30 * 86400) * 1000;
  const maxEntries = options.maxEntries ?? 500;
  let removed = 0;
  const sweep = (dir: string, ageOf: (name: string) => number | null): void => {
    if (unsafeDirReason(dir) !== null) return;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    const uid = currentUid();
    for (const name of names.slice(0, maxEntries)) {
      const limit = ageOf(name);
      if (limit === null) continue;
      const path = join(dir, name);
      try {
        const st = lstatSync(path);
        if (!st.isFile() || (uid >= 0 && st.uid !== uid)) continue;
        if (now - st.mtimeMs > limit) {
          unlinkSync(path);
          removed++;
        }
      } catch { /* gone already */ }
    }
  };
  sweep(
    markersDir(stateDir),
    (n) => n.includes(".consumed.") || n.endsWith(".tmp") ? 60_000 : n.endsWith(".json") ? maxAge : null,
  );
  sweep(
    compactionsDir(stateDir),
    (n) =>
      n.endsWith(".tmp")
        ? 60_000
        : n.endsWith(".json") || n.endsWith(".delivered") || n.endsWith(".followup")
        ? maxAge
        : null,
  );
  sweep(sessionsDir(stateDir), (n) => n.endsWith(".role.json") ? roleAge : null);
  return removed;
}
