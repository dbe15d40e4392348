import type { HookHandler } from "../hook/handle_hook.ts";
import { saveSessionCheckpoint } from "../session/checkpoint.ts";

/**
 * The background Stop hook (`rehydrate session-checkpoint`, registered with `"async": true`):
 * after each turn, saves the session's checkpoint (`saveSessionCheckpoint`: its tasks, latest
 * requests and edited files up to the newest activity), which PreCompact continues instead of
 * reading the transcript back to the previous compaction. Prints nothing: Claude Code does not
 * wait for it, and has nothing to show. `session.enabled: false` turns it off with the rest of
 * the everyday layer.
 *
 * @example
 * ```ts
 * runHook("Stop", sessionCheckpointHook);
 * ```
 */
export const sessionCheckpointHook: HookHandler<"Stop"> = (ctx) => {
  if (ctx.config().session.enabled === false) return null;
  const r = saveSessionCheckpoint(ctx);
  ctx.log(
    r.saved
      ? `session checkpoint: saved (${r.snapshot.tasks.length} tasks, ${r.snapshot.edited_files_total} edited files)`
      : `session checkpoint: not saved (${r.reason})`,
  );
  return null;
};
