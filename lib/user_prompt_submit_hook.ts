import type { HookHandler } from "./handle_hook.ts";
import { dispatchSessionStart } from "./dispatch_session_start.ts";
import { pendingDelivery } from "./delivery_pending.ts";
import { recordDelivery } from "./delivery_record.ts";
import { mayUseOrchestration } from "./uses_orchestration_layout.ts";
import { usesProjectsLayout } from "./uses_projects_layout.ts";
import { guard, guardAsync, joinWithin } from "./_hook_guard.ts";

const SHORT_FORM_CHARS = 4000;

/**
 * UserPromptSubmit, on every prompt: the second delivery channel and the context monitor.
 * When a compaction's context never arrived (SessionStart's output was dropped), it claims the
 * delivery and injects a short form (the dispatch pointer, the project's compact context within
 * 4,000 characters, files beyond that named for the agent to read); a compaction is never
 * delivered twice. Then the orchestration monitor adds `<context-monitor>` from WARNING up and
 * the compaction alert or its reminder. Workflow code is loaded only where its layout exists, so
 * the usual prompt costs one failed `open`, two `stat`s and a bounded look at the transcript tail.
 *
 * @example
 * ```ts
 * void runHook("UserPromptSubmit", userPromptSubmitHook);
 * ```
 */
export const userPromptSubmitHook: HookHandler = async (ctx) => {
  const parts: (string | null | undefined)[] = [];
  const config = ctx.config();
  const pending = guard(ctx, "delivery", () => pendingDelivery(ctx));
  if (pending && guard(ctx, "delivery", () => recordDelivery(ctx, pending.compactionId, "user-prompt-submit"))) {
    ctx.log(`re-delivering compaction ${pending.compactionId}: SessionStart did not`);
    parts.push(guard(ctx, "dispatch", () => dispatchSessionStart(ctx, { short: true, maxChars: 1000 })));
    if (usesProjectsLayout(ctx.projectDir, config)) {
      parts.push((await guardAsync(ctx, "project", async () => {
        const { projectSessionStart } = await import("./project_session_start.ts");
        return projectSessionStart(ctx, { source: "compact", maxChars: SHORT_FORM_CHARS });
      }))?.additionalContext);
    }
  }
  if (mayUseOrchestration(ctx.projectDir, config)) {
    parts.push(await guardAsync(ctx, "orchestration", async () => (await import("./orchestration_monitor.ts")).orchestrationPromptContext(ctx)));
  }
  const context = joinWithin(parts, Math.min(config.budget.maxChars, 10_000));
  if (!context) return null;
  return { json: { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: context } } };
};
