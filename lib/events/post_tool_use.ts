import type { HookHandler } from "../hook/handle_hook.ts";
import { rereadPostToolUse } from "../dispatch/post_tool_use.ts";
import { mayUseOrchestration } from "../orchestration/uses_orchestration_layout.ts";
import { guard } from "./_guard.ts";
import { isOrchestrationFile } from "../orchestration/paths.ts";
import { orchestrationPostToolUse } from "../orchestration/staleness.ts";

const WRITES = new Set(["Write", "Edit", "MultiEdit"]);

/**
 * PostToolUse: registers a session as a handler when it invokes the handler skill, and after a
 * Write or Edit of an ORCHESTRATION.yaml warns (through `additionalContext`, the only channel
 * the model sees for this event) when its resumption section is stale. The orchestration code runs
 * only for a write of an ORCHESTRATION.yaml in a workspace that has runs. It is imported
 * statically: a lazy `import()` made the usual tool call a little cheaper in dist/post-tool-use
 * but made the bundler wrap the orchestration modules in lazy initialisers in every bundle of the
 * multicall binary, which cost the usual prompt and `rehydrate stop` more there (bench/README.md,
 * "The multicall binary").
 *
 * @example
 * ```ts
 * runHook("PostToolUse", postToolUseHook);
 * ```
 */
export const postToolUseHook: HookHandler<"PostToolUse"> = (ctx) => {
  guard(ctx, "re-read", () => rereadPostToolUse(ctx));
  const tool = ctx.input.tool_name;
  if (typeof tool !== "string" || !WRITES.has(tool) || !namesOrchestrationFile(ctx.input.tool_input)) return null;
  if (!mayUseOrchestration(ctx.projectDir, ctx.config())) return null;
  const warning = guard(ctx, "orchestration", () => orchestrationPostToolUse(ctx));
  if (!warning) return null;
  return { json: { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: warning } } };
};

/**
 * Whether the tool wrote a file named ORCHESTRATION.yaml: the only writes the staleness check
 * looks at, tested before any orchestration code runs (most tool calls write other files).
 */
function namesOrchestrationFile(toolInput: unknown): boolean {
  const path = typeof toolInput === "object" && toolInput !== null
    ? (toolInput as { file_path?: unknown }).file_path
    : undefined;
  return typeof path === "string" && isOrchestrationFile(path);
}
