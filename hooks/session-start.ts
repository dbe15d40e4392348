// The SessionStart hook binary (dist/session-start). Thin entry: all logic is in lib/events/session_start.ts.
import { runHook } from "../lib/hook/run_hook.ts";
import { sessionStartHook } from "../lib/events/session_start.ts";

runHook("SessionStart", sessionStartHook);
