import { readdirSync, statSync } from "../node/fs.ts";
import { join } from "../node/path.ts";
import { DEFAULT_SCAN_BUDGET_BYTES, DEFAULT_SCAN_CHUNK_BYTES } from "../transcript/scan_transcript.ts";
import { positiveInt, reverseLines, type ReverseLinesStats } from "../transcript/lines.ts";
import { collectEvidenceFromLines, type DetectionEvidence, type LineObserver } from "./_evidence.ts";

export type { LineObserver };
import { type ActiveProject, detectActiveProject } from "./active_project.ts";
import { workingSet, type WorkingSetItem, type WorkingSetOptions } from "./working_set.ts";
import { isProjectId, normalizePath, resolvePath } from "./_paths.ts";

/** One of the latest tool calls, as the state file records it. */
export interface LastToolCall {
  tool: string;
  /** The first file the call names (relative to `projectDir` when inside it). */
  file?: string;
  /** The row's timestamp. */
  timestamp?: string;
}

/** What PreCompact saves about the work in progress. */
export interface WorkspaceDetection {
  /** The project the recent work is on, or null. */
  activeProject: ActiveProject | null;
  /** Files to have back after the compaction, best first. */
  workingSet: WorkingSetItem[];
  /** The latest tool calls that name a file or a skill, oldest first (newest last). */
  lastToolCalls: LastToolCall[];
  /** `sessionId` and `cwd` of the newest rows. */
  sessionId?: string;
  cwd?: string;
  /** Bytes of the transcript read (bounded by `budgetBytes`). */
  bytesScanned: number;
  /** Main-chain tool calls examined. */
  toolCallsScanned: number;
}

/** Options of {@linkcode detectWorkspace}. */
export interface DetectWorkspaceOptions {
  /** Bytes read from the end of the transcript. Default 8 MiB (`DEFAULT_SCAN_BUDGET_BYTES`). */
  budgetBytes?: number;
  /** Folder holding the projects. Default `"02-projects"`. */
  projectsRoot?: string;
  /**
   * The workspace (`CLAUDE_PROJECT_DIR`). When given, the project folders under
   * `<projectDir>/<projectsRoot>` are listed so their bare ids count in text, and working-set
   * paths inside it are made relative. Default: none.
   */
  projectDir?: string;
  /** Working-set cap. Default 10. */
  workingSetSize?: number;
  /** Directory for relative paths when the rows carry no `cwd` (the working set's `cwd`). Default: none. */
  cwd?: string;
  /** How many latest tool calls to return. Default {@linkcode DEFAULT_LAST_TOOL_CALLS} (10). */
  lastToolCalls?: number;
  /** Skills that work on a project. Default `["plan-project", "execute-project"]`. */
  projectSkills?: readonly string[];
  /**
   * False: the active project is not looked for (`activeProject` is null), for a caller that
   * needs the working set only (the session snapshot): that search reads every text of the
   * evidence again. Default true.
   */
  activeProject?: boolean;
  /** Stop after this many tool calls. Default 80 (`DEFAULT_MAX_CALLS`). */
  maxCalls?: number;
  /** Ranking options passed to {@linkcode workingSet}, to measure them (bench/detection-quality.ts). Default: none. */
  workingSet?: Pick<WorkingSetOptions, "rules" | "minShare">;
  /**
   * Another reader of the same pass ({@linkcode LineObserver}): the transcript is then read to
   * the budget's end, not only until the evidence is complete, and each line parsed at most once.
   */
  observer?: LineObserver;
  /** Filled with the bytes read and whether the start of the file was reached. */
  stats?: ReverseLinesStats;
}

/** Default number of latest tool calls returned. */
export const DEFAULT_LAST_TOOL_CALLS = 10;

/**
 * Reads the tail of a transcript once (backwards, at most `budgetBytes`) and returns the active
 * project ({@linkcode detectActiveProject}), the working set ({@linkcode workingSet}) and the
 * latest tool calls: what PreCompact records. Writes nothing. A missing or unreadable transcript
 * gives an empty detection; never throws on I/O errors.
 *
 * @example
 * ```ts
 * import { detectWorkspace } from "./workspace.ts";
 *
 * const found = detectWorkspace("/home/me/.claude/projects/-w/1234.jsonl", { projectDir: "/w" });
 * console.log(found.activeProject?.id, found.activeProject?.confidence);
 * for (const item of found.workingSet) console.log(item.path, item.reasons);
 * ```
 */
export function detectWorkspace(transcriptPath: string, options: DetectWorkspaceOptions = {}): WorkspaceDetection {
  const stats: ReverseLinesStats = options.stats ?? { bytesRead: 0, reachedStart: false };
  const root = options.projectsRoot !== undefined && options.projectsRoot !== "" ? options.projectsRoot : "02-projects";
  // The lines scanTranscript would parse, parsed only when they matter (same evidence).
  const budget = positiveInt(options.budgetBytes, DEFAULT_SCAN_BUDGET_BYTES);
  const lines = reverseLines(transcriptPath, budget, DEFAULT_SCAN_CHUNK_BYTES, stats);
  let evidence: DetectionEvidence;
  try {
    evidence = collectEvidenceFromLines(lines, {
      maxCalls: options.maxCalls,
      transcript: transcriptPath === "" ? undefined : resolvePath(transcriptPath, process.cwd()),
    }, options.observer);
  } finally {
    lines.close();
  }
  const projectDir = options.projectDir === undefined || options.projectDir === "" ? undefined : options.projectDir;
  const activeProject = options.activeProject === false ? null : detectActiveProject(evidence, {
    projectsRoot: root,
    knownProjects: projectDir === undefined ? undefined : listProjects(join(projectDir, root)),
    projectSkills: options.projectSkills,
  });
  const set = workingSet(evidence, {
    ...options.workingSet,
    limit: options.workingSetSize,
    cwd: options.cwd,
    projectDir,
    exists: existsUnder(evidence.cwd),
  });
  const limit = options.lastToolCalls !== undefined && options.lastToolCalls >= 0
    ? Math.floor(options.lastToolCalls)
    : DEFAULT_LAST_TOOL_CALLS;
  const base = projectDir === undefined ? undefined : normalizePath(projectDir);
  const last: LastToolCall[] = [];
  for (const { call, cwd } of evidence.calls) {
    if (last.length >= limit) break;
    if (call.filePaths.length === 0 && call.skill === undefined) continue;
    const item: LastToolCall = { tool: call.name };
    if (call.filePaths.length > 0) {
      const p = resolvePath(call.filePaths[0], cwd ?? evidence.cwd);
      item.file = base !== undefined && p.startsWith(base + "/") ? p.slice(base.length + 1) : p;
    }
    if (call.timestamp !== undefined) item.timestamp = call.timestamp;
    last.push(item);
  }
  last.reverse();
  const out: WorkspaceDetection = {
    activeProject,
    workingSet: set,
    lastToolCalls: last,
    bytesScanned: stats.bytesRead,
    toolCallsScanned: evidence.calls.length,
  };
  if (evidence.sessionId !== undefined) out.sessionId = evidence.sessionId;
  if (evidence.cwd !== undefined) out.cwd = evidence.cwd;
  return out;
}

/**
 * A file check for the working set, only inside the session's folder and only when that folder
 * exists: on a recorded session whose folders are gone nothing is checked, so the detection is
 * the same as without it.
 */
function existsUnder(cwd: string | undefined): ((path: string) => boolean | undefined) | undefined {
  if (cwd === undefined || cwd === "") return undefined;
  const root = normalizePath(cwd);
  if (isFile(root, true) !== true) return undefined;
  return (path) => path.startsWith(root + "/") ? isFile(path, false) : undefined;
}

/** Whether `path` is a file (or, with `dir`, a directory); undefined when it cannot be told (no permission). */
function isFile(path: string, dir: boolean): boolean | undefined {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st === undefined ? false : dir ? st.isDirectory() : st.isFile();
  } catch (error) {
    return (error as { code?: unknown }).code === "ENOTDIR" ? false : undefined;
  }
}

function listProjects(dir: string): string[] | undefined {
  try {
    return readdirSync(dir).filter(isProjectId);
  } catch {
    return undefined;
  }
}
