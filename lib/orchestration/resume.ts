import { existsSync } from "../node/fs.ts";
import { dirname, join } from "../node/path.ts";
import type { OrchestrationRun } from "./layout.ts";
import { readOrchestrationResumption, type ResumptionState } from "./resumption.ts";
import { renderResumePrompt } from "./resume_prompt.ts";
import { type CheckpointEntry, isUnacknowledged } from "./checkpoints.ts";
import { relativePath } from "./format.ts";
import { projectBoundary } from "../detect/project_boundary.ts";

/**
 * The resumption prompt for `run`, from its resumption section and its newest checkpoint among
 * `entries`.
 */
export function resumePromptFor(
  projectDir: string,
  run: OrchestrationRun,
  entries: CheckpointEntry[],
  options: { maxChars?: number; read?: (path: string) => ResumptionState } = {},
): string {
  const read = (options.read ?? readOrchestrationResumption)(run.path);
  // Rule 2 of SECURITY.md: the files a resumed session is told to read stay inside the project
  // (`~/.ssh/id_rsa`, `../x` or a path through a link out of it are dropped).
  const boundary = projectBoundary(projectDir);
  const filesToRead = read.filesToRead.filter((f) => !/^~/.test(f.path) && boundary.resolvesInside(f.path));
  const state = filesToRead.length === read.filesToRead.length ? read : { ...read, filesToRead };
  const own = entries.filter((e) => e.data !== null && e.data.orchestration_file === run.relPath);
  const newest = own.length > 0 ? own[own.length - 1] : null;
  const session = newest?.data?.session_id;
  const compactions = newest === null || session === undefined
    ? null
    : own.filter((e) => e.data?.session_id === session).length;
  const unacknowledged =
    entries.filter((e) => isUnacknowledged(e) && (e.data === null || e.data.orchestration_file === run.relPath)).length;
  const convention = join(dirname(run.path), "ORCHESTRATION_PLAN.md");
  const planPath = state.planFile ?? (existsSync(convention) ? relativePath(projectDir, convention) : null);
  return renderResumePrompt(state, {
    orchestrationPath: run.relPath,
    planPath,
    projectId: run.id,
    checkpoint: newest?.data ?? null,
    checkpointPath: newest === null ? null : relativePath(projectDir, newest.path),
    compactionCount: compactions,
    unacknowledged,
    maxChars: options.maxChars,
  });
}

/** The run a checkpoint belongs to, when it is one of `runs`. */
export function runOfCheckpoint(
  runs: OrchestrationRun[],
  entry: CheckpointEntry | undefined,
): OrchestrationRun | undefined {
  const file = entry?.data?.orchestration_file;
  return file ? runs.find((r) => r.relPath === file) : undefined;
}
