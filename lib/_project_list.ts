// Private helper of project_session_start.ts: the startup listing of projects with their progress,
// bounded in the number of folders read.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { parseFrontmatter } from "./parse_frontmatter.ts";
import { readSteps } from "./read_steps.ts";
import { readInside, resolveInside } from "./_project_read_file.ts";
import type { NexusProjectSummary } from "./build_nexus_context.ts";

/** A project folder name: `NN-kebab-case`. */
export const PROJECT_ID = /^\d{2}-[a-z0-9-]+$/;

/** Phase names of the manifest mapped to the two modes of design note 004. */
export function phaseOfManifest(phase: unknown): "planning" | "execution" | null {
  if (phase === "planning" || phase === "research") return "planning";
  if (phase === "execution" || phase === "ready-for-implementation" || phase === "testing" || phase === "review") return "execution";
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
 */
export function listProjects(
  rootPath: string,
  options: { manifestNames: readonly string[]; stepsNames: readonly string[]; max?: number },
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
  const active: NexusProjectSummary[] = [];
  for (const id of names.slice(0, max)) {
    const dir = join(rootPath, id);
    const steps = readSteps(dir, { stepsNames: options.stepsNames });
    if (steps !== null && steps.total > 0 && steps.checked === steps.total) continue;
    let name = id;
    let manifestPhase: "planning" | "execution" | null = null;
    for (const m of options.manifestNames) {
      const at = resolveInside(dir, m);
      if (at === "outside") continue;
      const r = readInside(dir, at.abs, { maxBytes: 256 * 1024 });
      if (!r.ok) continue;
      const data = parseFrontmatter(r.text).value?.data;
      if (data) {
        if (typeof data.project_name === "string" && data.project_name.trim() !== "") name = data.project_name.trim();
        manifestPhase = phaseOfManifest(data.current_phase);
      }
      break;
    }
    active.push({
      id,
      name,
      status: steps?.phase ?? manifestPhase ?? "unknown",
      progress: steps !== null && steps.total > 0 ? Math.round((steps.checked / steps.total) * 100) : null,
      currentTask: steps?.currentTask ?? null,
    });
  }
  return { active, total: names.length };
}
