import { type Dirent, readdirSync, realpathSync } from "../node/fs.ts";
import { join } from "../node/path.ts";
import { parseFrontmatter } from "../yaml/parse_frontmatter.ts";
import { readInside, resolveInside } from "./read_file.ts";
import { cachedSkills, signPath, type StartupCache } from "./_startup_cache.ts";

/** One `SKILL.md` found on disk. */
export interface SkillInfo {
  /** Frontmatter `name`, else the skill's folder name. */
  name: string;
  /** Frontmatter `description`, whitespace collapsed, at most `maxDescriptionChars`; `""` if none. */
  description: string;
  /** Path of the `SKILL.md`, relative to the project directory, with `/`. */
  path: string;
  /** The search root it was found under, as configured (`00-system/skills`). */
  root: string;
  /** The folder between the root and the skill folder (`projects` in `projects/plan-project/SKILL.md`), or `null`. */
  category: string | null;
}

/** Result of {@linkcode scanSkills}. */
export interface ScanSkillsResult {
  /** Sorted by root order, then path. */
  skills: SkillInfo[];
  /** True when a limit stopped the scan early. */
  truncated: boolean;
}

/** Options for {@linkcode scanSkills}. */
export interface ScanSkillsOptions {
  /** Folders searched, relative to the project directory. Default `["00-system/skills", "03-skills"]`. */
  roots?: readonly string[];
  /** Stop after this many `SKILL.md` files. Default 200. */
  maxFiles?: number;
  /** Deepest folder level searched below a root (a skill at `root/a/b/SKILL.md` is depth 2). Default 4. */
  maxDepth?: number;
  /** Stop after listing this many folders. Default 2000. */
  maxDirs?: number;
  /** Bytes read from the start of each `SKILL.md` for its frontmatter. Default 8192. */
  headBytes?: number;
  /** Longest description kept. Default 240. */
  maxDescriptionChars?: number;
  /**
   * The startup cache (see `lib/projects/_startup_cache.ts`): a scan whose folders and files all have the same
   * lstat signature as when it was cached is returned as it was; a new scan is recorded in it.
   * It must have been opened for the same options. Default: none.
   */
  cache?: StartupCache;
}

const DEFAULT_ROOTS = ["00-system/skills", "03-skills"];
const SPACES = /\s+/g;

/**
 * Finds `SKILL.md` files under the skill roots and reads the `name` and `description` of their
 * frontmatter, bounded in files, folders, depth and bytes so a huge tree cannot slow a hook.
 * Hidden folders and `node_modules` are skipped and symbolic links to folders are not followed;
 * a `SKILL.md` whose real path leaves the project directory is ignored. Never throws.
 *
 * @example
 * ```ts
 * import { scanSkills } from "./scan_skills.ts";
 * const { skills } = scanSkills("/w");
 * for (const s of skills) console.log(s.category, s.name, s.description);
 * ```
 */
export function scanSkills(projectDir: string, options: ScanSkillsOptions = {}): ScanSkillsResult {
  const maxFiles = options.maxFiles ?? 200;
  const maxDepth = options.maxDepth ?? 4;
  const maxDescription = options.maxDescriptionChars ?? 240;
  const headBytes = options.headBytes ?? 8192;
  let dirBudget = options.maxDirs ?? 2000;
  const skills: SkillInfo[] = [];
  let truncated = false;
  const cache = options.cache;
  if (cache !== undefined) {
    const hit = cachedSkills(cache, projectDir);
    if (hit !== undefined) return hit;
  }
  // What the scan depended on, signed before it is read: the folders on the way to each root,
  // every folder listed and every SKILL.md read.
  const paths: string[] = [];
  const sigs: string[] = [];
  let cacheable = cache !== undefined;
  let realRoot: string;
  try {
    realRoot = realpathSync(projectDir);
  } catch {
    return { skills, truncated };
  }

  for (const root of options.roots ?? DEFAULT_ROOTS) {
    const at = resolveInside(projectDir, root);
    if (at === "outside") continue;
    if (cacheable) {
      const parts = at.rel.split("/");
      for (let i = 1; i < parts.length && cacheable; i++) note(parts.slice(0, i).join("/"), false);
    }
    walk(at.abs, at.rel, [], 0);
    if (truncated) break;
  }
  if (cache !== undefined && cacheable) {
    cache.nextSkills = { p: paths, s: sigs, r: { skills: skills.map((s) => ({ ...s })), truncated } };
    cache.changed = true;
  }
  return { skills, truncated };

  function note(rel: string, full: boolean): void {
    const s = signPath(join(projectDir, rel), cache!.settled, full);
    if (s === null) cacheable = false;
    else {
      paths.push(rel);
      sigs.push(s);
    }
  }

  function walk(dir: string, rootRel: string, trail: string[], depth: number): void {
    if (dirBudget-- <= 0) {
      truncated = true;
      return;
    }
    const rel = trail.length === 0 ? rootRel : `${rootRel}/${trail.join("/")}`;
    if (cacheable) note(rel, true);
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (depth > 0) {
      for (const e of entries) {
        if (e.name !== "SKILL.md" || !(e.isFile() || e.isSymbolicLink())) continue;
        if (skills.length >= maxFiles) {
          truncated = true;
          return;
        }
        const abs = join(dir, e.name);
        if (cacheable) {
          if (e.isSymbolicLink()) cacheable = false;
          else note(`${rel}/SKILL.md`, true);
        }
        const r = readInside(projectDir, abs, { headBytes, realRoot });
        if (!r.ok) break;
        const folder = trail[trail.length - 1];
        let name = folder;
        let description = "";
        const fm = parseFrontmatter(r.text);
        const data = fm.value?.data;
        if (data) {
          if (typeof data.name === "string" && data.name.trim() !== "") name = data.name.trim();
          if (typeof data.description === "string") description = data.description.replace(SPACES, " ").trim();
        }
        if (description.length > maxDescription) description = description.slice(0, maxDescription - 1).trimEnd() + "…";
        skills.push({
          name,
          description,
          path: `${rel}/SKILL.md`,
          root: rootRel,
          category: trail.length > 1 ? trail[0] : null,
        });
        break;
      }
    }
    if (depth >= maxDepth) return;
    for (const e of entries) {
      if (!e.isDirectory() || e.name.startsWith(".") || e.name === "node_modules") continue;
      walk(join(dir, e.name), rootRel, [...trail, e.name], depth + 1);
      if (truncated) return;
    }
  }
}
