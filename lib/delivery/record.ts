import { closeSync, openSync, writeSync } from "../node/fs.ts";
import type { HookContext } from "../hook/handle_hook.ts";
import { ensurePrivateDir } from "../state/ensure_private_dir.ts";
import { readCompactionRecord, writeCompactionRecord } from "./compaction_record.ts";
import { claimPath, compactionsDir, isCompactionId, newCompactionId } from "../state/files.ts";

/** The hook that delivered a compaction's context. */
export type DeliveryChannel = "session-start" | "user-prompt-submit";

/**
 * Claims the delivery of one compaction's context for this session, before
 * the caller prints it: the claim is a file created exclusively
 * (`compactions/<key>.<compactionId>.delivered`, mode 0600), so of any number
 * of hooks, processes or retries exactly one gets the id back and prints;
 * every other call gets null and must print nothing. `compactionId` is the
 * id `pendingDelivery` (or `rereadPreCompact`) gave; pass null from
 * SessionStart(compact) when `pendingDelivery` found no record (PreCompact
 * did not run or saw no workflow): a record with a new id is made and
 * claimed at once. Null also when the session id or compaction id is not a
 * plain id. Throws when the state directory is unsafe; hooks fail open.
 * The debug log says "claimed" here; the caller logs whether it printed
 * anything ("delivered by <channel>: N characters" or "nothing to print").
 *
 * @example
 * ```ts
 * // SessionStart, source "compact"
 * const id = recordDelivery(ctx, pendingDelivery(ctx)?.compactionId ?? null, "session-start");
 * if (id !== null) return { json: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: text } } };
 * return null;
 * ```
 */
export function recordDelivery(ctx: HookContext, compactionId: string | null, channel: DeliveryChannel): string | null {
  const sessionId = ctx.input.session_id;
  const key = ctx.sessionKey;
  if (key === null) return null;
  const dir = ctx.stateDir();
  let id = compactionId;
  if (id === null) {
    id = newCompactionId(ctx.now);
    writeCompactionRecord(dir, key, {
      schema_version: 1,
      session_id: sessionId,
      compaction_id: id,
      workflow: null,
      created_at: ctx.now.toISOString(),
    });
  } else if (!isCompactionId(id)) {
    ctx.log("delivery: compaction id refused");
    return null;
  } else {
    ensurePrivateDir(compactionsDir(dir));
  }
  let fd: number;
  try {
    fd = openSync(claimPath(dir, key, id), "wx", 0o600);
  } catch (err) {
    if ((err as { code?: string }).code === "EEXIST") {
      ctx.log(`delivery: compaction ${id} was already delivered, ${channel} stays silent`);
      return null;
    }
    throw err;
  }
  try {
    writeSync(fd, JSON.stringify({ compaction_id: id, channel, delivered_at: ctx.now.toISOString() }) + "\n");
  } finally {
    closeSync(fd);
  }
  // PreCompact may have replaced the record (and removed the old claim) between the caller's
  // pendingDelivery() and this claim: a claim for a compaction that is no longer the session's
  // latest must not deliver, or a stale compaction would be delivered a second time.
  if (compactionId !== null) {
    const now = readCompactionRecord(dir, key, sessionId).record;
    if (now === null || now.compaction_id !== id) {
      ctx.log(`delivery: compaction ${id} was superseded before ${channel} claimed it; nothing delivered`);
      return null;
    }
  }
  ctx.log(`delivery: compaction ${id} claimed by ${channel}`);
  return id;
}
