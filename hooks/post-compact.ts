// The PostCompact hook binary (dist/post-compact). Thin entry: all logic is in lib/post_compact_hook.ts.
import { runHook } from "../lib/run_hook.ts";
import { postCompactHook } from "../lib/post_compact_hook.ts";

void runHook("PostCompact", postCompactHook);
