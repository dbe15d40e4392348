import type { TranscriptRow } from "../transcript/transcript_row.ts";
import { type DetectionEvidence, type TextEvidence } from "./_evidence.ts";
import { decay, type DetectionSource, evidenceOf, round3 } from "./_source.ts";
import {
  baseName,
  isAbsolutePath,
  isNoisePath,
  looksLikeFile,
  normalizePath,
  resolvePath,
  textPathTokens,
} from "./_paths.ts";

/** Why a file is in the working set, strongest first. */
export type WorkingSetReason =
  | "edited"
  | "read"
  | "user-request"
  | "todo"
  | "plan"
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
}

/** Options of {@linkcode workingSet}. */
export interface WorkingSetOptions {
  /** Most files returned. Default {@linkcode DEFAULT_WORKING_SET_SIZE} (10). */
  limit?: number;
  /** Half-life of tool-call evidence, in tool calls. Default {@linkcode WORKING_SET_HALF_LIFE} (12). */
  halfLife?: number;
  /** Directory for relative paths when the rows carry no `cwd`. Default: none (kept relative). */
  cwd?: string;
  /** Paths inside this directory are returned relative to it. Default: all absolute. */
  projectDir?: string;
  /**
   * Files scoring below this share of the best file's score are left out, even when the cap is
   * not reached: weak leftovers cost the resumed agent more context than they are worth.
   * Default {@linkcode WORKING_SET_MIN_SHARE} (0.15); 0 keeps everything up to the cap.
   */
  minShare?: number;
  /** Stop reading rows after this many tool calls (rows input only). Default 400. */
  maxCalls?: number;
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
export const WORKING_SET_MIN_SHARE = 0.2;
/** Default half-life of tool-call evidence, in tool calls. */
export const WORKING_SET_HALF_LIFE = 12;

/**
 * Weights of each kind of evidence, before decay. Direct operations on a file weigh most; what
 * the agent has only seen named weighs by how binding it is (the user's latest request and the
 * open todo items most). Documented in docs/detection.md.
 */
export const WORKING_SET_WEIGHTS: Readonly<Record<string, number>> = Object.freeze({
  edited: 3,
  read: 2,
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
const SEARCH_TOOLS: ReadonlySet<string> = new Set(["Grep", "Glob", "LS"]);
const REASON_ORDER: readonly WorkingSetReason[] = [
  "edited", "read", "user-request", "todo", "plan", "searched", "search-result", "shell", "summary", "mentioned",
];
/** Code names in text: `SessionLive`, `session_live`, `session-live` (two words or more). */
const IDENTIFIER = /\b(?:[A-Z][a-z0-9]+){2,}\b|\b[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+\b/g;
/** Shorter names match too many files by accident. */
const MIN_NAME_KEY = 6;
/** Results listing more files than this are read only this far. */
const MAX_RESULT_FILES = 20;
/** A search or shell result lists the files it found near its top: only its head is read. */
const MAX_RESULT_CHARS = 4000;
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

/**
 * The files the agent most likely needs right after a compaction, best first: files it edited
 * or read recently, and files it has only seen named in its newest todo list, its newest plan
 * (`ExitPlanMode`, its latest messages), the user's latest request, and the results of its
 * searches (`Grep`, `Glob`, `LS`, `Task`/`Agent` reports).
 *
 * Every piece of evidence adds `weight × 0.5^(age / halfLife)` to its file, where `age` is the
 * number of tool calls newer than the evidence; the user's latest request, the newest todo list
 * and the newest plan decay three times slower. Paths are normalised (`\` → `/`, lower-case
 * drive letter), relative paths resolved against the row's `cwd`, bare file names (`app.js`)
 * and partial paths matched to a unique known path, and duplicates merged. Directories,
 * dependency and VCS internals (`node_modules/`, `.git/`), Claude Code's own files and the
 * transcript itself are left out. The exact rules are in docs/detection.md.
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
  const limit = options.limit !== undefined && options.limit >= 0 ? Math.floor(options.limit) : DEFAULT_WORKING_SET_SIZE;
  const halfLife = options.halfLife !== undefined && options.halfLife > 0 ? options.halfLife : WORKING_SET_HALF_LIFE;
  const slowHalfLife = halfLife * 3;
  const fallbackCwd = evidence.cwd ?? options.cwd;
  const w = WORKING_SET_WEIGHTS;
  const candidates = new Map<string, Candidate>();
  const mentions: Mention[] = [];

  const add = (path: string, weight: number, reason: WorkingSetReason, age: number, file: boolean) => {
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
  const names: Mention[] = [];
  const mention = (text: string, cwd: string | undefined, weight: number, reason: WorkingSetReason, age: number) => {
    textPathTokens(text, (token) => {
      mentions.push({ token, cwd, weight, reason, age });
    });
    identifierKeys(text, (token) => names.push({ token, weight, reason, age }));
  };

  let sawTodo = false;
  let sawPlan = false;
  for (const ev of evidence.calls) {
    const { call, age, cwd } = ev;
    const d = decay(age, halfLife);
    const dir = cwd ?? fallbackCwd;
    const name = call.name;
    if (EDIT_TOOLS.has(name) || name === "Read") {
      const [weight, reason] = name === "Read" ? [w.read, "read" as const] : [w.edited, "edited" as const];
      for (const p of call.filePaths) add(resolvePath(p, dir), weight * d, reason, age, true);
    } else if (SEARCH_TOOLS.has(name)) {
      for (const p of call.filePaths) {
        const path = resolvePath(p, dir);
        if (looksLikeFile(path)) add(path, w.searched * d, "searched", age, false);
      }
    } else if (name === "Bash") {
      for (const p of call.filePaths) add(resolvePath(p, dir), w.shell * d, "shell", age, false);
    } else if (name === "TodoWrite" && !sawTodo && call.todos !== undefined) {
      sawTodo = true;
      const slow = decay(age, slowHalfLife);
      for (const todo of call.todos) {
        const weight = todo.status === "in_progress" ? w.todoInProgress : todo.status === "completed" ? w.todoCompleted : w.todoPending;
        const words = `${typeof todo.content === "string" ? todo.content : ""}\n${typeof todo.activeForm === "string" ? todo.activeForm : ""}`;
        mention(words, dir, weight * slow, "todo", age);
      }
    } else if (name === "ExitPlanMode" && !sawPlan && typeof call.input.plan === "string") {
      sawPlan = true;
      mention(call.input.plan, dir, w.plan * decay(age, slowHalfLife), "plan", age);
    }
    if (ev.result !== undefined || ev.resultFiles !== undefined) {
      addResultFiles(ev.resultFiles, ev.result, SEARCH_TOOLS.has(name), (p) => mentions.push({
        token: p,
        cwd: dir,
        weight: w.searchResult * d,
        reason: "search-result",
        age,
      }));
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

  if (mentions.length > 0) resolveMentions(mentions, candidates, add);
  if (names.length > 0) resolveNames(names, candidates, add);

  const projectDir = options.projectDir === undefined ? undefined : normalizePath(options.projectDir);
  const ranked: [string, Candidate][] = [];
  for (const entry of candidates) {
    const [path, c] = entry;
    c.parts.sort((a, b) => b - a);
    let f = 1;
    for (const part of c.parts) {
      c.score += part * f;
      f *= WORKING_SET_REPEAT;
    }
    if (!c.file && !looksLikeFile(path)) continue;
    if (isNoisePath(path, evidence.transcript)) continue;
    ranked.push(entry);
  }
  ranked.sort((a, b) => b[1].score - a[1].score || a[1].newest - b[1].newest || (a[0] < b[0] ? -1 : 1));
  const out: WorkingSetItem[] = [];
  const minShare = options.minShare !== undefined && options.minShare >= 0 ? options.minShare : WORKING_SET_MIN_SHARE;
  const floor = ranked.length === 0 ? 0 : ranked[0][1].score * minShare;
  for (const [path, c] of ranked) {
    if (out.length >= limit || c.score < floor) break;
    const shown = projectDir !== undefined && path.startsWith(projectDir + "/") ? path.slice(projectDir.length + 1) : path;
    out.push({ path: shown, score: round3(c.score), reasons: REASON_ORDER.filter((r) => c.reasons.has(r)) });
  }
  return out;
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
    return newestUser ? [w.userRequest * decay(t.age, slowHalfLife), "user-request"] : [w.userText * decay(t.age, halfLife), "mentioned"];
  }
  if (t.kind === "summary") return [w.summary * decay(t.age, halfLife), "summary"];
  // The agent's newest messages are its plan of what it does next.
  return [w.assistantText * decay(t.age, halfLife), assistantTexts < 3 ? "plan" : "mentioned"];
}

/** Calls `found` for each file listed by a search result, at most {@linkcode MAX_RESULT_FILES}. */
function addResultFiles(files: string[] | undefined, content: unknown, lines: boolean, found: (path: string) => void): void {
  const list = files ?? [];
  if (list.length === 0) {
    const full = resultText(content);
    if (full === "") return;
    // A long log lists its files early or not usefully at all.
    const text = full.length > MAX_RESULT_CHARS ? full.slice(0, MAX_RESULT_CHARS) : full;
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
  }
  const n = Math.min(list.length, MAX_RESULT_FILES);
  for (let i = 0; i < n; i++) found(list[i]);
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let out = "";
  for (const block of content) {
    if (typeof block === "object" && block !== null && typeof (block as { text?: unknown }).text === "string") {
      out += (block as { text: string }).text + "\n";
    }
  }
  return out;
}

/**
 * Resolves text mentions against the paths tool calls named: a bare name or partial path that
 * ends exactly one known path becomes that path; an unmatched bare name is dropped (too vague);
 * an unmatched partial path is resolved against the `cwd` of its row.
 */
function resolveMentions(
  mentions: Mention[],
  candidates: Map<string, Candidate>,
  add: (path: string, weight: number, reason: WorkingSetReason, age: number, file: boolean) => void,
): void {
  const byBase = new Map<string, string[]>();
  const know = (path: string) => {
    const base = baseName(path);
    const list = byBase.get(base);
    if (list === undefined) byBase.set(base, [path]);
    else if (!list.includes(path)) list.push(path);
  };
  for (const path of candidates.keys()) know(path);
  for (const m of mentions) {
    const norm = normalizePath(m.token);
    if (isAbsolutePath(norm)) know(norm);
  }
  const resolved = new Map<string, string | null>();
  for (const m of mentions) {
    const key = m.cwd === undefined ? m.token : m.cwd + "\0" + m.token;
    let path = resolved.get(key);
    if (path === undefined) {
      path = resolveMention(m.token, m.cwd, byBase);
      resolved.set(key, path);
    }
    if (path !== null) add(path, m.weight, m.reason, m.age, false);
  }
}

function resolveMention(token: string, cwd: string | undefined, byBase: Map<string, string[]>): string | null {
  const norm = normalizePath(token);
  if (isAbsolutePath(norm)) return norm;
  const known = byBase.get(baseName(norm));
  const separated = norm.includes("/");
  if (known !== undefined) {
    if (!separated) return known.length === 1 ? known[0] : null;
    const suffix = "/" + norm;
    let match: string | null = null;
    for (const path of known) {
      if (path === norm || path.endsWith(suffix)) {
        if (match !== null) return null;
        match = path;
      }
    }
    if (match !== null) return match;
  }
  if (!separated) return null;
  return resolvePath(norm, cwd);
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
function resolveNames(
  names: Mention[],
  candidates: Map<string, Candidate>,
  add: (path: string, weight: number, reason: WorkingSetReason, age: number, file: boolean) => void,
): void {
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
