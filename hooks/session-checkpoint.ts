// The background Stop hook binary (dist/session-checkpoint), registered with "async": true. Thin
// entry: all logic is in lib/events/session_checkpoint.ts.
//
// In print mode Claude Code ends the background hooks still running when the session ends
// (SIGTERM, then SIGKILL 1.5 s later): a checkpoint being written then is finished rather than
// dropped. The work is synchronous, so the handler only runs once it is done, and it is removed
// then, so that it never keeps the process alive.
import { runHook } from "../lib/hook/run_hook.ts";
import { sessionCheckpointHook } from "../lib/events/session_checkpoint.ts";

const finish = (): void => {};
process.on("SIGTERM", finish);
try {
  runHook("Stop", sessionCheckpointHook, { name: "session-checkpoint" });
} finally {
  process.off("SIGTERM", finish);
}
