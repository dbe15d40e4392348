/**
 * Recognises, from the raw bytes of a transcript line and without parsing it, a row that can
 * change nothing PreCompact reads once the newest rows have given the session's `cwd`, id and
 * newest activity: a `hook_progress` row (one or more per tool call in a session with hooks), a
 * queue's `dequeue` or `remove` row, a `last-prompt` or `custom-title` row, and the like. Such a line is then not
 * parsed.
 *
 * What the detector's evidence (`collectEvidence`) and the session snapshot's trackers take from a
 * row, and what it needs in the row:
 *
 * - tool calls, tool results, prompts, assistant text, the activity mark, typed requests, tasks
 *   and edits: a `message` key;
 * - the plan file's slug: an `assistant` row;
 * - files the client attached: an `attachment` row;
 * - compactions: a `compact_boundary` row;
 * - subagent calls: the `message` an `agent_progress` row embeds (or a sidechain row's);
 * - tracked edits: a `file-history-snapshot` row;
 * - messages the user queued while the agent worked: a `queue-operation` row's `"enqueue"`;
 * - the session's `cwd` and id: any row, but only until they are known (the caller's condition).
 *
 * Each of these needs its key or value spelled in the line: `"message"`, `"assistant"`,
 * `"attachment"`, `compact_boundary`, `file-history-snapshot` or `"enqueue"`. Inside a
 * JSON string a quote is escaped, so `"message"` in the bytes is the only way to write that key,
 * unless an escape spells a letter or `_` (`\u0040`…`\u007f`): a line with such an escape is never
 * inert. A line without any of them, valid or not, has no effect. One that holds one only by
 * chance (a progress row naming `"assistant"` in a command) is parsed as before.
 */
import type { Buffer } from "node:buffer";
import { needle } from "./lines.ts";
import { spellsNone } from "./json_escapes.ts";

const NEEDED = [
  '"message"',
  '"assistant"',
  '"attachment"',
  "compact_boundary",
  "file-history-snapshot",
  '"enqueue"',
].map(needle);

/**
 * True when `line` (no `\n`, as `reverseLines` gives it) can change nothing the evidence or the
 * session snapshot read, once the session's `cwd`, id and newest activity are known (see the
 * module comment).
 *
 * @example
 * ```ts
 * isInertLine(needle('{"type":"progress","data":{"type":"hook_progress","hookName":"PostToolUse:Edit"}}')); // true
 * isInertLine(needle('{"type":"user","message":{"role":"user","content":"hi"}}')); // false
 * ```
 */
export function isInertLine(line: Buffer): boolean {
  return spellsNone(line, NEEDED);
}
