// The background Stop hook binary (dist/session-checkpoint), registered with "async": true. Thin
// entry: all logic is in lib/events/session_checkpoint.ts.
import { runHook } from "../lib/hook/run_hook.ts";
import { sessionCheckpointHook } from "../lib/events/session_checkpoint.ts";

runHook("Stop", sessionCheckpointHook, { name: "session-checkpoint" });
