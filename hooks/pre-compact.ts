// The PreCompact hook binary (dist/pre-compact). Thin entry: all logic is in lib/events/pre_compact.ts.
import { runHook } from "../lib/hook/run_hook.ts";
import { preCompactHook } from "../lib/events/pre_compact.ts";

runHook("PreCompact", preCompactHook);
