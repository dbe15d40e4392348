import { lstatSync, readdirSync, realpathSync, statSync } from "../node/fs.ts";
import { isAbsolute, join, relative } from "../node/path.ts";
import { scanTranscript } from "../transcript/scan_transcript.ts";
import { toolCalls } from "../transcript/tool_calls.ts";

/** One orchestrated run: a folder under the projects directory with an ORCHESTRATION.yaml. */
export interface OrchestrationRun {
  /** The folder name, e.g. `PROJ-001-oss-release`. */
  id: string;
  /** Absolute path of its ORCHESTRATION.yaml. */
  path: string;
  /** The same path relative to the project directory, with `/`: `projects/PROJ-001-oss-release/ORCHESTRATION.yaml`. */
  relPath: string;
  /** Modification time of the file (0 when it cannot be read, e.g. a dangling link). */
  mtimeMs: number;
}

/** The runs of a workspace and the one the work is on. */
export interface OrchestrationLayout {
  /** Every run, most recently modified first. */
  runs: OrchestrationRun[];
  /** The run the work is on. */
  active: OrchestrationRun;
  /** How `active` was chosen: the only run, recent tool calls in the transcript, or the newest file. */
  chosenBy: "only" | "transcript" | "mtime";
}

/** Options for {@linkcode findOrchestrationLayout}. */
export interface FindOrchestrationLayoutOptions {
  /** Directory of the runs, relative to the project directory. Default `"projects"`. */
  projectsDir?: string;
  /** Transcript whose recent tool calls decide between several runs. Default none. */
  transcriptPath?: string;
  /** Bytes of the transcript's end read for that. Default 2 MiB. */
  budgetBytes?: number;
  /** Tool calls looked at, newest first. Default 200. */
  maxCalls?: number;
}

/** The file that marks a run. */
const FILE = "ORCHESTRATION.yaml";

/**
 * Finds the orchestrated runs of a workspace: every `<projectsDir>/<run>/ORCHESTRATION.yaml`
 * (a dangling link or unreadable file still counts, so a checkpoint can say it was missing).
 * Returns `null` when there is none, which means the layout is absent and the workflow stays
 * off. With several runs the active one is the run the newest tool call in the transcript
 * touched (a path inside `<projectsDir>/<run>/`), else the most recently modified file.
 * Costs one directory listing and one `lstat` per folder; the transcript is read only when
 * there is a choice to make. Never throws.
 *
 * @example
 * ```ts
 * import { findOrchestrationLayout } from "./layout.ts";
 *
 * const layout = findOrchestrationLayout("/work/repo", { transcriptPath: "/home/me/.claude/projects/-work-repo/s.jsonl" });
 * layout?.active.relPath; // "projects/PROJ-001-oss-release/ORCHESTRATION.yaml"
 * ```
 */
export function findOrchestrationLayout(
  projectDir: string,
  options: FindOrchestrationLayoutOptions = {},
): OrchestrationLayout | null {
  const projectsDir = (options.projectsDir ?? "projects").replace(/\\/g, "/").replace(/^\.\/|\/+$/g, "");
  const root = join(projectDir, projectsDir);
  let names: string[];
  let realProject: string;
  try {
    // A configured projectsDir or a link (a cloned repository may hold either) must not lead
    // the hooks to read, and quote, files outside the project.
    realProject = realpathSync(projectDir);
    const realRoot = realpathSync(root);
    if (realRoot !== realProject && !inside(realProject, realRoot)) return null;
    names = readdirSync(root);
  } catch {
    return null;
  }
  const runs: OrchestrationRun[] = [];
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const path = join(root, name, FILE);
    try {
      lstatSync(path);
    } catch {
      continue;
    }
    let mtimeMs = 0;
    try {
      if (!inside(realProject, realpathSync(path))) continue;
      const st = statSync(path);
      // A second hard link may live anywhere: such a file could be any file of the user's.
      if (st.isFile() && st.nlink > 1) continue;
      mtimeMs = st.mtimeMs;
    } catch { /* dangling link: still a run, with nothing to read */ }
    runs.push({ id: name, path, relPath: `${projectsDir}/${name}/${FILE}`, mtimeMs });
  }
  if (runs.length === 0) return null;
  runs.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (runs.length === 1) return { runs, active: runs[0], chosenBy: "only" };
  const fromTranscript = options.transcriptPath
    ? runOfRecentWork(
      runs,
      projectsDir,
      options.transcriptPath,
      options.budgetBytes ?? 2 * 1024 * 1024,
      options.maxCalls ?? 200,
    )
    : undefined;
  if (fromTranscript) return { runs, active: fromTranscript, chosenBy: "transcript" };
  return { runs, active: runs[0], chosenBy: "mtime" };
}

function runOfRecentWork(
  runs: OrchestrationRun[],
  projectsDir: string,
  transcriptPath: string,
  budgetBytes: number,
  maxCalls: number,
): OrchestrationRun | undefined {
  const markers = runs.map((run) => ({ run, inner: `/${projectsDir}/${run.id}/`, start: `${projectsDir}/${run.id}/` }));
  let seen = 0;
  for (const call of toolCalls(scanTranscript(transcriptPath, { budgetBytes, contains: ['"tool_use"'] }))) {
    for (const path of call.normalizedPaths) {
      const p = path.endsWith("/") ? path : path + "/";
      for (const m of markers) if (p.includes(m.inner) || p.startsWith(m.start)) return m.run;
    }
    if (++seen >= maxCalls) break;
  }
  return undefined;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}
