import { join } from "../node/path.ts";
import type { RehydrateConfig } from "../config/load_config.ts";

/** The orchestration settings of the config. */
export type OrchSettings = RehydrateConfig["orchestration"];

/** Where the orchestration workflow keeps its files, all absolute. */
export interface OrchPaths {
  /** The Claude Code project directory (the workspace). */
  projectDir: string;
  /** `<projectDir>/<projectsDir>`: one folder per run, each with an ORCHESTRATION.yaml. */
  projectsDir: string;
  /** `<projectDir>/<stateDir>` (`.jerry`). */
  stateDir: string;
  /** `<stateDir>/checkpoints`: the cx-NNN-checkpoint.json files. */
  checkpointsDir: string;
  /** `<stateDir>/context-monitor-state.json`. */
  monitorStatePath: string;
}

/** File name of the context monitor's state. */
export const MONITOR_STATE_FILE = "context-monitor-state.json";
/** File name of a run's state. */
export const ORCHESTRATION_FILE = "ORCHESTRATION.yaml";

/** True when `path` (either separator) names a file called ORCHESTRATION.yaml. */
export function isOrchestrationFile(path: string): boolean {
  return path === ORCHESTRATION_FILE || path.replace(/\\/g, "/").endsWith("/" + ORCHESTRATION_FILE);
}

/**
 * The paths of the workflow for a workspace. The state directory sits at the workspace root, as in
 * docs/orchestration.md (`.jerry/checkpoints/cx-001-checkpoint.json` next to `projects/…`), so one
 * checkpoint sequence and one monitor state serve every run of the workspace.
 */
export function orchPaths(projectDir: string, settings: Pick<OrchSettings, "projectsDir" | "stateDir">): OrchPaths {
  const stateDir = join(projectDir, settings.stateDir);
  return {
    projectDir,
    projectsDir: join(projectDir, settings.projectsDir),
    stateDir,
    checkpointsDir: join(stateDir, "checkpoints"),
    monitorStatePath: join(stateDir, MONITOR_STATE_FILE),
  };
}
