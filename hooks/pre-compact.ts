// The PreCompact hook binary (dist/pre-compact). Thin entry: all logic is in lib/pre_compact_hook.ts.
import { runHook } from "../lib/run_hook.ts";
import { preCompactHook } from "../lib/pre_compact_hook.ts";

void runHook("PreCompact", preCompactHook);
