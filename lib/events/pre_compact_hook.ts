// The whole PreCompact hook in one module, for what runs it in one process (the tests, the fuzzer):
// the hook binary loads the workflows' parts apart (hooks/pre-compact.ts).
import { preCompactHandler } from "./pre_compact.ts";
import { PRE_COMPACT_WORKFLOWS } from "./pre_compact_workflows.ts";

/**
 * The PreCompact hook with its workflows loaded.
 *
 * @example
 * ```ts
 * const outcome = handleHook("PreCompact", preCompactHook, stdin);
 * ```
 */
export const preCompactHook = preCompactHandler(() => PRE_COMPACT_WORKFLOWS);
