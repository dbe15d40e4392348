import type { HookHandler } from "../hook/handle_hook.ts";
import { saveSessionCheckpoint } from "../session/checkpoint.ts";
import { sweepSessionSnapshots } from "../session/snapshot_file.ts";
import { sessionsDir } from "../state/files.ts";
import { sweepTempFiles } from "../state/sweep_temp_files.ts";
import { guard } from "./_guard.ts";

/**
 * The background Stop hook (`rehydrate session-checkpoint`, registered with `"async": true`):
 * after each turn, saves the session's checkpoint (`saveSessionCheckpoint`: its tasks, latest
 * requests and edited files up to the newest activity), which PreCompact continues instead of
 * reading the transcript back to the previous compaction. Prints nothing: Claude Code does not
 * wait for it, and has nothing to show. `session.enabled: false` turns it off with the rest of
 * the everyday layer. After a save it also sweeps the sessions folder (checkpoints and snapshots
 * not written for 7 days, temporary files a killed write left), since a session that never
 * compacts never runs PreCompact's sweep; nobody waits for that either. Under the Codex CLI it does
 * nothing (its PreCompact reads the rollout's tail itself).
 *
 * @example
 * ```ts
 * runHook("Stop", sessionCheckpointHook);
 * ```
 */
export const sessionCheckpointHook: HookHandler<"Stop"> = (ctx) => {
  // Claude Code's transcript only: a Codex rollout has no rows this pass reads.
  if (ctx.host === "codex" || ctx.config().session.enabled === false) return null;
  const r = saveSessionCheckpoint(ctx);
  ctx.log(
    r.saved
      ? `session checkpoint: saved (${r.snapshot.tasks.length} tasks, ${r.snapshot.edited_files_total} edited files)`
      : `session checkpoint: not saved (${r.reason})`,
  );
  if (r.saved) {
    guard(ctx, "sweep", () => {
      sweepTempFiles([sessionsDir(ctx.stateDir())], { now: ctx.now });
      sweepSessionSnapshots(ctx.stateDir(), { now: ctx.now });
    });
  }
  return null;
};
