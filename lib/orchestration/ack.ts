import { renameSync } from "../node/fs.ts";
import { writeFileAtomic } from "../state/write_file_atomic.ts";
import { isUnacknowledged, listCheckpoints } from "./checkpoints.ts";
import { orchPaths, type OrchSettings } from "./paths.ts";

/** Options for {@linkcode acknowledgeCheckpoints}. */
export interface AcknowledgeCheckpointsOptions {
  /** `projectsDir` and `stateDir` of the orchestration config. Default `projects` and `.jerry`. */
  settings?: Pick<OrchSettings, "projectsDir" | "stateDir">;
  /** Clock for `acknowledged_at`. Default now. */
  now?: Date;
}

/** What {@linkcode acknowledgeCheckpoints} did. */
export interface AcknowledgeCheckpointsResult {
  /** The checkpoints directory looked at. */
  dir: string;
  /** Ids of the checkpoints now acknowledged, oldest first. */
  acknowledged: string[];
  /** Corrupt checkpoint files renamed to `*.json.corrupt` (kept for the audit trail, numbers never reused). */
  setAside: string[];
}

/**
 * Marks every unacknowledged checkpoint of a workspace acknowledged (`acknowledged: true`,
 * `acknowledged_at`), each with an atomic rewrite; this is what the compaction alert asks the model
 * to do by hand. A checkpoint that cannot be parsed cannot be marked, so it is renamed to
 * `cx-NNN-checkpoint.json.corrupt`, which stops the generic alert. Throws when a file cannot be
 * written.
 *
 * @example
 * ```ts
 * import { acknowledgeCheckpoints } from "./ack.ts";
 *
 * const { acknowledged } = acknowledgeCheckpoints("/work/repo");
 * console.log(`acknowledged ${acknowledged.join(", ") || "nothing"}`);
 * ```
 */
export function acknowledgeCheckpoints(
  projectDir: string,
  options: AcknowledgeCheckpointsOptions = {},
): AcknowledgeCheckpointsResult {
  const paths = orchPaths(projectDir, options.settings ?? { projectsDir: "projects", stateDir: ".jerry" });
  const now = (options.now ?? new Date()).toISOString();
  const result: AcknowledgeCheckpointsResult = { dir: paths.checkpointsDir, acknowledged: [], setAside: [] };
  for (const entry of listCheckpoints(paths.checkpointsDir)) {
    if (!isUnacknowledged(entry)) continue;
    if (entry.data === null) {
      renameSync(entry.path, entry.path + ".corrupt");
      result.setAside.push(entry.id);
      continue;
    }
    const cp = { ...entry.data, acknowledged: true, acknowledged_at: now };
    writeFileAtomic(entry.path, JSON.stringify(cp, null, 2) + "\n");
    result.acknowledged.push(entry.id);
  }
  return result;
}
