import type { TranscriptRow } from "../transcript/transcript_row.ts";
import {
  type CallEvidence,
  type DetectionEvidence,
  MAX_REPORT_CHARS,
  MAX_RESULT_CHARS,
  SEARCH_TOOLS,
  type TextEvidence,
} from "./_evidence.ts";
import { decay, type DetectionSource, evidenceOf, round3 } from "./_source.ts";
import {
  baseName,
  isAbsolutePath,
  isLowValuePath,
  isNoisePath,
  looksLikeFile,
  normalizePath,
  resolvePath,
  textPathTokens,
} from "./_paths.ts";
import { projectBoundary } from "./project_boundary.ts";

/** Why a file is in the working set, strongest first. */
export type WorkingSetReason =
  | "edited"
  | "read"
  | "user-request"
  | "todo"
  | "plan"
  | "subagent"
  | "searched"
  | "search-result"
  | "shell"
  | "summary"
  | "mentioned";

/** One file of the working set. */
export interface WorkingSetItem {
  /** Normalised path (`/` separators, lower-case drive letter); relative to `projectDir` when inside it. */
  path: string;
  /** Ranking score, rounded to 3 decimals; higher first. */
  score: number;
  /** Why it is here, strongest first, each once. */
  reasons: WorkingSetReason[];
  /**
   * True when the agent's own tool call read or edited it (a file tool of the main chain, an edit
   * Claude Code tracks, a file the client attached: the `edited` and `read` reasons); false when
   * it was only named (text, tool results, search and shell arguments, subagents).
   */
  touched: boolean;
}

/**
 * The ranking rules that can be switched off one at a time, to measure what each adds
 * (`bench/detection-quality.ts --rules` prints the table; docs/detection.md explains each):
 *
 * - `editedSet`: every file edited in the session keeps a slowly decaying score, including the
 *   edits only the `file-history-snapshot` rows still list.
 * - `subagent`: files a subagent (`Task`/`Agent`) read or edited, the prompt it was given, and
 *   its whole report read as text.
 * - `tasks`: the `TaskCreate` items not yet completed count like open todo items.
 * - `planFile`: in plan mode, the session's plan file (`~/.claude/plans/<slug>.md`).
 * - `suffix`: a partial path is matched to the known file it ends (`a/src/x.ts` of a diff,
 *   `@src/x.ts` of a prompt, a module path) before being read against the cwd.
 * - `guessed`: a relative path in text that no tool named counts half.
 * - `outside`: files outside the session's folders count a quarter.
 * - `noise`: dependency trees, caches, secrets files and Claude Code's folder count only when a
 *   file tool touched them.
 */
export type WorkingSetRule =
  | "editedSet"
  | "subagent"
  | "tasks"
  | "planFile"
  | "suffix"
  | "guessed"
  | "outside"
  | "noise";

/** Every {@linkcode WorkingSetRule}, in the order docs/detection.md lists them. */
export const WORKING_SET_RULES: readonly WorkingSetRule[] = Object.freeze([
  "editedSet",
  "subagent",
  "tasks",
  "planFile",
  "suffix",
  "guessed",
  "outside",
  "noise",
]);

/** Options of {@linkcode workingSet}. */
export interface WorkingSetOptions {
  /** Most files returned. Default {@linkcode DEFAULT_WORKING_SET_SIZE} (10). */
  limit?: number;
  /** Half-life of tool-call evidence, in tool calls. Default {@linkcode WORKING_SET_HALF_LIFE} (12). */
  halfLife?: number;
  /** Directory for relative paths when the rows carry no `cwd`. Default: none (kept relative). */
  cwd?: string;
  /**
   * The project: paths inside it are returned relative to it, and a file outside it is left out
   * unless the agent's own tool call read or edited it ({@linkcode WorkingSetItem.touched}), so a
   * path only named (`../.npmrc` in a tool's output) never becomes a project file. Outside means
   * by the path's text once `..` is resolved, and, when the directory exists on disk, by its real
   * path (a link out of the project); a recorded session whose folder is gone is judged by the
   * text alone. Default: none (nothing left out, all absolute).
   */
  projectDir?: string;
  /**
   * Files scoring below this share of the best file's score are left out, even when the cap is
   * not reached. Default {@linkcode WORKING_SET_MIN_SHARE}; 0 keeps everything up to the cap.
   */
  minShare?: number;
  /** Stop reading rows after this many tool calls (rows input only). Default `DEFAULT_MAX_CALLS` (80). */
  maxCalls?: number;
  /**
   * Tells whether a file exists, or undefined when it cannot know (a recorded session whose
   * folders are gone). A file it says is missing is left out (deleted since, or a path that was
   * only talked about) unless a todo item, the plan or the user's request names it: a file still
   * to be written. Asked at most {@linkcode MAX_EXISTS_CHECKS} times, best candidates first.
   * Default: none (nothing is checked).
   */
  exists?: (path: string) => boolean | undefined;
  /** Rules switched off (`false`) to measure them; all are on by default. */
  rules?: Partial<Record<WorkingSetRule, boolean>>;
}

/** Default cap of the working set. */
export const DEFAULT_WORKING_SET_SIZE = 10;
/**
 * The evidence of one file is summed strongest first, each piece counting this factor times the
 * previous one: repetition helps, but a file edited ten times long ago does not bury a file
 * named in the newest plan.
 */
export const WORKING_SET_REPEAT = 0.5;
/** Default share of the best score a file needs to be listed. */
export const WORKING_SET_MIN_SHARE = 0.02;
/** Default half-life of tool-call evidence, in tool calls. */
export const WORKING_SET_HALF_LIFE = 12;
/** Half-life of the edited set (rule `editedSet`), in half-lives of the other evidence. */
export const EDITED_SET_SLOWDOWN = 8;
/** What a relative path no tool named counts (rule `guessed`): it may not exist. */
export const GUESSED_SHARE = 0.5;
/** What a file outside every folder the session worked in counts (rule `outside`). */
export const OUTSIDE_SHARE = 0.25;

/**
 * Weights of each kind of evidence, before decay. Direct operations on a file weigh most; what
 * the agent has only seen named weighs by how binding it is (the user's latest request and the
 * open todo items most). Documented in docs/detection.md.
 */
export const WORKING_SET_WEIGHTS: Readonly<Record<string, number>> = Object.freeze({
  edited: 3,
  read: 2,
  editedSet: 1,
  subagentEdit: 1.5,
  subagentRead: 1,
  delegated: 1.5,
  report: 1,
  searched: 1.5,
  shell: 1,
  searchResult: 1,
  todoInProgress: 3,
  todoPending: 2,
  todoCompleted: 0.25,
  plan: 2.5,
  userRequest: 3,
  assistantText: 1.5,
  userText: 1,
  summary: 1,
});

const EDIT_TOOLS: ReadonlySet<string> = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);
const SUBAGENT_TOOLS: ReadonlySet<string> = new Set(["Task", "Agent"]);
const REASON_ORDER: readonly WorkingSetReason[] = [
  "edited",
  "read",
  "user-request",
  "todo",
  "plan",
  "subagent",
  "searched",
  "search-result",
  "shell",
  "summary",
  "mentioned",
];
/** Code names in text: `SessionLive`, `session_live`, `session-live` (two words or more). */
const IDENTIFIER = /\b(?:[A-Z][a-z0-9]+){2,}\b|\b[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+\b/g;
/** Shorter names match too many files by accident. */
const MIN_NAME_KEY = 6;
/** Results listing more files than this are read only this far. */
const MAX_RESULT_FILES = 20;
/** Path mentions kept from one text: a pasted listing says little about each file in it. */
const MAX_TEXT_MENTIONS = 200;
/**
 * Path mentions (and code names) kept from all texts and results, newest first. Real sessions
 * hold a few hundred; the cap bounds the work on hostile text (see {@linkcode PathIndex}).
 */
const MAX_MENTIONS = 5_000;
/** Most files {@linkcode WorkingSetOptions.exists} is asked about. */
export const MAX_EXISTS_CHECKS = 40;
/** Folders of the session kept for rule `outside`. */
const MAX_FOLDERS = 20;
/** A known path is indexed by its last this many segments at most. */
const MAX_SUFFIX_SEGMENTS = 12;
/** A result line of Grep (`path:12:text`, `path-12-text`) or a plain file list. */
const RESULT_LINE_PATH = /^([^\s:]+?)(?:[:-]\d+[:-]|$)/;

interface Candidate {
  score: number;
  parts: number[];
  reasons: Set<WorkingSetReason>;
  /** True when a file tool named it, so it is a file even without an extension. */
  file: boolean;
  newest: number;
}

/** A path named in text, resolved once every tool-call path is known. */
interface Mention {
  token: string;
  cwd?: string;
  weight: number;
  reason: WorkingSetReason;
  age: number;
}

type Add = (path: string, weight: number, reason: WorkingSetReason, age: number, file: boolean) => void;

/**
 * The files the agent most likely needs right after a compaction, best first: files it edited
 * or read recently, files edited earlier in the session, files its subagents worked on, and
 * files it has only seen named in its newest todo or task list, its newest plan (`ExitPlanMode`,
 * its latest messages), the user's latest request, and the results of its searches (`Grep`,
 * `Glob`, `LS`, `Task`/`Agent` reports).
 *
 * Every piece of evidence adds `weight × 0.5^(age / halfLife)` to its file, where `age` is the
 * number of tool calls newer than the evidence; the user's latest request, the newest todo list
 * and the newest plan decay three times slower, the session's edited files eight times slower.
 * Paths are normalised (`\` → `/`, lower-case drive letter), relative paths resolved against the
 * row's `cwd`, bare file names (`app.js`) and partial paths matched to a unique known path, and
 * duplicates merged. Directories, dependency and VCS internals (`node_modules/`, `.git/`),
 * Claude Code's own files and the transcript itself are left out. The exact rules are in
 * docs/detection.md.
 *
 * `source` is rows newest first (as `scanTranscript` yields them) or evidence collected once
 * for several detectors.
 *
 * @example
 * ```ts
 * import { workingSet } from "./working_set.ts";
 * import { scanTranscript } from "../transcript/scan_transcript.ts";
 *
 * for (const item of workingSet(scanTranscript("/tmp/session.jsonl"), { limit: 5 })) {
 *   console.log(item.path, item.score, item.reasons.join(","));
 * }
 * ```
 */
export function workingSet(
  source: Iterable<TranscriptRow> | DetectionEvidence,
  options: WorkingSetOptions = {},
): WorkingSetItem[] {
  const evidence = evidenceOf(source as DetectionSource, options.maxCalls);
  const limit = options.limit !== undefined && options.limit >= 0
    ? Math.floor(options.limit)
    : DEFAULT_WORKING_SET_SIZE;
  const halfLife = options.halfLife !== undefined && options.halfLife > 0 ? options.halfLife : WORKING_SET_HALF_LIFE;
  const slowHalfLife = halfLife * 3;
  const rule = (name: WorkingSetRule) => options.rules?.[name] !== false;
  const fallbackCwd = evidence.cwd ?? options.cwd;
  const w = WORKING_SET_WEIGHTS;
  const candidates = new Map<string, Candidate>();
  const mentions: Mention[] = [];
  const names: Mention[] = [];
  /** Paths tool calls named (file tools, subagents, searches, shell), edited and plan files: what mentions resolve to. */
  const known = new PathIndex();

  const add: Add = (path, weight, reason, age, file) => {
    let c = candidates.get(path);
    if (c === undefined) {
      c = { score: 0, parts: [], reasons: new Set(), file, newest: age };
      candidates.set(path, c);
    }
    c.parts.push(weight);
    c.reasons.add(reason);
    if (file) c.file = true;
    if (age < c.newest) c.newest = age;
  };
  let textMentions = 0;
  const mention = (text: string, cwd: string | undefined, weight: number, reason: WorkingSetReason, age: number) => {
    if (mentions.length >= MAX_MENTIONS && names.length >= MAX_MENTIONS) return;
    textMentions = 0;
    textPathTokens(text, (token) => {
      if (mentions.length >= MAX_MENTIONS) return false;
      mentions.push({ token, cwd, weight, reason, age });
      return ++textMentions < MAX_TEXT_MENTIONS;
    });
    identifierKeys(text, (token) => names.length < MAX_MENTIONS && names.push({ token, weight, reason, age }));
  };

  let sawTodo = false;
  let sawPlan = false;
  const tasks = rule("tasks") ? openTasks(evidence.calls) : undefined;
  const editedAge = new Map<string, number>();
  for (const ev of evidence.calls) {
    const { call, age, cwd } = ev;
    const d = decay(age, halfLife);
    const dir = cwd ?? fallbackCwd;
    const name = call.name;
    if (EDIT_TOOLS.has(name) || name === "Read") {
      const [weight, reason] = name === "Read" ? [w.read, "read" as const] : [w.edited, "edited" as const];
      for (const p of call.filePaths) {
        const path = resolvePath(p, dir);
        add(path, weight * d, reason, age, true);
        known.add(path);
        if (reason === "edited" && !editedAge.has(path)) editedAge.set(path, age);
      }
    } else if (SEARCH_TOOLS.has(name)) {
      for (const p of call.filePaths) {
        const path = resolvePath(p, dir);
        if (!looksLikeFile(path)) continue;
        add(path, w.searched * d, "searched", age, false);
        known.add(path);
      }
    } else if (name === "Bash") {
      for (const p of call.filePaths) {
        const path = resolvePath(p, dir);
        add(path, w.shell * d, "shell", age, false);
        known.add(path);
      }
    } else if (name === "TodoWrite" && !sawTodo && call.todos !== undefined) {
      sawTodo = true;
      const slow = decay(age, slowHalfLife);
      for (const todo of call.todos) {
        const words = `${typeof todo.content === "string" ? todo.content : ""}\n${
          typeof todo.activeForm === "string" ? todo.activeForm : ""
        }`;
        mention(words, dir, todoWeight(todo.status) * slow, "todo", age);
      }
    } else if (name === "ExitPlanMode" && !sawPlan && typeof call.input.plan === "string") {
      sawPlan = true;
      mention(call.input.plan, dir, w.plan * decay(age, slowHalfLife), "plan", age);
    } else if (name === "TaskCreate" && tasks !== undefined) {
      const status = tasks.get(ev);
      if (status !== undefined) {
        mention(taskText(call.input), dir, todoWeight(status) * decay(tasks.age, slowHalfLife), "todo", age);
      }
    }
    if (SUBAGENT_TOOLS.has(name) && rule("subagent")) {
      const prompt = call.input.prompt;
      if (typeof prompt === "string") mention(prompt, dir, w.delegated * d, age < 3 ? "plan" : "mentioned", age);
      const report = ev.resultText ?? "";
      if (report !== "") {
        mention(
          report.length > MAX_REPORT_CHARS ? report.slice(0, MAX_REPORT_CHARS) : report,
          dir,
          w.report * d,
          "subagent",
          age,
        );
      }
    } else if ((ev.resultText !== undefined || ev.resultFiles !== undefined) && name !== "TaskCreate") {
      const files = resultFiles(ev.resultFiles, ev.resultText ?? "", SEARCH_TOOLS.has(name));
      for (const p of files) {
        mentions.push({ token: p, cwd: dir, weight: w.searchResult * d, reason: "search-result", age });
      }
    }
  }

  if (rule("subagent")) {
    for (const { call, age, cwd } of evidence.subagentCalls) {
      if (!EDIT_TOOLS.has(call.name) && call.name !== "Read") continue;
      const weight = call.name === "Read" ? w.subagentRead : w.subagentEdit;
      for (const p of call.filePaths) {
        const path = resolvePath(p, cwd ?? fallbackCwd);
        if (!looksLikeFile(path)) continue;
        add(path, weight * decay(age, halfLife), "subagent", age, true);
        known.add(path);
      }
    }
  }

  if (rule("editedSet")) {
    const oldest = evidence.calls.length;
    for (const p of evidence.trackedFiles) {
      const path = resolvePath(p, fallbackCwd);
      if (!editedAge.has(path)) editedAge.set(path, oldest);
    }
    const slowest = halfLife * EDITED_SET_SLOWDOWN;
    for (const [path, age] of editedAge) {
      add(path, w.editedSet * decay(age, slowest), "edited", age, true);
      known.add(path);
    }
  }

  // Files the client attached (an @-mention, the file open in the IDE, a file changed on disk):
  // put in the agent's context like a read.
  for (const f of evidence.attachedFiles) {
    const path = resolvePath(f.path, f.cwd ?? fallbackCwd);
    add(path, w.read * decay(f.age, halfLife), "read", f.age, true);
    known.add(path);
  }

  if (rule("planFile")) {
    // Plan mode: the agent writes its plan to the plan file; newer clients name it in their
    // plan-mode attachments, older ones only give the session's slug (<home>/.claude/plans/<slug>.md).
    let plan: string | undefined;
    if (evidence.planFile !== undefined) {
      if (evidence.planFile.active) plan = normalizePath(evidence.planFile.path);
    } else if (evidence.permissionMode === "plan" && evidence.slug !== undefined && SLUG.test(evidence.slug)) {
      plan = `${homeOf(evidence, fallbackCwd)}/.claude/plans/${evidence.slug}.md`;
    }
    if (plan !== undefined) {
      add(plan, w.plan, "plan", 0, true);
      known.add(plan);
    }
  }

  let newestUser = true;
  let assistantTexts = 0;
  for (const t of evidence.texts) {
    const dir = t.cwd ?? fallbackCwd;
    const [weight, reason] = textWeight(t, newestUser, assistantTexts, halfLife, slowHalfLife);
    if (t.kind === "user") newestUser = false;
    if (t.kind === "assistant") assistantTexts++;
    mention(t.text, dir, weight, reason, t.age);
  }

  if (mentions.length > 0) {
    resolveMentions(mentions, known, add, { suffix: rule("suffix"), guessed: rule("guessed") ? GUESSED_SHARE : 1 });
  }
  if (names.length > 0) resolveNames(names, candidates, add);

  const noise = rule("noise");
  const outside = rule("outside") ? sessionFolders(evidence, fallbackCwd) : [];
  const projectDir = options.projectDir === undefined || options.projectDir === ""
    ? undefined
    : normalizePath(options.projectDir);
  const boundary = projectDir === undefined ? undefined : projectBoundary(projectDir);
  const ranked: [string, Candidate][] = [];
  for (const entry of candidates) {
    const [path, c] = entry;
    if (!c.file && !looksLikeFile(path)) continue;
    if (boundary !== undefined && !isTouched(c.reasons) && !boundary.inside(path)) continue;
    if (isNoisePath(path, evidence.transcript)) continue;
    if (noise && !c.file && isLowValuePath(path)) continue;
    if (outside.length > 0 && !c.reasons.has("edited") && !isInside(path, outside)) {
      for (let i = 0; i < c.parts.length; i++) c.parts[i] *= OUTSIDE_SHARE;
    }
    c.parts.sort((a, b) => b - a);
    let f = 1;
    for (const part of c.parts) {
      c.score += part * f;
      f *= WORKING_SET_REPEAT;
      if (f < 1e-6) break;
    }
    ranked.push(entry);
  }
  ranked.sort((a, b) => b[1].score - a[1].score || a[1].newest - b[1].newest || (a[0] < b[0] ? -1 : 1));
  const out: WorkingSetItem[] = [];
  const minShare = options.minShare !== undefined && options.minShare >= 0 ? options.minShare : WORKING_SET_MIN_SHARE;
  const floor = ranked.length === 0 ? 0 : ranked[0][1].score * minShare;
  const exists = options.exists;
  let checks = MAX_EXISTS_CHECKS;
  let links = limit + MAX_EXISTS_CHECKS;
  for (const [path, c] of ranked) {
    if (out.length >= limit || c.score < floor) break;
    const touched = isTouched(c.reasons);
    // A link in the project may lead out of it: enough files are asked to fill the list and
    // replace some left out; past that, what was only named is left out unchecked.
    if (boundary !== undefined && !touched && (links-- <= 0 || !boundary.resolvesInside(path))) continue;
    if (exists !== undefined && checks > 0) {
      checks--;
      if (exists(path) === false && !isPlanned(c.reasons)) continue;
    }
    const shown = projectDir !== undefined && path.startsWith(projectDir + "/")
      ? path.slice(projectDir.length + 1)
      : path;
    out.push({ path: shown, score: round3(c.score), reasons: REASON_ORDER.filter((r) => c.reasons.has(r)), touched });
  }
  return out;
}

/**
 * The folders the session worked in: the `cwd` of the calls read (a `cd` into a subfolder adds
 * one), at most {@linkcode MAX_FOLDERS}.
 */
function sessionFolders(evidence: DetectionEvidence, cwd: string | undefined): string[] {
  const out: string[] = [];
  const note = (dir: string | undefined) => {
    if (dir === undefined || dir === "" || out.length >= MAX_FOLDERS) return;
    const d = normalizePath(dir);
    if (!out.includes(d)) out.push(d);
  };
  note(cwd);
  for (const c of evidence.calls) note(c.cwd);
  return out;
}

/** True when `path` is inside one of `folders`, or is a plan file (`~/.claude/plans/`). */
function isInside(path: string, folders: readonly string[]): boolean {
  if (path.includes("/.claude/plans/")) return true;
  for (const f of folders) if (path.startsWith(f + "/")) return true;
  return false;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const HOME = /^(?:\/Users\/[^/]+|\/home\/[^/]+|\/root|[a-z]:\/Users\/[^/]+)(?=\/|$)/;

/**
 * The user's home folder: from the transcript's path (`<home>/.claude/projects/…`), else from a
 * path already under `<home>/.claude/`, else from the cwd (`/Users/<name>`, `/home/<name>`,
 * `c:/Users/<name>`), else `~`.
 */
function homeOf(evidence: DetectionEvidence, cwd: string | undefined): string {
  const transcript = evidence.transcript ?? "";
  const at = transcript.indexOf("/.claude/projects/");
  if (at > 0) return transcript.slice(0, at);
  for (const { call } of evidence.calls) {
    for (const p of call.filePaths) {
      const i = normalizePath(p).indexOf("/.claude/");
      if (i > 0) return normalizePath(p).slice(0, i);
    }
  }
  const m = cwd === undefined ? null : HOME.exec(normalizePath(cwd));
  return m === null ? "~" : m[0];
}

function todoWeight(status: unknown): number {
  const w = WORKING_SET_WEIGHTS;
  return status === "in_progress" ? w.todoInProgress : status === "completed" ? w.todoCompleted : w.todoPending;
}

function textWeight(
  t: TextEvidence,
  newestUser: boolean,
  assistantTexts: number,
  halfLife: number,
  slowHalfLife: number,
): [number, WorkingSetReason] {
  const w = WORKING_SET_WEIGHTS;
  if (t.kind === "user") {
    return newestUser
      ? [w.userRequest * decay(t.age, slowHalfLife), "user-request"]
      : [w.userText * decay(t.age, halfLife), "mentioned"];
  }
  if (t.kind === "summary") return [w.summary * decay(t.age, halfLife), "summary"];
  // The agent's newest messages are its plan of what it does next.
  return [w.assistantText * decay(t.age, halfLife), assistantTexts < 3 ? "plan" : "mentioned"];
}

/** The task list of `TaskCreate`/`TaskUpdate` calls: the status of each created task, and the age of the newest change. */
interface TaskList {
  get(ev: CallEvidence): string | undefined;
  age: number;
}

/**
 * The status of every task created by the calls read (`TaskCreate`, its id taken from its result
 * `Task #N created…`), as the newest `TaskUpdate` for that id left it (default `pending`);
 * `deleted` tasks are left out.
 */
function openTasks(calls: readonly CallEvidence[]): TaskList | undefined {
  const status = new Map<string, string>();
  let age = -1;
  let created = false;
  for (const { call, age: a } of calls) {
    if (call.name === "TaskUpdate") {
      const id = call.input.taskId;
      const s = call.input.status;
      if ((typeof id === "string" || typeof id === "number") && typeof s === "string" && !status.has(String(id))) {
        status.set(String(id), s);
      }
      if (age === -1) age = a;
    } else if (call.name === "TaskCreate") {
      created = true;
      if (age === -1) age = a;
    }
  }
  if (!created) return undefined;
  return {
    age,
    get(ev: CallEvidence): string | undefined {
      const id = taskId(ev.resultText ?? "");
      const s = id === undefined ? "pending" : status.get(id) ?? "pending";
      return s === "deleted" ? undefined : s;
    },
  };
}

const TASK_ID = /Task #(\w+)/;

function taskId(result: string): string | undefined {
  const m = TASK_ID.exec(result.slice(0, 200));
  return m === null ? undefined : m[1];
}

function taskText(input: Record<string, unknown>): string {
  let out = "";
  for (const field of ["subject", "description", "activeForm"]) {
    const v = input[field];
    if (typeof v === "string") out += v + "\n";
  }
  return out;
}

/** The files listed by a search or shell result, at most {@linkcode MAX_RESULT_FILES}. */
function resultFiles(files: string[] | undefined, full: string, lines: boolean): string[] {
  if (files !== undefined && files.length > 0) return files.slice(0, MAX_RESULT_FILES);
  const list: string[] = [];
  if (full === "") return list;
  // A long log lists its files early or not usefully at all.
  // Cut at a line end, so that no path is cut in two (`explain.g`).
  const text = full.length > MAX_RESULT_CHARS
    ? full.slice(0, Math.max(0, full.lastIndexOf("\n", MAX_RESULT_CHARS)))
    : full;
  if (lines) {
    const seen = new Set<string>();
    for (const line of text.split("\n")) {
      const m = RESULT_LINE_PATH.exec(line.trim());
      if (m === null || seen.has(m[1])) continue;
      if (!m[1].includes("/") && !m[1].includes("\\")) continue;
      seen.add(m[1]);
      list.push(m[1]);
      if (list.length >= MAX_RESULT_FILES) break;
    }
  } else {
    textPathTokens(text, (token) => {
      if (!list.includes(token)) list.push(token);
      return list.length < MAX_RESULT_FILES;
    });
  }
  return list;
}

/**
 * Known paths by their trailing segments (`c.ts`, `b/c.ts`, `a/b/c.ts` for `/a/b/c.ts`), each
 * suffix giving its one path or null when several share it. Building and each look-up cost the
 * length of one path, whatever the number of paths sharing a name: matching mentions against a
 * list per name was quadratic (60,000 `dNNNNN/f.c` mentions took PreCompact over 27 s).
 */
class PathIndex {
  private readonly paths = new Set<string>();
  private readonly suffixes = new Map<string, string | null>();

  add(path: string): void {
    if (this.paths.has(path)) return;
    this.paths.add(path);
    let end = path.length;
    for (let n = 0; n < MAX_SUFFIX_SEGMENTS; n++) {
      const slash = path.lastIndexOf("/", end - 1);
      const suffix = path.slice(slash + 1);
      if (suffix !== "" && suffix !== path) {
        const had = this.suffixes.get(suffix);
        if (had === undefined) this.suffixes.set(suffix, path);
        else if (had !== path) this.suffixes.set(suffix, null);
      }
      if (slash <= 0) break;
      end = slash;
    }
  }

  has(path: string): boolean {
    return this.paths.has(path);
  }

  /** The one known path ending in `/suffix` (or equal to it); null when several do, undefined when none. */
  ending(suffix: string): string | null | undefined {
    return this.paths.has(suffix) ? suffix : this.suffixes.get(suffix);
  }
}

/**
 * Resolves text mentions against the known paths: an absolute path is itself; a bare name or
 * partial path that ends exactly one known path becomes that path; an unmatched bare name is
 * dropped (too vague); an unmatched partial path is read against the `cwd` of its row. With
 * `suffix`, a partial path read against the cwd that is known wins over another known path
 * ending in it, a leading `@` (a file attached in a prompt) is dropped, and a partial path that
 * ends no known path is matched by its tail (`a/src/x.ts` of a diff, a module path in a stack
 * trace) to the one known path ending in it. A path that is not known at the end (read against
 * the cwd) counts `guessed` times its weight, unless a todo item, the plan or the user's request
 * names it (a file still to be written).
 */
function resolveMentions(
  mentions: Mention[],
  known: PathIndex,
  add: Add,
  how: { suffix: boolean; guessed: number },
): void {
  for (const m of mentions) {
    const norm = normalizePath(m.token);
    if (isAbsolutePath(norm)) known.add(norm);
  }
  const resolved = new Map<string, string | null>();
  for (const m of mentions) {
    const key = m.cwd === undefined ? m.token : m.cwd + "\0" + m.token;
    let path = resolved.get(key);
    if (path === undefined) {
      path = resolveMention(m.token, m.cwd, known, how.suffix);
      resolved.set(key, path);
    }
    if (path === null) continue;
    const guessed = !known.has(path) && !PLANNED.includes(m.reason);
    add(path, guessed ? m.weight * how.guessed : m.weight, m.reason, m.age, false);
  }
}

/** Reasons that name files still to be written: not discounted as a guess, kept when missing. */
const PLANNED: readonly WorkingSetReason[] = ["todo", "plan", "user-request"];

function isPlanned(reasons: ReadonlySet<WorkingSetReason>): boolean {
  return PLANNED.some((r) => reasons.has(r));
}

/** Only the main chain's file tools, tracked edits and attachments give these reasons, never a mention. */
function isTouched(reasons: ReadonlySet<WorkingSetReason>): boolean {
  return reasons.has("edited") || reasons.has("read");
}

function resolveMention(token: string, cwd: string | undefined, known: PathIndex, suffix: boolean): string | null {
  const norm = normalizePath(suffix && token.startsWith("@") ? token.slice(1) : token);
  if (isAbsolutePath(norm)) return norm;
  if (!norm.includes("/")) return known.ending(norm) ?? null;
  const here = resolvePath(norm, cwd);
  if (suffix && known.has(here)) return here;
  const match = known.ending(norm);
  if (match !== undefined) return match ?? (suffix ? here : null);
  if (suffix) {
    // Drop leading segments while two or more remain: `a/src/x.ts`, `github.com/o/r/src/x.ts`.
    let from = norm.indexOf("/");
    while (from !== -1 && norm.indexOf("/", from + 1) !== -1) {
      const tail = known.ending(norm.slice(from + 1));
      if (tail !== undefined) return tail ?? here;
      from = norm.indexOf("/", from + 1);
    }
  }
  return here;
}

/** Calls `found` with the match key (lower case, no `_`/`-`) of each code name in `text`. */
function identifierKeys(text: string, found: (key: string) => void): void {
  IDENTIFIER.lastIndex = 0;
  for (let m = IDENTIFIER.exec(text); m !== null; m = IDENTIFIER.exec(text)) {
    const key = nameKey(m[0]);
    if (key.length >= MIN_NAME_KEY) found(key);
  }
}

/** `Session_Live-x` → `sessionlivex`. */
function nameKey(name: string): string {
  let out = "";
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c !== "_" && c !== "-") out += c;
  }
  return out.toLowerCase();
}

/**
 * Code names in text (`SessionLive`) count for the one known file whose name without extension
 * has the same key (`session_live.ex`); a key shared by several files counts for none.
 */
function resolveNames(names: Mention[], candidates: Map<string, Candidate>, add: Add): void {
  const byKey = new Map<string, string | null>();
  for (const path of candidates.keys()) {
    const base = baseName(path);
    const dot = base.lastIndexOf(".");
    if (dot <= 0) continue;
    const key = nameKey(base.slice(0, dot));
    if (key.length < MIN_NAME_KEY) continue;
    byKey.set(key, byKey.has(key) && byKey.get(key) !== path ? null : path);
  }
  for (const n of names) {
    const path = byKey.get(n.token);
    if (path !== undefined && path !== null) add(path, n.weight, n.reason, n.age, false);
  }
}
