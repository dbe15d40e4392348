import type { HookContext } from "../hook/handle_hook.ts";
import type { HookReply } from "../hook/hook_types.ts";
import { join } from "../node/path.ts";
import { latestCompaction } from "../delivery/latest_compaction.ts";
import { pendingDelivery } from "../delivery/pending.ts";
import { recentlyDelivered } from "../delivery/recent.ts";
import { recordDelivery } from "../delivery/record.ts";
import { updateSessionRecord } from "../state/session_record.ts";
import { sweepStaleFiles } from "../state/sweep_stale_files.ts";
import { CODEX_HOOK_MAX_BYTES, codexSessionContext } from "../session/codex_context.ts";
import { guard } from "./_guard.ts";

const SOURCES = new Set(["startup", "resume", "clear", "compact", "fork"]);
/** Parallel runs of one event finish within this; two compactions are never this close. */
const DUPLICATE_WINDOW_MS = 30_000;

/**
 * SessionStart under the Codex CLI. It records the thread's model and source, and after a
 * compaction delivers its context once: on `compact`, and on `resume` or `fork` only when the
 * compaction's context never arrived (a resumed thread that compacts before its first turn runs
 * SessionStart `resume`, then `compact`, both after the summary is written). The context is
 * `codexSessionContext`: SessionStart's element and what the summary lacks, at once, within
 * Codex's 2,500-token cap. `startup` and `clear` deliver nothing.
 *
 * @example
 * ```ts
 * if (ctx.host === "codex") return codexSessionStart(ctx);
 * ```
 */
export function codexSessionStart(ctx: HookContext<"SessionStart">): HookReply {
  const input = ctx.input;
  const source = typeof input.source === "string" && SOURCES.has(input.source) ? input.source : "startup";
  guard(ctx, "session record", () =>
    updateSessionRecord(ctx.stateDir(), input.session_id, {
      model: typeof input.model === "string" ? input.model : undefined,
      source,
      transcript_path: input.transcript_path,
      cwd: input.cwd,
    }, { now: ctx.now }));
  if (source !== "compact") {
    guard(ctx, "sweep", () => {
      const dir = ctx.stateDir();
      sweepStaleFiles([join(dir, "fill"), join(dir, "quiet")], { now: ctx.now });
    });
  }
  if (source !== "compact" && source !== "resume" && source !== "fork") return null;
  const latest = guard(ctx, "delivery", () => latestCompaction(ctx));
  const pending = latest && guard(ctx, "delivery", () => pendingDelivery(ctx, { latest }));
  if (source !== "compact" && !pending) return null;
  if (!pending && latest && guard(ctx, "delivery", () => recentlyDelivered(ctx, DUPLICATE_WINDOW_MS, { latest }))) {
    ctx.log("compact: delivered moments ago by an earlier SessionStart of this thread");
    return null;
  }
  const claimed = guard(ctx, "delivery", () => recordDelivery(ctx, pending?.compactionId ?? null, "session-start"));
  if (claimed === null) {
    ctx.log(`${source}: this compaction's context was delivered already`);
    return null;
  }
  const context = ctx.config().session.enabled === false
    ? null
    : guard(ctx, "session", () => codexSessionContext(ctx, { maxBytes: CODEX_HOOK_MAX_BYTES }));
  ctx.log(
    context
      ? `delivery: compaction ${claimed} delivered by session-start: ${context.length} characters`
      : `delivery: compaction ${claimed} claimed by session-start, nothing to print`,
  );
  if (!context) return null;
  return { json: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context } } };
}
