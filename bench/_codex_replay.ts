/**
 * The payload bench on Codex CLI rollouts (`bench/payload-quality.ts --codex`): each compaction
 * of a rollout replayed through the binary in Codex's order, and the rollout turned into the rows
 * the shared scorer reads, so that the same rules score both clients.
 *
 * The replay, per compaction: the rollout's lines before its `compacted` row are written to a
 * temporary `rollout-….jsonl` (a rollout's name: the hooks tell the client by it too),
 * `pre-compact --agent codex` runs (trigger as the PreCompact input had it: auto), the `compacted`
 * row is appended (Codex writes it before SessionStart runs), then `session-start --agent codex`
 * (source compact). The payload is SessionStart's `additionalContext`: under Codex it is the
 * whole of what rehydrate gives after a compaction (no follow-up prompt).
 *
 * The scorer's view of a rollout: a message the user typed is a `user` row, an `exec_command`
 * call a `Bash` tool call (the scorer's test-command need), the `compacted` row a
 * `compact_boundary` row followed by a summary row holding what the compacted context carries in
 * words: Codex's summary and the user messages it keeps word for word.
 *
 * Bench tooling: `node:` APIs only; nothing in hooks/ or lib/ imports it.
 *
 * @module
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TranscriptRow } from "./_payload_quality_rules.ts";

/** One compaction of a rollout, ready to replay and score. */
export interface CodexSession {
  /** `<rollout file>#<n>`: the n-th compaction of the file. */
  name: string;
  /** The rollout's lines up to (not with) the compacted row, and that row. */
  before: string[];
  compacted: string;
  sessionId: string;
  cwd: string;
  /** The scorer's rows of the whole rollout and the index of this compaction's boundary row. */
  rows: TranscriptRow[];
  cut: number;
  /** What the compacted context carries in words: the summary and the kept user messages. */
  summary: string;
}

type Json = Record<string, unknown>;

function obj(v: unknown): Json {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? v as Json : {};
}

function texts(content: unknown, type: string): string {
  if (!Array.isArray(content)) return "";
  return content.map(obj).filter((c) => c.type === type && typeof c.text === "string").map((c) => c.text).join("\n");
}

/** A user message the user typed (0.171.0 marks it `user.text`), else null. */
function typed(item: Json): string | null {
  if (item.type !== "message" || item.role !== "user") return null;
  const kinds = obj(item.internal_chat_message_metadata_passthrough).content_item_kinds;
  if (!Array.isArray(kinds) || !kinds.includes("user.text")) return null;
  const t = texts(item.content, "input_text").trim();
  return t === "" ? null : t;
}

/**
 * Every compaction of the rollout at `file`, each with the scorer's rows of the whole rollout.
 *
 * @example
 * ```ts
 * for (const s of codexSessions("tests/fixtures/codex-0.171.0/rollouts/rollout-….jsonl")) console.log(s.name, s.cut);
 * ```
 */
export function codexSessions(file: string): CodexSession[] {
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => l + "\n");
  const rows: TranscriptRow[] = [];
  const cuts: { line: number; row: number; summary: string }[] = [];
  let sessionId = "";
  let cwd = "";
  lines.forEach((line, i) => {
    let value: Json;
    try {
      value = obj(JSON.parse(line));
    } catch {
      return;
    }
    const p = obj(value.payload);
    if (value.type === "session_meta") {
      if (typeof p.id === "string") sessionId = p.id;
      if (typeof p.cwd === "string") cwd = p.cwd;
    } else if (value.type === "response_item") {
      const t = typed(p);
      if (t !== null) rows.push({ line, row: { type: "user", message: { content: t } } });
      if (p.type === "function_call" && p.name === "exec_command" && typeof p.arguments === "string") {
        let cmd = "";
        try {
          cmd = String(obj(JSON.parse(p.arguments)).cmd ?? "");
        } catch { /* not a call the scorer reads */ }
        const call = { type: "tool_use", name: "Bash", input: { command: cmd } };
        rows.push({ line, row: { type: "assistant", message: { content: [call] } } });
      }
    } else if (value.type === "compacted") {
      const kept = Array.isArray(p.replacement_history)
        ? p.replacement_history.map(obj).map(typed).filter((t): t is string => t !== null)
        : [];
      const summary = [typeof p.message === "string" ? p.message : "", ...kept].join("\n");
      cuts.push({ line: i, row: rows.length, summary });
      rows.push({ line, row: { subtype: "compact_boundary" } });
      rows.push({ line, row: { isCompactSummary: true, message: { content: summary } } });
    }
  });
  const base = file.slice(file.lastIndexOf("/") + 1);
  return cuts.map((c, n) => ({
    name: `${base.replace(/\.jsonl$/, "").slice(-12)}#${n + 1}`,
    before: lines.slice(0, c.line),
    compacted: lines[c.line],
    sessionId,
    cwd,
    rows,
    cut: c.row,
    summary: c.summary,
  }));
}

/**
 * Replays one compaction in Codex's order (see the module's note) through `hook`, which runs one
 * hook of the binary with `--agent codex` and returns the `additionalContext` it printed, and
 * returns what SessionStart(compact) injected.
 *
 * @example
 * ```ts
 * const ctx = replayCodex(codexSessions(file)[0], (name, input, env) => runHook("dist/rehydrate", name, input, env));
 * ```
 */
export function replayCodex(
  s: CodexSession,
  hook: (name: string, input: Json, env: Record<string, string>) => string,
): string {
  const tmp = mkdtempSync(join(tmpdir(), "tmppq"));
  try {
    const path = join(tmp, `rollout-2026-01-01T00-00-00-${s.sessionId}.jsonl`);
    writeFileSync(path, s.before.join(""));
    const env = replayEnv(tmp);
    const base = { session_id: s.sessionId, transcript_path: path, cwd: s.cwd, model: "gpt-5.5" };
    hook("pre-compact", { ...base, hook_event_name: "PreCompact", turn_id: "t", trigger: "auto" }, env);
    writeFileSync(path, s.compacted, { flag: "a" });
    return hook("session-start", { ...base, hook_event_name: "SessionStart", source: "compact" }, env);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * The environment a replay's hooks run in: a fresh HOME (made) and state directory inside `tmp`,
 * a PATH of the system's folders, a UTF-8 locale.
 *
 * @example
 * ```ts
 * const env = replayEnv(mkdtempSync(join(tmpdir(), "tmppq")));
 * ```
 */
export function replayEnv(tmp: string): Record<string, string> {
  const env = {
    PATH: "/usr/bin:/bin",
    HOME: join(tmp, "home"),
    LANG: "C.UTF-8",
    REHYDRATE_STATE_DIR: join(tmp, "state"),
  };
  mkdirSync(env.HOME, { recursive: true });
  return env;
}
