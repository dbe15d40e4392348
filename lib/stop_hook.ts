import type { HookHandler } from "./handle_hook.ts";

/**
 * Stop: the workflows register here as they land (see the issues).
 *
 * @example
 * ```ts
 * await runHook("Stop", stopHook);
 * ```
 */
export const stopHook: HookHandler = () => null;
