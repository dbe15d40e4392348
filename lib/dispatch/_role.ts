/**
 * Private helper of the re-read enforcement: writing the handler
 * registration `sessions/<key>.role.json`.
 *
 * @module
 */

import { ensurePrivateDir } from "../state/ensure_private_dir.ts";
import { writeFileAtomic } from "../state/write_file_atomic.ts";
import { rolePath, sessionsDir } from "../state/files.ts";

/** Writes (or rewrites, refreshing its time) the registration of a handler session. */
export function refreshHandlerRegistration(
  stateDir: string,
  key: string,
  sessionId: string,
  now: Date,
  skill?: string,
): void {
  ensurePrivateDir(sessionsDir(stateDir));
  const record = {
    schema_version: 1,
    session_id: sessionId,
    role: "handler",
    ...(skill ? { skill } : {}),
    registered_at: now.toISOString(),
  };
  writeFileAtomic(rolePath(stateDir, key), JSON.stringify(record) + "\n");
}
