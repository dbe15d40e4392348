// Private helper of lib/cli/migrate.ts: upgrades a hand-written legacy `precompact_state.json`
// (the design's form: no offset on the timestamp, `created_at`, `transcript_analysis`, ...) to the
// strict form rehydrate writes (schemas/precompact_state.v1.json). The old file is kept as
// `<name>.bak`; a strict or broken file is left alone.
import { existsSync, renameSync, statSync } from "../node/fs.ts";
import { resolve } from "../node/path.ts";
import { validateSchema } from "../schema/validate_schema.ts";
import { precompactStateSchema } from "../projects/precompact_state_schema.ts";
import { upgradeLegacyState } from "../projects/legacy_state.ts";
import { readPrivateFile } from "../state/read_private_file.ts";
import { writeFileAtomic } from "../state/write_file_atomic.ts";
import { realPathInside } from "../detect/project_boundary.ts";

/** What {@linkcode migrateLegacyState} did with the workspace's flat state file. */
export type StateMigration =
  | { kind: "none" }
  | { kind: "strict" }
  | { kind: "planned" | "migrated"; notes: string[]; backup: string }
  | { kind: "failed"; reason: string };

/**
 * Upgrades the flat state file `stateFile` (relative to `dir`) when it is legacy input. Dry run
 * unless `apply`. Never writes through a link that leaves `dir` or over an existing backup.
 *
 * @example
 * ```ts
 * const r = migrateLegacyState("/w", "00-system/.cache/precompact_state.json", false);
 * if (r.kind === "planned") console.log(r.notes);
 * ```
 */
export function migrateLegacyState(dir: string, stateFile: string, apply: boolean): StateMigration {
  const path = resolve(dir, stateFile);
  if (!existsSync(path)) return { kind: "none" };
  if (realPathInside(dir, path) === null) return { kind: "failed", reason: `it resolves outside ${dir}` };
  const read = readPrivateFile(path, { maxBytes: 256 * 1024, requireOwner: false, followLinks: false });
  if (!read.ok) return { kind: "failed", reason: read.reason === "missing" ? "ENOENT" : read.message };
  let value: unknown;
  try {
    value = JSON.parse(read.text.charCodeAt(0) === 0xfeff ? read.text.slice(1) : read.text);
  } catch {
    return { kind: "failed", reason: "it is not JSON" };
  }
  if (validateSchema(precompactStateSchema(), value, { maxIssues: 1 }).length === 0) return { kind: "strict" };
  const up = upgradeLegacyState(value);
  if (up === null) {
    return { kind: "failed", reason: "it is neither a valid nor a legacy state (rehydrate validate says why)" };
  }
  const backup = `${path}.bak`;
  if (existsSync(backup)) return { kind: "failed", reason: `${backup} exists; move it away first` };
  if (!apply) return { kind: "planned", notes: up.notes, backup };
  try {
    const mode = statSync(path).mode & 0o777;
    renameSync(path, backup);
    try {
      writeFileAtomic(path, JSON.stringify(up.state, null, 2) + "\n", { mode });
    } catch (err) {
      renameSync(backup, path);
      throw err;
    }
  } catch (err) {
    return { kind: "failed", reason: (err as Error).message };
  }
  return { kind: "migrated", notes: up.notes, backup };
}
