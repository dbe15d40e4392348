/** The basename of a Codex rollout: `rollout-<time>-<thread id>.jsonl`. */
const ROLLOUT = /(?:^|[/\\])rollout-[^/\\]+\.jsonl$/;

/**
 * True when a hook input comes from the Codex CLI rather than Claude Code: its `transcript_path`
 * names a rollout file (`…/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl`), or it carries the
 * `turn_id` Codex sends on every event of a turn (PreCompact, PostCompact, UserPromptSubmit, the
 * tool events, Stop) and Claude Code never sends. A hook registered with `--agent` is told instead
 * (`rehydrate install --agent codex` registers `rehydrate <hook> --agent codex`).
 *
 * @example
 * ```ts
 * import { isCodexInput } from "./is_codex_input.ts";
 * isCodexInput({ transcript_path: "/home/me/.codex/sessions/2026/11/28/rollout-2026-11-28T15-04-20-01a2.jsonl" }); // true
 * isCodexInput({ transcript_path: "/home/me/.claude/projects/-home-me-app/7da37d46.jsonl" }); // false
 * ```
 */
export function isCodexInput(input: { transcript_path?: unknown; turn_id?: unknown }): boolean {
  if (typeof input.turn_id === "string" && input.turn_id !== "") return true;
  return typeof input.transcript_path === "string" && ROLLOUT.test(input.transcript_path);
}
