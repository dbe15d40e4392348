/**
 * Private helper of `rehydrate install --agent codex`, `uninstall` and `doctor`: the trust the
 * Codex CLI keeps per hook. Codex runs a hook of a user or project layer only once it is trusted:
 * `[hooks.state."<key>"] trusted_hash = "sha256:<hex>"` in the user's `config.toml`, where the key
 * is `<hooks.json path>:<event label>:<group index>:<handler index>` and the hash is SHA-256 of the
 * hook's normalised identity (what Codex 0.171.0 computes; tests/fixtures/codex-0.171.0 holds the
 * hashes the client wrote itself, and the unit tests compute them again): the JSON object
 * `{ event_name, matcher, hooks: [handler] }` with the handler as `{ type: "command", command,
 * timeout, async, statusMessage }` (timeout 600 when unset, at least 1; the matcher dropped for
 * the events that take none), every key sorted, no whitespace; absent fields are left out.
 *
 * @module
 */
import { createHash } from "node:crypto";

/** Codex's event names and the labels of its hook-state keys. */
export const CODEX_EVENT_LABELS: Readonly<Record<string, string>> = {
  PreToolUse: "pre_tool_use",
  PermissionRequest: "permission_request",
  PostToolUse: "post_tool_use",
  PreCompact: "pre_compact",
  PostCompact: "post_compact",
  SessionStart: "session_start",
  SessionEnd: "session_end",
  UserPromptSubmit: "user_prompt_submit",
  SubagentStart: "subagent_start",
  SubagentStop: "subagent_stop",
  Stop: "stop",
  Interrupt: "interrupt",
};

/** Events whose matcher Codex ignores (and leaves out of the hash). */
const NO_MATCHER: ReadonlySet<string> = new Set(["UserPromptSubmit", "Stop", "Interrupt"]);
/** Events whose timeout Codex keeps within 1 to 3 seconds (default 1). */
const SHORT_TIMEOUT: ReadonlySet<string> = new Set(["SessionEnd", "Interrupt"]);

/** One command handler of a `hooks.json`, where it sits and what Codex would trust. */
export interface CodexHandler {
  event: string;
  group: number;
  index: number;
  command: string;
  /** `<hooks.json>:<label>:<group>:<index>`. */
  key: string;
  /** `sha256:<hex>`, the hash Codex compares with the trusted one. */
  hash: string;
}

/**
 * Every command handler of a `hooks.json` text (Claude Code's format, which Codex reads), with its
 * trust key and hash; `path` is the file as Codex names it (the absolute path of its layer's
 * folder, then `hooks.json`). Groups and handlers of other types keep their place in the count.
 * Empty for text that is not such a file.
 */
export function codexHandlers(text: string | null, path: string): CodexHandler[] {
  if (text === null) return [];
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return [];
  }
  const hooks = (value as { hooks?: unknown } | null)?.hooks;
  if (hooks === null || typeof hooks !== "object" || Array.isArray(hooks)) return [];
  const out: CodexHandler[] = [];
  for (const [event, groups] of Object.entries(hooks as Record<string, unknown>)) {
    const label = CODEX_EVENT_LABELS[event];
    if (label === undefined || !Array.isArray(groups)) continue;
    groups.forEach((group, g) => {
      const list = (group as { hooks?: unknown } | null)?.hooks;
      if (!Array.isArray(list)) return;
      const matcher = (group as { matcher?: unknown }).matcher;
      list.forEach((handler, h) => {
        const entry = handler as Record<string, unknown> | null;
        if (entry?.type !== "command" || typeof entry.command !== "string") return;
        out.push({
          event,
          group: g,
          index: h,
          command: entry.command,
          key: `${path}:${label}:${g}:${h}`,
          hash: codexHookHash(event, typeof matcher === "string" ? matcher : undefined, entry),
        });
      });
    });
  }
  return out;
}

/**
 * The hash Codex trusts a command handler by (see the module's note). `handler` is the entry as
 * `hooks.json` has it: `command`, `timeout` (or `timeoutSec`), `async`, `statusMessage`.
 */
export function codexHookHash(event: string, matcher: string | undefined, handler: Record<string, unknown>): string {
  const raw = typeof handler.timeout === "number" ? handler.timeout : handler.timeoutSec;
  const given = typeof raw === "number" && Number.isSafeInteger(raw) && raw >= 0 ? raw : undefined;
  const timeout = SHORT_TIMEOUT.has(event) ? Math.min(3, Math.max(1, given ?? 1)) : Math.max(1, given ?? 600);
  const normalized: Record<string, unknown> = {
    type: "command",
    command: handler.command,
    timeout,
    async: handler.async === true,
  };
  if (typeof handler.statusMessage === "string") normalized.statusMessage = handler.statusMessage;
  const identity: Record<string, unknown> = { event_name: CODEX_EVENT_LABELS[event] ?? event, hooks: [normalized] };
  const m = NO_MATCHER.has(event) ? undefined : matcher;
  if (m !== undefined) identity.matcher = m;
  return "sha256:" + createHash("sha256").update(canonicalJson(identity)).digest("hex");
}

/** JSON with every object's keys sorted, no whitespace (serde_json's output of a sorted value). */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value as Record<string, unknown>).sort();
    return `{${
      keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")
    }}`;
  }
  return JSON.stringify(value);
}
