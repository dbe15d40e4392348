import type { TranscriptRow } from "../transcript/transcript_row.ts";
import { isMainChainRow } from "../transcript/rows.ts";
import { safeText } from "../redact/quote_line.ts";
import { tagText } from "./_tag_text.ts";

/** One message the user typed, redacted and capped. */
export interface UserRequest {
  /** The words as typed (a slash command with arguments as `/name arguments`). */
  text: string;
  /** When the row was written. */
  timestamp?: string;
  /** True when the text was cut. */
  truncated?: boolean;
}

/** Options of {@linkcode userRequestTracker} and {@linkcode latestUserRequests}. */
export interface UserRequestsOptions {
  /** How many messages. Default {@linkcode DEFAULT_USER_REQUESTS} (3). */
  limit?: number;
  /** Longest message kept, in UTF-16 units. Default {@linkcode MAX_USER_REQUEST_CHARS} (4,000). */
  maxChars?: number;
}

/** Collects the latest typed messages from rows read newest first. */
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
}

/** Default number of messages. */
export const DEFAULT_USER_REQUESTS = 3;
/** Default cap of one message. */
export const MAX_USER_REQUEST_CHARS = 4000;

/**
 * Openings of user rows the client writes itself: command output and caveats, background-task
 * notifications, reminders, hook output, bash-mode input and output, interruptions, and the
 * summary opening of clients that did not flag it.
 */
const MACHINE_PREFIXES: readonly string[] = [
  "<local-command-",
  "<task-notification>",
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
];
/**
 * `promptSource` values of rows the user wrote (2.1.3xx): typed or queued in the composer, an
 * accepted suggestion, a `-p`/SDK prompt (`sdk`; `user` is the hook input's word for the
 * composer). Any other value (`system` for task notifications and auto-continuation, wake-ups,
 * poll events, and whatever a later client adds) is a turn the client injected.
 */
const USER_PROMPT_SOURCES: ReadonlySet<string> = new Set(["typed", "queued", "suggestion_accepted", "sdk", "user"]);
const COMMAND_NAME = /^\/?([^<\s]{1,100})$/;
/** Longest command name and arguments looked through (a longer argument is cut to `maxChars` anyway). */
const NAME_CHARS = 1024;
const ARGS_CHARS = 65536;
/** Commands whose arguments are not a request: `/compact` takes instructions for the summarizer. */
const NOT_A_REQUEST: ReadonlySet<string> = new Set(["compact"]);

/**
 * The words the user typed in `row`, or undefined when the row is anything else: a tool result,
 * an assistant or system row, a sidechain, a row the client injected (`isMeta`, a compaction
 * summary, `isVisibleInTranscriptOnly`, an `origin` other than `human`, a `promptSource` that is
 * not the user's, such as 2.1.332's `system` on a background task's notification), command output and
 * caveats, reminders, hook output, task notifications and interruptions. A slash command counts
 * only with arguments (`/review 123` → `"/review 123"`), and never `/compact`.
 *
 * @example
 * ```ts
 * import { typedUserText } from "./user_requests.ts";
 * typedUserText({ type: "user", message: { role: "user", content: "fix the login bug" } }); // "fix the login bug"
 * typedUserText({ type: "user", isMeta: true, message: { role: "user", content: "<system-reminder>x</system-reminder>" } }); // undefined
 * typedUserText({ type: "user", promptSource: "system", message: { role: "user", content: "Continue." } }); // undefined
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
  const head = text.trimStart();
  if (head === "") return undefined;
  if (head.startsWith("<command-name>") || head.startsWith("<command-message>")) return commandRequest(head);
  for (const prefix of MACHINE_PREFIXES) if (head.startsWith(prefix)) return undefined;
  return text.trim();
}

function commandRequest(text: string): string | undefined {
  const name = COMMAND_NAME.exec(tagText(text, "command-name", NAME_CHARS)?.trim() ?? "")?.[1];
  const args = tagText(text, "command-args", ARGS_CHARS)?.trim();
  if (name === undefined || args === undefined || args === "" || NOT_A_REQUEST.has(name)) return undefined;
  return `/${name} ${args}`;
}

/**
 * Collects the latest messages typed by the user ({@linkcode typedUserText}) from rows read newest
 * first; each is redacted, then capped.
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
  let closed = false;
  return {
    add(row: TranscriptRow): void {
      if (closed || out.length >= limit) return;
      const typed = typedUserText(row);
      if (typed === undefined) return;
      const safe = safeText(typed, max);
      const request: UserRequest = { text: safe.text };
      if (typeof row.timestamp === "string" && row.timestamp.length <= 64) request.timestamp = row.timestamp;
      if (safe.truncated) request.truncated = true;
      out.push(request);
    },
    older(requests: readonly UserRequest[]): void {
      if (closed) return;
      closed = true;
      for (const r of requests) {
        if (out.length >= limit) break;
        const safe = safeText(r.text, max);
        const request: UserRequest = { text: safe.text };
        if (r.timestamp !== undefined) request.timestamp = r.timestamp;
        if (safe.truncated || r.truncated === true) request.truncated = true;
        out.push(request);
      }
    },
    full: () => closed || out.length >= limit,
    result: () => out.slice(),
  };
}

/**
 * The latest messages typed by the user in `rows` (newest first), newest first. Stops reading at
 * the `limit`-th.
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
