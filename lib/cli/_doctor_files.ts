/**
 * Private helper of `rehydrate doctor`, `status`, `validate` and `detect`: finding the files they
 * report on (the newest transcript of a project, the binary a hook command runs, checkpoints,
 * markers, the workflows' files).
 *
 * @module
 */

import { existsSync, readdirSync, statSync } from "../node/fs.ts";
import { isAbsolute, join, resolve } from "../node/path.ts";
import { readPrivateFile } from "../state/read_private_file.ts";
import { readProjectFile } from "../state/read_project_file.ts";
import { firstWord, unguard } from "./_install_plan.ts";
import { containedPath } from "./_contained.ts";
import type { RehydrateConfig } from "../config/load_config.ts";

const NOT_ALNUM = /[^a-zA-Z0-9]/g;
const PROJECT_DIR_VAR = /\$\{CLAUDE_PROJECT_DIR\}|\$CLAUDE_PROJECT_DIR\b/g;
const HOME_VAR = /^~(?=\/|$)|\$\{HOME\}|\$HOME\b/g;

/** Claude Code's config directory: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(homeDir: string, env: Record<string, string | undefined>): string {
  return env.CLAUDE_CONFIG_DIR || join(homeDir, ".claude");
}

/** The transcript directory name of a project: every character outside `[A-Za-z0-9]` becomes `-`. */
export function sanitizeProjectPath(dir: string): string {
  return dir.replace(NOT_ALNUM, "-");
}

/** The folder where Claude Code keeps the transcripts of a project's sessions (`<session>.jsonl`). */
export function transcriptDir(projectDir: string, homeDir: string, env: Record<string, string | undefined>): string {
  const projects = join(claudeConfigDir(homeDir, env), "projects");
  let name = env.CLAUDE_CODE_PROJECT_DIR_NAME || sanitizeProjectPath(projectDir);
  if (name.length > 200) {
    // Longer names are cut to 200 characters and get a hash suffix we do not recompute: match the prefix.
    const prefix = name.slice(0, 200) + "-";
    const found = safeList(projects).find((n) => n.startsWith(prefix));
    if (found) name = found;
  }
  return join(projects, name);
}

/** The newest `*.jsonl` of a project's transcript directory, or why there is none. */
export function newestTranscript(
  projectDir: string,
  homeDir: string,
  env: Record<string, string | undefined>,
): { path: string; mtimeMs: number; size: number } | { missing: string } {
  const dir = transcriptDir(projectDir, homeDir, env);
  let best: { path: string; mtimeMs: number; size: number } | null = null;
  for (const entry of safeList(dir)) {
    if (!entry.endsWith(".jsonl")) continue;
    try {
      const st = statSync(join(dir, entry));
      if (st.isFile() && (best === null || st.mtimeMs > best.mtimeMs)) {
        best = { path: join(dir, entry), mtimeMs: st.mtimeMs, size: st.size };
      }
    } catch { /* vanished */ }
  }
  return best ?? { missing: `no transcript in ${dir}` };
}

/**
 * The executable a hook command runs (behind the guard of a shared install too), with
 * `$CLAUDE_PROJECT_DIR` and `~`/`$HOME` filled in and a relative path taken from the project (where
 * Claude Code runs hooks); a bare name is looked up in the absolute `PATH` entries only (returned
 * as is when not found): a relative entry (`.`, `bin`, an empty one) would find a file of whatever
 * directory doctor runs in (issue #36, N1).
 */
export function commandBinary(
  command: string,
  projectDir: string,
  homeDir: string,
  env: Record<string, string | undefined> = {},
): string {
  const word = firstWord(unguard(command).command).word
    .replace(PROJECT_DIR_VAR, () => projectDir)
    .replace(HOME_VAR, () => homeDir);
  if (word.includes("/") || word.includes("\\")) return resolve(projectDir, word);
  const win = process.platform === "win32";
  for (const dir of (env.PATH ?? env.Path ?? "").split(win ? ";" : ":")) {
    if (!dir || !isAbsolute(dir)) continue;
    for (const name of win ? [word, word + ".exe"] : [word]) {
      try {
        if (statSync(join(dir, name)).isFile()) return join(dir, name);
      } catch { /* not here */ }
    }
  }
  return word;
}

/** Names in a directory; none when it cannot be listed. */
export function safeList(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/**
 * A JSON file's value, or null when it is missing, too large, not a regular file (a FIFO or a
 * device is refused without blocking) or not JSON.
 */
export function readJson(path: string, maxBytes = 4 * 1024 * 1024): unknown {
  const read = readPrivateFile(path, { maxBytes, requireOwner: false, followLinks: true });
  if (!read.ok) return null;
  try {
    return JSON.parse(read.text);
  } catch {
    return null;
  }
}

/**
 * A JSON file of the project (`path` absolute, or relative to `projectDir`), read only when it
 * resolves inside the project and has one link (`readProjectFile`); null otherwise, or when it is
 * too large, not a regular file or not JSON.
 */
export function readProjectJson(projectDir: string, path: string, maxBytes = 4 * 1024 * 1024): unknown {
  const read = readProjectFile(projectDir, path, { maxBytes });
  if (!read.ok) return null;
  try {
    return JSON.parse(read.text);
  } catch {
    return null;
  }
}

/** `cx-NNN-checkpoint.json` files of a checkpoints directory, lowest number first. */
export function checkpointFiles(dir: string): string[] {
  return safeList(dir).filter((n) => /^cx-\d{3,}-checkpoint\.json$/.test(n)).map((n) => join(dir, n));
}

/**
 * The files of a project's workflows that `rehydrate validate` checks: each project's manifest and
 * the flat precompact state (projects), the checkpoints and the monitor state (orchestration).
 * Rule 2 of SECURITY.md: a linked projects root, project folder or state folder that leads out of
 * the project is named in `refused` and neither listed nor read (validate checks each file again).
 */
export function workflowFiles(
  projectDir: string,
  config: RehydrateConfig,
  workflows: readonly string[],
): { files: string[]; refused: string[] } {
  const files: string[] = [];
  const refused: string[] = [];
  const listable = (dir: string, shown: string): boolean => {
    const at = containedPath(projectDir, dir);
    if (at.kind === "outside") refused.push(shown);
    return at.kind === "inside";
  };
  if (workflows.includes("projects")) {
    const root = join(projectDir, config.projects.root);
    for (const name of listable(root, config.projects.root) ? safeList(root) : []) {
      if (!listable(join(root, name), `${config.projects.root}/${name}`)) continue;
      for (const m of config.projects.manifestNames) {
        const f = join(root, name, m);
        if (existsSync(f)) {
          files.push(f);
          break;
        }
      }
    }
    const state = join(projectDir, config.projects.stateFile);
    if (existsSync(state)) files.push(state);
  }
  if (workflows.includes("orchestration")) {
    const dir = join(projectDir, config.orchestration.stateDir);
    if (listable(dir, config.orchestration.stateDir)) {
      const checkpoints = join(dir, "checkpoints");
      if (listable(checkpoints, `${config.orchestration.stateDir}/checkpoints`)) {
        files.push(...checkpointFiles(checkpoints));
      }
      const monitor = join(dir, "context-monitor-state.json");
      if (existsSync(monitor)) files.push(monitor);
    }
  }
  return { files, refused };
}
