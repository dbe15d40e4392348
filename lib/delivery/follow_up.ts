import { closeSync, lstatSync, openSync, writeSync } from "../node/fs.ts";
import type { HookContext } from "../hook/handle_hook.ts";
import { readCompactionRecord } from "./compaction_record.ts";
import { type LatestCompaction, latestCompaction } from "./latest_compaction.ts";
import { claimPath, followUpPath } from "../state/files.ts";

/**
 * Claims the follow-up of this session's latest compaction, before the caller prints it: the
 * context after a compaction comes in two parts. SessionStart(compact) runs before Claude Code
 * has written the compaction's summary, so it gives what summaries lack for sure; the first prompt
 * after it, which can read the summary, gives what that summary left out. This claim is that
 * second part's: a file created exclusively (`compactions/<key>.<compactionId>.followup`, mode
 * 0600), taken once the compaction's context was delivered (its delivery claim exists) and while
 * the compaction is recent (`dispatch.markerMaxAgeSeconds`), so exactly one caller, once, gets the
 * compaction id back and prints; every other call gets null. `options.latest` is the record as
 * this run read it already. Throws when the state directory is unsafe; hooks fail open.
 *
 * @example
 * ```ts
 * const id = claimFollowUp(ctx);
 * if (id !== null) parts.push(sessionFollowUp(ctx, { maxChars: 4000 }));
 * ```
 */
export function claimFollowUp(ctx: HookContext, options: { latest?: LatestCompaction | null } = {}): string | null {
  const latest = options.latest === undefined ? latestCompaction(ctx) : options.latest;
  if (latest === null || latest.record === null) return null;
  const { stateDir: dir, key, record } = latest;
  const at = Date.parse(record.created_at);
  if (!Number.isFinite(at) || ctx.now.getTime() - at > ctx.config().dispatch.markerMaxAgeSeconds * 1000) return null;
  const id = record.compaction_id;
  try {
    lstatSync(claimPath(dir, key, id));
  } catch {
    return null; // not delivered yet: the delivery comes first
  }
  let fd: number;
  try {
    fd = openSync(followUpPath(dir, key, id), "wx", 0o600);
  } catch (err) {
    if ((err as { code?: string }).code === "EEXIST") return null;
    throw err;
  }
  try {
    writeSync(fd, JSON.stringify({ compaction_id: id, followed_up_at: ctx.now.toISOString() }) + "\n");
  } finally {
    closeSync(fd);
  }
  // A PreCompact that replaced the record meanwhile made this compaction an old one.
  const now = readCompactionRecord(dir, key, ctx.input.session_id).record;
  if (now === null || now.compaction_id !== id) return null;
  ctx.log(`delivery: follow-up of compaction ${id} claimed`);
  return id;
}
