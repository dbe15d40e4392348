import type { HookContext } from "../hook/handle_hook.ts";
import { existsSync, realpathSync } from "../node/fs.ts";
import { dirname, isAbsolute, relative } from "../node/path.ts";
import { ensurePrivateDir } from "../state/ensure_private_dir.ts";
import { findOrchestrationLayout, type OrchestrationLayout } from "./layout.ts";
import { type OrchPaths, orchPaths, type OrchSettings } from "./paths.ts";

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
  const paths = orchPaths(ctx.projectDir, settings);
  if (!stateDirInside(paths)) {
    ctx.log(`orchestration: state directory ${paths.stateDir} is outside the project; ignored`);
    return null;
  }
  return { settings, paths, layout };
}

/** Creates `.jerry/` and `.jerry/checkpoints/` owner-only (refusing links and foreign owners). */
export function ensureOrchDirs(paths: OrchPaths, options: { checkpoints?: boolean } = {}): void {
  if (!stateDirInside(paths)) {
    throw new Error(`Refusing orchestration state directory ${paths.stateDir}: it is outside the project`);
  }
  ensurePrivateDir(paths.stateDir);
  if (!stateDirInside(paths)) {
    throw new Error(`Refusing orchestration state directory ${paths.stateDir}: it resolves outside the project`);
  }
  if (options.checkpoints !== false) ensurePrivateDir(paths.checkpointsDir);
}

/**
 * orchestration.stateDir comes from a config a cloned repository may ship: `..`, or a link on
 * the way (the deepest existing ancestor is resolved), must not make the hooks create, chmod,
 * read or rewrite anything outside the project.
 */
function stateDirInside(paths: OrchPaths): boolean {
  try {
    if (!within(paths.projectDir, paths.stateDir)) return false;
    let existing = paths.stateDir;
    while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
    return within(realpathSync(paths.projectDir), realpathSync(existing), existing !== paths.stateDir);
  } catch {
    return false;
  }
}

function within(root: string, path: string, orSame = false): boolean {
  const rel = relative(root, path);
  if (rel === "") return orSame;
  return !rel.startsWith("..") && !isAbsolute(rel);
}
