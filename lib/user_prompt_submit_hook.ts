import type { HookHandler } from "./handle_hook.ts";

/**
 * UserPromptSubmit: the workflows register here as they land (see the issues).
 *
 * @example
 * ```ts
 * await runHook("UserPromptSubmit", userPromptSubmitHook);
 * ```
 */
export const userPromptSubmitHook: HookHandler = () => null;
