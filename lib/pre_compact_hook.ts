import type { HookHandler } from "./handle_hook.ts";

/**
 * PreCompact: the workflows register here as they land (see the issues).
 *
 * @example
 * ```ts
 * await runHook("PreCompact", preCompactHook);
 * ```
 */
export const preCompactHook: HookHandler = () => null;
