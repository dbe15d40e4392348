import type { HookHandler } from "./handle_hook.ts";
import { orchestrationPostToolUse } from "./orchestration_staleness.ts";
import { rereadPostToolUse } from "./reread_post_tool_use.ts";
import { guard } from "./_hook_guard.ts";

/**
 * PostToolUse: registers a session as a handler when it invokes the handler skill, and after a
 * Write or Edit of an ORCHESTRATION.yaml warns (through `additionalContext`, the only channel
 * the model sees for this event) when its resumption section is stale.
 *
 * @example
 * ```ts
 * await runHook("PostToolUse", postToolUseHook);
 * ```
 */
export const postToolUseHook: HookHandler = (ctx) => {
  guard(ctx, "re-read", () => rereadPostToolUse(ctx));
  const warning = guard(ctx, "orchestration", () => orchestrationPostToolUse(ctx));
  if (!warning) return null;
  return { json: { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: warning } } };
};
