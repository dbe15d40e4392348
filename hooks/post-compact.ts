// The PostCompact hook binary (dist/post-compact). Thin entry: all logic is in lib/events/post_compact.ts.
import { runHook } from "../lib/hook/run_hook.ts";
import { postCompactHook } from "../lib/events/post_compact.ts";

runHook("PostCompact", postCompactHook);
