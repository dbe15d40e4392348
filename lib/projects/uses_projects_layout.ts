import { statSync } from "../node/fs.ts";
import { join } from "../node/path.ts";
import type { RehydrateConfig } from "../config/load_config.ts";

/**
 * Whether the project-workspace workflow applies to `projectDir`: `projects.enabled` true, or
 * `"auto"` and both the system directory and the projects root (`00-system/`, `02-projects/` by
 * default) exist. Two `stat` calls; never throws.
 *
 * @example
 * ```ts
 * if (usesProjectsLayout(ctx.projectDir, ctx.config())) detectWorkspace(transcript, { projectDir: ctx.projectDir });
 * ```
 */
export function usesProjectsLayout(projectDir: string, config: Pick<RehydrateConfig, "projects">): boolean {
  const p = config.projects;
  if (p.enabled === false) return false;
  if (p.enabled === true) return true;
  return isDir(join(projectDir, p.systemDir)) && isDir(join(projectDir, p.root));
}

function isDir(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}
