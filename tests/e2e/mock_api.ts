#!/usr/bin/env bun
/**
 * A mock of the Anthropic Messages API for driving the real Claude Code CLI offline.
 * Zero dependencies (node:http only), loopback only. Runs under Bun, Deno or Node 22+:
 *
 *   bun tests/e2e/mock_api.ts --log requests.jsonl [--port 0]
 *
 * Prints one line `{"port":N}` on stdout once it listens on 127.0.0.1, then serves until killed.
 * Every request is appended to the log as one JSON line:
 * `{ n, ts, method, url, kind, body, reply }` (`kind`: "compact-summary", "tool_use", "text",
 * "error", "title", "count_tokens", "models", "other").
 *
 * ## Scripted replies
 * The mock is stateless but for one thing (which scripted errors already fired): the script rides
 * in the user's prompt. A prompt may hold `<mock>[step, step, …]</mock>` (JSON). The reply to a
 * request is step number k, where k counts the assistant messages after the newest user message
 * holding a script; once the steps run out, or without a script, the reply is a short text. Steps:
 *
 * - `{"tool": "Read", "input": {"file_path": "/abs"}}`: a `tool_use` block (Claude Code runs it)
 * - `{"text": "…"}`: a text reply that ends the turn
 * - `{"error": "too_long"}`: HTTP 400 "prompt is too long" the first time it is reached; after that
 *   it is skipped (Claude Code compacts and retries)
 * - any step may add `"usage": N`: the reply reports a context of N tokens (mostly cache reads)
 *
 * A prompt may instead name a script kept beside the log, `[mock:<id>]` for
 * `<log dir>/mock-scripts/<id>.json` (E2e.script()): the prompt then reads as the user's words
 * alone, and the compaction summary, which quotes them, does not hold the script's tool inputs.
 *
 * A request whose last user message asks to "create a detailed summary of the conversation" is
 * Claude Code's compaction: the reply is a summary text holding `MOCK SUMMARY MARKER` that quotes
 * every message the user typed (as Claude Code's own summaries do) and names no file, task or
 * command.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ServerResponse } from "node:http";
import { mockMain, sendJson, serveMock } from "./_mock_server.ts";

/** One reply step of a scripted prompt. */
export interface MockStep {
  tool?: string;
  input?: Record<string, unknown>;
  text?: string;
  error?: "too_long";
  usage?: number;
}

/** Anthropic usage block as Claude Code writes it into the transcript. */
export interface MockUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  output_tokens: number;
}

/** What the mock decided to answer. */
export interface MockReply {
  kind: "compact-summary" | "tool_use" | "text" | "error" | "title";
  status: number;
  content?: Array<Record<string, unknown>>;
  stopReason?: string;
  usage?: MockUsage;
  error?: Record<string, unknown>;
}

/** Text a compaction reply carries; tests look for it in later requests. */
export const SUMMARY_MARKER = "MOCK SUMMARY MARKER";
const COMPACT_PROMPT = "create a detailed summary of the conversation";
const SCRIPT_OPEN = "<mock>";
const SCRIPT_CLOSE = "</mock>";
/** A script kept out of the prompt: `[mock:<id>]` names `<log dir>/mock-scripts/<id>.json`. */
const SCRIPT_REF = /\[mock:([a-z0-9]{4,16})\]/;
/** Where referenced scripts live (set by startMockApi from the log file's folder). */
let scriptsDir: string | undefined;

type Block = { type?: string; text?: string; content?: unknown };
type Message = { role?: string; content?: string | Block[] };

function textBlocks(message: Message): string[] {
  if (typeof message.content === "string") return [message.content];
  if (!Array.isArray(message.content)) return [];
  const out: string[] = [];
  for (const b of message.content) if (b && b.type === "text" && typeof b.text === "string") out.push(b.text);
  return out;
}

function findScript(messages: Message[]): { index: number; key: string; steps: MockStep[] } | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role !== "user") continue;
    for (const text of textBlocks(messages[i])) {
      const ref = SCRIPT_REF.exec(text);
      if (ref !== null && scriptsDir !== undefined) {
        try {
          const steps = JSON.parse(readFileSync(join(scriptsDir, `${ref[1]}.json`), "utf8"));
          if (Array.isArray(steps)) return { index: i, key: text, steps };
        } catch { /* no such script: keep looking */ }
      }
      const start = text.lastIndexOf(SCRIPT_OPEN);
      if (start < 0) continue;
      const end = text.indexOf(SCRIPT_CLOSE, start);
      if (end < 0) continue;
      const json = text.slice(start + SCRIPT_OPEN.length, end);
      try {
        const steps = JSON.parse(json);
        if (Array.isArray(steps)) return { index: i, key: text, steps };
      } catch { /* not a script: keep looking */ }
    }
  }
  return null;
}

/** Tokens in a body, roughly as the API would count them (about 4 characters a token). */
function estimateTokens(raw: string): number {
  return Math.max(1, Math.round(raw.length / 4));
}

function usageFor(total: number, output: number): MockUsage {
  const input = 6;
  const creation = Math.min(2_000, Math.max(0, total - input));
  return {
    input_tokens: input,
    cache_creation_input_tokens: creation,
    cache_read_input_tokens: Math.max(0, total - input - creation),
    output_tokens: output,
  };
}

let toolCounter = 0;
const firedErrors = new Set<string>();

/**
 * Decides the reply to one `/v1/messages` body (parsed) whose raw text was `raw`.
 * Exported for the harness's own checks; the server calls it for every request.
 */
export function decideReply(body: { messages?: Message[]; output_config?: unknown }, raw: string): MockReply {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  // Claude Code may append `role: "system"` reminders after the compaction prompt.
  let last: Message | undefined;
  for (let i = messages.length - 1; i >= 0 && !last; i--) if (messages[i].role === "user") last = messages[i];
  if (last && textBlocks(last).some((t) => t.includes(COMPACT_PROMPT))) {
    // Like Claude Code's own summaries, it quotes every message the user typed; unlike them it
    // names no file, no task and no command, so what rehydrate adds after it can be told apart.
    const typed = messages.filter((m) => m !== last && m.role === "user").flatMap(textBlocks)
      .filter((t) => t.trim() !== "" && !t.trimStart().startsWith("<") && !t.includes(COMPACT_PROMPT));
    const quoted = typed.length === 0 ? " none" : "\n" + typed.map((t) => `   - "${t.trim()}"`).join("\n");
    const text = `<analysis>Mock analysis of the conversation.</analysis>\n<summary>\n1. Primary Request and Intent: ` +
      `The user works in a project workspace (${SUMMARY_MARKER}).\n2. Key Technical Concepts: hooks, compaction.\n` +
      `3. Files and Code Sections: see the transcript.\n4. Errors and fixes: none.\n5. Problem Solving: n/a.\n` +
      `6. All user messages:${quoted}\n7. Pending Tasks: continue the current task.\n8. Current Work: ` +
      `the current task.\n9. Optional Next Step: continue.\n</summary>`;
    return {
      kind: "compact-summary",
      status: 200,
      content: [{ type: "text", text }],
      stopReason: "end_turn",
      usage: usageFor(estimateTokens(raw), 300),
    };
  }
  // Side requests (interactive mode asks a small model for a session title as structured output).
  const format = (body as { output_config?: { format?: { type?: string } } }).output_config?.format;
  if (format?.type === "json_schema") {
    return {
      kind: "title",
      status: 200,
      content: [{ type: "text", text: JSON.stringify({ title: "Mock session" }) }],
      stopReason: "end_turn",
      usage: usageFor(estimateTokens(raw), 10),
    };
  }
  const script = findScript(messages);
  let step: MockStep | null = null;
  if (script) {
    let k = 0;
    for (let i = script.index + 1; i < messages.length; i++) if (messages[i].role === "assistant") k++;
    let seen = 0;
    for (let s = 0; s < script.steps.length; s++) {
      const candidate = script.steps[s];
      const errorKey = `${script.key}#${s}`;
      if (candidate.error && firedErrors.has(errorKey)) continue;
      if (seen === k) {
        step = candidate;
        if (candidate.error) firedErrors.add(errorKey);
        break;
      }
      seen++;
    }
  }
  const tokens = step?.usage ?? estimateTokens(raw);
  if (step?.error === "too_long") {
    return {
      kind: "error",
      status: 400,
      error: {
        type: "error",
        error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" },
      },
    };
  }
  if (step?.tool) {
    const id = `toolu_mock_${String(++toolCounter).padStart(4, "0")}_${Date.now().toString(36)}`;
    return {
      kind: "tool_use",
      status: 200,
      content: [{ type: "text", text: `Calling ${step.tool}.` }, {
        type: "tool_use",
        id,
        name: step.tool,
        input: step.input ?? {},
      }],
      stopReason: "tool_use",
      usage: usageFor(tokens, 60),
    };
  }
  const text = step?.text ?? "MOCK: done.";
  return {
    kind: "text",
    status: 200,
    content: [{ type: "text", text }],
    stopReason: "end_turn",
    usage: usageFor(tokens, 40),
  };
}

function sse(res: ServerResponse, model: string, reply: MockReply): void {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    "request-id": `req_mock_${Date.now()}`,
  });
  const event = (name: string, data: unknown) => res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  const usage = reply.usage!;
  const id = `msg_mock_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  event("message_start", {
    type: "message_start",
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  (reply.content ?? []).forEach((block, index) => {
    if (block.type === "text") {
      event("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
      event("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "text_delta", text: block.text },
      });
    } else {
      event("content_block_start", { type: "content_block_start", index, content_block: { ...block, input: {} } });
      event("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
      });
    }
    event("content_block_stop", { type: "content_block_stop", index });
  });
  event("message_delta", {
    type: "message_delta",
    delta: { stop_reason: reply.stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  event("message_stop", { type: "message_stop" });
  res.end();
}

/** Starts the mock on 127.0.0.1; resolves with the port once it listens. */
export function startMockApi(options: { logFile: string; port?: number }): Promise<{ port: number; close(): void }> {
  scriptsDir = join(dirname(options.logFile), "mock-scripts");
  return serveMock(options, (req, res) => {
    const { method, path, raw, body } = req;
    if (method === "HEAD") {
      res.writeHead(200).end();
      return { kind: "other", reply: null };
    }
    if (method === "GET" && path === "/v1/models") {
      const reply = {
        data: [{
          type: "model",
          id: "claude-opus-4-8",
          display_name: "Claude Opus (mock)",
          created_at: "2026-01-01T00:00:00Z",
        }],
        has_more: false,
        first_id: "claude-opus-4-8",
        last_id: "claude-opus-4-8",
      };
      sendJson(res, 200, reply);
      return { kind: "models", reply };
    }
    if (method === "POST" && path === "/v1/messages/count_tokens") {
      const reply = { input_tokens: estimateTokens(raw) };
      sendJson(res, 200, reply);
      return { kind: "count_tokens", reply };
    }
    if (method === "POST" && path === "/v1/messages" && body) {
      const decided = decideReply(body as { messages?: Message[] }, raw);
      const model = typeof body.model === "string" ? body.model : "claude-opus-4-8";
      if (decided.status !== 200) sendJson(res, decided.status, decided.error);
      else if (body.stream === true) sse(res, model, decided);
      else {
        sendJson(res, 200, {
          id: `msg_mock_${Date.now().toString(36)}`,
          type: "message",
          role: "assistant",
          model,
          content: decided.content,
          stop_reason: decided.stopReason,
          stop_sequence: null,
          usage: decided.usage,
        });
      }
      return { kind: decided.kind, reply: decided };
    }
    sendJson(res, 404, {
      type: "error",
      error: { type: "not_found_error", message: `Not found: ${method} ${path}` },
    });
    return { kind: "other", reply: null };
  });
}

if (import.meta.main ?? process.argv[1]?.endsWith("mock_api.ts")) {
  await mockMain("mock_api", startMockApi);
}
