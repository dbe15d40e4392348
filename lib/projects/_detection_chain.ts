// Private helper of lib/projects/pre_compact.ts: which project a PreCompact state records. The
// transcript comes first, then this session's previous state (method "cache"), then the project
// whose manifest changed last (method "fallback", only when the transcript could not be read).
// A save never replaces a state with a weaker one: a transcript that cannot be read, or reads
// less surely than before, keeps the project the previous save found (docs/projects.md).
import { lstatSync, readdirSync, statSync } from "../node/fs.ts";
import { join } from "../node/path.ts";
import type { PrecompactState } from "./_state.ts";
import { PROJECT_ID } from "./_list.ts";

/** A detection's confidence, as the state file records it. */
export type Confidence = PrecompactState["confidence"];

/** The project a state records, and where it came from. */
export interface ChosenProject {
  id: string | null;
  confidence: Confidence;
  method: PrecompactState["detection_method"];
  switchedToSkill: string | null;
}

/** What {@linkcode chooseProject} weighs. */
export interface ChooseProjectInput {
  /** What the transcript gave (null: no project found). */
  transcript: { id: string; confidence: Confidence; switchedToSkill: string | null } | null;
  /** True when any of the transcript was read (false: missing, unreadable or empty). */
  transcriptRead: boolean;
  /** This session's previous state, if any. */
  previous: PrecompactState | null;
  /** The projects root, absolute. */
  projectsPath: string;
  /** Manifest names to look for in a project folder, in order. */
  manifestNames: readonly string[];
}

const RANK: Record<Confidence, number> = { none: 0, low: 1, medium: 2, high: 3 };
const MAX_FOLDERS = 200;

/**
 * Picks the project to record: the transcript's when it is at least as sure as the previous
 * state's; else the previous state's (`cache`), when its folder still exists; else, only when
 * the transcript could not be read, the project whose manifest changed last, with `low`
 * confidence (`fallback`): a guess from the file system never resumes a project unless
 * `projects.minConfidence` is lowered. Reads at most 200 project folders; never throws.
 *
 * @example
 * ```ts
 * const chosen = chooseProject({ transcript: null, transcriptRead: false, previous, projectsPath, manifestNames });
 * chosen.method; // "cache" when the previous state named a project
 * ```
 */
export function chooseProject(input: ChooseProjectInput): ChosenProject {
  const fresh = input.transcript;
  const freshRank = fresh === null ? 0 : RANK[fresh.confidence];
  const prev = input.previous;
  if (
    prev !== null && typeof prev.active_project_id === "string" && PROJECT_ID.test(prev.active_project_id) &&
    RANK[prev.confidence] > freshRank && isDir(join(input.projectsPath, prev.active_project_id))
  ) {
    const id = prev.active_project_id;
    // The same project, read less surely: a skill switch seen now is newer than the saved one.
    const switched = fresh !== null && fresh.id === id ? fresh.switchedToSkill : prev.switched_to_skill ?? null;
    return { id, confidence: prev.confidence, method: "cache", switchedToSkill: switched };
  }
  if (fresh !== null) {
    return { id: fresh.id, confidence: fresh.confidence, method: "transcript", switchedToSkill: fresh.switchedToSkill };
  }
  if (!input.transcriptRead) {
    const id = newestManifestProject(input.projectsPath, input.manifestNames);
    if (id !== null) return { id, confidence: "low", method: "fallback", switchedToSkill: null };
  }
  return { id: null, confidence: "none", method: "transcript", switchedToSkill: null };
}

/** The project folder whose manifest (a regular file, not a link) was modified last, or null. */
function newestManifestProject(projectsPath: string, manifestNames: readonly string[]): string | null {
  let names: string[];
  try {
    names = readdirSync(projectsPath, { withFileTypes: true })
      .filter((e) => e.isDirectory() && PROJECT_ID.test(e.name))
      .map((e) => e.name)
      .sort()
      .slice(0, MAX_FOLDERS);
  } catch {
    return null;
  }
  let best: string | null = null;
  let bestTime = -Infinity;
  for (const id of names) {
    for (const name of manifestNames) {
      if (name === "" || name.split(/[\\/]/).includes("..")) continue;
      const st = lstatSync(join(projectsPath, id, name), { throwIfNoEntry: false });
      if (!st?.isFile()) continue;
      if (st.mtimeMs > bestTime) {
        best = id;
        bestTime = st.mtimeMs;
      }
      break;
    }
  }
  return best;
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
