import type { HookContext } from "../hook/handle_hook.ts";
import type { HookReply } from "../hook/hook_types.ts";
import { latestCompaction } from "../delivery/latest_compaction.ts";
import { pendingDelivery } from "../delivery/pending.ts";
import { recordDelivery } from "../delivery/record.ts";
import { CODEX_HOOK_MAX_BYTES, codexSessionContext } from "../session/codex_context.ts";
import { fillWarning } from "../session/fill_warning.ts";
import { guard } from "./_guard.ts";
import { deliveryReply } from "./_start_delivery.ts";

/**
 * UserPromptSubmit under the Codex CLI: when a compaction's context never arrived (SessionStart's
 * output was lost), it claims the delivery and gives the same context SessionStart would have;
 * otherwise the everyday fill warning (`<context-fill>`, from the rollout's token counts, once per
 * threshold crossed). No follow-up: on Codex, SessionStart already knew the summary. The usual
 * prompt's fast path is Claude Code's: a Codex prompt always runs this whole hook.
 *
 * @example
 * ```ts
 * if (ctx.host === "codex") return codexUserPromptSubmit(ctx);
 * ```
 */
export function codexUserPromptSubmit(ctx: HookContext<"UserPromptSubmit">): HookReply {
  const latest = guard(ctx, "delivery", () => latestCompaction(ctx));
  const pending = latest && guard(ctx, "delivery", () => pendingDelivery(ctx, { latest }));
  const claimed = pending &&
    guard(ctx, "delivery", () => recordDelivery(ctx, pending.compactionId, "user-prompt-submit"));
  if (claimed) {
    const context = ctx.config().session.enabled === false
      ? null
      : guard(ctx, "session", () => codexSessionContext(ctx, { maxBytes: CODEX_HOOK_MAX_BYTES }));
    return deliveryReply(ctx, claimed, "user-prompt-submit", context);
  }
  const context = guard(ctx, "fill warning", () => fillWarning(ctx));
  if (!context) return null;
  return { json: { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: context } } };
}
