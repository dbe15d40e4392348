import type { HookContext } from "../hook/handle_hook.ts";
import { type CompactionRecord, readCompactionRecord } from "./compaction_record.ts";

/** The session's latest compaction record as one hook run read it. */
export interface LatestCompaction {
  /** The private state directory. */
  stateDir: string;
  /** The session's key (`ctx.sessionKey`). */
  key: string;
  /** The record, or null when there is none or it was refused (and logged). */
  record: CompactionRecord | null;
}

/**
 * Reads this session's compaction record (`compactions/<key>.json`) once, for
 * `pendingDelivery` and `recentlyDelivered` to share: SessionStart asks both about the same
 * record. A record that is unsafe (a link, another owner, a directory others can write) or
 * malformed is refused and logged. Null when the session id is not a plain id. Throws when the
 * state directory is unsafe.
 *
 * @example
 * ```ts
 * const latest = latestCompaction(ctx);
 * const pending = latest && pendingDelivery(ctx, { latest });
 * if (!pending && latest && recentlyDelivered(ctx, 30_000, { latest })) return null;
 * ```
 */
export function latestCompaction(ctx: HookContext): LatestCompaction | null {
  const key = ctx.sessionKey;
  if (key === null) return null;
  const stateDir = ctx.stateDir();
  const { record, problem } = readCompactionRecord(stateDir, key, ctx.input.session_id);
  if (problem !== null) ctx.log(`delivery: record refused: ${problem}`);
  return { stateDir, key, record };
}
