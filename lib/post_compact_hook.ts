import type { HookHandler } from "./handle_hook.ts";

/**
 * PostCompact: the workflows register here as they land (see the issues).
 *
 * @example
 * ```ts
 * await runHook("PostCompact", postCompactHook);
 * ```
 */
export const postCompactHook: HookHandler = () => null;
