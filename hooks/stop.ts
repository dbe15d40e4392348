// The Stop hook binary (dist/stop). Thin entry: all logic is in lib/events/stop.ts.
import { runHook } from "../lib/hook/run_hook.ts";
import { stopHook } from "../lib/events/stop.ts";

runHook("Stop", stopHook);
