// Shared helpers of the session-layer tests: real transcripts unpacked to a temporary directory
// (whole, or cut just before their first compact boundary, which is what PreCompact saw), rows in
// the transcript's format, and the golden-file check.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { TranscriptRow } from "../../../lib/transcript/transcript_row.ts";

export const FIXTURES = join(import.meta.dirname!, "..", "..", "fixtures");
export const SESSION_FIXTURES = join(FIXTURES, "session");
export const DETECTION_DEV = join(FIXTURES, "detection-dev");
export const CC_197 = join(FIXTURES, "claude-code-2.1.197");
export const UPDATE = process.env.UPDATE_GOLDEN === "1";

/** A fresh temporary directory; removed by {@linkcode cleanup}. */
export function tempDir(prefix = "rehydrate-session-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
const made: string[] = [];

/** Removes every directory {@linkcode tempDir} made. */
export function cleanup(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * A detection-dev transcript (`entireio__<id>.jsonl.gz`) unpacked to a temporary file: whole, or
 * with `cut` only the lines before its first `compact_boundary` row (the transcript as PreCompact saw it).
 */
export function devTranscript(id: string, cut: boolean): string {
  const text = new TextDecoder().decode(gunzipSync(readFileSync(join(DETECTION_DEV, `entireio__${id}.jsonl.gz`))));
  return writeLines(cut ? untilBoundary(text) : text, `${id}-${cut ? "cut" : "full"}.jsonl`);
}

/** The lines of `text` before the first compact boundary row. */
export function untilBoundary(text: string): string {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l.includes('"subtype":"compact_boundary"'));
  return (at === -1 ? lines : lines.slice(0, at)).join("\n") + "\n";
}

/** Writes `text` to a new file in a temporary directory and returns its path. */
export function writeLines(text: string, name = "session.jsonl"): string {
  const path = join(tempDir(), name);
  writeFileSync(path, text);
  return path;
}

/** Writes rows as a JSONL transcript and returns its path. */
export function writeRows(rows: readonly TranscriptRow[], name = "session.jsonl"): string {
  return writeLines(rows.map((r) => JSON.stringify(r)).join("\n") + "\n", name);
}

const CWD = "/home/dev/work/demo-proj";
let counter = 0;

function envelope(type: string, extra: Record<string, unknown>): TranscriptRow {
  counter++;
  return {
    parentUuid: null,
    isSidechain: false,
    cwd: CWD,
    sessionId: "5e55f1a7-2c1b-4d3e-9f00-7a1b2c3d4e5f",
    type,
    uuid: `00000000-0000-4000-8000-${counter.toString(16).padStart(12, "0")}`,
    timestamp: new Date(Date.UTC(2026, 10, 21, 9, 0, 0) + counter * 1000).toISOString(),
    ...extra,
  };
}

/** A user row with `content` (a string or blocks). */
export function userRow(content: unknown, extra: Record<string, unknown> = {}): TranscriptRow {
  return envelope("user", { message: { role: "user", content }, ...extra });
}

/** An assistant row with one `tool_use` block. */
export function callRow(
  id: string,
  name: string,
  input: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): TranscriptRow {
  return envelope("assistant", {
    message: { role: "assistant", id: `msg_${id}`, content: [{ type: "tool_use", id, name, input }] },
    ...extra,
  });
}

/** An assistant row with text. */
export function textRow(text: string): TranscriptRow {
  return envelope("assistant", {
    message: { role: "assistant", id: `msg_t${counter}`, content: [{ type: "text", text }] },
  });
}

/** A user row with the result of call `id`. */
export function resultRow(
  id: string,
  content: unknown,
  options: { detail?: unknown; error?: boolean } = {},
): TranscriptRow {
  const block: Record<string, unknown> = { tool_use_id: id, type: "tool_result", content };
  if (options.error) block.is_error = true;
  const extra: Record<string, unknown> = {};
  if (options.detail !== undefined) extra.toolUseResult = options.detail;
  return userRow([block], extra);
}

/** A `file-history-snapshot` row tracking `files` (relative or absolute; `null` backup = created). */
export function historyRow(files: Record<string, string | null>): TranscriptRow {
  const backups: Record<string, unknown> = {};
  let i = 0;
  for (const [path, backup] of Object.entries(files)) {
    backups[path] = {
      backupFileName: backup,
      version: 1,
      backupTime: new Date(Date.UTC(2026, 10, 21, 8, 0, i++)).toISOString(),
    };
  }
  return {
    type: "file-history-snapshot",
    messageId: "m",
    snapshot: { messageId: "m", trackedFileBackups: backups, timestamp: "2026-11-21T09:00:00.000Z" },
  };
}

/** A `TaskCreate` call and its result (id from the result, as the client writes it). */
export function createTask(id: string, subject: string, description = ""): TranscriptRow[] {
  const call = `toolu_create_${id}_${counter}`;
  return [
    callRow(call, "TaskCreate", { subject, description, activeForm: subject }),
    resultRow(call, `Task #${id} created successfully: ${subject}`, { detail: { task: { id, subject } } }),
  ];
}

/** A `TaskUpdate` call and its result. */
export function updateTask(input: Record<string, unknown>, options: { error?: boolean } = {}): TranscriptRow[] {
  const call = `toolu_update_${counter}`;
  return [
    callRow(call, "TaskUpdate", input),
    options.error
      ? resultRow(call, "<tool_use_error>Task not found</tool_use_error>", { error: true })
      : resultRow(call, `Updated task #${input.taskId} status`, {
        detail: { success: true, taskId: input.taskId, updatedFields: ["status"] },
      }),
  ];
}

/** Rows newest first, as `scanTranscript` yields them. */
export function newestFirst(rows: readonly TranscriptRow[]): TranscriptRow[] {
  return [...rows].reverse();
}

/** Compares `actual` with the golden file `name` under tests/fixtures/session/ (UPDATE_GOLDEN=1 rewrites it). */
export function golden(name: string, actual: string): void {
  const path = join(SESSION_FIXTURES, name);
  if (UPDATE) writeFileSync(path, actual);
  assert.ok(existsSync(path), `missing golden file ${name}: run with UPDATE_GOLDEN=1`);
  assert.equal(
    actual,
    readFileSync(path, "utf8"),
    `${name} differs from its golden file (UPDATE_GOLDEN=1 rewrites it)`,
  );
}

/** One synthetic secret of tests/fixtures/redaction/secrets.txt, with the text that plants it. */
export interface PlantedSecret {
  kind: string;
  secret: string;
  /** Its context line with the secret in it, or the bare secret when its format alone identifies it. */
  planted: string;
  /** True when the format alone identifies it (no context needed). */
  bare: boolean;
}

/** The synthetic secrets of tests/fixtures/redaction/secrets.txt (single-line ones). */
export function plantedSecrets(): PlantedSecret[] {
  const out: PlantedSecret[] = [];
  for (const line of readFileSync(join(FIXTURES, "redaction", "secrets.txt"), "utf8").split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const [kind, secret, context] = line.split("\t");
    if (secret === undefined || secret.includes("\\n") || (context ?? "").includes("\\n")) continue;
    out.push({
      kind,
      secret,
      planted: context === undefined ? secret : context.replace("{secret}", secret),
      bare: context === undefined,
    });
  }
  return out;
}

/** The first bare secret of each kind. */
export function secretsByKind(): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of plantedSecrets()) if (s.bare && !out.has(s.kind)) out.set(s.kind, s.secret);
  return out;
}
