/**
 * The rules of the payload-quality bench (bench/payload-quality.ts): how a transcript is cut,
 * which rows are messages the user typed, how a payload is read into items, and how the items
 * are scored against Claude Code's own summary. The shared definitions are reproduced exactly
 * (the figures must equal the shared Python scorer's on the same payload); the corrections are
 * switched on one by one through {@linkcode Corrections}. Pure functions, no runtime APIs, so
 * the unit tests run them under Bun and Deno.
 */
import { htmlUnescape } from "./_html_unescape.ts";
import {
  cpLength,
  cpSlice,
  normText,
  PY_SPACE,
  PY_WORD,
  PY_WORD_END,
  PY_WORD_START,
  pyBasename,
  pyLstrip,
  pyStrip,
  pyTruthy,
  wordRuns,
} from "./_py_text.ts";

/** One transcript line as read (the text written back to the cut transcript) and its JSON value. */
export interface TranscriptRow {
  /** The line with its `\n` (the last one may lack it). */
  line: string;
  /** What the line parsed to; rows are objects in practice. */
  row: unknown;
}

/** What a payload holds, as the scorer reads it. */
export interface PayloadItems {
  /** Subjects of pending and in-progress tasks. */
  open: string[];
  /** Subjects of the other tasks (completed, deleted, ...). */
  done: string[];
  /** Every `<request>`, in order. */
  req: string[];
  /** The `<request latest="true">`, or null. */
  latest: string | null;
  /** Paths of the `<edited-files>` element. */
  edited: string[];
  /** Paths of the `<working-set>` element. */
  ws: string[];
  /** Distinct tag names of other elements (a state line, a plan pointer, ...). */
  other: number;
}

/**
 * Where the shared definitions are arguably wrong; each field switches one correction on (all
 * default to off, which is the shared scoring).
 */
export interface Corrections {
  /**
   * A user row starting "Implement the following plan:" (the client writes it when the user
   * approves a plan) is no typed message; when it is the newest message, the newest-msg need is
   * the plan's title (its first markdown heading) and the latest request is checked against the
   * newest typed message before it.
   */
  planApproval?: boolean;
  /** A queued row whose content starts with a known client tag (`<agent-notification>`, ...) is no typed message. */
  machineQueue?: boolean;
  /** A user row starting "Operation stopped by hook:" (a hook blocked a prompt) is no typed message. */
  hookBlock?: boolean;
  /**
   * The test-cmd need is also met when the re-run command, with a final `| tail`/`| head`/`| grep`
   * stage and a trailing `2>&1` taken off, is in the payload or the summary.
   */
  cmdPipes?: boolean;
}

/** The names of the corrections, in the order they are reported. */
export const CORRECTION_NAMES = ["plan-approval", "machine-queue", "hook-block", "cmd-pipes"] as const;

/** One correction's name. */
export type CorrectionName = typeof CORRECTION_NAMES[number];

/**
 * The {@linkcode Corrections} object that switches on exactly the named corrections.
 *
 * @example
 * ```ts
 * correctionsOf(["hook-block"]); // { planApproval: false, machineQueue: false, hookBlock: true, cmdPipes: false }
 * ```
 */
export function correctionsOf(names: readonly CorrectionName[]): Corrections {
  return {
    planApproval: names.includes("plan-approval"),
    machineQueue: names.includes("machine-queue"),
    hookBlock: names.includes("hook-block"),
    cmdPipes: names.includes("cmd-pipes"),
  };
}

/** The figures of one session. */
export interface SessionScore {
  /** Code points of the payload. */
  chars: number;
  /** Requests, open tasks, listed paths and other elements. */
  items: number;
  /** Items the summary lacks. */
  new: number;
  /** One line per wrong item, `"<class>: <detail>"` or just the class. */
  wrong: string[];
  /** Needs found after the boundary. */
  needs: number;
  /** Needs met by the payload or the summary. */
  have: number;
  /** Needs met by the summary alone. */
  alone: number;
  /** `"<need> yes|no"` per need, in order. */
  detail: string[];
  /** What each need of `detail` looks for (normalised; cmd-pipes adds `" | "` and the trimmed command). */
  keys: string[];
}

/** What {@linkcode scoreSession} needs: the rows, the cut, the payload and the summary. */
export interface SessionInput {
  rows: readonly TranscriptRow[];
  /** Index of the first `compact_boundary` in `rows`. */
  cut: number;
  /** Everything the hooks injected. */
  ctx: string;
  /** Claude Code's summary text. */
  summary: string;
}

const FILE_TOOLS: ReadonlySet<string> = new Set(["Read", "Edit", "Write", "MultiEdit", "NotebookEdit"]);

/** Commands that test or build; Python's `\b` is Unicode-aware, hence the look-arounds. */
const TEST_RE = new RegExp(
  `${PY_WORD_START}(test|tests|pytest|jest|vitest|go test|go build|go vet|cargo (test|build|check|clippy)|` +
    `npm (run|test)|pnpm|yarn|bun (run|test)|mise run|make|tsc|ruff|mypy|eslint|biome|` +
    `golangci-lint|xcodebuild|swift (build|test)|gradle|mvn|lint|typecheck)${PY_WORD_END}`,
  "u",
);
const SETTINGS_RE = new RegExp(
  `^/(model|clear|config|context|cost|login|status|resume|effort|permissions)${PY_WORD_END}`,
  "u",
);
const WRAPPER_RE = /<(system_instruction|system-instruction|command-name|local-command-stdout|local-command-caveat)>/;
const NOT_TYPED_HEAD = new RegExp(
  `^${PY_SPACE}*<(local-command-stdout|local-command-caveat|task-notification|system-reminder|bash-stdout|bash-input)`,
  "u",
);
const STOP: ReadonlySet<string> = new Set(
  ("the a an and or to of in on for with this that is are be it we you i can do does should would could will " +
    "not no yes let lets from as at by if then so but have has was were what why how when there here its our " +
    "your my me us about into out up down just also still now all any some more most very only than too").split(" "),
);
/** The payload's own elements; any other tag name counts as one "other" item. */
const KNOWN_TAGS: ReadonlySet<string> = new Set([
  "session-context",
  "tasks",
  "task",
  "subject",
  "description",
  "user-requests",
  "request",
  "edited-files",
  "working-set",
  "file",
  "blocked-by",
  "blocks",
]);
/** Tags the client wraps its own text in (machine-queue correction). */
export const CLIENT_TAGS: ReadonlySet<string> = new Set([
  "agent-notification",
  "task-notification",
  "system-reminder",
  "system_instruction",
  "system-instruction",
  "command-name",
  "command-message",
  "command-args",
  "local-command-stdout",
  "local-command-stderr",
  "local-command-caveat",
  "bash-input",
  "bash-stdout",
  "bash-stderr",
  "user-prompt-submit-hook",
]);
const PLAN_APPROVAL = "Implement the following plan:";
const HOOK_BLOCK = "Operation stopped by hook:";

/**
 * Whether a shell command tests or builds (the scorer's `TEST_RE`: `test`, `go build`, `npm run`,
 * `make`, `tsc`, `lint`, ... as whole words).
 *
 * @example
 * ```ts
 * isTestCommand("go test ./... 2>&1 | tail -20"); // true
 * isTestCommand("git status"); // false
 * ```
 */
export function isTestCommand(cmd: string): boolean {
  return TEST_RE.test(cmd);
}

/**
 * Whether a typed text is a settings command (`/model`, `/clear`, `/config`, `/context`, `/cost`,
 * `/login`, `/status`, `/resume`, `/effort`, `/permissions`), which changes the session and asks
 * nothing of the agent.
 *
 * @example
 * ```ts
 * isSettingsCommand("/model opus"); // true
 * isSettingsCommand("/models"); // false
 * ```
 */
export function isSettingsCommand(text: string): boolean {
  return SETTINGS_RE.test(text);
}

/** `r.get(key)` of a parsed row (undefined for anything but an object). */
function field(r: unknown, key: string): unknown {
  return typeof r === "object" && r !== null && !Array.isArray(r) ? (r as Record<string, unknown>)[key] : undefined;
}

/** `(r.get("message") or {}).get("content")`. */
function contentOf(r: unknown): unknown {
  return field(field(r, "message"), "content");
}

function isDict(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The rows of a transcript's text, as Python reads a file in text mode and `json.loads` each
 * line: `\r\n` and `\r` end lines too (universal newlines), lines that do not parse are dropped.
 *
 * @example
 * ```ts
 * parseTranscript('{"a":1}\nnot json\n{"b":2}').map((r) => r.line); // ['{"a":1}\n', '{"b":2}']
 * ```
 */
export function parseTranscript(text: string): TranscriptRow[] {
  const out: TranscriptRow[] = [];
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  lines.forEach((l, i) => {
    const line = i < lines.length - 1 ? l + "\n" : l;
    if (line === "") return;
    try {
      out.push({ line, row: JSON.parse(line) });
    } catch {
      // Python's split skips a line json.loads refuses; so does the replay.
    }
  });
  return out;
}

/**
 * Index of the first row whose `subtype` is `compact_boundary` (sidechain or not, as the shared
 * `split` does), or null.
 *
 * @example
 * ```ts
 * firstBoundary([{ line: "", row: { type: "user" } }, { line: "", row: { subtype: "compact_boundary" } }]); // 1
 * ```
 */
export function firstBoundary(rows: readonly TranscriptRow[]): number | null {
  const i = rows.findIndex((r) => field(r.row, "subtype") === "compact_boundary");
  return i === -1 ? null : i;
}

/** Options of {@linkcode typedText}. */
export interface TypedTextOptions {
  /** Queued content starting with a known client tag is not typed (machine-queue). Default false. */
  machineQueue?: boolean;
  /** "Operation stopped by hook:" rows are not typed (hook-block). Default false. */
  hookBlock?: boolean;
}

/**
 * The text of a row the user typed or queued, else null. A slash command becomes `"/name args"`
 * (settings commands and `/compact` are not typed); client wrappers, tool results, meta rows,
 * summaries, sidechains, interruptions and caveats are not typed either.
 *
 * @example
 * ```ts
 * const slash = "<command-name>/review</command-name><command-args>12</command-args>";
 * typedText({ type: "user", message: { content: slash } }); // "/review 12"
 * typedText({ type: "user", message: { content: "<command-name>/model</command-name>" } }); // null
 * typedText({ type: "queue-operation", operation: "enqueue", content: "also fix the docs" }); // "also fix the docs"
 * ```
 */
export function typedText(r: unknown, options: TypedTextOptions = {}): string | null {
  if (field(r, "type") === "queue-operation" && field(r, "operation") === "enqueue") {
    const c = field(r, "content");
    if (
      typeof c === "string" && pyStrip(c) !== "" && !pyLstrip(c).startsWith("{") && !c.includes("<task-notification>")
    ) {
      if (options.machineQueue && clientTagHead(c)) return null;
      return c;
    }
    return null;
  }
  if (
    field(r, "type") !== "user" || pyTruthy(field(r, "isMeta")) || pyTruthy(field(r, "isCompactSummary")) ||
    pyTruthy(field(r, "isSidechain"))
  ) return null;
  const content = contentOf(r);
  let c: string;
  if (Array.isArray(content)) {
    if (content.some((b) => isDict(b) && b.type === "tool_result")) return null;
    c = content.filter((b) => isDict(b) && b.type === "text").map((b) => typeof b.text === "string" ? b.text : "")
      .join("\n");
  } else if (typeof content === "string") c = content;
  else return null;
  if (pyStrip(c) === "") return null;
  const m = /<command-name>(.*?)<\/command-name>/s.exec(c);
  if (m) {
    const name = pyStrip(m[1]);
    const args = /<command-args>(.*?)<\/command-args>/s.exec(c);
    const a = args ? pyStrip(args[1]) : "";
    const cmd = (name.startsWith("/") ? name : "/" + name) + (a !== "" ? " " + a : "");
    return isSettingsCommand(cmd) || cmd.startsWith("/compact") ? null : cmd;
  }
  c = pyStrip(c.replace(/<system_instruction>.*?<\/system_instruction>/gs, ""));
  if (c === "" || NOT_TYPED_HEAD.test(c) || c.startsWith("[Request interrupted") || c.startsWith("Caveat:")) {
    return null;
  }
  if (options.hookBlock && c.startsWith(HOOK_BLOCK)) return null;
  return c;
}

/** Whether `text` starts (after whitespace) with one of {@linkcode CLIENT_TAGS}. */
function clientTagHead(text: string): boolean {
  const m = /^<([a-z][a-z_-]*)>/.exec(pyLstrip(text));
  return m !== null && CLIENT_TAGS.has(m[1]);
}

/**
 * The title of the plan a plan-approval row carries: the first markdown heading of its
 * `planContent` (or of the text after "Implement the following plan:"), else the first non-empty
 * line; null when `text` is no plan approval.
 *
 * @example
 * ```ts
 * planTitle("Implement the following plan:\n\n# Plan: Fix it\n\n## Steps"); // "Plan: Fix it"
 * planTitle("fix it"); // null
 * ```
 */
export function planTitle(text: string, planContent?: unknown): string | null {
  if (!text.startsWith(PLAN_APPROVAL)) return null;
  const plan = typeof planContent === "string" && pyStrip(planContent) !== ""
    ? planContent
    : text.slice(PLAN_APPROVAL.length);
  const heading = /^[ \t]{0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(plan);
  if (heading) return pyStrip(heading[1]);
  return plan.split("\n").map(pyStrip).find((l) => l !== "") ?? "";
}

/** A message before the cut: typed text, or (plan-approval) the title of an approved plan. */
export interface UserMessage {
  text: string;
  /** Set when the row is a plan approval (plan-approval correction): the plan's title. */
  planTitle?: string;
}

/**
 * The user's messages among `rows`, oldest first, as the scorer sees them under `corrections`.
 *
 * @example
 * ```ts
 * userMessages([{ line: "", row: { type: "user", message: { content: "hi" } } }]); // [{ text: "hi" }]
 * ```
 */
export function userMessages(rows: readonly TranscriptRow[], corrections: Corrections = {}): UserMessage[] {
  const out: UserMessage[] = [];
  for (const { row } of rows) {
    const t = typedText(row, corrections);
    if (t === null) continue;
    const title = corrections.planApproval && field(row, "type") === "user"
      ? planTitle(t, field(row, "planContent"))
      : null;
    out.push(title === null ? { text: t } : { text: t, planTitle: title });
  }
  return out;
}

/**
 * The main-chain tool calls of `rows`, in order (duplicates kept, as the shared scorer keeps them).
 *
 * @example
 * ```ts
 * const call = { type: "tool_use", name: "Bash", input: { command: "make" } };
 * toolCalls([{ line: "", row: { message: { content: [call] } } }]); // [{ name: "Bash", input: { command: "make" } }]
 * ```
 */
export function toolCalls(rows: readonly TranscriptRow[]): { name: unknown; input: Record<string, unknown> }[] {
  const out: { name: unknown; input: Record<string, unknown> }[] = [];
  for (const { row } of rows) {
    if (pyTruthy(field(row, "isSidechain"))) continue;
    const c = contentOf(row);
    if (!Array.isArray(c)) continue;
    for (const b of c) {
      if (isDict(b) && b.type === "tool_use") out.push({ name: b.name, input: isDict(b.input) ? b.input : {} });
    }
  }
  return out;
}

/**
 * The items of a payload: tasks by status, requests (and the latest), the paths of the
 * edited-files and working-set elements, and the number of other distinct tag names. Texts and
 * paths are unescaped.
 *
 * @example
 * ```ts
 * parsePayload('<tasks><task id="1" status="pending"><subject>Fix &amp; test</subject></task></tasks>' +
 *   '<user-requests><request latest="true">go on</request></user-requests><plan-file path="p.md"/>');
 * // { open: ["Fix & test"], done: [], req: ["go on"], latest: "go on", edited: [], ws: [], other: 1 }
 * ```
 */
export function parsePayload(ctx: string): PayloadItems {
  const items: PayloadItems = { open: [], done: [], req: [], latest: null, edited: [], ws: [], other: 0 };
  for (const m of ctx.matchAll(/<task id="[^"]*" status="([^"]*)"[^>]*>(.*?)<\/task>/gs)) {
    const subject = /<subject>(.*?)<\/subject>/s.exec(m[2]);
    const t = htmlUnescape(subject ? subject[1] : m[2]);
    (m[1] === "pending" || m[1] === "in_progress" ? items.open : items.done).push(t);
  }
  for (const m of ctx.matchAll(/<request( latest="true")?[^>]*>(.*?)<\/request>/gs)) {
    const t = htmlUnescape(m[2]);
    items.req.push(t);
    if (m[1] !== undefined) items.latest = t;
  }
  for (const [tag, key] of [["edited-files", "edited"], ["working-set", "ws"]] as const) {
    const m = new RegExp(`<${tag}[^>]*>(.*?)</${tag}>`, "s").exec(ctx);
    if (m) items[key] = [...m[1].matchAll(/<file path="([^"]*)"/g)].map((f) => htmlUnescape(f[1]));
  }
  const tags = new Set<string>();
  for (const m of ctx.matchAll(new RegExp(`<([a-z](?:${PY_WORD}|-)*)`, "gu"))) {
    if (!KNOWN_TAGS.has(m[1])) tags.add(m[1]);
  }
  items.other = tags.size;
  return items;
}

/**
 * Claude Code's summary: the text of the first `isCompactSummary` row among the five rows after
 * the cut, or "".
 *
 * @example
 * ```ts
 * const summaryRow = { isCompactSummary: true, message: { content: "S" } };
 * summaryOf([{ line: "", row: { subtype: "compact_boundary" } }, { line: "", row: summaryRow }], 0); // "S"
 * ```
 */
export function summaryOf(rows: readonly TranscriptRow[], cut: number): string {
  for (const { row } of rows.slice(cut + 1, cut + 6)) {
    if (!pyTruthy(field(row, "isCompactSummary"))) continue;
    const c = contentOf(row);
    if (typeof c === "string") return c;
    return (Array.isArray(c) ? c : []).filter(isDict).map((b) => typeof b.text === "string" ? b.text : "").join("\n");
  }
  return "";
}

/**
 * The rows the replay appends after PostCompact, as the shared scorer does: those among the six
 * after the cut that are a `compact_boundary` or a summary (the boundary row at the cut itself
 * is not among them).
 *
 * @example
 * ```ts
 * const boundary = { line: "b\n", row: { subtype: "compact_boundary" } };
 * appendedRows([boundary, { line: "s\n", row: { isCompactSummary: true } }], 0).map((r) => r.line); // ["s\n"]
 * ```
 */
export function appendedRows(rows: readonly TranscriptRow[], cut: number): TranscriptRow[] {
  return rows.slice(cut + 1, cut + 7).filter((r) =>
    field(r.row, "subtype") === "compact_boundary" || pyTruthy(field(r.row, "isCompactSummary"))
  );
}

/**
 * The prompt UserPromptSubmit replays: the typed text of the first main-chain user or assistant
 * row after the cut (summaries skipped), when it is a user row with typed text; else null.
 *
 * @example
 * ```ts
 * const prompt = { type: "user", message: { content: "go" } };
 * firstPrompt([{ line: "", row: { subtype: "compact_boundary" } }, { line: "", row: prompt }], 0); // "go"
 * ```
 */
export function firstPrompt(rows: readonly TranscriptRow[], cut: number): string | null {
  const first = rows.slice(cut + 1).find(({ row }) =>
    !pyTruthy(field(row, "isSidechain")) && !pyTruthy(field(row, "isCompactSummary")) &&
    (field(row, "type") === "user" || field(row, "type") === "assistant")
  );
  if (!first || field(first.row, "type") !== "user") return null;
  const t = typedText(first.row);
  return t === null || t === "" ? null : t;
}

/**
 * Whether a request is something the user did not type: a client wrapper, a plan approval, a
 * settings command; with `corrections`, also a client-tagged text (machine-queue) or a blocked
 * prompt (hook-block).
 *
 * @example
 * ```ts
 * isUntypedRequest("<command-name>/x</command-name>"); // true
 * isUntypedRequest("/model opus"); // true
 * isUntypedRequest("/review 12"); // false
 * ```
 */
export function isUntypedRequest(q: string, corrections: Corrections = {}): boolean {
  if (WRAPPER_RE.test(q) || q.startsWith("Implement the following plan") || isSettingsCommand(pyStrip(q))) return true;
  if (corrections.machineQueue && clientTagHead(q)) return true;
  if (corrections.hookBlock && pyStrip(q).startsWith(HOOK_BLOCK)) return true;
  return false;
}

/**
 * The wrong items of a payload, in the shared scorer's order: a task list with nothing open,
 * requests the user did not type or that repeat another, paths that are no file or are listed
 * twice, and a latest request that is not `newest` (the newest typed message, or null).
 *
 * @example
 * ```ts
 * wrongItems(parsePayload('<request>a</request><request>A </request>'), null); // ["repeated request"]
 * ```
 */
export function wrongItems(it: PayloadItems, newest: string | null, corrections: Corrections = {}): string[] {
  const wrong: string[] = [];
  if (it.done.length > 0 && it.open.length === 0) wrong.push("task list with nothing open");
  const seen = new Set<string>();
  for (const q of it.req) {
    const k = normText(q);
    if (isUntypedRequest(q, corrections)) wrong.push("not typed: " + cpSlice(q, 50));
    else if (seen.has(k)) wrong.push("repeated request");
    seen.add(k);
  }
  const paths = [...it.edited, ...it.ws];
  paths.forEach((a, i) => {
    if (a.endsWith(".git") || a.includes("://")) wrong.push("no file: " + a);
    if (/^[ab]\//.test(a) && paths.includes(a.slice(2))) wrong.push("diff header: " + a);
    for (const b of paths.slice(i + 1)) {
      if (a !== b && (a.endsWith("/" + b) || b.endsWith("/" + a))) wrong.push("listed twice: " + b);
    }
  });
  if (
    newest !== null && newest !== "" && it.latest !== null &&
    !normText(it.latest).includes(cpSlice(normText(newest), 80))
  ) {
    wrong.push("latest is not the newest typed or queued message");
  }
  return wrong;
}

/**
 * The class of a wrong item: its text before the first `": "`.
 *
 * @example
 * ```ts
 * wrongClass("listed twice: a/b.ts"); // "listed twice"
 * ```
 */
export function wrongClass(w: string): string {
  const i = w.indexOf(": ");
  return i === -1 ? w : w.slice(0, i);
}

/**
 * How many of a payload's items there are, and how many of them the summary lacks: a request
 * whose first 120 normalised characters are not in it, an open task whose subject is not in it
 * and shares under 70 % of its words with it, a path whose basename is not in it, and every other
 * element.
 *
 * @example
 * ```ts
 * const it = parsePayload('<request>fix the parser</request><working-set><file path="/a/b.ts"/></working-set>');
 * newItems(it, "Next: fix the parser in b.ts"); // { items: 2, new: 0 }
 * ```
 */
export function newItems(it: PayloadItems, summary: string): { items: number; new: number } {
  const ns = normText(summary);
  const sw = new Set(wordRuns(summary.toLowerCase()));
  let items = 0, fresh = 0;
  for (const q of it.req) {
    items++;
    if (!ns.includes(cpSlice(normText(q), 120))) fresh++;
  }
  for (const t of it.open) {
    items++;
    const w = significantWords(t);
    if (!ns.includes(normText(t)) && (w.length === 0 || w.filter((x) => sw.has(x)).length / w.length < 0.7)) fresh++;
  }
  for (const p of [...it.edited, ...it.ws]) {
    items++;
    if (!summary.includes(pyBasename(p))) fresh++;
  }
  return { items: items + it.other, new: fresh + it.other };
}

/**
 * Words of at least four characters that are not stop words (the scorer's `words`).
 *
 * @example
 * ```ts
 * significantWords("Add the retry loop to the client"); // ["retry", "loop", "client"]
 * ```
 */
export function significantWords(s: string): string[] {
  return wordRuns(s.toLowerCase()).filter((w) => cpLength(w) >= 4 && !STOP.has(w));
}

/**
 * A shell command without its output trimming: final `| tail`, `| head` and `| grep` stages and
 * then a trailing `2>&1` taken off (cmd-pipes correction).
 *
 * @example
 * ```ts
 * trimOutputStages("go test ./... 2>&1 | grep -v ok | tail -20"); // "go test ./..."
 * ```
 */
export function trimOutputStages(cmd: string): string {
  let c = pyStrip(cmd);
  for (;;) {
    const next = c.replace(/\s*\|\s*(tail|head|grep)(\s[^|]*)?$/, "");
    if (next === c) break;
    c = next;
  }
  return c.replace(/\s*2>&1$/, "");
}

/**
 * Whether `key` (a normalised command) is in `hay` (normalised) as a whole command: what follows
 * it is the end, whitespace, a quote, a pipe, a redirection or the end of an element.
 */
function holdsCommand(hay: string, key: string): boolean {
  let at = hay.indexOf(key);
  while (at !== -1) {
    const next = hay[at + key.length];
    if (next === undefined || /[\s"'`|;&)<>]/.test(next)) return true;
    at = hay.indexOf(key, at + 1);
  }
  return false;
}

/**
 * The figures of one session: chars, items, new, wrong, and the needs (a test or build command
 * re-run in the first 20 calls after the boundary that also ran before it; the newest plan file
 * touched before it; the newest message the user typed or queued), met from the payload or the
 * summary ("alone": the summary only). `corrections` default to none: the shared scoring.
 *
 * @example
 * ```ts
 * const rows = parseTranscript('{"type":"user","message":{"content":"add a flag"}}\n{"subtype":"compact_boundary"}\n');
 * const ctx = '<request latest="true">add a flag</request>';
 * scoreSession({ rows, cut: 1, ctx, summary: "" }).detail; // ["newest-msg yes"]
 * ```
 */
export function scoreSession(input: SessionInput, corrections: Corrections = {}): SessionScore {
  const { rows, cut, ctx, summary } = input;
  const it = parsePayload(ctx);
  const messages = userMessages(rows.slice(0, cut), corrections);
  const newest = messages.at(-1) ?? null;
  // Under plan-approval, a plan approval is no typed message: the latest request is checked
  // against the newest typed one before it.
  const newestTyped = messages.findLast((m) => m.planTitle === undefined) ?? null;
  const wrong = wrongItems(it, newestTyped?.text ?? null, corrections);
  const { items, new: fresh } = newItems(it, summary);
  let needs = 0, have = 0, alone = 0;
  const detail: string[] = [];
  const keys: string[] = [];
  const both = normText(htmlUnescape(ctx + "\n" + summary));
  const summaryOnly = normText(summary);
  function need(label: string, key: string, extra?: string): void {
    needs++;
    const ok = both.includes(key) || (extra !== undefined && holdsCommand(both, extra));
    if (ok) have++;
    if (summaryOnly.includes(key) || (extra !== undefined && holdsCommand(summaryOnly, extra))) alone++;
    detail.push(`${label} ${ok ? "yes" : "no"}`);
    keys.push(extra === undefined ? key : `${key} | ${extra}`);
  }
  const pre = toolCalls(rows.slice(0, cut));
  const post = toolCalls(rows.slice(cut + 1)).slice(0, 20);
  const testCommands = (calls: typeof pre) =>
    calls.filter((c) => c.name === "Bash" && isTestCommand(commandOf(c.input))).map((c) => commandOf(c.input));
  const preCmds = testCommands(pre);
  const rerun = testCommands(post).find((c) => preCmds.includes(c));
  if (rerun !== undefined) {
    const key = cpSlice(normText(pyStrip(rerun)), 60);
    const trimmed = normText(trimOutputStages(rerun));
    const other = corrections.cmdPipes && trimmed !== "" && trimmed !== normText(rerun) ? trimmed : undefined;
    need("test-cmd", key, other);
  }
  const plans = pre.filter((c) =>
    typeof c.name === "string" && FILE_TOOLS.has(c.name) &&
    pyBasename(typeof c.input.file_path === "string" ? c.input.file_path : "").toLowerCase().includes("plan")
  ).map((c) => c.input.file_path as string);
  if (plans.length > 0) need("plan", normText(pyBasename(plans[plans.length - 1])));
  if (newest !== null) {
    need("newest-msg", cpSlice(normText(newest.planTitle ?? newest.text), 80));
  }
  return { chars: cpLength(ctx), items, new: fresh, wrong, needs, have, alone, detail, keys };
}

function commandOf(input: Record<string, unknown>): string {
  return typeof input.command === "string" ? input.command : "";
}
