import type { HookHandler } from "./handle_hook.ts";
import { dispatchSessionStart } from "./dispatch_session_start.ts";
import { pendingDelivery } from "./delivery_pending.ts";
import { recordDelivery } from "./delivery_record.ts";
import { orchestrationPromptContext } from "./orchestration_monitor.ts";
import { projectSessionStart } from "./project_session_start.ts";
import { guard, joinWithin } from "./_hook_guard.ts";

const SHORT_FORM_CHARS = 4000;

/**
 * UserPromptSubmit, on every prompt: the second delivery channel and the context monitor.
 * When a compaction's context never arrived (SessionStart's output was dropped), it claims the
 * delivery and injects a short form (the dispatch pointer, the project's compact context within
 * 4,000 characters, files beyond that named for the agent to read); a compaction is never
 * delivered twice. Then the orchestration monitor adds `<context-monitor>` from WARNING up and
 * the compaction alert or its reminder. The usual prompt costs one failed `open` and a
 * bounded look at the transcript tail.
 *
 * @example
 * ```ts
 * await runHook("UserPromptSubmit", userPromptSubmitHook);
 * ```
 */
export const userPromptSubmitHook: HookHandler = (ctx) => {
  const parts: (string | null | undefined)[] = [];
  const pending = guard(ctx, "delivery", () => pendingDelivery(ctx));
  if (pending && guard(ctx, "delivery", () => recordDelivery(ctx, pending.compactionId, "user-prompt-submit"))) {
    ctx.log(`re-delivering compaction ${pending.compactionId}: SessionStart did not`);
    parts.push(guard(ctx, "dispatch", () => dispatchSessionStart(ctx, { short: true, maxChars: 1000 })));
    parts.push(guard(ctx, "project", () => projectSessionStart(ctx, { source: "compact", maxChars: SHORT_FORM_CHARS }))?.additionalContext);
  }
  parts.push(guard(ctx, "orchestration", () => orchestrationPromptContext(ctx)));
  const context = joinWithin(parts, Math.min(ctx.config().budget.maxChars, 10_000));
  if (!context) return null;
  return { json: { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: context } } };
};
