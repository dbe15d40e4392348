/**
 * Types of the JSON Claude Code pipes to a command hook and of what a hook
 * answers. Shapes follow `@anthropic-ai/claude-agent-sdk` `sdk.d.ts` as
 * summarised in docs/hooks.md; every optional field may be
 * missing on older clients, so handlers must not trust any of them.
 *
 * @module
 */

/** The events rehydrate ships a hook for. */
export type HookEventName =
  | "PreCompact"
  | "PostCompact"
  | "SessionStart"
  | "UserPromptSubmit"
  | "PreToolUse"
  | "PostToolUse"
  | "Stop"
  | "PostModelSwitch";

/** Fields every hook input carries (`BaseHookInput`). */
export interface BaseHookInput {
  session_id: string;
  /** `""` when the client runs diskless. */
  transcript_path: string;
  cwd: string;
  hook_event_name: string;
  prompt_id?: string;
  permission_mode?: string;
  agent_id?: string;
  agent_type?: string;
  [key: string]: unknown;
}

/** PreCompact: `trigger` is compared with the matcher. */
export interface PreCompactInput extends BaseHookInput {
  hook_event_name: "PreCompact";
  trigger?: "manual" | "auto" | string;
  custom_instructions?: string | null;
}

/** PostCompact (2.1.76+): carries the summary the compaction produced. */
export interface PostCompactInput extends BaseHookInput {
  hook_event_name: "PostCompact";
  trigger?: "manual" | "auto" | string;
  compact_summary?: string;
}

/**
 * SessionStart: `source` is compared with the matcher. `fork` (`--fork-session`, 2.1.3xx) is a
 * resume under a new session id. On `resume` and `fork`, 2.1.332 adds how long the session sat
 * idle and the tokens its context holds (the request after it re-caches them all when the prompt
 * cache expired); on `startup` and `compact` it sends `model` instead.
 */
export interface SessionStartInput extends BaseHookInput {
  hook_event_name: "SessionStart";
  source?: "startup" | "resume" | "clear" | "compact" | "fork" | string;
  model?: string;
  session_title?: string;
  seconds_since_last_response?: number;
  /** Tokens in the context as the client counts them (not the window's size). */
  context_tokens?: number;
  prompt_cache_likely_expired?: boolean;
  estimated_cache_write_usd?: number;
}

/**
 * Who wrote a prompt, per 2.1.332's schema: `user` (typed in the composer), `sdk` (`-p` or the
 * Agent SDK), or a turn the client injected: `system` (task notifications, peer messages,
 * auto-continuation), `loop_wakeup`, `schedule_wakeup`, `poll_event`. The schema says payloads
 * may omit it "while the field rolls out": 2.1.332 run offline sends none (tests/fixtures/
 * claude-code-2.1.332), so its absence says nothing.
 */
export type PromptSource = "user" | "sdk" | "system" | "loop_wakeup" | "schedule_wakeup" | "poll_event";

/** UserPromptSubmit: no matcher, runs on every prompt. */
export interface UserPromptSubmitInput extends BaseHookInput {
  hook_event_name: "UserPromptSubmit";
  prompt?: string;
  /** Who wrote the prompt; only `user` and `sdk` are the user's request. Often absent. */
  source?: PromptSource | string;
  session_title?: string;
}

/** PreToolUse: `tool_name` is compared with the matcher. */
export interface PreToolUseInput extends BaseHookInput {
  hook_event_name: "PreToolUse";
  tool_name?: string;
  tool_input?: unknown;
  tool_use_id?: string;
}

/** PostToolUse. The tool's output field is `filePath` (camelCase). */
export interface PostToolUseInput extends BaseHookInput {
  hook_event_name: "PostToolUse";
  tool_name?: string;
  tool_input?: unknown;
  tool_response?: unknown;
  tool_use_id?: string;
}

/** Stop: `stop_hook_active` is the loop breaker. */
export interface StopInput extends BaseHookInput {
  hook_event_name: "Stop";
  stop_hook_active?: boolean;
  last_assistant_message?: string;
}

/**
 * PostModelSwitch (2.1.3xx): the session's model changed, by `/model`, the picker, the SDK or a
 * fallback (`source`), so its context window may have too. Clients without the event never send it.
 */
export interface PostModelSwitchInput extends BaseHookInput {
  hook_event_name: "PostModelSwitch";
  from_model?: string;
  /** The model now in use (an API id such as `claude-sonnet-4-6`). */
  to_model?: string;
  /** What was asked for: an alias or an id, perhaps with `[1m]`. */
  requested_model?: string;
  source?: string;
  /** Tokens in the context as the client counts them (not the window's size). */
  context_tokens?: number;
}

/** The input of each event. */
export interface HookInputs {
  PreCompact: PreCompactInput;
  PostCompact: PostCompactInput;
  SessionStart: SessionStartInput;
  UserPromptSubmit: UserPromptSubmitInput;
  PreToolUse: PreToolUseInput;
  PostToolUse: PostToolUseInput;
  Stop: StopInput;
  PostModelSwitch: PostModelSwitchInput;
}

/**
 * The input of the event `E`; with several events (the default: any), the union of theirs.
 *
 * @example
 * ```ts
 * const input: HookInput<"Stop"> = { session_id: "s", transcript_path: "", cwd: "/p", hook_event_name: "Stop" };
 * input.stop_hook_active; // boolean | undefined
 * ```
 */
export type HookInput<E extends HookEventName = HookEventName> = HookInputs[E];

/**
 * What a hook handler returns. `stdout` is written verbatim (PreCompact's
 * plain-text summarizer instructions); `json` is serialised as the one JSON
 * object Claude Code expects. `exitCode: 2` is only for a deliberate block.
 * `null` means: exit 0 and print nothing.
 */
export type HookReply =
  | { stdout: string; exitCode?: 0 | 2 }
  | { json: Record<string, unknown>; exitCode?: 0 | 2 }
  | null;

/** The environment a hook reads (a plain record so tests can pass their own). */
export type HookEnv = Record<string, string | undefined>;
