// Private helper of lib/projects/session_start.ts: the startup listing of projects with their progress,
// bounded in the number of folders read.
import { readdirSync, realpathSync } from "../node/fs.ts";
import { join } from "../node/path.ts";
import { parseFrontmatter } from "../yaml/parse_frontmatter.ts";
import { readSteps } from "./read_steps.ts";
import { redact } from "../redact/redact.ts";
import { readInside, resolveInside } from "./read_file.ts";
import {
  cachedProject,
  planSigns,
  type SignPlan,
  signProject,
  type StartupCache,
  storeProject,
} from "./_startup_cache.ts";
import type { NexusProjectSummary } from "./build_nexus_context.ts";

/** A project folder name: `NN-kebab-case`. */
export const PROJECT_ID = /^\d{2}-[a-z0-9-]+$/;

/** Phase names of the manifest mapped to the two modes of SessionStart (docs/projects.md). */
export function phaseOfManifest(phase: unknown): "planning" | "execution" | null {
  if (phase === "planning" || phase === "research") return "planning";
  if (phase === "execution" || phase === "ready-for-implementation" || phase === "testing" || phase === "review") {
    return "execution";
  }
  return null;
}

/** Result of {@linkcode listProjects}. */
export interface ProjectListing {
  /** Projects not complete, in folder order. */
  active: NexusProjectSummary[];
  /** Every project folder seen. */
  total: number;
}

/**
 * Lists the project folders under `rootPath` (at most `max`) with name, phase, progress and
 * current task, from each one's steps file and the `project_name` of its manifest. A project
 * whose steps are all checked is complete and not listed as active.
 *
 * With `cache`, a project whose steps and manifest candidates have the same lstat signature as
 * when it was cached is taken from it, and names and current tasks come back redacted (as they
 * are cached and shown) whether cached or not.
 */
export function listProjects(
  rootPath: string,
  options: { manifestNames: readonly string[]; stepsNames: readonly string[]; max?: number; cache?: StartupCache },
): ProjectListing {
  let names: string[];
  try {
    names = readdirSync(rootPath, { withFileTypes: true })
      .filter((e) => e.isDirectory() && PROJECT_ID.test(e.name))
      .map((e) => e.name)
      .sort();
  } catch {
    return { active: [], total: 0 };
  }
  const max = options.max ?? 50;
  const cache = options.cache;
  const active: NexusProjectSummary[] = [];
  // Candidate names resolve lexically, the same in every project folder.
  let plan: SignPlan | null = null;
  for (const id of names.slice(0, max)) {
    const dir = join(rootPath, id);
    let all: string[] | null = null;
    if (cache !== undefined) {
      plan ??= planSigns(insideRels(dir, options.stepsNames), insideRels(dir, options.manifestNames));
      const hit = cachedProject(cache, dir, id, plan);
      if (hit !== undefined) {
        if (hit !== null) active.push(hit);
        continue;
      }
      // Signed before anything is read: a file changed meanwhile will not match next time.
      all = signProject(dir, plan, cache.settled, plan.steps, plan.files.length - plan.steps);
    }
    let realRoot: string | undefined;
    try {
      realRoot = realpathSync(dir);
    } catch { /* readInside says why */ }
    const { summary, stepsFile, manifestUsed } = summarize(dir, id, options, realRoot);
    if (cache !== undefined && summary !== null) {
      summary.name = redact(summary.name);
      if (summary.currentTask !== null) summary.currentTask = redact(summary.currentTask);
    }
    if (cache !== undefined && plan !== null && all !== null) {
      const stepsUsed = stepsFile === null ? -1 : plan.files.indexOf(stepsFile);
      if (stepsFile === null || (stepsUsed >= 0 && stepsUsed < plan.steps)) {
        storeProject(cache, plan, id, all, summary, stepsUsed, manifestUsed);
      }
    }
    if (summary !== null) active.push(summary);
  }
  return { active, total: names.length };
}

function insideRels(dir: string, names: readonly string[]): string[] {
  const out: string[] = [];
  for (const n of names) {
    const at = resolveInside(dir, n);
    if (at !== "outside") out.push(at.rel);
  }
  return out;
}

/**
 * The summary of one project folder (`null` when it is complete), with the steps file used and
 * the index of the manifest used among the names inside the folder (-1 for none).
 */
function summarize(
  dir: string,
  id: string,
  options: { manifestNames: readonly string[]; stepsNames: readonly string[] },
  realRoot: string | undefined,
): { summary: NexusProjectSummary | null; stepsFile: string | null; manifestUsed: number } {
  const steps = readSteps(dir, { stepsNames: options.stepsNames, realRoot });
  const stepsFile = steps?.file ?? null;
  if (steps !== null && steps.total > 0 && steps.checked === steps.total) {
    return { summary: null, stepsFile, manifestUsed: -1 };
  }
  let name = id;
  let manifestPhase: "planning" | "execution" | null = null;
  let manifestUsed = -1;
  let inside = 0;
  for (const m of options.manifestNames) {
    const at = resolveInside(dir, m);
    if (at === "outside") continue;
    const r = readInside(dir, at.abs, { maxBytes: 256 * 1024, realRoot });
    if (!r.ok) {
      inside++;
      continue;
    }
    manifestUsed = inside;
    const data = parseFrontmatter(r.text).value?.data;
    if (data) {
      if (typeof data.project_name === "string" && data.project_name.trim() !== "") name = data.project_name.trim();
      manifestPhase = phaseOfManifest(data.current_phase);
    }
    break;
  }
  return {
    summary: {
      id,
      name,
      status: steps?.phase ?? manifestPhase ?? "unknown",
      progress: steps !== null && steps.total > 0 ? Math.round((steps.checked / steps.total) * 100) : null,
      currentTask: steps?.currentTask ?? null,
    },
    stepsFile,
    manifestUsed,
  };
}
