import type { HookHandler } from "../hook/handle_hook.ts";
import { rereadPostToolUse } from "../dispatch/post_tool_use.ts";
import { mayUseOrchestration } from "../orchestration/uses_orchestration_layout.ts";
import { guard, guardAsync } from "./_guard.ts";
import { isOrchestrationFile } from "../orchestration/paths.ts";
import { orchestrationPostToolUse } from "../orchestration/staleness.ts";

const WRITES = new Set(["Write", "Edit", "MultiEdit"]);

/**
 * PostToolUse: registers a session as a handler when it invokes the handler skill, and after a
 * Write or Edit of an ORCHESTRATION.yaml warns (through `additionalContext`, the only channel
 * the model sees for this event) when its resumption section is stale. The orchestration code runs
 * only for a write of an ORCHESTRATION.yaml in a workspace that has runs. It is imported
 * statically: a lazy `import()` saved the usual tool call 0.2 million instructions in dist/post-tool-use
 * but made the bundler wrap the orchestration modules in lazy initialisers in every bundle of the
 * multicall binary, which cost the usual prompt there 0.45 million and `rehydrate stop` 0.2 million.
 *
 * @example
 * ```ts
 * void runHook("PostToolUse", postToolUseHook);
 * ```
 */
export const postToolUseHook: HookHandler = async (ctx) => {
  guard(ctx, "re-read", () => rereadPostToolUse(ctx));
  const tool = (ctx.input as { tool_name?: unknown }).tool_name;
  if (typeof tool !== "string" || !WRITES.has(tool) || !namesOrchestrationFile(ctx.input)) return null;
  if (!mayUseOrchestration(ctx.projectDir, ctx.config())) return null;
  const warning = await guardAsync(ctx, "orchestration", async () => orchestrationPostToolUse(ctx));
  if (!warning) return null;
  return { json: { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: warning } } };
};

/**
 * Whether the tool wrote a file named ORCHESTRATION.yaml: the only writes the staleness check
 * looks at, tested before any orchestration code runs (most tool calls write other files).
 */
function namesOrchestrationFile(input: unknown): boolean {
  const toolInput = (input as { tool_input?: { file_path?: unknown } }).tool_input;
  const path = typeof toolInput === "object" && toolInput !== null ? toolInput.file_path : undefined;
  return typeof path === "string" && isOrchestrationFile(path);
}
