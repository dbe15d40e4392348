import { lstatSync } from "../node/fs.ts";
import type { HookContext } from "../hook/handle_hook.ts";
import type { DeliveryWorkflow } from "./compaction_record.ts";
import { type LatestCompaction, latestCompaction } from "./latest_compaction.ts";
import { claimPath } from "../state/files.ts";

/** A compaction whose context this session has not received yet. */
export interface PendingDelivery {
  compactionId: string;
  /** The workflow PreCompact saw, or null. */
  workflow: DeliveryWorkflow;
  /** ISO time of the compaction. */
  compactedAt: string;
}

/**
 * Asks whether this session's latest compaction still waits for its context:
 * PreCompact recorded it (`rereadPreCompact`), nothing has claimed its
 * delivery (`recordDelivery`), and it is not older than
 * `dispatch.markerMaxAgeSeconds`. UserPromptSubmit calls it on every prompt
 * to re-deliver a short form when SessionStart(compact) did not; SessionStart
 * with source `resume` calls it so that a resumed session gets only what it
 * never received. Null otherwise; a record that is unsafe (a link, another
 * owner, a directory others can write) is refused and logged. The usual
 * case, no compaction, costs one failed `open`. `options.latest` is the
 * record as this run read it already (`latestCompaction`); default: read
 * here. Never throws for the record itself; `ctx.stateDir()` may throw when
 * the directory is unsafe.
 *
 * @example
 * ```ts
 * // UserPromptSubmit
 * const pending = pendingDelivery(ctx);
 * if (pending && recordDelivery(ctx, pending.compactionId, "user-prompt-submit")) return { stdout: shortForm };
 * ```
 */
export function pendingDelivery(ctx: HookContext, options: { latest?: LatestCompaction } = {}): PendingDelivery | null {
  const latest = options.latest ?? latestCompaction(ctx);
  if (latest === null || latest.record === null) return null;
  const { stateDir: dir, key, record } = latest;
  const at = Date.parse(record.created_at);
  if (!Number.isFinite(at) || ctx.now.getTime() - at > ctx.config().dispatch.markerMaxAgeSeconds * 1000) return null;
  try {
    lstatSync(claimPath(dir, key, record.compaction_id));
    return null; // delivered
  } catch { /* no claim: pending */ }
  return { compactionId: record.compaction_id, workflow: record.workflow ?? null, compactedAt: record.created_at };
}
