import type { HookHandler } from "../hook/handle_hook.ts";
import { mayUseOrchestration } from "../orchestration/uses_orchestration_layout.ts";
import { orchestrationPostCompact } from "../orchestration/post_compact.ts";

/**
 * PostCompact (Claude Code 2.1.76+): stores the `compact_summary` Claude Code produced, redacted
 * and capped, with the orchestration checkpoint, so a new session can read it. Prints nothing.
 *
 * @example
 * ```ts
 * runHook("PostCompact", postCompactHook);
 * ```
 */
export const postCompactHook: HookHandler<"PostCompact"> = (ctx) => {
  // Codex sends no summary here (its SessionStart reads it from the rollout).
  if (ctx.host === "codex" || !mayUseOrchestration(ctx.projectDir, ctx.config())) return null;
  orchestrationPostCompact(ctx);
  return null;
};
