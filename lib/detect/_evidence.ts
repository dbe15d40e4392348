/**
 * The one backward pass shared by `detectActiveProject`, `workingSet` and `detectWorkspace`: the
 * tool calls of the main chain (newest first, each with its age and, for search tools, its
 * result), and the text the agent saw (user prompts, assistant text, compaction summaries), each
 * stamped with how many tool calls and user prompts are newer than it; besides, the tool calls of
 * subagents (from `agent_progress` and sidechain rows), the files the `file-history-snapshot`
 * rows track as edited, and the session's plan-mode fields (`slug`, `permissionMode`).
 */
import type { Buffer } from "node:buffer";
import type { ReverseByteLines } from "../transcript/lines.ts";
import type { TranscriptContentBlock, TranscriptRow } from "../transcript/transcript_row.ts";
import { rowToolCalls, type ToolCall } from "../transcript/tool_calls.ts";
import { isMainChainRow } from "../transcript/rows.ts";
import { needle, parseRow } from "../transcript/lines.ts";
import { isAscii, parseLatin1Row, utf8OfLatin1 } from "../transcript/latin1_row.ts";
import { hasHighEscape, spellsNone } from "../transcript/json_escapes.ts";
import { toolResultLineIds } from "../transcript/tool_result_line.ts";
import { isInertLine } from "../transcript/inert_line.ts";

/**
 * Tools whose result is kept: those that list files the agent may act on next, and `TaskCreate`,
 * whose result gives the id that later `TaskUpdate` calls refer to.
 */
export const RESULT_TOOLS: ReadonlySet<string> = new Set(["Grep", "Glob", "LS", "Task", "Agent", "Bash", "TaskCreate"]);

/**
 * Shell results are kept for the newest 12 tool calls only: one half-life of the working set's
 * evidence. A shell result is the longest line PreCompact reads again and parses, and on the
 * development set and the public transcripts `bench/detection-quality.ts` gives the same recall
 * with the shell results of the newest 8, 12, 24 or 36 calls (with 12, one session lists one file
 * fewer, a wrong one); with 4 or none, a public session loses its one hit (docs/detection.md).
 */
export const SHELL_RESULT_CALLS = 12;

/**
 * Search results (`Grep`, `Glob`, `LS`) are kept for the newest 60 tool calls: five half-lives,
 * beyond which what they list weighs under a thirtieth of the newest. The tables are the same as
 * with every call's; cutting at 36 or 48 lost a file of the development set's top 20.
 */
export const SEARCH_RESULT_CALLS = 60;

/**
 * The search tools: their result is kept only for the newest {@linkcode SEARCH_RESULT_CALLS}
 * calls, and the working set reads it line by line (`path:line:…`).
 *
 * @example
 * ```ts
 * SEARCH_TOOLS.has("Grep"); // true
 * ```
 */
export const SEARCH_TOOLS: ReadonlySet<string> = new Set(["Grep", "Glob", "LS"]);

/** One tool call with where it sits. */
export interface CallEvidence {
  call: ToolCall;
  /** Tool calls newer than this one: 0 for the newest. */
  age: number;
  /** User prompts newer than this call: 0 in the current turn. */
  turn: number;
  /** `cwd` of the row that holds the call. */
  cwd?: string;
  /**
   * For {@linkcode RESULT_TOOLS} (`Bash` among the newest {@linkcode SHELL_RESULT_CALLS} calls
   * only, `Grep`, `Glob` and `LS` among the newest {@linkcode SEARCH_RESULT_CALLS}): the text of
   * the `tool_result` content (a string, or the text of each text block followed by a newline),
   * cut to {@linkcode resultTextChars} of the tool: more than any reader of the evidence looks at.
   */
  resultText?: string;
  /** Like {@linkcode resultText}: `toolUseResult.filenames` when the client wrote it. */
  resultFiles?: string[];
}

/**
 * One tool call of a subagent (`Task`/`Agent`), from the `agent_progress` rows that embed its
 * messages in the main transcript, or from inline sidechain rows (2.0.x clients).
 */
export interface SubagentCallEvidence {
  call: ToolCall;
  /** Main-chain tool calls newer than it: the age of the call that started the subagent. */
  age: number;
  cwd?: string;
}

/** A file the client attached to the conversation (an `attachment` row with a `filename`). */
export interface AttachedFileEvidence {
  /** As written (absolute in the client's rows). */
  path: string;
  /** The attachment type: `file` (an @-mention), `opened_file_in_ide`, `edited_text_file`, … */
  type: string;
  /** Tool calls newer than it. */
  age: number;
  cwd?: string;
}

/** Where a text came from. `user` is a real prompt; `summary` a compaction summary. */
export type TextKind = "user" | "assistant" | "summary";

/** One text the agent saw. */
export interface TextEvidence {
  kind: TextKind;
  /** The text, at most {@linkcode MAX_TEXT_CHARS} characters. */
  text: string;
  /** Tool calls newer than this text. */
  age: number;
  /** User prompts newer than this text (a prompt itself counts from 0: the newest prompt has 0). */
  turn: number;
  cwd?: string;
}

/** Everything the detectors read, from one pass. Build it with {@linkcode collectEvidence}. */
export interface DetectionEvidence {
  readonly kind: "detection-evidence";
  /** Newest first. */
  calls: CallEvidence[];
  /** Newest first. */
  texts: TextEvidence[];
  /** `cwd` of the newest row that has one. */
  cwd?: string;
  /** `sessionId` of the newest row that has one. */
  sessionId?: string;
  /** Main-chain compact boundaries passed during the pass. */
  boundaries: number;
  /** Subagent tool calls, newest first, at most {@linkcode MAX_SUBAGENT_CALLS}. */
  subagentCalls: SubagentCallEvidence[];
  /**
   * The files Claude Code tracks as edited in this session (the keys of `trackedFileBackups` in
   * the `file-history-snapshot` rows read), as written: relative to the session's directory or
   * absolute. The snapshot is cumulative, so it names edits older than the calls read.
   */
  trackedFiles: string[];
  /** Normalised path of the transcript, when known (never part of a working set). */
  transcript?: string;
  /** `slug` of the newest assistant row that has one: the name of the session's plan file in plan mode. */
  slug?: string;
  /** `permissionMode` of the newest prompt (`plan` while in plan mode), when the client wrote it. */
  permissionMode?: string;
  /** Files attached by the client (newer clients write `attachment` rows), newest first, at most {@linkcode MAX_ATTACHED_FILES}. */
  attachedFiles: AttachedFileEvidence[];
  /**
   * `planFilePath` of the newest plan attachment (`plan_mode`, `plan_mode_reentry`,
   * `plan_file_reference`, `plan_mode_exit`), and whether plan mode was still on (not `plan_mode_exit`).
   */
  planFile?: { path: string; active: boolean };
}

/** Options of {@linkcode collectEvidence}. */
export interface CollectEvidenceOptions {
  /** Stop after this many tool calls. Default {@linkcode DEFAULT_MAX_CALLS}. */
  maxCalls?: number;
  /** Normalised transcript path, copied to the result. */
  transcript?: string;
}

/**
 * Older calls weigh less than 1/100 of the newest ones with the default half-lives, and
 * bench/detection-quality.ts prints the same tables, to the last session, with 75, 80 or 100
 * calls (docs/detection.md, "What is read"); 70 loses one file. 80 keeps a margin, and every call
 * fewer is transcript PreCompact does not parse.
 */
export const DEFAULT_MAX_CALLS = 80;
/** Texts are cut here: a pasted log does not need to be read whole. */
export const MAX_TEXT_CHARS = 20_000;
/**
 * Texts stop being collected once this many characters are held (tool calls still are). A session
 * of long texts and few tool calls would otherwise have the whole scan budget (8 MiB) searched for
 * paths and project ids, which took PreCompact several times longer (bench/README.md). Older text
 * than that weighs little next to the
 * newer; the working-set quality on the real transcripts (bench/detection-quality.ts) is the same.
 */
export const MAX_TOTAL_TEXT_CHARS = 1_000_000;

/** A search or shell result lists the files it found near its top: the working set reads this much of it. */
export const MAX_RESULT_CHARS = 4000;
/** A subagent's report is read this far, like any text ({@linkcode MAX_TEXT_CHARS}). */
export const MAX_REPORT_CHARS = 20_000;

/**
 * How much of a result's text the evidence keeps for a call of `tool`: one character more than
 * the working set reads ({@linkcode MAX_REPORT_CHARS} of a subagent's report,
 * {@linkcode MAX_RESULT_CHARS} of anything else), so that it still sees whether the text was longer.
 *
 * @example
 * ```ts
 * resultTextChars("Agent"); // 20001
 * resultTextChars("Bash"); // 4001
 * ```
 */
export function resultTextChars(tool: string): number {
  return (tool === "Task" || tool === "Agent" ? MAX_REPORT_CHARS : MAX_RESULT_CHARS) + 1;
}

/** Subagent calls kept; a subagent reading hundreds of files says little about each. */
export const MAX_SUBAGENT_CALLS = 400;
/** Tracked files kept from the snapshots. */
export const MAX_TRACKED_FILES = 500;
/** Attached files kept. */
export const MAX_ATTACHED_FILES = 200;
/** Attachment types whose `filename` is a file put in the agent's context (Claude Code 2.1.1xx and later). */
const FILE_ATTACHMENTS: ReadonlySet<string> = new Set([
  "file",
  "already_read_file",
  "compact_file_reference",
  "edited_text_file",
  "edited_image_file",
  "opened_file_in_ide",
  "selected_lines_in_ide",
]);
const PLAN_ATTACHMENTS: ReadonlySet<string> = new Set([
  "plan_mode",
  "plan_mode_reentry",
  "plan_file_reference",
  "plan_mode_exit",
]);

const NOT_A_PROMPT = [
  "<local-command-",
  "<task-notification>",
  "<system-reminder>",
  "<bash-stdout>",
  "<bash-stderr>",
  "[Request interrupted",
  "Caveat:",
];

/** Collects the evidence of `rows` (newest first, as `scanTranscript` yields them). */
export function collectEvidence(
  rows: Iterable<TranscriptRow>,
  options: CollectEvidenceOptions = {},
): DetectionEvidence {
  const pass = startPass(options);
  for (const row of rows) {
    if (addRow(pass, row)) break;
  }
  return pass.out;
}

/**
 * Another reader riding on {@linkcode collectEvidenceFromLines}'s pass: it is shown every line
 * and given the parsed row of each line it wants, newest first, so the transcript is read and each
 * line parsed once for both (PreCompact's session snapshot reads this way).
 */
export interface LineObserver {
  /**
   * Whether the row of `line` is wanted (asked once per line, before any older line).
   * `resultOnly` tells, when the pass knows it, whether the line can only record tool results
   * ({@linkcode toolResultLineIds}); `inert`, whether it can change nothing once the session's
   * `cwd`, id and newest activity are known ({@linkcode isInertLine}); undefined when the pass did
   * not look. `ids`: the line's tool-result ids when `resultOnly` is true.
   */
  wants(
    line: Buffer,
    resultOnly: boolean | undefined,
    inert: boolean | undefined,
    ids: readonly string[] | undefined,
  ): boolean;
  /** The row of a wanted line. */
  row(row: TranscriptRow): void;
  /** True once no older line can matter to it: the pass then ends with the evidence. Default: never. */
  done?(): boolean;
  /**
   * Told the lines before the first is read: an observer that keeps a line's place
   * (`lineStart()`) reads it again with `readAt()` while the pass runs.
   */
  reading?(lines: ReverseByteLines): void;
}

/**
 * {@linkcode collectEvidence} over the raw lines of a transcript (newest first, as `reverseLines`
 * gives them), with the same result: a line that can only record tool results
 * ({@linkcode toolResultLineIds}) is not parsed; its place in the file is kept under its ids, and
 * it is read again and parsed only when a call of {@linkcode RESULT_TOOLS} asks for one of them.
 * A line that can change nothing ({@linkcode isInertLine}: a hook's progress row, …) is not
 * parsed either, nor one that adds nothing to the evidence ({@linkcode addsNothing}: an assistant
 * row of thinking only) unless it may give the plan slug the pass still looks for. Every other
 * line is parsed as `scanTranscript` would. Until the newest main-chain rows have given `cwd` and
 * `sessionId`, every line is parsed. Reads `lines` until it
 * gives undefined or the evidence is complete, or with an `observer`, until the observer is done
 * too (it gets the rows it wants; a line is parsed once for both). Closing `lines` is the caller's.
 */
export function collectEvidenceFromLines(
  lines: ReverseByteLines,
  options: CollectEvidenceOptions = {},
  observer?: LineObserver,
): DetectionEvidence {
  const pass = startPass(options, lines);
  const out = pass.out;
  let complete = false;
  observer?.reading?.(lines);
  for (let line = lines.next(); line !== undefined; line = lines.next()) {
    if (complete && observer?.done?.() === true) break;
    // Looked at once, for the pass and its observer.
    const lazy = !complete && out.cwd !== undefined && out.sessionId !== undefined;
    const ids = lazy ? toolResultLineIds(line) : undefined;
    const inert = lazy && ids === undefined ? isInertLine(line) : undefined;
    const wanted = observer !== undefined && observer.wants(line, lazy ? ids !== undefined : undefined, inert, ids);
    if (complete || inert === true) {
      if (!wanted) continue;
    } else if (!wanted && ids !== undefined) {
      const at = { offset: lines.lineStart(), length: line.length };
      for (const id of ids) pass.results.set(id, { at, prev: pass.results.get(id) });
      continue;
    } else if (
      !wanted && inert === false && addsNothing(line) && (out.slug !== undefined || line.indexOf(SLUG) === -1)
    ) {
      continue;
    }
    const row = parseRow(line);
    if (row === undefined) continue;
    if (!complete && addRow(pass, row)) {
      complete = true;
      if (observer === undefined) break;
    }
    if (wanted) observer.row(row);
  }
  return out;
}

/**
 * What a line must hold for its row to add to the evidence once the pass knows the session's
 * `cwd` and id, besides a plan slug: a tool call, a text block, a user row (prompt, result,
 * permission mode), an attachment, a compaction, the file history. The most frequent first.
 */
const EVIDENCE_NEEDLES = ['"tool_use"', '"text"', '"user"', '"attachment"', "compact_boundary", "file-history-snapshot"]
  .map(needle);
/** The plan slug's key: the newest assistant row that has one gives it. */
const SLUG = needle('"slug"');

/**
 * True when the row of `line` can add nothing to the evidence but its plan slug once `cwd` and
 * session id are known: it spells none of {@linkcode EVIDENCE_NEEDLES} (`spellsNone`). An
 * assistant row of thinking only is such a row: sessions with extended thinking write many, some
 * long, and the evidence reads none of it.
 */
function addsNothing(line: Buffer): boolean {
  return spellsNone(line, EVIDENCE_NEEDLES);
}

/**
 * A result recorded for a `tool_use_id`: parsed, or where the line to parse lies in the file (then
 * `prev` is the one it replaced).
 */
interface PendingResult {
  content?: unknown;
  files?: string[];
  at?: { offset: number; length: number };
  prev?: PendingResult;
}

interface Pass {
  out: DetectionEvidence;
  /** Where kept lines are read again from. */
  lines?: ReverseByteLines;
  maxCalls: number;
  results: Map<string, PendingResult>;
  seen: Set<string>;
  subagentSeen: Set<string>;
  tracked: Set<string>;
  turn: number;
  /** Characters of text held so far (see {@linkcode MAX_TOTAL_TEXT_CHARS}). */
  textChars: number;
}

function startPass(options: CollectEvidenceOptions, lines?: ReverseByteLines): Pass {
  const maxCalls = options.maxCalls !== undefined && options.maxCalls > 0
    ? Math.floor(options.maxCalls)
    : DEFAULT_MAX_CALLS;
  const out: DetectionEvidence = {
    kind: "detection-evidence",
    calls: [],
    texts: [],
    boundaries: 0,
    subagentCalls: [],
    trackedFiles: [],
    attachedFiles: [],
  };
  if (options.transcript !== undefined) out.transcript = options.transcript;
  return {
    out,
    lines,
    maxCalls,
    results: new Map(),
    seen: new Set(),
    subagentSeen: new Set(),
    tracked: new Set(),
    turn: 0,
    textChars: 0,
  };
}

/** How many of the newest calls keep the result of a `tool` call. */
function resultCalls(tool: string): number {
  return tool === "Bash" ? SHELL_RESULT_CALLS : SEARCH_TOOLS.has(tool) ? SEARCH_RESULT_CALLS : Infinity;
}

/** Adds one row; true when the pass is complete. */
function addRow(pass: Pass, row: TranscriptRow): boolean {
  if (!isMainChainRow(row)) {
    if (row.type === "progress") addAgentProgress(pass, row);
    else if (row.type === "file-history-snapshot") addSnapshot(pass, row);
    else if (row.isSidechain === true && row.type === "assistant") addSubagentCalls(pass, row);
    return false;
  }
  const out = pass.out;
  const results = pass.results;
  const cwd = typeof row.cwd === "string" && row.cwd !== "" ? row.cwd : undefined;
  if (out.cwd === undefined && cwd !== undefined) out.cwd = cwd;
  if (out.sessionId === undefined && typeof row.sessionId === "string") out.sessionId = row.sessionId;
  // From rows the lazy pass always parses: assistant rows, and prompts (never a result-only line).
  if (out.slug === undefined && row.type === "assistant" && typeof row.slug === "string" && row.slug !== "") {
    out.slug = row.slug;
  }
  if (row.type === "system") {
    if (row.subtype === "compact_boundary") out.boundaries++;
    return false;
  }
  if (row.type === "attachment") {
    addAttachment(out, row, cwd);
    return false;
  }
  const content = row.message?.content;
  if (row.type === "user") {
    if (typeof content === "string") {
      const kind = userTextKind(row, content);
      if (kind !== undefined) {
        if (kind === "user" && pass.turn === 0) notePermissionMode(out, row);
        addText(pass, kind, content, kind === "user" ? pass.turn++ : pass.turn, cwd);
      }
    } else if (Array.isArray(content)) {
      let prompt = "";
      for (const block of content) {
        if (typeof block !== "object" || block === null) continue;
        if (block.type === "tool_result" && typeof block.tool_use_id === "string") {
          const files = resultFilenames(row.toolUseResult);
          results.set(
            block.tool_use_id,
            files === undefined ? { content: block.content } : { content: block.content, files },
          );
        } else if (block.type === "text" && typeof block.text === "string") {
          prompt += prompt === "" ? block.text : "\n" + block.text;
        }
      }
      if (prompt !== "") {
        const kind = userTextKind(row, prompt);
        if (kind === "user" && pass.turn === 0) notePermissionMode(out, row);
        if (kind !== undefined) addText(pass, kind, prompt, kind === "user" ? pass.turn++ : pass.turn, cwd);
      }
    }
    return false;
  }
  if (row.type !== "assistant" || !Array.isArray(content)) return false;
  let said = "";
  for (const block of content) {
    if (typeof block === "object" && block !== null && block.type === "text" && typeof block.text === "string") {
      said += said === "" ? block.text : "\n" + block.text;
    }
  }
  if (said !== "") addText(pass, "assistant", said, pass.turn, cwd);
  for (const call of rowToolCalls(row)) {
    if (pass.seen.has(call.id)) continue;
    pass.seen.add(call.id);
    const ev: CallEvidence = { call, age: out.calls.length, turn: pass.turn };
    if (cwd !== undefined) ev.cwd = cwd;
    if (RESULT_TOOLS.has(call.name) && ev.age < resultCalls(call.name)) {
      const r = settle(pass, results.get(call.id), call.id, resultTextChars(call.name));
      if (r !== undefined) {
        ev.resultText = r.text;
        if (r.files !== undefined) ev.resultFiles = r.files;
      }
    }
    results.delete(call.id);
    out.calls.push(ev);
  }
  return out.calls.length >= pass.maxCalls;
}

/** A file or plan-file attachment. */
function addAttachment(out: DetectionEvidence, row: TranscriptRow, cwd: string | undefined): void {
  const a = row.attachment;
  if (typeof a !== "object" || a === null) return;
  const { type, filename, planFilePath } = a as { type?: unknown; filename?: unknown; planFilePath?: unknown };
  if (typeof type !== "string") return;
  if (
    FILE_ATTACHMENTS.has(type) && typeof filename === "string" && filename !== "" &&
    out.attachedFiles.length < MAX_ATTACHED_FILES
  ) {
    const f: AttachedFileEvidence = { path: filename, type, age: out.calls.length };
    if (cwd !== undefined) f.cwd = cwd;
    out.attachedFiles.push(f);
  } else if (
    PLAN_ATTACHMENTS.has(type) && typeof planFilePath === "string" && planFilePath !== "" && out.planFile === undefined
  ) {
    out.planFile = { path: planFilePath, active: type !== "plan_mode_exit" };
  }
}

/** Only the newest prompt's mode counts (`turn` 0). */
function notePermissionMode(out: DetectionEvidence, row: TranscriptRow): void {
  if (typeof row.permissionMode === "string") out.permissionMode = row.permissionMode;
}

/** The subagent tool calls embedded in an `agent_progress` row. */
function addAgentProgress(pass: Pass, row: TranscriptRow): void {
  const data = row.data;
  if (typeof data !== "object" || data === null || (data as { type?: unknown }).type !== "agent_progress") return;
  const message = (data as { message?: unknown }).message;
  if (typeof message !== "object" || message === null) return;
  const inner = (message as { message?: unknown; type?: unknown }).message;
  if ((message as { type?: unknown }).type !== "assistant" || typeof inner !== "object" || inner === null) return;
  const sub: TranscriptRow = { type: "assistant", message: inner as TranscriptRow["message"] };
  if (typeof row.cwd === "string" && row.cwd !== "") sub.cwd = row.cwd;
  addSubagentCalls(pass, sub);
}

function addSubagentCalls(pass: Pass, row: TranscriptRow): void {
  const out = pass.out;
  if (out.subagentCalls.length >= MAX_SUBAGENT_CALLS) return;
  const main: TranscriptRow = row.isSidechain === true ? { ...row, isSidechain: false } : row;
  for (const call of rowToolCalls(main)) {
    if (pass.subagentSeen.has(call.id) || out.subagentCalls.length >= MAX_SUBAGENT_CALLS) continue;
    pass.subagentSeen.add(call.id);
    const ev: SubagentCallEvidence = { call, age: out.calls.length };
    if (typeof row.cwd === "string" && row.cwd !== "") ev.cwd = row.cwd;
    out.subagentCalls.push(ev);
  }
}

/** The keys of a `file-history-snapshot` row's `trackedFileBackups`. */
function addSnapshot(pass: Pass, row: TranscriptRow): void {
  const snapshot = row.snapshot;
  if (typeof snapshot !== "object" || snapshot === null) return;
  const backups = (snapshot as { trackedFileBackups?: unknown }).trackedFileBackups;
  if (typeof backups !== "object" || backups === null || Array.isArray(backups)) return;
  const files = pass.out.trackedFiles;
  for (const key of Object.keys(backups)) {
    if (files.length >= MAX_TRACKED_FILES) return;
    if (key !== "" && !pass.tracked.has(key)) {
      pass.tracked.add(key);
      files.push(key);
    }
  }
}

/** A result as the evidence keeps it. */
interface SettledResult {
  text: string;
  files?: string[];
}

/**
 * The result the eager pass would hold for `id`, its text cut to `chars`: the newest recorded
 * entry that really records it. A kept line is read again and parsed now and counts only if, as
 * a row, it would have recorded `id` (a main-chain `user` row with a `tool_result` block for it,
 * the last such block winning); if not (invalid, cut, a sidechain, another type), the entry it
 * replaced is tried.
 */
function settle(pass: Pass, entry: PendingResult | undefined, id: string, chars: number): SettledResult | undefined {
  for (let e = entry; e !== undefined; e = e.prev) {
    if (e.at === undefined) return settled(cut(evidenceText(e.content), chars), e.files);
    const line = pass.lines?.readAt(e.at.offset, e.at.length);
    if (line === undefined) continue;
    // Read as Latin-1 (half the memory of a non-ASCII line: lib/transcript/latin1_row.ts) and the
    // kept text mended, unless the two readings could differ; then as UTF-8.
    const latin1 = isAscii(id) && !hasHighEscape(line);
    const row = latin1 ? parseLatin1Row(line) : parseRow(line);
    if (row === undefined || !isMainChainRow(row) || row.type !== "user") continue;
    const content = row.message?.content;
    if (!Array.isArray(content)) continue;
    let found: TranscriptContentBlock | undefined;
    for (const block of content) {
      if (typeof block === "object" && block !== null && block.type === "tool_result" && block.tool_use_id === id) {
        found = block;
      }
    }
    if (found === undefined) continue;
    const files = resultFilenames(row.toolUseResult);
    if (!latin1) return settled(cut(evidenceText(found.content), chars), files);
    // A character of the UTF-8 reading takes at most 3 bytes (or 4 for 2 UTF-16 units), and only
    // the last 3 bytes of a cut can decode differently: 3 * chars + 6 bytes give the first `chars` exactly.
    const text = utf8OfLatin1(cut(evidenceText(found.content), 3 * chars + 6));
    return settled(cut(text, chars), files?.map(utf8OfLatin1));
  }
  return undefined;
}

function settled(text: string, files: string[] | undefined): SettledResult {
  return files === undefined ? { text } : { text, files };
}

function cut(text: string, chars: number): string {
  return text.length > chars ? text.slice(0, chars) : text;
}

/** The text of a result's content: the string, or the text of each text block followed by a newline. */
function evidenceText(content: unknown): string {
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

/** Holds one text (cut to {@linkcode MAX_TEXT_CHARS}) while the pass holds fewer than {@linkcode MAX_TOTAL_TEXT_CHARS}. */
function addText(pass: Pass, kind: TextKind, value: string, turn: number, cwd: string | undefined): void {
  if (pass.textChars >= MAX_TOTAL_TEXT_CHARS) return;
  const t: TextEvidence = {
    kind,
    text: value.length > MAX_TEXT_CHARS ? value.slice(0, MAX_TEXT_CHARS) : value,
    age: pass.out.calls.length,
    turn,
  };
  if (cwd !== undefined) t.cwd = cwd;
  pass.textChars += t.text.length;
  pass.out.texts.push(t);
}

function userTextKind(row: TranscriptRow, value: string): TextKind | undefined {
  if (row.isCompactSummary === true) return "summary";
  if (row.isMeta === true) return undefined;
  const head = value.trimStart();
  for (const prefix of NOT_A_PROMPT) if (head.startsWith(prefix)) return undefined;
  return "user";
}

function resultFilenames(value: unknown): string[] | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const names = (value as { filenames?: unknown }).filenames;
  if (!Array.isArray(names) || names.length === 0) return undefined;
  const out: string[] = [];
  for (const n of names) if (typeof n === "string" && n !== "") out.push(n);
  return out.length === 0 ? undefined : out;
}
