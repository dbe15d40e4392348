import type { HookHandler } from "./handle_hook.ts";

/**
 * PreToolUse: the workflows register here as they land (see the issues).
 *
 * @example
 * ```ts
 * await runHook("PreToolUse", preToolUseHook);
 * ```
 */
export const preToolUseHook: HookHandler = () => null;
