import type { HookContext } from "./handle_hook.ts";
import { ensurePrivateDir } from "./ensure_private_dir.ts";
import { findOrchestrationLayout, type OrchestrationLayout } from "./orchestration_layout.ts";
import { type OrchPaths, orchPaths, type OrchSettings } from "./_orch_paths.ts";

/** Everything an orchestration hook needs once the layout is known to be present. */
export interface OrchRuntime {
  settings: OrchSettings;
  paths: OrchPaths;
  layout: OrchestrationLayout;
}

/**
 * The workflow's settings, paths and runs for a hook, or `null` when it is switched off or the
 * workspace has no `<projectsDir>/*\/ORCHESTRATION.yaml` (then nothing is read or written).
 */
export function orchRuntime(ctx: HookContext, options: { transcript?: boolean } = {}): OrchRuntime | null {
  const settings = ctx.config().orchestration;
  if (settings.enabled === false) return null;
  const layout = findOrchestrationLayout(ctx.projectDir, {
    projectsDir: settings.projectsDir,
    transcriptPath: options.transcript === false ? undefined : ctx.input.transcript_path || undefined,
  });
  if (layout === null) return null;
  return { settings, paths: orchPaths(ctx.projectDir, settings), layout };
}

/** Creates `.jerry/` and `.jerry/checkpoints/` owner-only (refusing links and foreign owners). */
export function ensureOrchDirs(paths: OrchPaths, options: { checkpoints?: boolean } = {}): void {
  ensurePrivateDir(paths.stateDir);
  if (options.checkpoints !== false) ensurePrivateDir(paths.checkpointsDir);
}
