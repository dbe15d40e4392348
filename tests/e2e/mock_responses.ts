#!/usr/bin/env bun
/**
 * A mock of the OpenAI Responses API for driving the real Codex CLI offline, the way
 * mock_api.ts drives Claude Code. Zero dependencies (node:http only), loopback only. Runs under
 * Bun, Deno or Node 22+:
 *
 *   bun tests/e2e/mock_responses.ts --log requests.jsonl [--port 0]
 *
 * Prints one line `{"port":N}` on stdout once it listens on 127.0.0.1, then serves until killed.
 * Codex reaches it through a provider in `config.toml` (`base_url = "http://127.0.0.1:N/v1"`,
 * `wire_api = "responses"`, `requires_openai_auth = false`, `supports_websockets = false`).
 * Every request is appended to the log as one JSON line `{ n, ts, method, url, kind, body, reply }`
 * (`kind`: "compact-summary", "title", "tool_call", "text", "other").
 *
 * ## Scripted replies
 * The script rides in the user's prompt, as in mock_api.ts: `<mock>[step, …]</mock>` (JSON), or
 * `[mock:<id>]` for `<log dir>/mock-scripts/<id>.json`. Only the turn's own prompt counts: the
 * newest message the user typed (a `role: "user"` message that is not one of the client's
 * `<environment_context>`-style blocks or the compaction's summary). The reply to a request is
 * step k, where k counts the requests already answered for that prompt: the mock keeps that count
 * (mock_api.ts counts the outputs in the request instead, but Codex keeps the user's messages
 * through a compaction and drops the outputs after them, so a prompt would start its script
 * again). Past the end, or without a script, the reply is a short text. Steps:
 *
 * - `{"call": "exec_command", "arguments": {"cmd": "npm test"}}`: a `function_call` (Codex runs it;
 *   `update_plan` and any other function tool the same way)
 * - `{"patch": "*** Begin Patch\n…\n*** End Patch"}`: an `apply_patch` custom tool call
 * - `{"text": "…"}`: an assistant message that ends the turn
 * - any step may add `"usage": N`: the reply reports N input tokens (Codex's context fill)
 *
 * A request whose last user message begins Codex's compaction prompt ("You are performing a
 * CONTEXT CHECKPOINT COMPACTION") is answered with a summary holding `MOCK SUMMARY MARKER` that
 * quotes every message the user typed and names no file, task or command. A request asking for a
 * JSON title (the interactive client's thread title) gets `{"title":"Mock session"}`.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ServerResponse } from "node:http";
import { mockMain, sendJson, serveMock } from "./_mock_server.ts";

/** One reply step of a scripted prompt. */
export interface ResponsesStep {
  call?: string;
  arguments?: Record<string, unknown>;
  patch?: string;
  text?: string;
  usage?: number;
}

/** Text a compaction reply carries; tests look for it in later requests. */
export const CODEX_SUMMARY_MARKER = "MOCK SUMMARY MARKER";
/** How Codex 0.171.0's compaction prompt begins. */
export const CODEX_COMPACT_PROMPT = "You are performing a CONTEXT CHECKPOINT COMPACTION";
/** How Codex wraps the summary in the history after a compaction. */
const SUMMARY_PREFIX = "Another language model started to solve this problem";
const SCRIPT_OPEN = "<mock>";
const SCRIPT_CLOSE = "</mock>";
const SCRIPT_REF = /\[mock:([a-z0-9]{4,16})\]/;

type Content = { type?: string; text?: string };
type Item = { type?: string; role?: string; content?: string | Content[] };

/** What the mock decided to answer. */
export interface ResponsesReply {
  kind: "compact-summary" | "title" | "tool_call" | "text";
  item: Record<string, unknown>;
  inputTokens: number;
}

function texts(item: Item): string[] {
  if (typeof item.content === "string") return [item.content];
  if (!Array.isArray(item.content)) return [];
  const out: string[] = [];
  for (const c of item.content) if (c && typeof c.text === "string") out.push(c.text);
  return out;
}

/** A message the user typed: not the client's own context blocks, not the summary. */
function isTyped(item: Item): boolean {
  if (item.type !== "message" || item.role !== "user") return false;
  const text = texts(item).join("\n").trimStart();
  return text !== "" && !text.startsWith("<") && !text.startsWith(SUMMARY_PREFIX) &&
    !text.startsWith(CODEX_COMPACT_PROMPT);
}

function parseScript(text: string, scriptsDir: string | undefined): ResponsesStep[] | null {
  const ref = SCRIPT_REF.exec(text);
  if (ref !== null && scriptsDir !== undefined) {
    try {
      const steps = JSON.parse(readFileSync(join(scriptsDir, `${ref[1]}.json`), "utf8"));
      if (Array.isArray(steps)) return steps;
    } catch { /* no such script */ }
  }
  const start = text.lastIndexOf(SCRIPT_OPEN);
  const end = start < 0 ? -1 : text.indexOf(SCRIPT_CLOSE, start);
  if (end < 0) return null;
  try {
    const steps = JSON.parse(text.slice(start + SCRIPT_OPEN.length, end));
    return Array.isArray(steps) ? steps : null;
  } catch {
    return null;
  }
}

function estimateTokens(raw: string): number {
  return Math.max(1, Math.round(raw.length / 4));
}

let counter = 0;
/** Requests answered per scripted prompt (its text): the next one gets the next step. */
const served = new Map<string, number>();
function nextId(prefix: string): string {
  return `${prefix}_mock_${String(++counter).padStart(4, "0")}_${Date.now().toString(36)}`;
}

function message(text: string): Record<string, unknown> {
  return { type: "message", role: "assistant", id: nextId("msg"), content: [{ type: "output_text", text }] };
}

/**
 * Decides the reply to one `/v1/responses` body (parsed) whose raw text was `raw`. `scriptsDir`
 * is where `[mock:<id>]` scripts live.
 */
export function decideResponsesReply(
  body: { input?: Item[]; text?: { format?: { type?: string } } },
  raw: string,
  scriptsDir?: string,
): ResponsesReply {
  const input = Array.isArray(body.input) ? body.input : [];
  const estimated = estimateTokens(raw);
  let lastUser: Item | undefined;
  for (let i = input.length - 1; i >= 0 && lastUser === undefined; i--) {
    if (input[i].type === "message" && input[i].role === "user") lastUser = input[i];
  }
  if (lastUser !== undefined && texts(lastUser).some((t) => t.includes(CODEX_COMPACT_PROMPT))) {
    const typed = input.filter(isTyped).flatMap(texts).map((t) => t.trim());
    const quoted = typed.length === 0 ? " none" : "\n" + typed.map((t) => `  - "${t}"`).join("\n");
    const text = `Handoff summary (${CODEX_SUMMARY_MARKER}).\nProgress: the user works in a repository.\n` +
      `User messages:${quoted}\nNext steps: continue the current work.`;
    return { kind: "compact-summary", item: message(text), inputTokens: estimated };
  }
  if (body.text?.format?.type === "json_schema") {
    return { kind: "title", item: message(JSON.stringify({ title: "Mock session" })), inputTokens: estimated };
  }
  let promptIndex = -1;
  for (let i = input.length - 1; i >= 0 && promptIndex < 0; i--) if (isTyped(input[i])) promptIndex = i;
  const prompt = promptIndex < 0 ? "" : texts(input[promptIndex]).join("\n");
  const steps = prompt === "" ? null : parseScript(prompt, scriptsDir);
  let step: ResponsesStep | null = null;
  if (steps !== null) {
    const k = served.get(prompt) ?? 0;
    served.set(prompt, k + 1);
    step = steps[k] ?? null;
  }
  const tokens = step?.usage ?? estimated;
  if (step?.call !== undefined) {
    return {
      kind: "tool_call",
      item: {
        type: "function_call",
        id: nextId("fc"),
        call_id: nextId("call"),
        name: step.call,
        arguments: JSON.stringify(step.arguments ?? {}),
      },
      inputTokens: tokens,
    };
  }
  if (step?.patch !== undefined) {
    return {
      kind: "tool_call",
      item: {
        type: "custom_tool_call",
        id: nextId("ctc"),
        call_id: nextId("call"),
        name: "apply_patch",
        input: step.patch,
      },
      inputTokens: tokens,
    };
  }
  return { kind: "text", item: message(step?.text ?? "MOCK: done."), inputTokens: tokens };
}

function sse(res: ServerResponse, reply: ResponsesReply): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const event = (data: { type: string }) => res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
  const id = nextId("resp");
  event({ type: "response.created", response: { id } } as { type: string });
  event({ type: "response.output_item.done", item: reply.item } as { type: string });
  const output = 20;
  event({
    type: "response.completed",
    response: {
      id,
      usage: {
        input_tokens: reply.inputTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: output,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: reply.inputTokens + output,
      },
    },
  } as { type: string });
  res.end();
}

/** Starts the mock on 127.0.0.1; resolves with the port once it listens. */
export function startResponsesMock(
  options: { logFile: string; port?: number },
): Promise<{ port: number; close(): void }> {
  const scriptsDir = join(dirname(options.logFile), "mock-scripts");
  return serveMock(options, (req, res) => {
    if (req.method === "POST" && req.path.endsWith("/responses") && req.body !== null) {
      const decided = decideResponsesReply(req.body as { input?: Item[] }, req.raw, scriptsDir);
      sse(res, decided);
      return { kind: decided.kind, reply: decided };
    }
    sendJson(res, 404, { error: { message: `Not found: ${req.method} ${req.path}`, type: "not_found" } });
    return { kind: "other", reply: null };
  });
}

if (import.meta.main ?? process.argv[1]?.endsWith("mock_responses.ts")) {
  await mockMain("mock_responses", startResponsesMock);
}
