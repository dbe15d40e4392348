import type { HookHandler } from "./handle_hook.ts";
import { newCompactionId } from "./new_compaction_id.ts";
import { guard } from "./_hook_guard.ts";
import { orchestrationPreCompact } from "./orchestration_checkpoint.ts";
import { projectPreCompact } from "./project_pre_compact.ts";
import { type RereadExtraFiles, rereadPreCompact } from "./reread_pre_compact.ts";

/**
 * PreCompact: each workflow saves what it needs before the context is compacted, under one
 * compaction id: the project workspace its flat state and working set, the orchestration run a
 * `cx-NNN-checkpoint.json`, and the re-read enforcement its one-shot marker and the delivery
 * record. The reply is plain text (Claude Code appends it to the summarizer's instructions),
 * never JSON, and never exit 2: a block would stop the user's compaction.
 *
 * @example
 * ```ts
 * await runHook("PreCompact", preCompactHook);
 * ```
 */
export const preCompactHook: HookHandler = (ctx) => {
  const compactionId = newCompactionId(ctx.now);
  const instructions: string[] = [];
  let extra: RereadExtraFiles | undefined;

  const project = guard(ctx, "project", () => projectPreCompact(ctx, { compactionId }));
  if (project) {
    if (project.summaryInstructions) instructions.push(project.summaryInstructions);
    const id = project.state.active_project_id;
    if (typeof id === "string" && project.state.confidence !== "low") {
      extra = { kind: "project", files: project.rereadFiles.slice(0, 6), reason: `You were working on the project ${id}.` };
    }
  }
  const orchestration = guard(ctx, "orchestration", () => orchestrationPreCompact(ctx, { compactionId }));
  if (orchestration) {
    instructions.push(orchestration.summaryInstructions);
    extra ??= { kind: "orchestration", files: [], reason: "An orchestration run is in progress." };
  }
  guard(ctx, "re-read", () => rereadPreCompact(ctx, extra, { compactionId }));

  const text = instructions.join("\n\n").trim();
  return text ? { stdout: text + "\n" } : null;
};
