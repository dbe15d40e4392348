import { realpathSync, statSync } from "../node/fs.ts";
import { join } from "../node/path.ts";
import type { HookContext } from "../hook/handle_hook.ts";
import { usesProjectsLayout } from "./uses_projects_layout.ts";
import {
  buildNexusContext,
  type NexusContextInput,
  type NexusFile,
  type NexusProblemFile,
  type NexusProject,
} from "./build_nexus_context.ts";
import { detectSessionMode, type SessionMode } from "./session_mode.ts";
import { readManifest } from "./read_manifest.ts";
import { validationGate } from "./manifest_text.ts";
import { type ProjectSteps, readSteps } from "./read_steps.ts";
import { scanSkills, type SkillInfo } from "./scan_skills.ts";
import { readInside, resolveInside } from "./read_file.ts";
import { realPathInside } from "../detect/project_boundary.ts";
import { isDelivered, markDelivered, type PrecompactState, readSessionState } from "./_state.ts";
import { listProjects, phaseOfManifest } from "./_list.ts";
import { openStartupCache, saveStartupCache } from "./_startup_cache.ts";
import { pendingOnboarding } from "./_onboarding.ts";

/** Why a resume did not happen, as `<resume-status reason="…">` says. A closed set. */
export type ResumeStatusReason =
  /** Compaction without a state file for this session. */
  | "no-state"
  /** The state file does not parse or fails its schema. */
  | "invalid-state"
  /** The detection's confidence is below `projects.minConfidence`. */
  | "low-confidence"
  /** The state names a project folder that does not exist. */
  | "project-missing"
  /** The project has no manifest. */
  | "missing-manifest"
  /** The manifest's frontmatter does not parse. */
  | "invalid-frontmatter"
  /** The manifest fails `schemas/resume_context.v1.json`. */
  | "invalid-manifest"
  /** Some (resume goes on) or all (it does not) listed files are missing or refused. */
  | "missing-files"
  /** Anything unexpected. */
  | "error";

/** What {@linkcode projectSessionStart} decided. */
export interface ProjectSessionStartResult {
  /** The `<nexus-context>` XML, at most `config.budget.maxChars` characters. */
  additionalContext: string;
  mode: "startup" | "compact";
  action: "display_menu" | "continue_working";
  /** The case of docs/projects.md, "The ten cases" (1-10). */
  case: number;
  /** Sections or files that did not fit in full (named with `action="read"` when a fallback fit). */
  dropped: string[];
  /** The `<resume-status>` reason, when there is one. */
  resumeStatus: ResumeStatusReason | null;
  /** True when only a short reminder was sent because this compaction's context was delivered already. */
  reminder: boolean;
}

/** Options for {@linkcode projectSessionStart}. */
export interface ProjectSessionStartOptions {
  /** Record the delivery in the per-session state copy. Default true; false for dry runs. */
  markDelivered?: boolean;
  /**
   * Decide as if SessionStart had this source. UserPromptSubmit passes `"compact"` to re-deliver a
   * compaction's context that SessionStart did not deliver. Default: the input's `source`.
   */
  source?: string;
  /** Characters this workflow may use, when other workflows share the hook's budget. Default `config.budget.maxChars`. */
  maxChars?: number;
  /**
   * Give the full context even when this compaction's was delivered already: the resume
   * injection rule found none in the replayed transcript (lib/events/session_start.ts). Default false.
   */
  redeliver?: boolean;
  /**
   * True when the caller has found the layout with `usesProjectsLayout` already (the hooks do,
   * once per run), so it is not checked again. Default false: checked here.
   */
  layoutChecked?: boolean;
}

const RANK = { none: 0, low: 1, medium: 2, high: 3 } as const;
const FILE_OPS: ReadonlySet<string> = new Set(["Read", "Write", "Edit", "MultiEdit", "NotebookEdit"]);
const OVERVIEW = /overview/i;
/** The validation gate's share of the budget: the design's gate is about 600 characters. */
const GATE_MAX_CHARS = 1200;
const BACKSLASH = /\\/g;

/**
 * The SessionStart side of the project-workspaces workflow (docs/projects.md).
 * Returns `null` when the workflow does not apply: `projects.enabled` is false, or it is `"auto"`
 * and the project directory lacks `<systemDir>` or `<root>`.
 *
 * On `compact`, `resume` and `fork` it reads this session's PreCompact state (the per-session
 * copy, else the flat file only if its `session_id` is this session's), the project's manifest
 * and steps file, picks one of the ten cases with `detectSessionMode`, and renders the XML with
 * `buildNexusContext` within `config.budget.maxChars`. `startup` and `clear` never resume: they
 * get the startup menu. Every failure (no state, invalid state, low confidence, missing or invalid
 * manifest, all listed files missing, an unexpected error) degrades to startup output with a
 * `<resume-status reason="…">`: without a menu after a compaction, with it after a resume.
 *
 * A valid state is marked delivered (`delivered: {at, compaction_id}` in the per-session copy,
 * written atomically) after the context is built, instead of being deleted. When this
 * compaction's state was delivered already (a repeated SessionStart, or `resume` later), only a
 * short reminder is sent: the project, the current task and the steps file, no file contents.
 *
 * Reads no transcript; scans skills and projects only for the startup output, bounded. Never
 * throws.
 *
 * @example
 * ```ts
 * import { handleHook } from "../hook/handle_hook.ts";
 * import { projectSessionStart } from "./session_start.ts";
 * const out = handleHook("SessionStart", (ctx) => {
 *   const r = projectSessionStart(ctx);
 *   return r && { json: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: r.additionalContext } } };
 * }, stdinText);
 * ```
 */
export function projectSessionStart(
  ctx: HookContext<"SessionStart" | "UserPromptSubmit">,
  options: ProjectSessionStartOptions = {},
): ProjectSessionStartResult | null {
  let source = "startup";
  let sessionId = "";
  let applies = false;
  try {
    const config = ctx.config();
    if (options.layoutChecked !== true && !usesProjectsLayout(ctx.projectDir, config)) return null;
    applies = true;
    // UserPromptSubmit passes the source; its input has none.
    const input = ctx.input;
    source = options.source ?? (typeof input.source === "string" ? input.source : "startup");
    sessionId = typeof input.session_id === "string" ? input.session_id : "";
    return decide(ctx, config, source, sessionId, options);
  } catch (err) {
    if (!applies) return null;
    try {
      ctx.log(`project session start failed: ${(err as Error)?.stack ?? String(err)}`);
      const continuing = source === "compact";
      const built = buildNexusContext({
        mode: "startup",
        action: continuing ? "continue_working" : "display_menu",
        session: { id: sessionId, source, timestamp: Number.isNaN(ctx.now.getTime()) ? "" : ctx.now.toISOString() },
        resumeStatus: { reason: "error", detail: "The workspace context could not be built; continuing without it" },
      }, { maxChars: 2000 });
      return {
        additionalContext: built.text,
        mode: "startup",
        action: continuing ? "continue_working" : "display_menu",
        case: continuing ? 6 : 1,
        dropped: built.dropped,
        resumeStatus: "error",
        reminder: false,
      };
    } catch {
      return null;
    }
  }
}

type Config = ReturnType<HookContext["config"]>;

function decide(
  ctx: HookContext,
  config: Config,
  source: string,
  sessionId: string,
  options: ProjectSessionStartOptions,
): ProjectSessionStartResult {
  const p = config.projects;
  const projectDir = ctx.projectDir;
  const budget = {
    maxChars: Math.min(options.maxChars ?? config.budget.maxChars, config.budget.maxChars, 10_000),
    fileMaxChars: config.budget.fileMaxChars,
  };
  const session = { id: sessionId, source, timestamp: ctx.now.toISOString() };
  let status: { reason: ResumeStatusReason; detail?: string } | null = null;
  let state: PrecompactState | null = null;
  let compactionId = "";
  let sessionPath: string | null = null;
  let candidate: string | null = null;

  const resuming = source === "compact" || source === "resume" || source === "fork";
  if (resuming) {
    let dir: string | null = null;
    try {
      dir = ctx.stateDir();
    } catch (err) {
      ctx.log(`no state directory: ${(err as Error).message}`);
    }
    const read = readSessionState(sessionId, { stateDir: dir, projectDir, stateFile: p.stateFile });
    if (read.kind === "none") {
      if (source === "compact") {
        status = { reason: "no-state", detail: "No project state was saved before this compaction" };
      }
    } else if (read.kind === "invalid") {
      status = { reason: "invalid-state", detail: read.detail };
    } else {
      state = read.state;
      compactionId = read.compactionId;
      sessionPath = read.sessionPath;
      const id = state.active_project_id;
      if (id !== null && state.confidence !== "none") {
        if (RANK[state.confidence] < RANK[p.minConfidence]) {
          status = {
            reason: "low-confidence",
            detail: `Project ${id} was detected with ${state.confidence} confidence only`,
          };
        } else candidate = id;
      }
    }
  }

  const switched = state?.switched_to_skill ?? null;
  const calls = state?.last_tool_calls;
  const skillWork = calls?.some((c) => c.tool === "Skill") ?? false;
  let project: LoadedProject | null = null;
  if (candidate !== null && !(source === "compact" && switched)) {
    const loaded = loadProject(projectDir, p, candidate);
    if ("reason" in loaded) {
      status = loaded;
      candidate = null;
    } else {
      project = loaded;
      if (loaded.partial) status = loaded.partial;
    }
  }
  const fileWork = candidate === null || calls === undefined ||
    calls.some((c) =>
      FILE_OPS.has(c.tool) && c.file !== undefined && c.file.replace(BACKSLASH, "/").includes(`${p.root}/${candidate}/`)
    );
  const mode = detectSessionMode({
    source,
    projectId: candidate,
    phase: project?.phase ?? null,
    switchedToSkill: switched,
    projectFileWork: fileWork,
    skillWork,
  });
  const workingSet = (state?.working_set ?? []).slice(0, p.workingSetSize).map((w) => w.path);
  const delivered = state !== null && isDelivered(state, compactionId) && options.redeliver !== true;

  let input: NexusContextInput;
  if (mode.mode === "compact" && project !== null) {
    const confidence = state !== null && state.confidence !== "none" ? state.confidence : undefined;
    input = compactInput(ctx, config, mode, project, session, status, workingSet, delivered, confidence);
  } else {
    input = startupInput(ctx, config, mode, session, status, workingSet, switched);
  }
  const built = buildNexusContext(input, budget);
  if (state !== null && !delivered && sessionPath !== null && options.markDelivered !== false) {
    if (!markDelivered(sessionPath, state, compactionId, ctx.now)) ctx.log(`could not mark ${sessionPath} delivered`);
  }
  ctx.log(
    `projects: case ${mode.case} (${mode.mode}/${mode.action})${status ? `, resume-status ${status.reason}` : ""}${
      delivered ? ", reminder" : ""
    }`,
  );
  return {
    additionalContext: built.text,
    mode: mode.mode,
    action: mode.action,
    case: mode.case,
    dropped: built.dropped,
    resumeStatus: status?.reason ?? null,
    reminder: mode.mode === "compact" && delivered,
  };
}

interface LoadedProject {
  id: string;
  /** `<root>/<id>`, relative to the project directory. */
  base: string;
  path: string;
  /** The real path of `path`, checked to lie inside the project directory. */
  real: string;
  name: string;
  nextAction: string;
  phase: "planning" | "execution";
  steps: ProjectSteps | null;
  manifestFile: string;
  /** The manifest body's validation gate, capped; `null` without one. */
  gate: string | null;
  files: { rel: string; abs: string }[];
  problems: NexusProblemFile[];
  partial: { reason: ResumeStatusReason; detail?: string } | null;
}

function loadProject(
  projectDir: string,
  p: Config["projects"],
  id: string,
): LoadedProject | { reason: ResumeStatusReason; detail?: string } {
  const rootAt = resolveInside(projectDir, p.root);
  const at = rootAt === "outside" ? "outside" : resolveInside(rootAt.abs, id);
  if (rootAt === "outside" || at === "outside" || !isDir(at.abs)) {
    return { reason: "project-missing", detail: `No project folder ${p.root}/${id}` };
  }
  const base = `${rootAt.rel}/${at.rel}`;
  // Rule 2 of SECURITY.md: a linked projects root or project folder that leads out of the project
  // is refused, and everything below is read against this checked real path.
  const real = realPathInside(projectDir, at.abs);
  if (real === null) {
    return { reason: "project-missing", detail: `The project folder ${base} resolves outside the project` };
  }
  const manifest = readManifest(at.abs, { manifestNames: p.manifestNames, realRoot: real });
  if (!manifest.ok) {
    const first = manifest.issues[0];
    const where = manifest.file ? `${base}/${manifest.file}` : base;
    if (manifest.problem === "missing") {
      return { reason: "missing-manifest", detail: `No manifest in ${base} (${p.manifestNames.join(", ")})` };
    }
    const reason = manifest.problem === "invalid_frontmatter"
      ? "invalid-frontmatter"
      : manifest.problem === "invalid_manifest"
      ? "invalid-manifest"
      : "missing-manifest";
    return { reason, detail: first ? `${where}:${first.line}: ${first.field}: ${first.message}` : where };
  }
  const steps = readSteps(at.abs, { stepsNames: p.stepsNames, realRoot: real });
  const phase = steps?.phase ?? phaseOfManifest(manifest.data.current_phase) ?? "planning";
  const files: { rel: string; abs: string }[] = [];
  const problems: NexusProblemFile[] = [];
  for (const f of manifest.files) {
    if (f.status === "ok" && f.rel !== null && f.abs !== null) files.push({ rel: f.rel, abs: f.abs });
    else {problems.push({
        path: f.rel !== null ? `${base}/${f.rel}` : f.entry,
        status: f.status === "outside" ? "refused-outside-project" : f.status,
      });}
  }
  let partial: LoadedProject["partial"] = null;
  if (problems.length > 0) {
    const list = problems.map((x) => `${x.path} (${x.status})`).join(", ");
    if (files.length === 0 && steps === null) {
      return { reason: "missing-files", detail: `None of the listed files can be read: ${list}` };
    }
    partial = { reason: "missing-files", detail: `Not loaded: ${list}` };
  }
  return {
    id,
    base,
    path: at.abs,
    real,
    name: manifest.data.project_name,
    nextAction: manifest.data.next_action,
    phase,
    steps,
    manifestFile: manifest.file,
    gate: validationGate(manifest.body, GATE_MAX_CHARS),
    files,
    problems,
    partial,
  };
}

function compactInput(
  ctx: HookContext,
  config: Config,
  mode: SessionMode,
  project: LoadedProject,
  session: NexusContextInput["session"],
  status: NexusContextInput["resumeStatus"],
  workingSet: string[],
  reminder: boolean,
  confidence: NexusProject["confidence"],
): NexusContextInput {
  const p = config.projects;
  const projectDir = ctx.projectDir;
  const fileMax = config.budget.fileMaxChars;
  const head = fileMax > 0 ? fileMax * 4 + 4 : 0;
  const steps = project.steps;
  const stepsPath = steps ? `${project.base}/${steps.file}` : null;
  const base: NexusContextInput = {
    mode: "compact",
    action: "continue_working",
    session,
    resumeStatus: status,
    project: {
      id: project.id,
      name: project.name,
      phase: mode.phase ?? project.phase,
      skill: mode.skill ?? "execute-project",
      nextAction: project.nextAction,
      currentTask: steps?.currentTask ?? null,
      progress: steps && steps.total > 0 ? { checked: steps.checked, total: steps.total } : null,
      stepsPath,
      manifestPath: `${project.base}/${project.manifestFile}`,
      confidence,
    },
  };
  if (reminder) return { ...base, reminder: true };

  // Planning loads every listed file; execution the overview and the steps (docs/projects.md).
  const ordered = project.files.slice();
  if (steps && !ordered.some((f) => f.rel === steps.file)) {
    ordered.push({ rel: steps.file, abs: join(project.path, steps.file) });
  }
  const stepsFirst = ordered.sort((a, b) => Number(b.rel === steps?.file) - Number(a.rel === steps?.file));
  const quoted: NexusFile[] = [];
  const optional: string[] = [];
  for (const f of stepsFirst) {
    const path = `${project.base}/${f.rel}`;
    const needed = mode.phase === "planning" || f.rel === steps?.file || OVERVIEW.test(f.rel);
    if (!needed) {
      optional.push(path);
      continue;
    }
    quoted.push(readQuoted(project.real, f.abs, path, head));
  }
  const systemFiles: NexusFile[] = [];
  for (
    const rel of [
      `${p.systemDir}/core/orchestrator.md`,
      `${p.systemDir}/system-map.md`,
      "04-workspace/workspace-map.md",
    ]
  ) {
    const at = resolveInside(projectDir, rel);
    if (at === "outside") continue;
    const f = readQuoted(projectDir, at.abs, at.rel, head);
    if (typeof f.content === "string") systemFiles.push(f);
  }
  const skillFile = findSkillFile(projectDir, config, mode.skill ?? "execute-project", head);
  const manifestPath = `${project.base}/${project.manifestFile}`;
  const shown = new Set<string>([
    manifestPath,
    ...quoted.map((f) => f.path),
    ...optional,
    ...project.problems.map((x) => x.path),
  ]);
  return {
    ...base,
    // Step 1 of the design's resume order: the manifest first, then its gate right after the
    // project line (docs/projects.md, "Compact mode").
    manifestFirst: manifestPath,
    validationGate: project.gate === null ? null : { path: manifestPath, text: project.gate },
    systemFiles,
    projectFiles: quoted,
    optionalFiles: optional,
    problemFiles: project.problems,
    skillFile,
    workingSet: workingSet.filter((w) => !shown.has(w) && w !== skillFile?.path),
  };
}

function startupInput(
  ctx: HookContext,
  config: Config,
  mode: SessionMode,
  session: NexusContextInput["session"],
  status: NexusContextInput["resumeStatus"],
  workingSet: string[],
  switched: string | null,
): NexusContextInput {
  const projectDir = ctx.projectDir;
  const p = config.projects;
  const fileMax = config.budget.fileMaxChars;
  const head = fileMax > 0 ? fileMax * 4 + 4 : 0;
  const read = (rel: string): NexusFile | null => {
    const at = resolveInside(projectDir, rel);
    if (at === "outside") return null;
    const f = readQuoted(projectDir, at.abs, at.rel, head);
    return typeof f.content === "string" ? f : null;
  };
  const orchestrator = read(`${p.systemDir}/core/orchestrator.md`);
  const goals = read("01-memory/goals.md");
  // The listing and the skills are cached per user, keyed by the lstat signatures of what they
  // were computed from (lib/projects/_startup_cache.ts): on a warm start nothing is read or parsed.
  let stateDir: string | null = null;
  try {
    stateDir = ctx.stateDir();
  } catch { /* no cache */ }
  const cache = openStartupCache(
    stateDir,
    projectDir,
    JSON.stringify([p.root, p.manifestNames, p.stepsNames, p.skillsGlobRoots]),
  );
  const rootAt = resolveInside(projectDir, p.root);
  // A linked projects root that leads out of the project lists nothing (rule 2 of SECURITY.md).
  const listing = rootAt === "outside" || realPathInside(projectDir, rootAt.abs) === null
    ? { active: [], total: 0 }
    : listProjects(rootAt.abs, { manifestNames: p.manifestNames, stepsNames: p.stepsNames, cache });
  const scanned = scanSkills(projectDir, { roots: p.skillsGlobRoots, cache });
  saveStartupCache(cache);
  const systemPrefix = p.systemDir.replace(BACKSLASH, "/").replace(/\/+$/, "") + "/";
  const system: SkillInfo[] = [];
  const integration: SkillInfo[] = [];
  const user: SkillInfo[] = [];
  let systemRoot = `${p.systemDir}/skills`;
  let userRoot: string | null = null;
  for (const s of scanned.skills) {
    if (s.root === systemPrefix.slice(0, -1) || s.root.startsWith(systemPrefix)) {
      system.push(s);
      systemRoot = s.root;
    } else {
      userRoot ??= s.root;
      if (s.name.endsWith("-connect") || s.path.includes("-connect/")) integration.push(s);
      else user.push(s);
    }
  }
  // Onboarding (routing rule 1): the learning skills not marked complete in user-config.yaml.
  const userConfig = read("01-memory/user-config.yaml");
  const pending = pendingOnboarding(
    system.filter((s) => s.category === "learning"),
    userConfig !== null && typeof userConfig.content === "string" && userConfig.complete !== false
      ? userConfig.content
      : null,
  );
  const goalsPersonalized = goals !== null && typeof goals.content === "string" &&
    goals.content.split("\n").some((l) => l.trim() !== "" && !l.trimStart().startsWith("#"));
  return {
    mode: "startup",
    action: mode.action,
    session,
    resumeStatus: status,
    switchedToSkill: mode.case === 4 ? switched : null,
    orchestrator,
    goals,
    projects: listing.active,
    skills: { system, integration, user, systemRoot, userRoot },
    state: {
      goalsPersonalized,
      workspaceConfigured: isFile(join(projectDir, "04-workspace", "workspace-map.md")),
      onboardingComplete: pending.length === 0,
      pendingOnboarding: pending,
    },
    stats: { projects: listing.total, active: listing.active.length, skills: scanned.skills.length },
    workingSet: mode.action === "continue_working" ? workingSet : [],
  };
}

function findSkillFile(projectDir: string, config: Config, skill: string, head: number): NexusFile | null {
  const direct = resolveInside(projectDir, `${config.projects.systemDir}/skills/projects/${skill}/SKILL.md`);
  if (direct !== "outside" && isFile(direct.abs)) return readQuoted(projectDir, direct.abs, direct.rel, head);
  const found = scanSkills(projectDir, { roots: config.projects.skillsGlobRoots, maxFiles: 100 }).skills.find((s) =>
    s.name === skill
  );
  if (!found) return null;
  const at = resolveInside(projectDir, found.path);
  return at === "outside" ? null : readQuoted(projectDir, at.abs, at.rel, head);
}

/** The file's head as a quotable {@linkcode NexusFile}; without content when it cannot be read. */
function readQuoted(root: string, abs: string, path: string, head: number): NexusFile {
  if (head <= 0) return { path, content: null };
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return { path, content: null };
  }
  const r = readInside(root, abs, { headBytes: head, realRoot });
  return r.ok ? { path, content: r.text, complete: r.complete } : { path, content: null };
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
