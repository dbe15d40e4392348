import type { HookContext } from "../hook/handle_hook.ts";
import { consumeRereadMarker } from "./marker_consume.ts";

/**
 * Stop part of the re-read enforcement, the failsafe for a first answer
 * after compaction that called no tool: while `stop_hook_active` is true it
 * does nothing (the loop breaker: this turn already continued because of a
 * Stop hook); otherwise, when a marker is left for this session, it consumes
 * it and blocks the stop with `decision: "block"` and the same reason
 * PreToolUse would give, so the model re-reads the files. Null otherwise.
 *
 * @example
 * ```ts
 * export const stopHook: HookHandler<"Stop"> = (ctx) => {
 *   const json = rereadStop(ctx);
 *   return json ? { json } : null;
 * };
 * ```
 */
export function rereadStop(ctx: HookContext<"Stop">): Record<string, unknown> | null {
  const input = ctx.input;
  if (input.stop_hook_active === true) return null;
  const marker = consumeRereadMarker(ctx.stateDir(), input.session_id, {
    now: ctx.now,
    maxAgeSeconds: ctx.config().dispatch.markerMaxAgeSeconds,
    log: ctx.log,
  });
  if (marker === null) return null;
  ctx.log("re-read marker consumed: stop blocked once");
  return { decision: "block", reason: marker.reason };
}
