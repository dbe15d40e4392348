import type { HookHandler } from "../hook/handle_hook.ts";
import { dirname, join } from "../node/path.ts";
import { newCompactionId } from "../state/new_compaction_id.ts";
import { sweepTempFiles } from "../state/sweep_temp_files.ts";
import { type RereadExtraFiles, rereadPreCompact } from "../dispatch/pre_compact.ts";
import { mayUseOrchestration } from "../orchestration/uses_orchestration_layout.ts";
import { usesProjectsLayout } from "../projects/uses_projects_layout.ts";
import { guard } from "./_guard.ts";
import type { projectPreCompact } from "../projects/pre_compact.ts";
import { safeId } from "../redact/safe_name.ts";
import type { orchestrationPreCompact } from "../orchestration/checkpoint.ts";
import type { roleRereadItems } from "../dispatch/role_items.ts";
import { sessionPreCompact } from "../session/pre_compact.ts";
import { sweepSessionSnapshots } from "../session/snapshot_file.ts";
import { noteRestore } from "../delivery/note_restore.ts";
import { codexPreCompact } from "./codex_pre_compact.ts";

/** What PreCompact prints at most: the summarizer reads it with its own instructions. */
const PRECOMPACT_MAX_CHARS = 2500;

/**
 * The parts of PreCompact that only a workflow's session runs: the project workspace's, the
 * orchestration run's, and the dispatch files a handler or worker session re-reads
 * (`lib/events/pre_compact_workflows.ts` gathers them). The hook binary loads them from a bundle
 * of their own only when a layout or a role asks for them, so an ordinary repository's PreCompact
 * does not load their code (`hooks/pre-compact.ts`).
 */
export interface PreCompactWorkflows {
  projectPreCompact: typeof projectPreCompact;
  orchestrationPreCompact: typeof orchestrationPreCompact;
  roleRereadItems: typeof roleRereadItems;
}

/**
 * PreCompact: each workflow saves what it needs before the context is compacted, under one
 * compaction id: the project workspace its flat state and working set, the orchestration run a
 * `cx-NNN-checkpoint.json`, and the re-read enforcement its one-shot marker and the delivery
 * record. The reply is plain text (Claude Code appends it to the summarizer's instructions),
 * never JSON, and never exit 2: a block would stop the user's compaction. `workflows` is called
 * only when a workflow's layout or a dispatch role is there; a failure to load them fails that
 * part open, as any error of a workflow does. Under the Codex CLI, `codexPreCompact` instead.
 *
 * @example
 * ```ts
 * import { PRE_COMPACT_WORKFLOWS } from "./pre_compact_workflows.ts";
 * runHook("PreCompact", preCompactHandler(() => PRE_COMPACT_WORKFLOWS));
 * ```
 */
export const preCompactHandler = (workflows: () => PreCompactWorkflows): HookHandler<"PreCompact"> => (ctx) => {
  if (ctx.host === "codex") return codexPreCompact(ctx);
  const compactionId = newCompactionId(ctx.now);
  const instructions: string[] = [];
  let extra: RereadExtraFiles | undefined;

  const config = ctx.config();
  // Each layout is checked once, here; the workflow is told so and does not check again.
  const project = usesProjectsLayout(ctx.projectDir, config)
    ? guard(ctx, "project", () => workflows().projectPreCompact(ctx, { compactionId, layoutChecked: true }))
    : null;
  if (project) {
    if (project.summaryInstructions) instructions.push(project.summaryInstructions);
    const id = project.state.active_project_id;
    if (typeof id === "string" && project.state.confidence !== "low") {
      extra = {
        kind: "project",
        files: project.rereadFiles.slice(0, 6),
        // Only an id of the strict project grammar goes into our sentence (docs/projects.md).
        reason: `You were working on ${safeId(id, "") ? `the project ${id}` : "a project"}.`,
      };
    }
  }
  const orchestration = mayUseOrchestration(ctx.projectDir, config)
    ? guard(ctx, "orchestration", () => workflows().orchestrationPreCompact(ctx, { compactionId }))
    : null;
  if (orchestration) {
    instructions.push(orchestration.summaryInstructions);
    extra ??= { kind: "orchestration", files: [], reason: "An orchestration run is in progress." };
  }
  // The everyday layer, in every repository: its instructions come first, the workflows' follow.
  // All of it stays within PRECOMPACT_MAX_CHARS: the workflows' lines first, ours in what is left.
  // `session.enabled: false` turns it off: no snapshot, no lines of ours, no edited files to re-read.
  const workflowChars = instructions.join("\n\n").length;
  const session = config.session.enabled === false ? null : guard(
    ctx,
    "session",
    () =>
      sessionPreCompact(ctx, { maxChars: PRECOMPACT_MAX_CHARS - workflowChars - 2, workingSet: project?.workingSet }),
  );
  if (session?.summaryInstructions) instructions.unshift(session.summaryInstructions.trimEnd());
  if (session) {
    // An orchestration run names no files of its own: the files this session edited stand in.
    if (extra && extra.files.length === 0) extra = { ...extra, files: session.rereadFiles };
    extra ??= { kind: "session", files: session.rereadFiles, reason: session.rereadReason };
  }
  const recorded = guard(
    ctx,
    "re-read",
    () => rereadPreCompact(ctx, extra, { compactionId, roleItems: (c, role) => workflows().roleRereadItems(c, role) }),
  );
  // The project's history of compactions (`rehydrate status`): this one, not delivered yet. Only
  // when a compaction record names it: otherwise SessionStart makes the record, and this entry.
  if (recorded) {
    const trigger = ctx.input.trigger === "manual" || ctx.input.trigger === "auto" ? ctx.input.trigger : undefined;
    guard(ctx, "restore record", () => noteRestore(ctx, recorded.compactionId, { trigger }));
  }
  // Leftovers of writes killed midway (the state stays whole; the temp files would pile up).
  guard(ctx, "sweep", () => {
    const dir = ctx.stateDir();
    const dirs = [dir, join(dir, "sessions"), join(dir, "markers"), join(dir, "compactions")];
    // Only a checkpoints directory the orchestration code just accepted (inside the project).
    if (orchestration) dirs.push(dirname(orchestration.checkpointPath));
    sweepTempFiles(dirs, { now: ctx.now });
    sweepSessionSnapshots(dir, { now: ctx.now });
  });

  const text = instructions.join("\n\n").trim();
  return text ? { stdout: text + "\n" } : null;
};
