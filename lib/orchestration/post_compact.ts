import type { HookContext } from "../hook/handle_hook.ts";
import { writeFileAtomic } from "../state/write_file_atomic.ts";
import { listCheckpoints } from "./checkpoints.ts";
import { orchRuntime } from "./_runtime.ts";
import { capSummary, writeOrchCheckpoint } from "./_write_checkpoint.ts";
import { recordWritten, writtenHere } from "./provenance.ts";

/** A checkpoint older than this is not the one of the compaction that just ended. */
const MATCH_WINDOW_MS = 30 * 60 * 1000;

/**
 * PostCompact for orchestration runs: adds Claude Code's `compact_summary` (redacted, capped at
 * 8,000 characters) to the checkpoint PreCompact wrote for this compaction (the newest one of
 * the session without a summary, from the last 30 minutes), with an atomic rewrite, so the next
 * session can read it. When PreCompact left none, writes a checkpoint itself (`trigger.source`
 * `PostCompact`). Does nothing when the layout is absent or there is no summary.
 *
 * @example
 * ```ts
 * import { orchestrationPostCompact } from "./post_compact.ts";
 *
 * const postCompact: HookHandler<"PostCompact"> = (ctx) => {
 *   orchestrationPostCompact(ctx);
 *   return null;
 * };
 * ```
 */
export function orchestrationPostCompact(ctx: HookContext<"PostCompact">): void {
  const input = ctx.input;
  if (typeof input.compact_summary !== "string" || input.compact_summary.trim() === "") return;
  const rt = orchRuntime(ctx, { transcript: false });
  if (rt === null) return;
  const entries = listCheckpoints(rt.paths.checkpointsDir);
  for (let i = entries.length - 1; i >= 0; i--) {
    const cp = entries[i].data;
    if (cp === null || cp.session_id !== input.session_id) continue;
    const age = ctx.now.getTime() - Date.parse(cp.created_at);
    if (typeof cp.compact_summary === "string" || !(age >= -60_000 && age <= MATCH_WINDOW_MS)) break;
    // Only a checkpoint we wrote gets the summary (and stays ours): a planted one is left alone.
    if (!writtenHere(ctx, entries[i])) continue;
    cp.compact_summary = capSummary(input.compact_summary);
    writeFileAtomic(entries[i].path, JSON.stringify(cp, null, 2) + "\n");
    recordWritten(ctx, entries[i].path, cp);
    return;
  }
  writeOrchCheckpoint(ctx, rt, "PostCompact", { compactSummary: input.compact_summary });
}
