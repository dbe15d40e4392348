import type { HookContext } from "../hook/handle_hook.ts";
import type { HookReply } from "../hook/hook_types.ts";
import { CODEX_HOOK_MAX_BYTES, codexSessionContext } from "../session/codex_context.ts";
import { guard } from "./_guard.ts";
import { deliveryReply, startDelivery } from "./_start_delivery.ts";

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
  const start = startDelivery(ctx);
  if (start.kind === "recent") ctx.log("compact: delivered moments ago by an earlier SessionStart of this thread");
  if (start.kind !== "claimed") return null;
  const context = ctx.config().session.enabled === false
    ? null
    : guard(ctx, "session", () => codexSessionContext(ctx, { maxBytes: CODEX_HOOK_MAX_BYTES }));
  return deliveryReply(ctx, start.id, "session-start", context);
}
