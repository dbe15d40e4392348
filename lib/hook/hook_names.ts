import type { HookEventName } from "./hook_types.ts";

/**
 * The hook binaries rehydrate builds, by file name, with the event each one
 * handles. `dist/<name>` and `rehydrate <name>` are the same hook.
 *
 * @example
 * ```ts
 * HOOK_NAMES["pre-compact"]; // "PreCompact"
 * ```
 */
export const HOOK_NAMES: Readonly<Record<string, HookEventName>> = Object.freeze({
  "pre-compact": "PreCompact",
  "post-compact": "PostCompact",
  "session-start": "SessionStart",
  "user-prompt-submit": "UserPromptSubmit",
  "pre-tool-use": "PreToolUse",
  "post-tool-use": "PostToolUse",
  stop: "Stop",
  "session-checkpoint": "Stop",
  "post-model-switch": "PostModelSwitch",
});
