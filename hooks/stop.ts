// The Stop hook binary (dist/stop). Thin entry: all logic is in lib/stop_hook.ts.
import { runHook } from "../lib/run_hook.ts";
import { stopHook } from "../lib/stop_hook.ts";

void runHook("Stop", stopHook);
