import { type BudgetSection, CLAUDE_CODE_HOOK_TEXT_LIMIT, fitBudget } from "../hook/fit_budget.ts";
import { redact } from "../redact/redact.ts";
import { renderXml } from "../xml/render_xml.ts";
import { type XmlChild, xmlElement } from "../xml/xml_element.ts";
import { xmlRaw } from "../xml/xml_raw.ts";
import { continueInstruction, coreRouting, menuInstruction, reminderInstruction, resumeInstruction } from "./_texts.ts";
import type { SkillInfo } from "./scan_skills.ts";

/** A file to quote (when `content` is a string) or to name. Paths are relative to the project directory. */
export interface NexusFile {
  path: string;
  /** The text read (possibly only its head); `null` or absent when it was not read. */
  content?: string | null;
  /** False when `content` is only the start of the file. Default true. */
  complete?: boolean;
}

/** A file that will not be quoted, with the reason. */
export interface NexusProblemFile {
  /** The path, or the manifest entry as written when it leaves the project. */
  path: string;
  status: string;
}

/** The project resumed in compact mode. */
export interface NexusProject {
  id: string;
  name: string | null;
  phase: "planning" | "execution";
  skill: string;
  /** The manifest's `next_action`. */
  nextAction: string | null;
  currentTask: string | null;
  progress: { checked: number; total: number } | null;
  /** Paths relative to the project directory. */
  stepsPath: string | null;
  manifestPath: string | null;
  /**
   * How sure PreCompact's detection was. Below `high` the instruction adds one line asking the
   * agent to confirm the project with the user if it seems wrong. Default `high`.
   */
  confidence?: "high" | "medium" | "low";
}

/** One project in the startup listing. */
export interface NexusProjectSummary {
  id: string;
  name: string;
  status: "planning" | "execution" | "unknown";
  /** Percentage of checked items, or `null` without a steps file. */
  progress: number | null;
  currentTask: string | null;
}

/** Everything {@linkcode buildNexusContext} renders; it does no I/O. */
export interface NexusContextInput {
  mode: "startup" | "compact";
  action: "display_menu" | "continue_working";
  session: { id: string; source: string; timestamp: string };
  /** Why a resume did not happen (or happened only in part). */
  resumeStatus?: { reason: string; detail?: string } | null;
  /** Files worth re-reading from the PreCompact working set, best first. */
  workingSet?: readonly string[];
  // compact mode
  project?: NexusProject | null;
  /** Compact mode: true when this compaction's context was delivered already: only a reminder. */
  reminder?: boolean;
  systemFiles?: readonly NexusFile[];
  /** Quoted project files, most important first. */
  projectFiles?: readonly NexusFile[];
  /** Listed files the phase does not need up front (`action="read-if-needed"`). */
  optionalFiles?: readonly string[];
  /** Listed files that are missing or refused. */
  problemFiles?: readonly NexusProblemFile[];
  skillFile?: NexusFile | null;
  /**
   * The manifest, relative to the project directory, named first in `<project-files>` with
   * `action="read-first"` (step 1 of the design's resume order).
   */
  manifestFirst?: string | null;
  /** The manifest body's validation gate, quoted right after `<resume-project>`. */
  validationGate?: { path: string; text: string } | null;
  // startup mode
  /** The skill continue-working mode names (case 4). */
  switchedToSkill?: string | null;
  orchestrator?: NexusFile | null;
  goals?: NexusFile | null;
  projects?: readonly NexusProjectSummary[];
  /** System skills (under the system directory) and the others, split into integrations (`*-connect`) and user skills. */
  skills?: {
    system: readonly SkillInfo[];
    integration: readonly SkillInfo[];
    user: readonly SkillInfo[];
    systemRoot: string;
    userRoot: string | null;
  };
  state?: {
    goalsPersonalized: boolean;
    workspaceConfigured: boolean;
    /** False while an onboarding (learning) skill is not marked complete. Default true. */
    onboardingComplete?: boolean;
    /** The onboarding skills not finished, in the order to suggest them. */
    pendingOnboarding?: readonly { name: string; path: string; time: string | null }[];
  };
  stats?: { projects: number; active: number; skills: number };
}

/** Options for {@linkcode buildNexusContext}. */
export interface BuildNexusContextOptions {
  /** Most characters of the result; clamped to 10,000. Default 9500. */
  maxChars?: number;
  /** Most characters of one quoted file; longer files are cut at a line and marked. Default 3000. */
  fileMaxChars?: number;
}

/** Result of {@linkcode buildNexusContext}. */
export interface NexusContext {
  /** The XML document, at most `maxChars` long. */
  text: string;
  /** What did not fit in full, most important first: `file:<path>` (then named with `action="read"`) or `section:<name>`. */
  dropped: string[];
}

const SECTION_BREAK = "\n";

/**
 * Renders the `<nexus-context version="v4">` document (docs/projects.md) in startup or compact
 * mode and fits it into the budget. Every section is a complete element, chosen by priority
 * (instructions and the root first; then the project, its current task and next action; then
 * file contents; then listings) while the document keeps the note's order. A file that does not
 * fit is named instead, as `<file path="…" action="read"/>`, so the agent reads it itself; what
 * did not fit is returned in `dropped`. All file content passes through `redact` and is escaped,
 * so no file can change the document's structure.
 *
 * @example
 * ```ts
 * import { buildNexusContext } from "./build_nexus_context.ts";
 * const { text } = buildNexusContext({
 *   mode: "startup", action: "display_menu",
 *   session: { id: "s1", source: "startup", timestamp: "2026-11-21T10:00:00.000Z" },
 * });
 * text.startsWith('<nexus-context version="v4" mode="startup">'); // true
 * ```
 */
export function buildNexusContext(given: NexusContextInput, options: BuildNexusContextOptions = {}): NexusContext {
  const input = redactFields(given);
  const maxChars = Math.min(CLAUDE_CODE_HOOK_TEXT_LIMIT, Math.max(0, options.maxChars ?? 9500));
  const fileMax = options.fileMaxChars ?? 3000;
  const sections: BudgetSection[] = [];
  const add = (id: string, priority: number, node: XmlChild, fallback?: XmlChild): void => {
    sections.push({
      id,
      priority,
      text: renderXml(node),
      fallback: fallback === undefined ? undefined : renderXml(fallback),
    });
  };
  const quote = (
    name: string,
    id: string,
    priority: number,
    file: NexusFile,
    attrs: Record<string, string> = {},
  ): void => {
    if (typeof file.content !== "string") {
      add(id, priority, xmlElement(name, { path: file.path, action: "read", ...attrs }));
      return;
    }
    const { text, cut } = clip(redact(file.content), fileMax, file.complete !== false);
    add(
      id,
      priority,
      xmlElement(name, { path: file.path, ...attrs, truncated: cut ? "true" : undefined }, "\n", text, "\n"),
      xmlElement(name, { path: file.path, action: "read", ...attrs }),
    );
  };

  const root = input.mode === "compact" && input.project
    ? xmlElement("nexus-context", {
      version: "v4",
      mode: "compact",
      project: input.project.id,
      phase: input.project.phase,
    })
    : xmlElement("nexus-context", { version: "v4", mode: input.mode });
  const open = renderXml(root);
  // A childless element renders self-closing: turn `<x a="b"/>` into its opening tag.
  sections.push({ id: "root", priority: -1, text: open.slice(0, -2) + ">" });
  add("session", 0, xmlElement("session", input.session));
  if (input.resumeStatus) {
    add(
      "resume-status",
      0,
      xmlElement("resume-status", { reason: input.resumeStatus.reason }, input.resumeStatus.detail),
    );
  }

  if (input.mode === "compact" && input.project) compactSections(input, input.project, add, quote);
  else startupSections(input, add, quote);

  add("action", 0, xmlElement("action", null, input.action));
  add("instruction", 0, xmlElement("instruction", null, "\n", instructionText(input), "\n"));
  sections.push({ id: "root-end", priority: -1, text: "</nexus-context>" });

  const fitted = fitBudget(sections, { maxChars, separator: SECTION_BREAK });
  // A container's opening and closing tags are separate sections: never keep one without the
  // other (dropping text only shortens the result, so it still fits).
  const kept = new Set(fitted.included.map((s) => s.id));
  const broken = new Set<string>();
  for (const s of sections) {
    if (!s.id.endsWith("-end")) continue;
    const openId = s.id.slice(0, -4);
    if (kept.has(openId) !== kept.has(s.id)) {
      broken.add(openId);
      broken.add(s.id);
    }
  }
  if (broken.size === 0) return { text: fitted.text, dropped: fitted.dropped.map((d) => d.id) };
  const text = fitted.included.filter((s) => !broken.has(s.id)).map((s) => s.text).join(SECTION_BREAK);
  return { text, dropped: fitted.dropped.map((d) => d.id) };
}

type Add = (id: string, priority: number, node: XmlChild, fallback?: XmlChild) => void;
type Quote = (name: string, id: string, priority: number, file: NexusFile, attrs?: Record<string, string>) => void;

function compactSections(input: NexusContextInput, p: NexusProject, add: Add, quote: Quote): void {
  add(
    "resume-project",
    1,
    xmlElement(
      "resume-project",
      { id: p.id, phase: p.phase, name: p.name },
      xmlElement("skill", null, p.skill),
      p.currentTask !== null && xmlElement("current-task", null, p.currentTask),
      p.progress !== null && xmlElement("progress", null, `${p.progress.checked}/${p.progress.total} tasks`),
      p.nextAction !== null && xmlElement("next-action", null, p.nextAction),
    ),
  );
  if (input.reminder) {
    if (p.stepsPath) add(`file:${p.stepsPath}`, 2, xmlElement("file", { path: p.stepsPath, action: "read-if-needed" }));
    return;
  }
  const gate = input.validationGate;
  if (gate) {
    add(
      "validation-gate",
      1.5,
      xmlElement("validation-gate", { path: gate.path }, "\n", gate.text, "\n"),
      xmlElement("validation-gate", { path: gate.path, action: "read" }),
    );
  }
  const systemFiles = input.systemFiles ?? [];
  if (systemFiles.length > 0) {
    add("system-files", 2, xmlRawOpen("system-files"));
    systemFiles.forEach((f, i) => quote("file", `file:${f.path}`, 5 + i / 100, f));
    add("system-files-end", 2, xmlRawClose("system-files"));
  }
  add("project-files", 2, xmlRawOpen("project-files", { "project-id": p.id }));
  if (input.manifestFirst) {
    add(`file:${input.manifestFirst}`, 1.5, xmlElement("file", { path: input.manifestFirst, action: "read-first" }));
  }
  (input.projectFiles ?? []).forEach((f, i) => quote("file", `file:${f.path}`, 3 + i / 100, f));
  for (const f of input.problemFiles ?? []) {
    add(`problem:${f.path}`, 2.5, xmlElement("file", { path: f.path, status: f.status }));
  }
  (input.optionalFiles ?? []).forEach((path, i) =>
    add(`file:${path}`, 6 + i / 100, xmlElement("file", { path, action: "read-if-needed" }))
  );
  add("project-files-end", 2, xmlRawClose("project-files"));
  if (input.skillFile) quote("skill-file", `file:${input.skillFile.path}`, 4, input.skillFile);
  workingSetSection(input, add);
}

function startupSections(input: NexusContextInput, add: Add, quote: Quote): void {
  if (input.orchestrator) quote("orchestrator-file", `file:${input.orchestrator.path}`, 5, input.orchestrator);
  add("core-routing", 1, coreRouting());
  if (input.goals) quote("user-goals", `file:${input.goals.path}`, 4, input.goals);
  const projects = input.projects ?? [];
  if (projects.length > 0) {
    add("active-projects", 2, xmlRawOpen("active-projects"));
    projects.forEach((p, i) =>
      add(
        `project:${p.id}`,
        2 + i / 1000,
        xmlElement(
          "project",
          { id: p.id, status: p.status, progress: p.progress === null ? undefined : `${p.progress}%` },
          xmlElement("name", null, p.name),
          p.currentTask !== null && xmlElement("current-task", null, p.currentTask),
        ),
      )
    );
    add("active-projects-end", 2, xmlRawClose("active-projects"));
  }
  const skills = input.skills;
  if (skills) {
    const skillNode = (s: SkillInfo) => xmlElement("skill", { name: s.name, action: `read ${s.path}` }, s.description);
    if (skills.system.length > 0) {
      add("system-skills", 6, xmlRawOpen("system-skills", { location: `${skills.systemRoot}/` }));
      const byCategory = new Map<string, SkillInfo[]>();
      for (const s of skills.system) {
        const c = s.category ?? "general";
        const list = byCategory.get(c);
        if (list) list.push(s);
        else byCategory.set(c, [s]);
      }
      let i = 0;
      for (const [name, list] of byCategory) {
        add(`section:system-skills/${name}`, 6 + i++ / 100, xmlElement("category", { name }, list.map(skillNode)));
      }
      add("system-skills-end", 6, xmlRawClose("system-skills"));
    }
    if (skills.integration.length > 0) {
      add(
        "section:integration-skills",
        6.5,
        xmlElement(
          "integration-skills",
          { location: skills.userRoot ? `${skills.userRoot}/*-connect/` : undefined },
          skills.integration.map(skillNode),
        ),
      );
    }
    if (skills.user.length > 0) {
      add(
        "section:user-skills",
        6.6,
        xmlElement(
          "user-skills",
          { location: skills.userRoot ? `${skills.userRoot}/` : undefined },
          skills.user.map(skillNode),
        ),
      );
    }
  }
  if (input.state) {
    add(
      "state",
      3,
      xmlElement(
        "state",
        null,
        xmlElement("goals-personalized", null, String(input.state.goalsPersonalized)),
        xmlElement("workspace-configured", null, String(input.state.workspaceConfigured)),
        xmlElement("onboarding-complete", null, String(input.state.onboardingComplete !== false)),
        (input.state.pendingOnboarding ?? []).length > 0 &&
          xmlElement(
            "pending-onboarding",
            null,
            (input.state.pendingOnboarding ?? []).map((o) =>
              xmlElement("item", { action: `read ${o.path}` }, o.time ? `${o.name} (${o.time})` : o.name)
            ),
          ),
      ),
    );
  }
  if (input.stats) add("stats", 3, xmlElement("stats", input.stats));
  if (input.action === "display_menu") add("suggested-next-actions", 1, suggestions(input));
  workingSetSection(input, add);
}

function workingSetSection(input: NexusContextInput, add: Add): void {
  const set = input.workingSet ?? [];
  if (set.length === 0) return;
  add("working-set", 5.5, xmlRawOpen("working-set"));
  set.forEach((path, i) => add(`file:${path}`, 5.5 + i / 1000, xmlElement("file", { path, action: "read-if-needed" })));
  add("working-set-end", 5.5, xmlRawClose("working-set"));
}

function suggestions(input: NexusContextInput): XmlChild {
  const actions: XmlChild[] = [];
  let n = 1;
  const first = (input.projects ?? []).find((p) => p.status !== "unknown") ?? (input.projects ?? [])[0];
  if (first) {
    actions.push(
      xmlElement(
        "action",
        { priority: n++, condition: "has_active_projects" },
        `Continue active project: "work on ${first.name}"`,
      ),
    );
  }
  actions.push(
    xmlElement("action", { priority: n++, condition: "always" }, 'Start new work: "plan a project to [goal]"'),
  );
  const onboarding = input.state?.pendingOnboarding?.[0];
  if (onboarding) {
    actions.push(
      xmlElement(
        "action",
        { priority: n++, condition: "onboarding_incomplete" },
        `Complete onboarding: "${onboarding.name}"${onboarding.time ? ` (${onboarding.time})` : ""}`,
      ),
    );
  }
  if (input.state && !input.state.goalsPersonalized) {
    actions.push(
      xmlElement("action", { priority: n++, condition: "goals_missing" }, 'Set your goals: "help me write my goals"'),
    );
  }
  actions.push(xmlElement("action", { priority: n++, condition: "always" }, 'Check status: "show my projects"'));
  return xmlElement("suggested-next-actions", null, actions);
}

function instructionText(input: NexusContextInput): string {
  const p = input.project;
  if (input.mode === "compact" && p) {
    if (input.reminder) return reminderInstruction(p.id, p.stepsPath, p.currentTask, p.confidence);
    const skillPath = input.skillFile?.path ?? null;
    return resumeInstruction({
      projectId: p.id,
      phase: p.phase,
      skill: p.skill,
      skillPath,
      stepsPath: p.stepsPath,
      manifestPath: p.manifestPath,
      currentTask: p.currentTask,
      confidence: p.confidence,
      manifestFirst: Boolean(input.manifestFirst),
      gate: Boolean(input.validationGate),
    });
  }
  return input.action === "continue_working"
    ? continueInstruction(input.switchedToSkill ?? null)
    : menuInstruction(input.state?.onboardingComplete === false);
}

/** Opening tag of a container whose children are separate budget sections. */
function xmlRawOpen(name: string, attrs?: Record<string, string>): XmlChild {
  // Trusted: rendered from a validated name and escaped attributes.
  const tag = renderXml(xmlElement(name, attrs));
  return xmlRaw(tag.slice(0, -2) + ">");
}

function xmlRawClose(name: string): XmlChild {
  return xmlRaw(`</${name}>`);
}

/** `text` cut to at most `max` characters at a line end, with a note; `cut` when anything was left out. */
function clip(text: string, max: number, complete: boolean): { text: string; cut: boolean } {
  let body = text.endsWith("\n") ? text.slice(0, -1) : text;
  let cut = false;
  if (!complete) {
    // Only the head was read: its last line may be partial.
    const nl = body.lastIndexOf("\n");
    body = nl > 0 ? body.slice(0, nl) : body;
    cut = true;
  }
  if (body.length > max) {
    const nl = body.lastIndexOf("\n", max);
    body = body.slice(0, nl > max / 2 ? nl : max);
    const code = body.charCodeAt(body.length - 1);
    if (code >= 0xd800 && code <= 0xdbff) body = body.slice(0, -1);
    cut = true;
  }
  return { text: cut ? `${body}\n[… cut here: read the file for the rest]` : body, cut };
}

/**
 * The texts taken from a project's files outside the quoted contents (the current task from the
 * steps file, names and next actions from manifests) go through `redact` too: a token pasted
 * into a task line must not reach the model's context.
 */
function redactFields(input: NexusContextInput): NexusContextInput {
  const r = (s: string | null): string | null => (s === null ? null : redact(s));
  const project = input.project
    ? {
      ...input.project,
      name: r(input.project.name),
      currentTask: r(input.project.currentTask),
      nextAction: r(input.project.nextAction),
    }
    : input.project;
  const projects = input.projects?.map((p) => ({ ...p, name: redact(p.name), currentTask: r(p.currentTask) }));
  const resumeStatus = input.resumeStatus?.detail
    ? { ...input.resumeStatus, detail: redact(input.resumeStatus.detail) }
    : input.resumeStatus;
  const validationGate = input.validationGate
    ? { ...input.validationGate, text: redact(input.validationGate.text) }
    : input.validationGate;
  return { ...input, project, projects, resumeStatus, validationGate };
}
