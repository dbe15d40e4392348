import { lstatSync } from "../node/fs.ts";
import type { HookContext } from "../hook/handle_hook.ts";
import { type LatestCompaction, latestCompaction } from "./latest_compaction.ts";
import { claimPath } from "../state/files.ts";

/**
 * Whether this session's latest compaction was delivered within the last `withinMs`
 * milliseconds. SessionStart(compact) asks it when `pendingDelivery` finds nothing: Claude Code
 * runs all matching hooks of an event in parallel, so rehydrate registered twice (user and
 * project settings) gives two SessionStart(compact) runs for one compaction, and the second
 * must not take the missing record for a compaction whose PreCompact failed. Two real
 * compactions are always further apart than a summarizer call. `options.latest` is the record as
 * this run read it already (`latestCompaction`); default: read here. Never throws for the record.
 *
 * @example
 * ```ts
 * if (!pendingDelivery(ctx) && recentlyDelivered(ctx, 30_000)) return null;
 * ```
 */
export function recentlyDelivered(
  ctx: HookContext,
  withinMs: number,
  options: { latest?: LatestCompaction } = {},
): boolean {
  const latest = options.latest ?? latestCompaction(ctx);
  if (latest === null || latest.record === null) return false;
  const claim = lstatSync(claimPath(latest.stateDir, latest.key, latest.record.compaction_id), {
    throwIfNoEntry: false,
  });
  return claim !== undefined && ctx.now.getTime() - claim.mtimeMs < withinMs;
}
