import type { HookContext } from "../hook/handle_hook.ts";
import { deliveryKey, isUnacknowledged, listCheckpoints } from "./checkpoints.ts";
import { orchRuntime } from "./_runtime.ts";
import { readSessionView, recordOrchestrationDelivery, type SessionView } from "./_session.ts";
import { compactionAlertFor } from "./_alert_delivery.ts";
import { resumePromptFor, runOfCheckpoint } from "./resume.ts";
import { readResumptionCached } from "./_resumption_cache.ts";
import { elsewhereLine, writtenHere } from "./provenance.ts";

/** Options for {@linkcode orchestrationSessionStart}. */
export interface OrchestrationSessionStartOptions {
  /** Most characters the text may have (the hook's output budget, at most 10,000). */
  maxChars: number;
}

/**
 * SessionStart for orchestration runs. With source `startup` and an unacknowledged checkpoint in
 * the workspace, returns the resumption prompt for the checkpoint's run, so a new session resumes
 * without anyone pasting it (one step past the original design: docs/orchestration.md). With source
 * `compact` (which Claude Code runs right after PreCompact and before the next prompt), returns the
 * compaction alert for the checkpoint PreCompact just wrote: it arrives in the post-compaction
 * context even when auto-compaction happens mid-turn with no prompt to follow. Either delivery is
 * recorded, so the next prompt gives at most a one-line reminder. Only checkpoints this user's
 * rehydrate wrote (recorded in the private state directory) do so; unacknowledged checkpoints
 * written elsewhere get one neutral `<checkpoints-elsewhere>` line instead. Other sources, no
 * checkpoint, or no layout: `null`.
 *
 * @example
 * ```ts
 * import { orchestrationSessionStart } from "./session_start.ts";
 *
 * const text = orchestrationSessionStart(ctx, { maxChars: ctx.config().budget.maxChars });
 * ```
 */
export function orchestrationSessionStart(
  ctx: HookContext<"SessionStart">,
  options: OrchestrationSessionStartOptions,
): string | null {
  const source = ctx.input.source;
  if (source !== "startup" && source !== "compact") return null;
  const rt = orchRuntime(ctx, { transcript: false });
  if (rt === null) return null;
  const all = listCheckpoints(rt.paths.checkpointsDir);
  const pending = all.filter(isUnacknowledged);
  if (pending.length === 0) return null;
  // Rule 4 of SECURITY.md: only checkpoints this user's rehydrate wrote speak (the prompt, the
  // alert); the others, which came with the repository or from another machine, are counted in
  // one neutral line and never feed a prompt.
  const entries = all.filter((e) => writtenHere(ctx, e));
  const unacked = entries.filter(isUnacknowledged);
  const elsewhere = pending.length - unacked.length;
  if (unacked.length === 0) {
    const line = elsewhereLine(elsewhere);
    return line.length <= options.maxChars ? line : null;
  }
  let view: SessionView | null;
  try {
    view = readSessionView(ctx);
  } catch (err) {
    ctx.log(`orchestration: no session record (${(err as Error).message})`);
    view = null;
  }
  if (source === "compact") {
    const text = compactionAlertFor(ctx, rt, entries, view, { event: "SessionStart", reminders: false }) ??
      (elsewhere > 0 ? elsewhereLine(elsewhere) : null);
    return text !== null && text.length <= options.maxChars ? text : null;
  }
  const newest = unacked[unacked.length - 1];
  const run = runOfCheckpoint(rt.layout.runs, newest) ?? rt.layout.active;
  const text = resumePromptFor(ctx.projectDir, run, entries, {
    maxChars: options.maxChars,
    read: (p) => readResumptionCached(ctx, p),
  });
  if (view !== null) {
    recordOrchestrationDelivery(ctx, view, {
      event: "SessionStart",
      kind: "orchestration-resume",
      chars: text.length,
      compaction_id: deliveryKey(newest),
    });
  }
  return text;
}
