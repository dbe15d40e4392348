import { statSync } from "../node/fs.ts";
import { join } from "../node/path.ts";
import type { RehydrateConfig } from "../config/load_config.ts";

/**
 * A cheap first test for the orchestration workflow: `orchestration.enabled` is not false and
 * the runs directory (`projects/` by default) exists. The hooks run the orchestration code only
 * then; `orchRuntime` makes the full check (a `projects/*\/ORCHESTRATION.yaml`). One `stat`.
 *
 * @example
 * ```ts
 * if (mayUseOrchestration(ctx.projectDir, ctx.config())) parts.push(orchestrationPromptContext(ctx));
 * ```
 */
export function mayUseOrchestration(projectDir: string, config: Pick<RehydrateConfig, "orchestration">): boolean {
  const o = config.orchestration;
  if (o.enabled === false) return false;
  try {
    return statSync(join(projectDir, o.projectsDir), { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}
