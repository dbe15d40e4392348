/**
 * The one backward pass shared by `detectActiveProject`, `workingSet` and `detectWorkspace`: the
 * tool calls of the main chain (newest first, each with its age and, for search tools, its
 * result), and the text the agent saw (user prompts, assistant text, compaction summaries), each
 * stamped with how many tool calls and user prompts are newer than it.
 */
import type { Buffer } from "node:buffer";
import type { TranscriptContentBlock, TranscriptRow } from "../transcript/transcript_row.ts";
import { type ToolCall, toolCalls } from "../transcript/tool_calls.ts";
import { isMainChainRow } from "../transcript/rows.ts";
import { parseRow } from "../transcript/lines.ts";
import { toolResultLineIds } from "../transcript/tool_result_line.ts";

/** Tools whose result lists files the agent may act on next. */
export const RESULT_TOOLS: ReadonlySet<string> = new Set(["Grep", "Glob", "LS", "Task", "Agent", "Bash"]);

/** One tool call with where it sits. */
export interface CallEvidence {
  call: ToolCall;
  /** Tool calls newer than this one: 0 for the newest. */
  age: number;
  /** User prompts newer than this call: 0 in the current turn. */
  turn: number;
  /** `cwd` of the row that holds the call. */
  cwd?: string;
  /** For {@linkcode RESULT_TOOLS}: the `tool_result` content as written. */
  result?: unknown;
  /** For {@linkcode RESULT_TOOLS}: `toolUseResult.filenames` when the client wrote it. */
  resultFiles?: string[];
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
  /** Normalised path of the transcript, when known (never part of a working set). */
  transcript?: string;
}

/** Options of {@linkcode collectEvidence}. */
export interface CollectEvidenceOptions {
  /** Stop after this many tool calls. Default {@linkcode DEFAULT_MAX_CALLS}. */
  maxCalls?: number;
  /** Normalised transcript path, copied to the result. */
  transcript?: string;
}

/** Older calls weigh less than 1/1000 of the newest ones with the default half-lives. */
export const DEFAULT_MAX_CALLS = 150;
/** Texts are cut here: a pasted log does not need to be read whole. */
export const MAX_TEXT_CHARS = 20_000;
/**
 * Texts stop being collected once this many characters are held (tool calls still are). A session
 * of long texts and few tool calls would otherwise have the whole scan budget (8 MiB) searched for
 * paths and project ids: PreCompact took 530 ms on 16 MB of assistant text, 150 ms with this cap
 * (most of it reading and parsing the 8 MiB). Older text than that weighs little next to the
 * newer; the working-set quality on the real transcripts (bench/detection-quality.ts) is the same.
 */
export const MAX_TOTAL_TEXT_CHARS = 1_000_000;

const NOT_A_PROMPT = ["<local-command-", "<task-notification>", "<system-reminder>", "<bash-stdout>", "<bash-stderr>", "[Request interrupted", "Caveat:"];

/** Collects the evidence of `rows` (newest first, as `scanTranscript` yields them). */
export function collectEvidence(rows: Iterable<TranscriptRow>, options: CollectEvidenceOptions = {}): DetectionEvidence {
  const pass = startPass(options);
  for (const row of rows) {
    if (addRow(pass, row)) break;
  }
  return pass.out;
}

/**
 * {@linkcode collectEvidence} over the raw lines of a transcript (newest first, as `reverseLines`
 * gives them), with the same result: a line that can only record tool results
 * ({@linkcode toolResultLineIds}) is kept unparsed under its ids and parsed only when a call of
 * {@linkcode RESULT_TOOLS} asks for one of them; every other line is parsed as `scanTranscript`
 * would. Until the newest main-chain rows have given `cwd` and `sessionId`, every line is parsed.
 * Reads `lines` until it gives undefined or the evidence is complete; closing it is the caller's.
 * The lines must stay valid after the next step (`reverseLines` reads into a fresh buffer per chunk).
 */
export function collectEvidenceFromLines(lines: { next(): Buffer | undefined }, options: CollectEvidenceOptions = {}): DetectionEvidence {
  const pass = startPass(options);
  const out = pass.out;
  for (let line = lines.next(); line !== undefined; line = lines.next()) {
    if (out.cwd !== undefined && out.sessionId !== undefined) {
      const ids = toolResultLineIds(line);
      if (ids !== undefined) {
        for (const id of ids) pass.results.set(id, { line, prev: pass.results.get(id) });
        continue;
      }
    }
    const row = parseRow(line);
    if (row !== undefined && addRow(pass, row)) break;
  }
  return out;
}

/** A result recorded for a `tool_use_id`: parsed, or the line to parse (then `prev` is the one it replaced). */
interface PendingResult {
  content?: unknown;
  files?: string[];
  line?: Buffer;
  prev?: PendingResult;
}

interface Pass {
  out: DetectionEvidence;
  maxCalls: number;
  results: Map<string, PendingResult>;
  seen: Set<string>;
  turn: number;
  /** Characters of text held so far (see {@linkcode MAX_TOTAL_TEXT_CHARS}). */
  textChars: number;
}

function startPass(options: CollectEvidenceOptions): Pass {
  const maxCalls = options.maxCalls !== undefined && options.maxCalls > 0 ? Math.floor(options.maxCalls) : DEFAULT_MAX_CALLS;
  const out: DetectionEvidence = { kind: "detection-evidence", calls: [], texts: [], boundaries: 0 };
  if (options.transcript !== undefined) out.transcript = options.transcript;
  return { out, maxCalls, results: new Map(), seen: new Set(), turn: 0, textChars: 0 };
}

/** Adds one row; true when the pass is complete. */
function addRow(pass: Pass, row: TranscriptRow): boolean {
  if (!isMainChainRow(row)) return false;
  const out = pass.out;
  const results = pass.results;
  const cwd = typeof row.cwd === "string" && row.cwd !== "" ? row.cwd : undefined;
  if (out.cwd === undefined && cwd !== undefined) out.cwd = cwd;
  if (out.sessionId === undefined && typeof row.sessionId === "string") out.sessionId = row.sessionId;
  if (row.type === "system") {
    if (row.subtype === "compact_boundary") out.boundaries++;
    return false;
  }
  const content = row.message?.content;
  if (row.type === "user") {
    if (typeof content === "string") {
      const kind = userTextKind(row, content);
      if (kind !== undefined) {
        addText(pass, kind, content, kind === "user" ? pass.turn++ : pass.turn, cwd);
      }
    } else if (Array.isArray(content)) {
      let prompt = "";
      for (const block of content) {
        if (typeof block !== "object" || block === null) continue;
        if (block.type === "tool_result" && typeof block.tool_use_id === "string") {
          const files = resultFilenames(row.toolUseResult);
          results.set(block.tool_use_id, files === undefined ? { content: block.content } : { content: block.content, files });
        } else if (block.type === "text" && typeof block.text === "string") {
          prompt += prompt === "" ? block.text : "\n" + block.text;
        }
      }
      if (prompt !== "") {
        const kind = userTextKind(row, prompt);
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
  for (const call of toolCalls([row])) {
    if (pass.seen.has(call.id)) continue;
    pass.seen.add(call.id);
    const ev: CallEvidence = { call, age: out.calls.length, turn: pass.turn };
    if (cwd !== undefined) ev.cwd = cwd;
    if (RESULT_TOOLS.has(call.name)) {
      const r = settle(results.get(call.id), call.id);
      if (r !== undefined) {
        ev.result = r.content;
        if (r.files !== undefined) ev.resultFiles = r.files;
      }
    }
    results.delete(call.id);
    out.calls.push(ev);
  }
  return out.calls.length >= pass.maxCalls;
}

/**
 * The result the eager pass would hold for `id`: the newest recorded entry that really records
 * it. A kept line is parsed now and counts only if, as a row, it would have recorded `id` (a
 * main-chain `user` row with a `tool_result` block for it, the last such block winning); if not
 * (invalid, cut, a sidechain, another type), the entry it replaced is tried.
 */
function settle(entry: PendingResult | undefined, id: string): PendingResult | undefined {
  for (let e = entry; e !== undefined; e = e.prev) {
    if (e.line === undefined) return e;
    const row = parseRow(e.line);
    if (row === undefined || !isMainChainRow(row) || row.type !== "user") continue;
    const content = row.message?.content;
    if (!Array.isArray(content)) continue;
    let found: TranscriptContentBlock | undefined;
    for (const block of content) {
      if (typeof block === "object" && block !== null && block.type === "tool_result" && block.tool_use_id === id) found = block;
    }
    if (found === undefined) continue;
    const files = resultFilenames(row.toolUseResult);
    return files === undefined ? { content: found.content } : { content: found.content, files };
  }
  return undefined;
}

/** Holds one text (cut to {@linkcode MAX_TEXT_CHARS}) while the pass holds fewer than {@linkcode MAX_TOTAL_TEXT_CHARS}. */
function addText(pass: Pass, kind: TextKind, value: string, turn: number, cwd: string | undefined): void {
  if (pass.textChars >= MAX_TOTAL_TEXT_CHARS) return;
  const t: TextEvidence = { kind, text: value.length > MAX_TEXT_CHARS ? value.slice(0, MAX_TEXT_CHARS) : value, age: pass.out.calls.length, turn };
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
