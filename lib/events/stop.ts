import type { HookHandler } from "../hook/handle_hook.ts";
import { rereadStop } from "../reread/stop.ts";

/**
 * Stop: the failsafe when the agent answers without any tool call after a compaction: blocks
 * once with the re-read reason. Never while `stop_hook_active` is true (the loop breaker).
 *
 * @example
 * ```ts
 * runHook("Stop", stopHook);
 * ```
 */
export const stopHook: HookHandler<"Stop"> = (ctx) => {
  const reply = rereadStop(ctx);
  return reply ? { json: reply } : null;
};
