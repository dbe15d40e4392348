// The SessionStart hook binary (dist/session-start). Thin entry: all logic is in lib/session_start_hook.ts.
import { runHook } from "../lib/run_hook.ts";
import { sessionStartHook } from "../lib/session_start_hook.ts";

void runHook("SessionStart", sessionStartHook);
