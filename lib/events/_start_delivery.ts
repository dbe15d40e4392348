// Private helper of the SessionStart handlers (Claude Code's lib/events/session_start.ts and the
// Codex CLI's lib/events/codex_session_start.ts): what every SessionStart does before its
// client's own part, and the delivery claim of a compaction's context.
import type { HookContext } from "../hook/handle_hook.ts";
import type { HookReply } from "../hook/hook_types.ts";
import { join } from "../node/path.ts";
import { latestCompaction } from "../delivery/latest_compaction.ts";
import { pendingDelivery } from "../delivery/pending.ts";
import { recentlyDelivered } from "../delivery/recent.ts";
import { recordDelivery } from "../delivery/record.ts";
import type { CompactionRecord } from "../delivery/compaction_record.ts";
import { restoresDir } from "../state/files.ts";
import { updateSessionRecord } from "../state/session_record.ts";
import { sweepStaleFiles } from "../state/sweep_stale_files.ts";
import { guard } from "./_guard.ts";

const SOURCES = new Set(["startup", "resume", "clear", "compact", "fork"]);
/** Parallel runs of one event finish within this; two compactions are never this close. */
const DUPLICATE_WINDOW_MS = 30_000;
/** How long a restore record stays (`rehydrate status` lists the last compactions). */
const RESTORES_MAX_AGE_MS = 30 * 86_400_000;

/** What {@linkcode startDelivery} decided. */
export type StartDelivery =
  /** `startup` or `clear`: nothing of a compaction to deliver. */
  | { kind: "none"; source: string }
  /** `resume` or `fork` with no compaction waiting: the client replays what the session had. */
  | { kind: "replay"; source: string }
  /** The compaction's context went out moments ago (a second SessionStart of the same moment). */
  | { kind: "recent"; source: string }
  /** Another hook delivered it already. */
  | { kind: "delivered"; source: string }
  /**
   * This run claimed the delivery of compaction `id`: it prints the context. `record` is the
   * compaction's record when the claim took its id (else recordDelivery made one of its own).
   */
  | { kind: "claimed"; source: string; id: string; record: CompactionRecord | null };

/**
 * SessionStart's shared part: records the session's model and source (only SessionStart carries
 * the model, and the model decides the context window), sweeps the per-session files no hook
 * removes (not after a compaction, the start the user waits for), and, on `compact` (or `resume`
 * and `fork` when a compaction's context never arrived), claims the delivery of the session's
 * latest compaction (exactly one claimant wins, docs/delivery.md).
 *
 * @example
 * ```ts
 * const start = startDelivery(ctx);
 * if (start.kind === "claimed") return deliveryReply(ctx, start.id, "session-start", context);
 * ```
 */
export function startDelivery(ctx: HookContext<"SessionStart">): StartDelivery {
  const input = ctx.input;
  const source = typeof input.source === "string" && SOURCES.has(input.source) ? input.source : "startup";
  guard(ctx, "session record", () =>
    updateSessionRecord(ctx.stateDir(), input.session_id, {
      model: typeof input.model === "string" ? input.model : undefined,
      source,
      transcript_path: input.transcript_path,
      cwd: input.cwd,
    }, { now: ctx.now }));
  // The per-session files no hook removes (the fill warning's level, the usual prompt's memo) would
  // pile up: swept by age, a bounded number per start. Not after a compaction: PreCompact has just
  // swept the rest, and the compact start is the one the user waits for.
  if (source !== "compact") {
    guard(ctx, "sweep", () => {
      const dir = ctx.stateDir();
      sweepStaleFiles([join(dir, "fill"), join(dir, "quiet")], { now: ctx.now });
      // A project's restore records are bounded in number when written; one no compaction renewed
      // goes after 30 days.
      sweepStaleFiles([restoresDir(dir)], { now: ctx.now, maxAgeMs: RESTORES_MAX_AGE_MS });
    });
  }
  if (source !== "compact" && source !== "resume" && source !== "fork") return { kind: "none", source };
  // The compaction record is read once for both questions; recordDelivery reads it again after
  // its claim, on purpose (a PreCompact may have replaced it in between).
  const latest = guard(ctx, "delivery", () => latestCompaction(ctx));
  const pending = latest && guard(ctx, "delivery", () => pendingDelivery(ctx, { latest }));
  if (source !== "compact" && !pending) return { kind: "replay", source };
  if (!pending && latest && guard(ctx, "delivery", () => recentlyDelivered(ctx, DUPLICATE_WINDOW_MS, { latest }))) {
    return { kind: "recent", source };
  }
  const id = guard(ctx, "delivery", () => recordDelivery(ctx, pending?.compactionId ?? null, "session-start"));
  if (id === null) {
    ctx.log(`${source}: this compaction's context was delivered already`);
    return { kind: "delivered", source };
  }
  const record = latest?.record?.compaction_id === id ? latest.record : null;
  return { kind: "claimed", source, id, record };
}

/**
 * The reply of a hook that claimed compaction `id`'s delivery on `channel`: `context` as the
 * event's `additionalContext` (with `message`, one line for the user, as `systemMessage`), or
 * nothing; the debug log says which ("delivered" only once something is printed; recordDelivery
 * logged the claim).
 *
 * @example
 * ```ts
 * return deliveryReply(ctx, start.id, "session-start", context, "rehydrate: restored your latest request");
 * ```
 */
export function deliveryReply(
  ctx: HookContext<"SessionStart" | "UserPromptSubmit">,
  id: string,
  channel: "session-start" | "user-prompt-submit",
  context: string | null,
  message = "",
): HookReply {
  ctx.log(
    context
      ? `delivery: compaction ${id} delivered by ${channel}: ${context.length} characters`
      : `delivery: compaction ${id} claimed by ${channel}, nothing to print`,
  );
  if (!context) return null;
  const hookEventName = channel === "session-start" ? "SessionStart" : "UserPromptSubmit";
  return {
    json: {
      hookSpecificOutput: { hookEventName, additionalContext: context },
      ...(message ? { systemMessage: message } : {}),
    },
  };
}
