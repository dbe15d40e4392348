// Private helper of lib/projects/session_start.ts: a per-user cache of what the startup menu lists
// (each project's summary, the skills found), so a cold SessionStart lstats the files instead of
// reading and parsing them. An entry is used only when the lstat signature of every path it was
// computed from is the same now; any doubt (a symbolic link on the way, a file changed in the
// last seconds, a corrupt or foreign cache file, another configuration or version) means
// recompute. What is stored is what is shown: project names and current tasks are redacted.
import { lstatSync, type Stats } from "../node/fs.ts";
import { dirname, join } from "../node/path.ts";
import type { NexusProjectSummary } from "./build_nexus_context.ts";
import { ensurePrivateDir } from "../state/ensure_private_dir.ts";
import { readPrivateFile } from "../state/read_private_file.ts";
import type { ScanSkillsResult, SkillInfo } from "./scan_skills.ts";
import { VERSION } from "../hook/version.ts";
import { writeFileAtomic } from "../state/write_file_atomic.ts";
import { hashName } from "../node/hash_name.ts";

/** Format of the cache file; bump when what an entry means changes. */
const FORMAT = 1;
/**
 * Files and folders changed this recently are not cached: two writes within one tick of a coarse
 * file system clock (FAT: 2 s) can leave the same size and times.
 */
export const RACY_MS = 2000;

/**
 * A project's summary, `null` when it is complete (not listed), under the signature of the files
 * it was computed from: the first `k[0]` steps names and the first `k[1]` manifest names.
 */
export interface CachedProject {
  s: string;
  k: [number, number];
  p: NexusProjectSummary | null;
}

/** A skills scan under the signatures of the folders listed and the files read (paths relative to the project directory). */
export interface CachedSkills {
  p: string[];
  s: string[];
  r: ScanSkillsResult;
}

/** The loaded cache, filled in by `listProjects` and `scanSkills`, then saved. */
export interface StartupCache {
  /** Files and folders whose mtime or ctime is later than this are not trusted (ms since the epoch). */
  settled: number;
  /** Entries read from the file (shapes checked when used). */
  projects: Record<string, unknown>;
  skills: unknown;
  /** Entries to write: the valid ones used and the ones computed now. */
  nextProjects: Record<string, CachedProject>;
  nextSkills: CachedSkills | null;
  /** True when a new entry was computed. */
  changed: boolean;
  file: string | null;
  header: { v: number; version: string; dir: string; key: string };
}

/**
 * Opens the cache of `projectDir` under `stateDir` for a configuration `key`. With `stateDir`
 * `null`, or a missing, unreadable, corrupt or foreign file, the cache starts empty. Never throws.
 */
export function openStartupCache(
  stateDir: string | null,
  projectDir: string,
  key: string,
  options: { racyMs?: number; now?: number } = {},
): StartupCache {
  const header = { v: FORMAT, version: VERSION, dir: projectDir, key };
  const cache: StartupCache = {
    settled: (options.now ?? Date.now()) - (options.racyMs ?? RACY_MS),
    projects: {},
    skills: null,
    nextProjects: {},
    nextSkills: null,
    changed: false,
    file: stateDir === null ? null : join(stateDir, "cache", `startup-${hashName(projectDir)}.json`),
    header,
  };
  if (cache.file === null) return cache;
  const r = readPrivateFile(cache.file, { maxBytes: 4 * 1024 * 1024 });
  if (!r.ok) return cache;
  try {
    const data = JSON.parse(r.text);
    if (
      data === null || typeof data !== "object" || data.v !== header.v || data.version !== header.version ||
      data.dir !== header.dir || data.key !== header.key || data.projects === null ||
      typeof data.projects !== "object" || Array.isArray(data.projects)
    ) return cache;
    cache.projects = data.projects;
    cache.skills = data.skills ?? null;
  } catch { /* corrupt: start empty */ }
  return cache;
}

/**
 * Writes the cache back when anything changed (new entries, or projects gone). No fsync: a lost
 * or torn-then-refused cache only costs a recompute. Never throws.
 */
export function saveStartupCache(cache: StartupCache): void {
  if (cache.file === null) return;
  if (!cache.changed && Object.keys(cache.nextProjects).length === Object.keys(cache.projects).length) return;
  try {
    ensurePrivateDir(dirname(cache.file));
    writeFileAtomic(
      cache.file,
      JSON.stringify({ ...cache.header, projects: cache.nextProjects, skills: cache.nextSkills }),
      { sync: false },
    );
  } catch { /* no cache this time */ }
}

/**
 * The lstat signature of `path`: `"-"` when nothing is there, `null` when in doubt (a symbolic
 * link, an error, or for `full` a file changed after `settled`). Without `full` only a real
 * folder's identity is kept (`null` for anything else), which is all a folder on the way to a
 * file needs: the file's own signature says whether its content changed.
 */
export function signPath(path: string, settled: number, full: boolean): string | null {
  let st: Stats | undefined;
  try {
    st = lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (st === undefined) return "-";
  if (st.isSymbolicLink()) return null;
  if (!full) return st.isDirectory() ? `d${st.dev}:${st.ino}` : null;
  // Too fresh to trust (two writes in one clock tick keep the signature) only by the mtime: a copy,
  // chmod or new link moves the ctime without touching the content, and the ctime is signed anyway.
  if (st.mtimeMs > settled) return null;
  return `${st.dev}:${st.ino}:${st.mode}:${st.nlink}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

/** Which paths a project's signature covers: the folders on the way, then the candidate files. */
export interface SignPlan {
  /** Folders on the way to any candidate (relative, `/`), parents first. */
  dirs: string[];
  /** Candidate files (relative, `/`): the `steps` steps names, then the manifest names. */
  files: string[];
  /** How many of `files` are steps names. */
  steps: number;
  /** For each file, the indexes in `dirs` of its folders. */
  parents: number[][];
}

/** The plan for candidate names already resolved inside the project folder (`rel` of `resolveInside`). */
export function planSigns(stepsRels: readonly string[], manifestRels: readonly string[]): SignPlan {
  const plan: SignPlan = { dirs: [], files: [...stepsRels, ...manifestRels], steps: stepsRels.length, parents: [] };
  for (const rel of plan.files) {
    const parts = rel.split("/");
    const parents: number[] = [];
    for (let i = 1; i < parts.length; i++) {
      const d = parts.slice(0, i).join("/");
      let at = plan.dirs.indexOf(d);
      if (at < 0) at = plan.dirs.push(d) - 1;
      parents.push(at);
    }
    plan.parents.push(parents);
  }
  return plan;
}

/**
 * The signature of project folder `root` over the plan's folders, its first `ks` steps names and
 * its first `km` manifest names (the ones a summary was computed from: up to the file used).
 * Every folder on the way must be a real folder or missing; every file is signed in full. `null`
 * when in doubt.
 */
export function signProject(root: string, plan: SignPlan, settled: number, ks: number, km: number): string[] | null {
  const dirs: string[] = [];
  for (const d of plan.dirs) {
    const s = signPath(`${root}/${d}`, settled, false);
    if (s === null) return null;
    dirs.push(s);
  }
  const out = [dirs.join(",")];
  for (let i = 0; i < plan.files.length; i++) {
    if (i < plan.steps ? i >= ks : i - plan.steps >= km) continue;
    let s: string | null = "-";
    if (!plan.parents[i].some((d) => dirs[d] === "-")) s = signPath(`${root}/${plan.files[i]}`, settled, true);
    if (s === null) return null;
    out.push(s);
  }
  return out;
}

/** The cached summary of project `id` in folder `root` when its files' signature is unchanged, else `undefined`. */
export function cachedProject(
  cache: StartupCache,
  root: string,
  id: string,
  plan: SignPlan,
): NexusProjectSummary | null | undefined {
  const e = cache.projects[id] as CachedProject | undefined;
  if (e === null || typeof e !== "object" || typeof e.s !== "string" || !Array.isArray(e.k)) return undefined;
  const [ks, km] = e.k;
  const p = e.p;
  const manifests = plan.files.length - plan.steps;
  if (
    !Number.isInteger(ks) || !Number.isInteger(km) || ks < Math.min(1, plan.steps) || ks > plan.steps || km > manifests
  ) return undefined;
  if (p === null ? km !== 0 : km < Math.min(1, manifests) || !isSummary(p, id)) return undefined;
  const sig = signProject(root, plan, cache.settled, ks, km);
  if (sig === null || sig.join(",") !== e.s) return undefined;
  cache.nextProjects[id] = e;
  return p === null ? null : { ...p };
}

/**
 * Records project `id` computed from the signature `all` (of every candidate, taken before it was
 * read), keeping only what the summary depended on: the steps names up to the one used (`stepsUsed`,
 * -1 for none) and, unless the project is complete (`summary` null), the manifest names up to the
 * one used.
 */
export function storeProject(
  cache: StartupCache,
  plan: SignPlan,
  id: string,
  all: string[],
  summary: NexusProjectSummary | null,
  stepsUsed: number,
  manifestUsed: number,
): void {
  const ks = stepsUsed >= 0 ? stepsUsed + 1 : plan.steps;
  const km = summary === null ? 0 : manifestUsed >= 0 ? manifestUsed + 1 : plan.files.length - plan.steps;
  const s = [all[0], ...all.slice(1, 1 + ks), ...all.slice(1 + plan.steps, 1 + plan.steps + km)].join(",");
  cache.nextProjects[id] = { s, k: [ks, km], p: summary === null ? null : { ...summary } };
  cache.changed = true;
}

function isSummary(p: unknown, id: string): p is NexusProjectSummary {
  if (p === null || typeof p !== "object") return false;
  const s = p as Record<string, unknown>;
  return s.id === id && typeof s.name === "string" &&
    (s.status === "planning" || s.status === "execution" || s.status === "unknown") &&
    (s.progress === null || typeof s.progress === "number") &&
    (s.currentTask === null || typeof s.currentTask === "string");
}

/** The cached skills scan when every folder and file it came from has the same signature, else `undefined`. */
export function cachedSkills(cache: StartupCache, projectDir: string): ScanSkillsResult | undefined {
  const e = cache.skills as CachedSkills | null;
  if (e === null || typeof e !== "object" || !Array.isArray(e.p) || !Array.isArray(e.s) || e.p.length !== e.s.length) {
    return undefined;
  }
  const r = e.r;
  if (
    r === null || typeof r !== "object" || typeof r.truncated !== "boolean" || !Array.isArray(r.skills) ||
    !r.skills.every(isSkill)
  ) return undefined;
  for (let i = 0; i < e.p.length; i++) {
    const rel = e.p[i];
    if (typeof rel !== "string" || typeof e.s[i] !== "string") return undefined;
    const full = !e.s[i].startsWith("d");
    if (signPath(rel === "" ? projectDir : join(projectDir, rel), cache.settled, full) !== e.s[i]) return undefined;
  }
  cache.nextSkills = e;
  return { skills: r.skills.map((s) => ({ ...s })), truncated: r.truncated };
}

function isSkill(x: unknown): x is SkillInfo {
  if (x === null || typeof x !== "object") return false;
  const s = x as Record<string, unknown>;
  return typeof s.name === "string" && typeof s.description === "string" && typeof s.path === "string" &&
    typeof s.root === "string" &&
    (s.category === null || typeof s.category === "string");
}
