import type { SessionStartInput } from "./hook_types.ts";
import type { HookHandler } from "./handle_hook.ts";
import { updateSessionRecord } from "./update_session_record.ts";

/**
 * SessionStart: records the session's main-loop model and source (the model
 * decides the context window later, and only SessionStart carries it), then
 * hands over to the workflows. Sources: `startup`, `resume`, `clear`,
 * `compact`, `fork`.
 *
 * @example
 * ```ts
 * await runHook("SessionStart", sessionStartHook);
 * ```
 */
export const sessionStartHook: HookHandler = (ctx) => {
  const input = ctx.input as SessionStartInput;
  updateSessionRecord(ctx.stateDir(), input.session_id, {
    model: typeof input.model === "string" ? input.model : undefined,
    source: typeof input.source === "string" ? input.source : undefined,
    transcript_path: input.transcript_path,
    cwd: input.cwd,
  }, { now: ctx.now });
  return null;
};
