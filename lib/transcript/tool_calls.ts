import type { TranscriptRow } from "./transcript_row.ts";
import { isMainChainRow } from "./rows.ts";
import { normalizeToolPath, shellPathTokens } from "./_paths.ts";

/** One item of a `TodoWrite` call. */
export interface TodoItem {
  content?: string;
  status?: string;
  activeForm?: string;
  [key: string]: unknown;
}

/** One `tool_use` block of a main-chain assistant row. */
export interface ToolCall {
  /** The block id (`toolu_…`), matched by the `tool_use_id` of its result. */
  id: string;
  /** Tool name: `Read`, `Edit`, `Bash`, `mcp__server__tool`, … */
  name: string;
  /** The input as written; `{}` when the block has none. */
  input: Record<string, unknown>;
  /**
   * Files named by the call, as given: `file_path`, `notebook_path` and `path` fields (Read,
   * Write, Edit, MultiEdit, NotebookEdit, Glob, Grep, LS and any tool using those names), and for
   * `Bash` the command tokens that clearly are paths. Duplicates removed, order kept.
   */
  filePaths: string[];
  /** `filePaths` with `\` turned into `/` and a drive letter in lower case (`c:/Users/…`). */
  normalizedPaths: string[];
  /** The skill name of a `Skill` call. */
  skill?: string;
  /** The list written by a `TodoWrite` call. */
  todos?: TodoItem[];
  /** Timestamp of the row that holds the block. */
  timestamp?: string;
  /** Uuid of the row that holds the block. */
  rowUuid?: string;
}

/** Options for {@linkcode toolCalls}. */
export interface ToolCallsOptions {
  /** Only calls of these tools. Default: all. */
  names?: readonly string[];
}

const PATH_FIELDS = ["file_path", "notebook_path", "path"] as const;

/**
 * The `tool_use` blocks of main-chain assistant rows, in the order of `rows` (newest first when
 * they come from {@linkcode scanTranscript}; blocks of one row are reversed to keep that order).
 * Sidechain, progress and synthetic rows are skipped, and a block id seen twice is yielded once.
 *
 * @example
 * ```ts
 * import { toolCalls } from "./tool_calls.ts";
 * import { scanTranscript } from "./scan_transcript.ts";
 *
 * for (const call of toolCalls(scanTranscript("/tmp/session.jsonl"), { names: ["Edit", "Write"] })) {
 *   console.log(call.name, call.normalizedPaths);
 * }
 * ```
 */
export function* toolCalls(
  rows: Iterable<TranscriptRow>,
  options: ToolCallsOptions = {},
): Generator<ToolCall, void, undefined> {
  const names = options.names === undefined ? undefined : new Set(options.names);
  const seen = new Set<string>();
  for (const row of rows) {
    for (const call of rowToolCalls(row, names)) {
      if (seen.has(call.id)) continue;
      seen.add(call.id);
      yield call;
    }
  }
}

const NO_CALLS: readonly ToolCall[] = Object.freeze([]);

/**
 * The tool calls of one row as {@linkcode toolCalls} gives them, as an array (shared and empty
 * when it has none): what a pass that meets each row once asks, without the generator and sets
 * `toolCalls` makes per call. `names` is a set made once by the caller.
 *
 * @example
 * ```ts
 * const EDITS = new Set(["Edit", "Write"]);
 * for (const call of rowToolCalls(row, EDITS)) console.log(call.name, call.filePaths);
 * ```
 */
export function rowToolCalls(row: TranscriptRow, names?: ReadonlySet<string>): readonly ToolCall[] {
  if (row.type !== "assistant" || !isMainChainRow(row)) return NO_CALLS;
  const content = row.message?.content;
  if (!Array.isArray(content)) return NO_CALLS;
  let out: ToolCall[] | undefined;
  // Made at the second call only: a row holds one call, or a few.
  let seen: Set<string> | undefined;
  for (let i = content.length - 1; i >= 0; i--) {
    const block = content[i];
    if (typeof block !== "object" || block === null || block.type !== "tool_use") continue;
    const { id, name } = block;
    if (typeof id !== "string" || typeof name !== "string") continue;
    if (names !== undefined && !names.has(name)) continue;
    if (out === undefined) {
      out = [toToolCall(id, name, block.input, row)];
      continue;
    }
    seen ??= new Set([out[0].id]);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(toToolCall(id, name, block.input, row));
  }
  return out ?? NO_CALLS;
}

function toToolCall(id: string, name: string, rawInput: unknown, row: TranscriptRow): ToolCall {
  const input = typeof rawInput === "object" && rawInput !== null && !Array.isArray(rawInput)
    ? rawInput as Record<string, unknown>
    : {};
  const filePaths: string[] = [];
  for (const field of PATH_FIELDS) {
    const value = input[field];
    if (typeof value === "string" && value !== "" && !filePaths.includes(value)) filePaths.push(value);
  }
  if (name === "Bash" && typeof input.command === "string") {
    for (const token of shellPathTokens(input.command)) {
      if (!filePaths.includes(token)) filePaths.push(token);
    }
  }
  const call: ToolCall = { id, name, input, filePaths, normalizedPaths: filePaths.map(normalizeToolPath) };
  if (name === "Skill") {
    const skill = typeof input.skill === "string" ? input.skill : input.command;
    if (typeof skill === "string") call.skill = skill;
  }
  if (name === "TodoWrite" && Array.isArray(input.todos)) {
    call.todos = input.todos.filter((t): t is TodoItem => typeof t === "object" && t !== null && !Array.isArray(t));
  }
  if (typeof row.timestamp === "string") call.timestamp = row.timestamp;
  if (typeof row.uuid === "string") call.rowUuid = row.uuid;
  return call;
}
