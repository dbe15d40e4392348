import type { TranscriptRow } from "../transcript/transcript_row.ts";
import { isMainChainRow } from "../transcript/rows.ts";
import { safeText } from "../redact/quote_line.ts";
import { cutMiddle } from "../redact/cut_middle.ts";
import { isBareReply } from "./bare_reply.ts";
import { tagText } from "./_tag_text.ts";

/** One message the user typed or queued, redacted and capped. */
export interface UserRequest {
  /**
   * The words as typed (a slash command as `/name arguments`; a plan the user approved as
   * `approved plan: <its title>`), redacted, its head and tail kept when long.
   */
  text: string;
  /** When the row was written. */
  timestamp?: string;
  /** True when the text was cut. */
  truncated?: boolean;
  /**
   * True for a message the user queued while the agent worked that the transcript records only as
   * the queue's `enqueue` row (the client handed it to the model mid-turn).
   */
  queued?: true;
}

/** Options of {@linkcode userRequestTracker} and {@linkcode latestUserRequests}. */
export interface UserRequestsOptions {
  /** How many messages. Default {@linkcode DEFAULT_USER_REQUESTS} (3). */
  limit?: number;
  /** Longest message kept, in UTF-16 units. Default {@linkcode MAX_USER_REQUEST_CHARS} (4,000). */
  maxChars?: number;
}

/** Collects the latest typed and queued messages from rows read newest first. */
export interface UserRequestTracker {
  /** Feeds the next row (each older than the one before). */
  add(row: TranscriptRow): void;
  /**
   * Adds, as older than every row fed, the messages a snapshot kept of the rows before them (the
   * snapshot of the previous compaction), up to the limit; older rows then change nothing.
   */
  older(requests: readonly UserRequest[]): void;
  /** True once `limit` messages are held (or older ones were added): later rows change nothing. */
  full(): boolean;
  /** The messages held, newest first. */
  result(): UserRequest[];
  /**
   * When the latest message is a bare reply ("yes", "1+2", "go with option 2"): the assistant's
   * message it answers (its last text before the reply), redacted, head and tail kept. Else undefined.
   */
  replyTo(): string | undefined;
}

/** Default number of messages. */
export const DEFAULT_USER_REQUESTS = 3;
/** Default cap of one message. */
export const MAX_USER_REQUEST_CHARS = 4000;
/** Longest quoted assistant message a bare reply answers. */
export const MAX_REPLY_TO_CHARS = 800;

/**
 * Openings of user rows the client writes itself: command output and caveats, background-task
 * notifications, reminders, hook output, bash-mode input and output, interruptions, a prompt a
 * hook blocked, and the summary opening of clients that did not flag it.
 */
const MACHINE_PREFIXES: readonly string[] = [
  "<local-command-",
  "<task-notification>",
  "<agent-notification>",
  "<system-reminder>",
  "<bash-input>",
  "<bash-stdout>",
  "<bash-stderr>",
  "<user-prompt-submit-hook>",
  "<user-memory-input>",
  "<post-tool-use-hook>",
  "[Request interrupted",
  "Caveat: The messages below were generated",
  "This session is being continued from a previous conversation",
  "Operation stopped by hook:",
];
/**
 * Blocks a client wraps around the user's words (a desktop app's instructions, the IDE's open file
 * and selection): taken out, the user's own words after them kept.
 */
const WRAPPERS: readonly string[] = [
  "system_instruction",
  "system-instruction",
  "ide_opened_file",
  "ide_selection",
  "ide_diagnostics",
];
/**
 * `promptSource` values of rows the user wrote (2.1.3xx): typed or queued in the composer, an
 * accepted suggestion, a `-p`/SDK prompt (`sdk`; `user` is the hook input's word for the
 * composer). Any other value (`system` for task notifications and auto-continuation, wake-ups,
 * poll events, and whatever a later client adds) is a turn the client injected.
 */
const USER_PROMPT_SOURCES: ReadonlySet<string> = new Set(["typed", "queued", "suggestion_accepted", "sdk", "user"]);
/**
 * Claude Code's own commands that set, show or leave something of the client and ask the model
 * nothing: not requests. Commands that give the model work (`/review`, `/init`, a project's or a
 * plugin's own command) are requests, with or without arguments. `/compact` takes instructions for
 * the summarizer, kept apart (`compact_instructions`).
 */
const CLIENT_COMMANDS: ReadonlySet<string> = new Set([
  "add-dir",
  "agents",
  "bashes",
  "bug",
  "clear",
  "color",
  "compact",
  "config",
  "context",
  "cost",
  "doctor",
  "effort",
  "exit",
  "export",
  "fast",
  "feedback",
  "help",
  "hooks",
  "ide",
  "install-github-app",
  "keybindings",
  "login",
  "logout",
  "mcp",
  "memory",
  "model",
  "output-style",
  "permissions",
  "plugin",
  "plugins",
  "privacy-settings",
  "quit",
  "release-notes",
  "rename",
  "resume",
  "rewind",
  "sandbox",
  "skills",
  "status",
  "statusline",
  "stickers",
  "tasks",
  "terminal-setup",
  "theme",
  "todos",
  "upgrade",
  "usage",
  "vim",
]);
/** The client's opening of the message it writes when the user approves a plan. */
const PLAN_APPROVAL = "Implement the following plan:";
/** A command row's tags are near its start; a longer head is not searched (hostile rows can be megabytes). */
const COMMAND_HEAD_CHARS = 64 * 1024;

/**
 * The words the user typed in `row`, or undefined when the row is anything else: a tool result,
 * an assistant or system row, a sidechain, a row the client injected (`isMeta`, a compaction
 * summary, `isVisibleInTranscriptOnly`, an `origin` other than `human`, a `promptSource` that is
 * not the user's, such as 2.1.332's `system` on a background task's notification), command output and
 * caveats, reminders, hook output, a prompt a hook blocked, task notifications and interruptions.
 * Blocks a client wraps around the user's words (`<system_instruction>`, the IDE's open file) are
 * taken out. A slash command is `/name arguments` (`/review 123` → `"/review 123"`, a project's
 * `/deploy` alone → `"/deploy"`), but the client's own settings commands (`/model`, `/clear`, …)
 * and `/compact` are not requests. The message the client writes when the user approves a plan
 * ("Implement the following plan: …") is `approved plan: <the plan's title>`.
 *
 * @example
 * ```ts
 * import { typedUserText } from "./user_requests.ts";
 * typedUserText({ type: "user", message: { role: "user", content: "fix the login bug" } }); // "fix the login bug"
 * typedUserText({ type: "user", isMeta: true, message: { role: "user", content: "<system-reminder>x</system-reminder>" } }); // undefined
 * typedUserText({ type: "user", promptSource: "system", message: { role: "user", content: "Continue." } }); // undefined
 * typedUserText({ type: "user", message: { role: "user", content: "Implement the following plan:\n\n# Plan: Cache the index\n…" } });
 * // "approved plan: Plan: Cache the index"
 * ```
 */
export function typedUserText(row: TranscriptRow): string | undefined {
  if (row.type !== "user" || !isMainChainRow(row)) return undefined;
  if (row.isMeta === true || row.isCompactSummary === true || row.isVisibleInTranscriptOnly === true) return undefined;
  if (row.toolUseResult !== undefined) return undefined;
  const origin = row.origin;
  if (typeof origin === "object" && origin !== null && (origin as { kind?: unknown }).kind !== "human") {
    return undefined;
  }
  if (typeof row.promptSource === "string" && !USER_PROMPT_SOURCES.has(row.promptSource)) return undefined;
  const content = row.message?.content;
  let text: string;
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    text = "";
    for (const block of content) {
      if (typeof block !== "object" || block === null) continue;
      if (block.type === "tool_result") return undefined;
      if (block.type === "text" && typeof block.text === "string") text += (text === "" ? "" : "\n") + block.text;
    }
  } else return undefined;
  return messageText(text);
}

/**
 * The words of a message the user queued while the agent worked, from the queue's `enqueue` row
 * (`{"type":"queue-operation","operation":"enqueue","content":"…"}`), under the same rules as
 * {@linkcode typedUserText}; undefined for any other row and for what the client queues itself
 * (task and agent notifications, JSON events).
 *
 * @example
 * ```ts
 * import { queuedUserText } from "./user_requests.ts";
 * queuedUserText({ type: "queue-operation", operation: "enqueue", content: "please don't amend commits" });
 * // "please don't amend commits"
 * queuedUserText({ type: "queue-operation", operation: "enqueue", content: "/clear" }); // undefined
 * ```
 */
export function queuedUserText(row: TranscriptRow): string | undefined {
  if (row.type !== "queue-operation" || row.operation !== "enqueue" || row.isSidechain === true) return undefined;
  const content = row.content;
  if (typeof content !== "string") return undefined;
  const head = content.trimStart();
  if (head.startsWith("{") || head.startsWith("[")) return undefined;
  // Queued slash commands are written as typed: `/clear`, `/review 12`.
  if (head.startsWith("/")) {
    const m = /^\/([^\s/][^\s]{0,99})(?:\s+([\s\S]*))?$/.exec(head.slice(0, COMMAND_HEAD_CHARS).trimEnd());
    if (m === null) return undefined;
    return slashCommand(m[1], m[2]?.trim() ?? "");
  }
  // A block the client queues itself (`<agent-notification>…</agent-notification>`).
  const tag = /^<([a-z][\w-]{0,40})>/.exec(head);
  if (tag !== null && head.includes(`</${tag[1]}>`)) return undefined;
  return messageText(content);
}

/** The user's words in a typed or queued message's text, or undefined when the client wrote it. */
function messageText(raw: string): string | undefined {
  let text = raw.trimStart();
  if (text === "") return undefined;
  if (text.startsWith("<command-name>") || text.startsWith("<command-message>")) return commandRequest(text);
  text = unwrap(text).trim();
  if (text === "") return undefined;
  for (const prefix of MACHINE_PREFIXES) if (text.startsWith(prefix)) return undefined;
  if (text.startsWith(PLAN_APPROVAL)) return approvedPlan(text.slice(PLAN_APPROVAL.length));
  return text;
}

/** `text` without the client's wrapper blocks, wherever they are. */
function unwrap(text: string): string {
  if (!text.includes("<")) return text;
  let out = text;
  for (const name of WRAPPERS) {
    const open = `<${name}>`;
    const close = `</${name}>`;
    for (let at = out.indexOf(open); at !== -1; at = out.indexOf(open, at)) {
      const end = out.indexOf(close, at + open.length);
      if (end === -1) break;
      out = out.slice(0, at) + out.slice(end + close.length);
    }
  }
  return out;
}

/** `approved plan: <title>`: the plan's first heading, else its first line. */
function approvedPlan(plan: string): string {
  const lines = plan.slice(0, 16_384).split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const heading = lines.find((l) => l.startsWith("#"));
  const title = (heading ?? lines[0] ?? "").replace(/^#+\s*/, "").trim();
  return title === "" ? "approved plan" : `approved plan: ${title}`;
}

/** `/name args` of a command row, its tags found with bounded `indexOf` calls (`tagText`). */
function commandRequest(text: string): string | undefined {
  const name = tagText(text, "command-name", 1024)?.trim().replace(/^\//, "");
  if (name === undefined || name === "" || name.length > 100 || /[\s<]/.test(name)) return undefined;
  const args = tagText(text, "command-args", COMMAND_HEAD_CHARS)?.trim() ?? "";
  return slashCommand(name, args);
}

function slashCommand(name: string, args: string): string | undefined {
  if (CLIENT_COMMANDS.has(name.toLowerCase())) return undefined;
  return args === "" ? `/${name}` : `/${name} ${args}`;
}

/**
 * Collects the latest messages the user typed ({@linkcode typedUserText}) or queued
 * ({@linkcode queuedUserText}) from rows read newest first; each is redacted, then capped with
 * its head and tail kept. A message met twice (queued, then written again as a prompt; sent
 * twice) is kept once, as its newest row has it. When the latest is a bare reply, the assistant's
 * message it answers is kept too ({@linkcode UserRequestTracker.replyTo}).
 *
 * @example
 * ```ts
 * import { userRequestTracker } from "./user_requests.ts";
 * import { scanTranscript } from "../transcript/scan_transcript.ts";
 *
 * const tracker = userRequestTracker({ limit: 1 });
 * for (const row of scanTranscript("/tmp/session.jsonl")) {
 *   tracker.add(row);
 *   if (tracker.full()) break;
 * }
 * console.log(tracker.result()[0]?.text);
 * ```
 */
export function userRequestTracker(options: UserRequestsOptions = {}): UserRequestTracker {
  const limit = options.limit !== undefined && options.limit >= 0 ? Math.floor(options.limit) : DEFAULT_USER_REQUESTS;
  const max = options.maxChars !== undefined && options.maxChars > 0
    ? Math.floor(options.maxChars)
    : MAX_USER_REQUEST_CHARS;
  const out: UserRequest[] = [];
  const seen = new Set<string>();
  let closed = false;
  // The assistant's text before the latest message: looked for only while that message is the one
  // held and is a bare reply.
  let replyWanted = false;
  let reply: string | undefined;
  const push = (request: UserRequest) => {
    const key = request.text.replace(/\s+/g, " ").trim();
    if (seen.has(key)) return;
    seen.add(key);
    out.push(request);
  };
  // Redacted, then cut with its head and tail kept: a pasted log's question, a spec's last line
  // ("do it in this order") is at its end as often as at its start.
  const capped = (text: string, timestamp: unknown, truncated: boolean): UserRequest => {
    const safe = safeText(text, max);
    const request: UserRequest = { text: safe.truncated ? cutMiddle(text, max, { redact: true }) : safe.text };
    if (typeof timestamp === "string" && timestamp.length <= 64) request.timestamp = timestamp;
    if (truncated || safe.truncated) request.truncated = true;
    return request;
  };
  return {
    add(row: TranscriptRow): void {
      if (closed) return;
      if (replyWanted && row.type === "assistant" && isMainChainRow(row)) {
        const text = assistantText(row);
        if (text !== undefined) {
          replyWanted = false;
          reply = cutMiddle(text, MAX_REPLY_TO_CHARS, { redact: true });
          return;
        }
      }
      if (out.length >= limit) return;
      const typed = typedUserText(row);
      const text = typed ?? queuedUserText(row);
      if (text === undefined) return;
      if (out.length > 0) replyWanted = false;
      const request = capped(text, row.timestamp, false);
      if (typed === undefined) request.queued = true;
      const before = out.length;
      push(request);
      if (before === 0 && out.length === 1 && isBareReply(out[0].text)) replyWanted = true;
    },
    older(requests: readonly UserRequest[]): void {
      if (closed) return;
      closed = true;
      replyWanted = false;
      for (const r of requests) {
        if (out.length >= limit) break;
        const request = capped(r.text, r.timestamp, r.truncated === true);
        if (r.queued === true) request.queued = true;
        push(request);
      }
    },
    full: () => closed || (out.length >= limit && !replyWanted),
    result: () => out.slice(),
    replyTo: () => out.length > 0 && isBareReply(out[0].text) ? reply : undefined,
  };
}

/** The text blocks of an assistant row, joined; undefined when it has none. */
function assistantText(row: TranscriptRow): string | undefined {
  const content = row.message?.content;
  if (typeof content === "string") return content.trim() === "" ? undefined : content.trim();
  if (!Array.isArray(content)) return undefined;
  let text = "";
  for (const block of content) {
    if (typeof block === "object" && block !== null && block.type === "text" && typeof block.text === "string") {
      text += (text === "" ? "" : "\n") + block.text;
    }
  }
  return text.trim() === "" ? undefined : text.trim();
}

/**
 * The latest messages the user typed or queued in `rows` (newest first), newest first. Stops
 * reading at the `limit`-th.
 *
 * @example
 * ```ts
 * import { latestUserRequests } from "./user_requests.ts";
 * import { scanTranscript } from "../transcript/scan_transcript.ts";
 *
 * const [latest] = latestUserRequests(scanTranscript("/tmp/session.jsonl"));
 * if (latest) console.log(latest.text);
 * ```
 */
export function latestUserRequests(rows: Iterable<TranscriptRow>, options: UserRequestsOptions = {}): UserRequest[] {
  const tracker = userRequestTracker(options);
  for (const row of rows) {
    if (tracker.full()) break;
    tracker.add(row);
  }
  return tracker.result();
}
