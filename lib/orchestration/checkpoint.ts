import type { HookContext } from "../hook/handle_hook.ts";
import { orchRuntime } from "./_runtime.ts";
import { writeOrchCheckpoint } from "./_write_checkpoint.ts";
import { clip, formatScore } from "./format.ts";

/** What {@linkcode orchestrationPreCompact} did. */
export interface OrchestrationPreCompactResult {
  /** Absolute path of the new `cx-NNN-checkpoint.json`. */
  checkpointPath: string;
  /** Plain-text instructions for the summarizer (PreCompact's stdout is appended to its prompt). */
  summaryInstructions: string;
}

/**
 * PreCompact for orchestration runs: writes the next
 * `<stateDir>/checkpoints/cx-NNN-checkpoint.json` (docs/orchestration.md, "The checkpoint") from
 * the active run's `resumption` section and the context fill just before compaction, redacted,
 * atomically and without colliding with a concurrent hook; the next action follows the
 * mid-quality-gate policy (restart the iteration, or apply a revision whose scoring had finished).
 * A missing or invalid ORCHESTRATION.yaml still gives a checkpoint, with what was not known in
 * `missing`. Returns `null` (writing nothing) when the workspace has no
 * `<projectsDir>/*\/ORCHESTRATION.yaml` or the workflow is switched off.
 *
 * @example
 * ```ts
 * import { orchestrationPreCompact } from "./checkpoint.ts";
 *
 * const preCompact: HookHandler<"PreCompact"> = (ctx) => {
 *   const done = orchestrationPreCompact(ctx);
 *   return done ? { stdout: done.summaryInstructions } : null;
 * };
 * ```
 */
export function orchestrationPreCompact(
  ctx: HookContext<"PreCompact">,
  options: { compactionId?: string } = {},
): OrchestrationPreCompactResult | null {
  const rt = orchRuntime(ctx);
  if (rt === null) return null;
  const written = writeOrchCheckpoint(ctx, rt, "PreCompact", { compactionId: options.compactionId });
  const cp = written.checkpoint;
  const os = cp.orchestration_state;
  const keep: string[] = [];
  if (os.phase_number !== null || os.phase_name !== null) {
    keep.push(
      `the current phase (${
        [os.phase_number !== null ? `Phase ${os.phase_number}` : null, os.phase_name].filter(Boolean).join(": ")
      })`,
    );
  }
  if (os.activity !== null) keep.push(`the activity (${os.activity})`);
  if (os.gate !== null) {
    const detail = [
      os.gate,
      os.gate_iteration !== null ? `iteration ${os.gate_iteration}` : null,
      os.gate_score !== null ? `last score ${formatScore(os.gate_score)}` : null,
    ];
    keep.push(`the quality gate (${detail.filter(Boolean).join(", ")})`);
  }
  const ids = cp.pending_decisions.map((d) => d.id).filter((d): d is string => typeof d === "string");
  if (cp.pending_decisions.length > 0) {
    keep.push(`the decisions not yet applied${ids.length > 0 ? ` (${ids.join(", ")})` : ""}`);
  }
  const run = os.workflow_id !== null ? `${os.workflow_id} (${rt.layout.active.relPath})` : rt.layout.active.relPath;
  const lines = [
    `This session runs the orchestration workflow ${run}.`,
    keep.length > 0
      ? `Keep in the summary ${keep.join(", ")} and the exact next action: ${
        (cp.recovery.next_action ?? "as recorded in the resumption section").replace(/\.$/, "")
      }.`
      : `Keep in the summary the current phase, the quality gate and the exact next action.`,
    `The run's state was saved to ${written.relPath}; after compaction, re-read the resumption section of ${rt.layout.active.relPath}.`,
  ];
  return { checkpointPath: written.path, summaryInstructions: clip(lines.join("\n"), 3000) };
}
