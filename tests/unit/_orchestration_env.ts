// Test helpers for the orchestration workflow: temp workspaces, real hook contexts, transcripts.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { handleHook, type HookContext } from "../../lib/hook/handle_hook.ts";
import type { HookEventName } from "../../lib/hook/hook_types.ts";

export const FIXTURES: string = join(import.meta.dirname!, "..", "fixtures", "orchestration");
export const SCHEMAS: string = join(import.meta.dirname!, "..", "..", "schemas");

/** A copy of a fixture workspace (or an empty one) in a fresh temp directory. */
export function workspace(name: "workspace" | "invalid" | "missing" | null = "workspace"): string {
  const dir = mkdtempSync(join(tmpdir(), "rehydrate-orch-"));
  if (name !== null) cpSync(join(FIXTURES, name), dir, { recursive: true });
  mkdirSync(join(dir, ".home"), { recursive: true });
  return dir;
}

/** Runs `fn` inside a real hook context for `event` and returns what it returned. */
export async function inHook<E extends HookEventName, T>(
  ws: string,
  event: E,
  input: Record<string, unknown>,
  fn: (ctx: HookContext<E>) => T,
  options: { now?: Date; config?: Record<string, unknown> } = {},
): Promise<T> {
  if (options.config) {
    mkdirSync(join(ws, ".claude"), { recursive: true });
    writeFileSync(join(ws, ".claude", "rehydrate.json"), JSON.stringify(options.config));
  }
  const env = { CLAUDE_PROJECT_DIR: ws, REHYDRATE_STATE_DIR: join(ws, ".home", "state"), HOME: join(ws, ".home") };
  let result: T | undefined;
  let error: unknown;
  const text = JSON.stringify({ session_id: "sess-1", transcript_path: "", cwd: ws, hook_event_name: event, ...input });
  await handleHook(
    event,
    (ctx) => {
      try {
        result = fn(ctx);
      } catch (err) {
        error = err;
      }
      return null;
    },
    text,
    { env, homeDir: join(ws, ".home"), now: options.now ?? new Date("2026-02-19T14:10:00Z") },
  );
  if (error !== undefined) throw error;
  return result as T;
}

/** Writes a transcript whose newest main-chain assistant row uses `tokens`, with optional tool calls. */
export function transcript(ws: string, tokens: number, options: { editPaths?: string[]; model?: string } = {}): string {
  const rows: unknown[] = [
    { type: "user", uuid: "u0", parentUuid: null, isSidechain: false, message: { role: "user", content: "go" } },
  ];
  (options.editPaths ?? []).forEach((p, i) => {
    rows.push({
      type: "assistant",
      uuid: `t${i}`,
      parentUuid: "u0",
      isSidechain: false,
      message: {
        id: `msg_t${i}`,
        model: options.model ?? "claude-opus-4-6",
        role: "assistant",
        content: [{
          type: "tool_use",
          id: `toolu_${i}`,
          name: "Edit",
          input: { file_path: p, old_string: "a", new_string: "b" },
        }],
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    });
  });
  rows.push({
    type: "assistant",
    uuid: "a1",
    parentUuid: "u0",
    isSidechain: false,
    message: {
      id: "msg_a1",
      model: options.model ?? "claude-opus-4-6",
      role: "assistant",
      content: [{ type: "text", text: "ok" }],
      usage: { input_tokens: 3, cache_read_input_tokens: tokens - 3, cache_creation_input_tokens: 0, output_tokens: 5 },
    },
  });
  const path = join(ws, ".home", `t-${tokens}-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return path;
}

type Validate = ((value: unknown) => boolean) & { errors?: unknown };

/** An ajv validator for one of our schemas. */
export function ajvFor(schemaFile: string): Validate {
  const Ctor = ((Ajv2020 as unknown as { default?: unknown }).default ?? Ajv2020) as new (
    o: Record<string, unknown>,
  ) => {
    addFormat(name: string, f: (s: string) => boolean): void;
    compile(schema: unknown): Validate;
  };
  const ajv = new Ctor({ allErrors: true, allowUnionTypes: true, strict: false });
  ajv.addFormat(
    "date-time",
    (s) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s) && !Number.isNaN(Date.parse(s)),
  );
  return ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, schemaFile), "utf8")));
}

export function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, "utf8"));
}
