import type { TranscriptRow } from "../transcript/transcript_row.ts";
import type { DetectionEvidence } from "./_evidence.ts";
import { decay, type DetectionSource, evidenceOf, round3 } from "./_source.ts";
import { forEachProjectIdInText, isProjectId } from "./_paths.ts";

/** How sure the detection is. */
export type ProjectConfidence = "high" | "medium" | "low";

/** One piece of evidence for a project. */
export interface ProjectEvidence {
  /**
   * `edit` / `read`: a file operation (Write, Edit, MultiEdit, NotebookEdit / Read) on a path
   * inside the project; `tool`: another tool naming it (Bash, Glob, Grep, LS, Skill args, Task
   * prompt, any tool's path field); `mention`: text naming it (a user prompt, assistant text, a
   * compaction summary, a todo item, a plan).
   */
  kind: "edit" | "read" | "tool" | "mention";
  /** The tool, for `edit`, `read` and `tool`; `user`, `assistant`, `summary`, `TodoWrite` or `ExitPlanMode` for mentions. */
  source: string;
  /** The path or command, cut to 200 characters. */
  detail: string;
  /** Tool calls newer than this evidence (0: the newest call). */
  age: number;
}

/** The project the recent work is on. */
export interface ActiveProject {
  /** Folder name under the projects root: `05-site-redesign`. */
  id: string;
  confidence: ProjectConfidence;
  /** Decayed evidence score (see docs/detection.md). */
  score: number;
  /** File operations on it among the latest `recentCalls` tool calls. */
  recentFileOps: number;
  /** Newest first, at most 10. */
  evidence: ProjectEvidence[];
  /** The next best project and its score, when there is one. */
  runnerUp?: { id: string; score: number };
  /**
   * Set when the user's newest switch prompt ("now switch to the API migration", "work on
   * 07-api-migration") named this project: the prompt, cut to 200 characters.
   */
  userSwitch?: string;
  /**
   * Set when, after its newest tool-call evidence for this project, the agent called a skill
   * that is not a project skill (docs/projects.md, case 4): the newest such skill's name.
   */
  switchedToSkill?: string;
}

/** Options of {@linkcode detectActiveProject}. */
export interface DetectActiveProjectOptions {
  /** Folder that holds the projects. Default `"02-projects"`. */
  projectsRoot?: string;
  /** Half-life of evidence, in tool calls. Default {@linkcode PROJECT_HALF_LIFE} (10). */
  halfLife?: number;
  /** The window of "latest tool calls" used by the confidence rules. Default {@linkcode RECENT_CALLS} (30). */
  recentCalls?: number;
  /** Skills that work on a project. Default `["plan-project", "execute-project"]` (a `plugin:` prefix is ignored). */
  projectSkills?: readonly string[];
  /** Project ids known to exist (e.g. the folders under the root); their bare ids in text count as mentions. Default none. */
  knownProjects?: readonly string[];
  /** Stop reading rows after this many tool calls (rows input only). Default 400. */
  maxCalls?: number;
}

/** Default half-life of project evidence, in tool calls. */
export const PROJECT_HALF_LIFE = 10;
/** Default size of the "latest tool calls" window. */
export const RECENT_CALLS = 30;
/** Weights before decay: file operations, other tools naming the project, mentions. */
export const PROJECT_WEIGHTS: Readonly<{ fileOp: number; tool: number; mention: number; mentionCap: number }> = Object
  .freeze({
    fileOp: 3,
    tool: 2,
    mention: 1,
    /** The summed mention score of a project never exceeds this: talk never outweighs work. */
    mentionCap: 3,
  });
/**
 * A user prompt that switches to a project (a cue such as "switch to" or "work on" followed by the
 * project's id, path or name) adds this to it, decayed like the rest and not capped like other
 * mentions...
 */
export const SWITCH_WEIGHT = 3;
/** ...and the evidence of every other project from before that prompt counts this share. */
export const SWITCH_DISCOUNT = 0.1;
/**
 * Words by which a user moves the work to a project: "switch to", "work on", "move on to",
 * "focus on", "continue with", "back to", "let's do", "pick up", …
 */
const SWITCH_CUE =
  /\b(?:switch(?:ing)?(?: over| back)? to|work(?:ing)? on|mov(?:e|ing)(?: on| over)? to|focus(?:ing)? on|continue (?:with|on)|back to|turn to|start (?:on|with)|let'?s (?:do|tackle)|pick up)\b/gi;
/** A cue right after a negation ("don't work on", "not now, switch to") is no switch. */
const NEGATED = /\b(?:don'?t|do not|not|never|no longer|stop|instead of)\s+(?:\w+\s+){0,2}$/i;
/** How far after a switch cue the project's name may come, in characters (same sentence). */
const SWITCH_REACH = 120;
/** Cues looked at, newest prompts first: prompts full of them cost no more than this, and a switch older than that many cues is old news. */
const MAX_SWITCH_CUES = 100;

/** `high` needs this many file operations among the latest calls... */
export const HIGH_MIN_FILE_OPS = 3;
/** ...and a score at least this many times the runner-up's. */
export const HIGH_DOMINANCE = 2;

const FILE_OPS: ReadonlySet<string> = new Set(["Read", "Write", "Edit", "MultiEdit", "NotebookEdit"]);
const INPUT_FIELDS = [
  "command",
  "path",
  "pattern",
  "glob",
  "args",
  "prompt",
  "description",
  "file_path",
  "notebook_path",
] as const;
const WHITESPACE = /\s+/;
const DEFAULT_PROJECT_SKILLS = ["plan-project", "execute-project"];

/** One addition to a project's score, kept so that a switch can discount what came before it. */
interface Contribution {
  value: number;
  turn: number;
  mention: boolean;
}

interface Tally {
  score: number;
  mentionScore: number;
  contributions: Contribution[];
  recentFileOps: number;
  recentToolRefs: number;
  newestToolAge: number;
  newestMentionAge: number;
  evidence: ProjectEvidence[];
}

/**
 * The project the recent work is on, from the transcript: `<root>/<NN-name>` in tool inputs and
 * text (`/` or `\`, absolute or relative, `C:\…` included), weighted by recency, or null when
 * nothing names a project.
 *
 * Each tool call and each text adds to every project it names, once: a file operation (Read,
 * Write, Edit, MultiEdit, NotebookEdit) 3, another tool (Bash, Glob, Grep, LS, Skill args, …) 2,
 * a mention in text 1 (summed mentions capped at 3), each times `0.5^(age / halfLife)` with `age`
 * the number of newer tool calls. The best score wins. Confidence: `high` with at least 3 file
 * operations on it among the latest `recentCalls` (30) calls and a score at least twice the
 * runner-up's; `medium` with at least one file operation or tool reference among the latest
 * calls, or a project skill (`plan-project`, `execute-project`) called among them; `low` when it
 * is only mentioned or only touched longer ago. Evidence from before an earlier compaction
 * counts like any other, decayed by its age; a compaction summary counts as text.
 * docs/detection.md has the full rules.
 *
 * `source` is rows newest first (as `scanTranscript` yields them) or evidence collected once for
 * several detectors.
 *
 * @example
 * ```ts
 * import { detectActiveProject } from "./active_project.ts";
 * import { scanTranscript } from "../transcript/scan_transcript.ts";
 *
 * const project = detectActiveProject(scanTranscript("/tmp/session.jsonl"));
 * if (project) console.log(project.id, project.confidence, project.evidence[0]);
 * ```
 */
export function detectActiveProject(
  source: Iterable<TranscriptRow> | DetectionEvidence,
  options: DetectActiveProjectOptions = {},
): ActiveProject | null {
  const evidence = evidenceOf(source as DetectionSource, options.maxCalls);
  const root = options.projectsRoot !== undefined && options.projectsRoot !== "" ? options.projectsRoot : "02-projects";
  const halfLife = options.halfLife !== undefined && options.halfLife > 0 ? options.halfLife : PROJECT_HALF_LIFE;
  const recent = options.recentCalls !== undefined && options.recentCalls > 0 ? options.recentCalls : RECENT_CALLS;
  const projectSkills = options.projectSkills ?? DEFAULT_PROJECT_SKILLS;
  const known = options.knownProjects?.filter(isProjectId) ?? [];
  const tallies = new Map<string, Tally>();
  const tally = (id: string): Tally => {
    let t = tallies.get(id);
    if (t === undefined) {
      t = {
        score: 0,
        mentionScore: 0,
        contributions: [],
        recentFileOps: 0,
        recentToolRefs: 0,
        newestToolAge: Infinity,
        newestMentionAge: Infinity,
        evidence: [],
      };
      tallies.set(id, t);
    }
    return t;
  };
  const note = (t: Tally, e: ProjectEvidence) => {
    if (t.evidence.length < 10) t.evidence.push(e);
  };
  const ids = new Set<string>();
  // Every known id as a whole token (no id character either side), in one native scan per text
  // instead of one indexOf loop per known project. Ids are `NN-kebab-name`: nothing to escape.
  const knownIds = known.length === 0 ? null : new RegExp(
    `(?<![A-Za-z0-9_-])(?:${[...known].sort((a, b) => b.length - a.length).join("|")})(?![A-Za-z0-9_-])`,
    "g",
  );
  const collect = (text: string) => {
    forEachProjectIdInText(text, root, (id) => ids.add(id));
    if (knownIds !== null) { for (const m of text.matchAll(knownIds)) ids.add(m[0]); }
  };
  let projectSkillRecent = false;

  for (const { call, age, turn } of evidence.calls) {
    ids.clear();
    const fileOp = FILE_OPS.has(call.name);
    const skill = call.skill === undefined ? undefined : bareSkill(call.skill);
    const isProjectSkill = skill !== undefined && projectSkills.includes(skill);
    if (isProjectSkill && age < recent) projectSkillRecent = true;
    if (call.name === "TodoWrite" || call.name === "ExitPlanMode") {
      const text = call.name === "TodoWrite"
        ? todoText(call.todos)
        : typeof call.input.plan === "string"
        ? call.input.plan
        : "";
      collect(text);
      for (const id of ids) addMention(id, call.name, text, age, turn);
      continue;
    }
    for (const p of call.filePaths) collect(p);
    for (const field of INPUT_FIELDS) {
      const v = call.input[field];
      if (typeof v === "string") collect(v);
    }
    if (isProjectSkill && typeof call.input.args === "string") {
      const first = call.input.args.trim().split(WHITESPACE, 1)[0] ?? "";
      if (isProjectId(first)) ids.add(first);
    }
    for (const id of ids) {
      const t = tally(id);
      const kind = fileOp ? (call.name === "Read" ? "read" : "edit") : "tool";
      t.contributions.push({
        value: (fileOp ? PROJECT_WEIGHTS.fileOp : PROJECT_WEIGHTS.tool) * decay(age, halfLife),
        turn,
        mention: false,
      });
      if (age < recent) {
        if (fileOp) t.recentFileOps++;
        else t.recentToolRefs++;
      }
      if (age < t.newestToolAge) t.newestToolAge = age;
      note(t, { kind, source: call.name, detail: cut(callDetail(call.filePaths, call.input, id)), age });
    }
  }

  for (const text of evidence.texts) {
    ids.clear();
    collect(text.text);
    for (const id of ids) addMention(id, text.kind, text.text, text.age, text.turn);
  }

  function addMention(id: string, source: string, text: string, age: number, turn: number): void {
    const t = tally(id);
    if (age < t.newestMentionAge) t.newestMentionAge = age;
    t.contributions.push({ value: PROJECT_WEIGHTS.mention * decay(age, halfLife), turn, mention: true });
    note(t, { kind: "mention", source, detail: snippet(text, id), age });
  }

  const switched = findSwitch(evidence, root, [...new Set([...known, ...tallies.keys()])]);
  if (switched !== undefined) {
    const t = tally(switched.id);
    t.contributions.push({ value: SWITCH_WEIGHT * decay(switched.age, halfLife), turn: switched.turn, mention: false });
    if (switched.age < t.newestMentionAge) t.newestMentionAge = switched.age;
    if (!t.evidence.some((e) => e.kind === "mention" && e.source === "user" && e.age === switched.age)) {
      t.evidence.push({ kind: "mention", source: "user", detail: cut(switched.text.trim()), age: switched.age });
    }
  }
  for (const [id, t] of tallies) {
    // Newest first, as collected: the mention cap keeps the newest mentions.
    for (const c of t.contributions) {
      const value = switched !== undefined && id !== switched.id && c.turn > switched.turn
        ? c.value * SWITCH_DISCOUNT
        : c.value;
      if (!c.mention) {
        t.score += value;
        continue;
      }
      const add = Math.min(value, PROJECT_WEIGHTS.mentionCap - t.mentionScore);
      if (add > 0) {
        t.mentionScore += add;
        t.score += add;
      }
    }
  }

  let best: [string, Tally] | undefined;
  let second: [string, Tally] | undefined;
  for (const entry of tallies) {
    if (best === undefined || entry[1].score > best[1].score) {
      second = best;
      best = entry;
    } else if (second === undefined || entry[1].score > second[1].score) {
      second = entry;
    }
  }
  if (best === undefined) return null;
  const [id, t] = best;
  const runnerScore = second === undefined ? 0 : second[1].score;
  let confidence: ProjectConfidence = "low";
  if (t.recentFileOps >= HIGH_MIN_FILE_OPS && t.score >= HIGH_DOMINANCE * runnerScore) confidence = "high";
  else if (t.recentFileOps > 0 || t.recentToolRefs > 0 || projectSkillRecent) confidence = "medium";

  t.evidence.sort((a, b) => a.age - b.age);
  if (t.evidence.length > 10) t.evidence.length = 10;
  const out: ActiveProject = {
    id,
    confidence,
    score: round3(t.score),
    recentFileOps: t.recentFileOps,
    evidence: t.evidence,
  };
  if (switched !== undefined && switched.id === id) out.userSwitch = cut(switched.text.trim());
  if (second !== undefined) out.runnerUp = { id: second[0], score: round3(second[1].score) };
  const newest = t.newestToolAge !== Infinity ? t.newestToolAge : t.newestMentionAge;
  const skill = skillAfter(evidence, newest, projectSkills);
  if (skill !== undefined) out.switchedToSkill = skill;
  return out;
}

/** The user's newest switch prompt and the project it names. */
interface UserSwitch {
  id: string;
  text: string;
  age: number;
  turn: number;
}

/**
 * The newest user prompt in which a {@linkcode SWITCH_CUE} is followed, within the same sentence,
 * by a project: its path or id (`02-projects/07-api-migration`, `07-api-migration`), or its name
 * (the id's words without the number: "the API migration", "api-migration"). Only projects in
 * `ids` (referenced somewhere in the evidence, or known to exist) can be named by their name.
 */
function findSwitch(evidence: DetectionEvidence, root: string, ids: readonly string[]): UserSwitch | undefined {
  if (ids.length === 0) return undefined;
  const names: [string, string][] = [];
  for (const id of ids) {
    const name = id.replace(LEADING_NUMBER, "").replaceAll("-", " ");
    if (name.length >= 3) names.push([id, name]);
  }
  let cues = 0;
  for (const text of evidence.texts) {
    if (text.kind !== "user") continue;
    if (cues >= MAX_SWITCH_CUES) break;
    SWITCH_CUE.lastIndex = 0;
    for (let m = SWITCH_CUE.exec(text.text); m !== null && cues++ < MAX_SWITCH_CUES; m = SWITCH_CUE.exec(text.text)) {
      if (NEGATED.test(text.text.slice(Math.max(0, m.index - 30), m.index))) continue;
      const from = m.index + m[0].length;
      let window = text.text.slice(from, from + SWITCH_REACH);
      const stop = window.search(SENTENCE_END);
      if (stop !== -1) window = window.slice(0, stop);
      const id = projectIn(window, root, ids, names);
      if (id !== undefined) return { id, text: text.text, age: text.age, turn: text.turn };
    }
  }
  return undefined;
}

const LEADING_NUMBER = /^\d+-/;
/** The end of a sentence: `.`, `!`, `?` or `;` before a space or the end, or a line break. */
const SENTENCE_END = /[.!?;](?:\s|$)|\n/;
const NAME_SEPARATORS = /[\s_\-/\\]+/g;

/** The first project `window` names by path, id or name; ids win over names, longer names over shorter. */
function projectIn(
  window: string,
  root: string,
  ids: readonly string[],
  names: readonly [string, string][],
): string | undefined {
  let found: string | undefined;
  forEachProjectIdInText(window, root, (id) => {
    if (found === undefined) found = id;
  });
  if (found !== undefined) return found;
  for (const id of ids) {
    const at = window.indexOf(id);
    if (at !== -1 && !isIdChar(window.charCodeAt(at - 1)) && !isIdChar(window.charCodeAt(at + id.length))) return id;
  }
  const words = " " + window.toLowerCase().replace(NAME_SEPARATORS, " ") + " ";
  let best: [string, string] | undefined;
  for (const entry of names) {
    if (words.includes(" " + entry[1] + " ") && (best === undefined || entry[1].length > best[1].length)) best = entry;
  }
  return best?.[0];
}

function isIdChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 45 || c === 95;
}

/** The newest non-project skill called after the newest tool evidence (`newestAge`) of the project. */
function skillAfter(
  evidence: DetectionEvidence,
  newestAge: number,
  projectSkills: readonly string[],
): string | undefined {
  for (const { call, age } of evidence.calls) {
    if (age >= newestAge) return undefined;
    if (call.skill === undefined) continue;
    const skill = bareSkill(call.skill);
    if (!projectSkills.includes(skill)) return call.skill;
  }
  return undefined;
}

function bareSkill(name: string): string {
  const s = name.startsWith("/") ? name.slice(1) : name;
  const colon = s.lastIndexOf(":");
  return colon === -1 ? s : s.slice(colon + 1);
}

function todoText(todos: readonly { content?: unknown; activeForm?: unknown }[] | undefined): string {
  if (todos === undefined) return "";
  let out = "";
  for (const t of todos) {
    if (typeof t.content === "string") out += t.content + "\n";
    if (typeof t.activeForm === "string") out += t.activeForm + "\n";
  }
  return out;
}

function callDetail(paths: readonly string[], input: Record<string, unknown>, id: string): string {
  for (const p of paths) if (p.includes(id)) return p;
  for (const field of INPUT_FIELDS) {
    const v = input[field];
    if (typeof v === "string" && v.includes(id)) return v;
  }
  return paths[0] ?? id;
}

/** About 80 characters of `text` around the first place it names `id`. */
function snippet(text: string, id: string): string {
  const at = text.indexOf(id);
  if (at === -1) return cut(text.trim());
  const from = Math.max(0, at - 60);
  const to = Math.min(text.length, at + id.length + 60);
  return (from > 0 ? "…" : "") + cut(text.slice(from, to).trim()) + (to < text.length ? "…" : "");
}

function cut(text: string): string {
  const oneLine = text.includes("\n") ? text.replaceAll("\n", " ") : text;
  return oneLine.length > 200 ? oneLine.slice(0, 199) + "…" : oneLine;
}
