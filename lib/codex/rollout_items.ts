import type { RolloutRow } from "./rollout_row.ts";

/** A step of an `update_plan` call. */
export interface PlanStep {
  step: string;
  /** `pending`, `in_progress` or `completed`. */
  status: "pending" | "in_progress" | "completed";
}

/** One file a `FileChange` touched: its absolute path as the client wrote it. */
export interface FileChange {
  path: string;
  type: "add" | "update" | "delete";
}

/**
 * What a rollout row says that the everyday layer keeps, in the client's own terms. A row gives
 * none, one or (a compaction's kept messages aside) a few of these.
 */
export type RolloutItem =
  /** A message the user typed (`response_item` `message`, role `user`, marked `user.text`). */
  | { kind: "typed"; text: string }
  /** The model's text to the user (not the compaction's summary reply). */
  | { kind: "assistant"; text: string }
  /** An `update_plan` call: the whole plan as the model set it. */
  | { kind: "plan"; steps: PlanStep[] }
  /** Any other tool call of the model (`exec_command`, `apply_patch`, …): activity. */
  | { kind: "call"; name: string }
  /** A finished `FileChange`: the files one patch touched, and whether it applied. */
  | { kind: "edit"; changes: FileChange[]; ok: boolean }
  /** A finished `CommandExecution`: the shell command, its exit code and output. */
  | { kind: "command"; command: string; exit?: number; output: string }
  /** A file a command only read (the client's own parse of `cat`, `sed -n`, `nl`, …). */
  | { kind: "read"; path: string }
  /** A compaction: its summary text and the user messages the client kept word for word. */
  | { kind: "compacted"; summary: string; kept: string[] }
  /** The context's size after a response, and the window it fills. */
  | { kind: "tokens"; tokens: number; window?: number }
  /** The turn's working directory (`turn_context`). */
  | { kind: "cwd"; cwd: string };

/** How Codex opens the message that carries a compaction's summary into the next context. */
export const SUMMARY_PREFIX = "Another language model started to solve this problem";
/** Longest text taken from one row: a message, a command's output, a summary. */
const MAX_TEXT = 256 * 1024;
const STATUSES: ReadonlySet<string> = new Set(["pending", "in_progress", "completed"]);
/** Shells whose `-c`/`-lc` script is the command the model asked for. */
const SHELL = /(?:^|\/)(?:ba|z|da)?sh$/;

/**
 * The items of one rollout row (Codex 0.171.0's shapes; tests/fixtures/codex-0.171.0):
 *
 * - `response_item` `message`: role `user` marked `user.text` (or, in a file without that
 *   metadata, not one of the client's `<…>` blocks or the summary) is typed; role `assistant`
 *   is the model's text; the row whose `metadata.compaction_output` marks the compaction's own
 *   reply gives nothing;
 * - `response_item` `function_call` `update_plan` is the plan; any other `function_call` or
 *   `custom_tool_call` is a call;
 * - `event_msg` `item_completed`: a `CommandExecution` (its shell script, `exit_code`,
 *   `aggregated_output`, and the files its `parsed_cmd` says it read), a `FileChange`
 *   (`changes` by absolute path; `status: "completed"` when it applied);
 * - `event_msg` `token_count`: `last_token_usage.total_tokens` in `model_context_window`;
 * - `compacted`: the summary (`message`) and the user messages of `replacement_history`;
 * - `turn_context`: `cwd`.
 *
 * Anything else, or a field of an unexpected type, gives nothing. Never throws.
 *
 * @example
 * ```ts
 * import { rolloutItems } from "./rollout_items.ts";
 * rolloutItems({ type: "response_item", payload: { type: "function_call", name: "update_plan",
 *   arguments: '{"plan":[{"step":"Fix rounding","status":"in_progress"}]}' } });
 * // [{ kind: "plan", steps: [{ step: "Fix rounding", status: "in_progress" }] }]
 * ```
 */
export function rolloutItems(row: RolloutRow): RolloutItem[] {
  const p = row.payload;
  switch (row.type) {
    case "response_item":
      // The compaction's own summary reply is no message of the session's.
      return row.metadata?.compaction_output === true ? [] : responseItem(p);
    case "event_msg":
      return eventItem(p);
    case "compacted": {
      const summary = typeof p.message === "string" ? p.message.slice(0, MAX_TEXT) : "";
      const kept: string[] = [];
      if (Array.isArray(p.replacement_history)) {
        for (const item of p.replacement_history) {
          const text = item !== null && typeof item === "object"
            ? typedText(item as Record<string, unknown>)
            : undefined;
          if (text !== undefined) kept.push(text);
        }
      }
      return [{ kind: "compacted", summary, kept }];
    }
    case "turn_context":
      return typeof p.cwd === "string" && p.cwd !== "" ? [{ kind: "cwd", cwd: p.cwd }] : [];
    default:
      return [];
  }
}

function responseItem(p: Record<string, unknown>): RolloutItem[] {
  if (p.type === "message") {
    if (p.role === "user") {
      const text = typedText(p);
      return text === undefined ? [] : [{ kind: "typed", text }];
    }
    if (p.role === "assistant") {
      const text = contentText(p.content, "output_text");
      return text === "" ? [] : [{ kind: "assistant", text }];
    }
    return [];
  }
  if (p.type === "function_call" || p.type === "custom_tool_call") {
    const name = typeof p.name === "string" ? p.name : "";
    if (name === "update_plan" && typeof p.arguments === "string") {
      const steps = planSteps(p.arguments);
      if (steps !== undefined) return [{ kind: "plan", steps }];
    }
    return name === "" ? [] : [{ kind: "call", name }];
  }
  return [];
}

function eventItem(p: Record<string, unknown>): RolloutItem[] {
  if (p.type === "token_count") {
    const info = p.info as { last_token_usage?: { total_tokens?: unknown }; model_context_window?: unknown } | null;
    const tokens = info?.last_token_usage?.total_tokens;
    if (typeof tokens !== "number" || !Number.isSafeInteger(tokens) || tokens < 0) return [];
    const window = info?.model_context_window;
    return [{
      kind: "tokens",
      tokens,
      ...(typeof window === "number" && Number.isSafeInteger(window) && window > 0 ? { window } : {}),
    }];
  }
  if (p.type !== "item_completed" || p.item === null || typeof p.item !== "object") return [];
  const item = p.item as Record<string, unknown>;
  if (item.type === "CommandExecution") {
    const command = shellScript(item.command);
    if (command === undefined) return [];
    const out: RolloutItem[] = [];
    const exit = item.exit_code;
    const output = typeof item.aggregated_output === "string" ? item.aggregated_output.slice(-MAX_TEXT) : "";
    out.push({
      kind: "command",
      command,
      ...(typeof exit === "number" && Number.isSafeInteger(exit) && exit >= 0 && exit <= 999 ? { exit } : {}),
      output,
    });
    if (Array.isArray(item.parsed_cmd)) {
      for (const parsed of item.parsed_cmd) {
        const c = parsed as { type?: unknown; path?: unknown } | null;
        if (c?.type === "read" && typeof c.path === "string" && c.path !== "") out.push({ kind: "read", path: c.path });
      }
    }
    return out;
  }
  if (item.type === "FileChange" && item.changes !== null && typeof item.changes === "object") {
    const changes: FileChange[] = [];
    for (const [path, change] of Object.entries(item.changes as Record<string, unknown>)) {
      const c = change as { type?: unknown; move_path?: unknown } | null;
      const type = c?.type === "add" || c?.type === "update" || c?.type === "delete" ? c.type : "update";
      if (path === "") continue;
      changes.push({ path, type });
      if (typeof c?.move_path === "string" && c.move_path !== "") changes.push({ path: c.move_path, type: "add" });
    }
    return changes.length === 0 ? [] : [{ kind: "edit", changes, ok: item.status === "completed" }];
  }
  return [];
}

/**
 * The words of a user message the user typed: 0.171.0 marks them `user.text` in the message's
 * metadata (its `<environment_context>`, a skill's instructions and the summary carry other
 * kinds); a message without that metadata counts when it is not one of the client's `<…>` blocks
 * or the summary.
 */
function typedText(p: Record<string, unknown>): string | undefined {
  if (p.type !== "message" || p.role !== "user") return undefined;
  const text = contentText(p.content, "input_text").trim();
  if (text === "") return undefined;
  const meta = p.internal_chat_message_metadata_passthrough as { content_item_kinds?: unknown } | undefined;
  const kinds = meta?.content_item_kinds;
  if (Array.isArray(kinds)) return kinds.includes("user.text") ? text : undefined;
  return text.startsWith("<") || text.startsWith(SUMMARY_PREFIX) ? undefined : text;
}

function contentText(content: unknown, type: string): string {
  if (typeof content === "string") return content.slice(0, MAX_TEXT);
  if (!Array.isArray(content)) return "";
  let text = "";
  for (const c of content) {
    const block = c as { type?: unknown; text?: unknown } | null;
    if (block?.type === type && typeof block.text === "string") {
      text += (text === "" ? "" : "\n") + block.text;
      if (text.length >= MAX_TEXT) return text.slice(0, MAX_TEXT);
    }
  }
  return text;
}

function planSteps(args: string): PlanStep[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch {
    return undefined;
  }
  const plan = (value as { plan?: unknown } | null)?.plan;
  if (!Array.isArray(plan)) return undefined;
  const steps: PlanStep[] = [];
  for (const s of plan) {
    const item = s as { step?: unknown; status?: unknown } | null;
    if (typeof item?.step !== "string" || typeof item.status !== "string" || !STATUSES.has(item.status)) continue;
    steps.push({ step: item.step.slice(0, MAX_TEXT), status: item.status as PlanStep["status"] });
  }
  return steps;
}

/** The script of `["/bin/bash", "-lc", "npm test"]`; the words joined for a command run without a shell. */
function shellScript(command: unknown): string | undefined {
  if (!Array.isArray(command) || command.length === 0 || !command.every((c) => typeof c === "string")) return undefined;
  const argv = command as string[];
  if (argv.length === 3 && SHELL.test(argv[0]) && (argv[1] === "-lc" || argv[1] === "-c")) {
    return argv[2].trim() === "" ? undefined : argv[2].slice(0, MAX_TEXT);
  }
  return argv.join(" ").slice(0, MAX_TEXT);
}
