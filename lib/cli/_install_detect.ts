/**
 * Private helper of `rehydrate install`, `doctor` and `status`: which workflows a project uses,
 * with the evidence, and the small pieces the verbs share (settings paths, option parsing).
 *
 * @module
 */

import { existsSync, statSync } from "../node/fs.ts";
import { homeDir } from "../node/home_dir.ts";
import { join, resolve } from "../node/path.ts";
import { loadConfig, type LoadedConfig } from "../config/load_config.ts";
import { findOrchestrationLayout } from "../orchestration/layout.ts";
import { usesProjectsLayout } from "../projects/uses_projects_layout.ts";
import { type Workflow, WORKFLOWS } from "./_install_plan.ts";

/** What the verbs get from the outside world; tests pass temporary directories. */
export interface VerbEnv {
  /** Working directory: the default project. Default `process.cwd()`. */
  cwd?: string;
  /** Home directory (user settings, transcripts). Default `env.HOME`, then `os.homedir()`. */
  homeDir?: string;
  /** Environment. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Platform, for command quoting. Default `process.platform`. */
  platform?: string;
  /** Clock, for backup names. Default `new Date()`. */
  now?: Date;
}

/** The resolved {@linkcode VerbEnv}. */
export interface ResolvedEnv {
  cwd: string;
  homeDir: string;
  env: Record<string, string | undefined>;
  platform: string;
  now: Date;
}

/** Fills in the defaults of a {@linkcode VerbEnv}. */
export function resolveEnv(options: VerbEnv = {}): ResolvedEnv {
  const env = options.env ?? process.env;
  return {
    cwd: options.cwd ?? process.cwd(),
    homeDir: options.homeDir ?? homeDir(env),
    env,
    platform: options.platform ?? process.platform,
    now: options.now ?? new Date(),
  };
}

/** Which settings file: the user's, a project's shared one (committed) or its local one (not). */
export type SettingsScopeName = "user" | "shared" | "local";

/**
 * The settings file of a scope: `~/.claude/settings.json` (user), `<project>/.claude/settings.json`
 * (shared: the file teams commit) or `<project>/.claude/settings.local.json` (local: this machine
 * only; git ignores it only where a .gitignore says so).
 *
 * @example
 * ```ts
 * settingsPath("local", { projectDir: "/w", homeDir: "/home/me" }); // "/w/.claude/settings.local.json"
 * ```
 */
export function settingsPath(scope: SettingsScopeName, dirs: { projectDir: string; homeDir: string }): string {
  if (scope === "user") return join(dirs.homeDir, ".claude", "settings.json");
  return join(dirs.projectDir, ".claude", scope === "shared" ? "settings.json" : "settings.local.json");
}

/** One detected (or not) workflow with why. */
export interface WorkflowFinding {
  workflow: Workflow;
  used: boolean;
  /** What was found, or why not. */
  evidence: string;
}

/**
 * Detects the workflows of a project from what is on disk: projects (`00-system/` and
 * `02-projects/`, or `projects.enabled: true`), orchestration (a `projects/<run>/ORCHESTRATION.yaml`)
 * and dispatch (a `docs/handler-dispatches/` directory, or `~/.claude/worker-dispatch-path`).
 * A workflow switched off in the config (`enabled: false`) is never detected.
 */
export function detectWorkflows(projectDir: string, loaded: LoadedConfig): WorkflowFinding[] {
  const config = loaded.config;
  const out: WorkflowFinding[] = [];
  const p = config.projects;
  out.push(
    p.enabled === false
      ? { workflow: "projects", used: false, evidence: "projects.enabled is false in the config" }
      : usesProjectsLayout(projectDir, config)
      ? {
        workflow: "projects",
        used: true,
        evidence: p.enabled === true ? "projects.enabled is true" : `${p.systemDir}/ and ${p.root}/ exist`,
      }
      : { workflow: "projects", used: false, evidence: `no ${p.systemDir}/ and ${p.root}/` },
  );
  const o = config.orchestration;
  const layout = o.enabled === false ? null : findOrchestrationLayout(projectDir, { projectsDir: o.projectsDir });
  out.push(
    o.enabled === false
      ? { workflow: "orchestration", used: false, evidence: "orchestration.enabled is false in the config" }
      : layout
      ? {
        workflow: "orchestration",
        used: true,
        evidence: `${layout.runs.length} run(s), e.g. ${layout.active.relPath}`,
      }
      : o.enabled === true
      ? { workflow: "orchestration", used: true, evidence: "orchestration.enabled is true" }
      : { workflow: "orchestration", used: false, evidence: `no ${o.projectsDir}/*/ORCHESTRATION.yaml` },
  );
  const d = config.dispatch;
  const dispatchDir = resolve(projectDir, d.dispatchDir);
  out.push(
    d.enabled === false
      ? { workflow: "dispatch", used: false, evidence: "dispatch.enabled is false in the config" }
      : d.enabled === true
      ? { workflow: "dispatch", used: true, evidence: "dispatch.enabled is true" }
      : isDir(dispatchDir)
      ? { workflow: "dispatch", used: true, evidence: `${d.dispatchDir}/ exists` }
      : existsSync(d.dispatchPathFile)
      ? { workflow: "dispatch", used: true, evidence: `${d.dispatchPathFile} exists` }
      : { workflow: "dispatch", used: false, evidence: `no ${d.dispatchDir}/ and no ${d.dispatchPathFile}` },
  );
  return out;
}

/** Loads the config of a project the way the hooks do. */
export function projectConfig(projectDir: string, env: ResolvedEnv): LoadedConfig {
  return loadConfig(projectDir, { homeDir: env.homeDir, env: env.env });
}

/** Parses `a,b,c` into workflows, or returns the first unknown name. */
export function parseWorkflows(list: string): { workflows: Workflow[] } | { unknown: string } {
  const out: Workflow[] = [];
  for (const raw of list.split(",")) {
    const w = raw.trim();
    if (w === "" || w === "none" || w === "core") continue;
    if (!WORKFLOWS.includes(w as Workflow)) return { unknown: w };
    if (!out.includes(w as Workflow)) out.push(w as Workflow);
  }
  return { workflows: out };
}

/** True for a directory (links followed); false for anything else or nothing. */
export function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A tiny option reader shared by the verbs: `--name value`, `--name=value` and flags. Returns the
 * values, or the one-line error to print.
 */
export function readOptions(
  args: readonly string[],
  spec: { flags: readonly string[]; values: readonly string[] },
): { flags: Set<string>; values: Map<string, string>; error?: string } {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const eq = a.indexOf("=");
    const name = a.startsWith("--") && eq > 0 ? a.slice(0, eq) : a;
    if (spec.flags.includes(name) && name === a) {
      flags.add(name);
      continue;
    }
    if (spec.values.includes(name)) {
      const v = name === a ? args[++i] : a.slice(eq + 1);
      if (v === undefined || (name === a && v.startsWith("--"))) {
        return { flags, values, error: `${name} needs a value` };
      }
      values.set(name, v);
      continue;
    }
    return {
      flags,
      values,
      error: a.startsWith("-") ? `unknown option ${a}` : `unexpected argument ${JSON.stringify(a)}`,
    };
  }
  return { flags, values };
}

/** The clients a verb can serve. */
export type Agent = "claude" | "codex";

/**
 * `--agent NAME` (or `--agent=NAME`) taken out of a verb's arguments: which client the verb is
 * for (default `claude`, Claude Code), and the other arguments. An unknown name is an error line.
 *
 * @example
 * ```ts
 * takeAgent(["--agent", "codex", "--user"]); // { agent: "codex", rest: ["--user"] }
 * ```
 */
export function takeAgent(args: readonly string[]): { agent: Agent; rest: string[] } | { error: string } {
  const rest: string[] = [];
  let agent: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--agent" || a.startsWith("--agent=")) {
      const v = a === "--agent" ? args[++i] : a.slice("--agent=".length);
      if (v === undefined || v === "") return { error: "--agent needs a value" };
      if (agent !== undefined && agent !== v) return { error: "--agent given twice" };
      agent = v;
    } else rest.push(a);
  }
  if (agent !== undefined && agent !== "claude" && agent !== "codex") {
    return { error: `unknown agent ${JSON.stringify(agent)}; one of claude, codex` };
  }
  return { agent: (agent ?? "claude") as Agent, rest };
}
