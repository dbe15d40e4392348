import type { HookHandler } from "./handle_hook.ts";

/**
 * PostToolUse: the workflows register here as they land (see the issues).
 *
 * @example
 * ```ts
 * await runHook("PostToolUse", postToolUseHook);
 * ```
 */
export const postToolUseHook: HookHandler = () => null;
