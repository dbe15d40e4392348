import type { HookHandler } from "../hook/handle_hook.ts";
import { rereadPreToolUse } from "../reread/pre_tool_use.ts";

/**
 * PreToolUse, on every tool call: after a compaction that left a re-read marker, the first tool
 * call is denied once with a reason naming the files to re-read (a Read of one of them passes
 * and counts); every other call costs one failed `lstat`.
 *
 * @example
 * ```ts
 * runHook("PreToolUse", preToolUseHook);
 * ```
 */
export const preToolUseHook: HookHandler<"PreToolUse"> = (ctx) => {
  const reply = rereadPreToolUse(ctx);
  return reply ? { json: reply } : null;
};
