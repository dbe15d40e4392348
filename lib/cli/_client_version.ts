// Private to lib/cli/: which Claude Code version the user runs, for the hooks only newer clients
// know. An event a client does not know is not harmless: Claude Code 2.1.197 opens every
// interactive session with a "Settings Warning" dialog for it (and rejects a plugin's whole hooks
// file), so install registers such an event only when the client is known to have it.
import { readFileSync, statSync } from "../node/fs.ts";
import { join } from "../node/path.ts";

/** The first version seen to send PostModelSwitch (earlier 2.1.x releases may, unverified). */
export const POST_MODEL_SWITCH_SINCE = "2.1.332";
/** `~/.claude.json` holds every project's history too; past this size it is not read. */
const MAX_BYTES = 32 * 1024 * 1024;
const VERSION = /^(\d{1,6})\.(\d{1,6})\.(\d{1,6})$/;

/**
 * The newest Claude Code version that has run an interactive session for this user: the higher
 * of `lastReleaseNotesSeen` and `lastClawdEntranceVersion` in `$CLAUDE_CONFIG_DIR/.claude.json`
 * (else `~/.claude.json`), which the client updates at startup. Null when the file, the fields
 * or a plain `X.Y.Z` value are missing. Reads a file, runs nothing.
 *
 * @example
 * ```ts
 * lastClientVersion({}, "/home/me"); // "2.1.332", or null before the client ever ran
 * ```
 */
export function lastClientVersion(env: Record<string, string | undefined>, homeDir: string): string | null {
  const dir = env.CLAUDE_CONFIG_DIR || homeDir;
  const path = join(dir, ".claude.json");
  let data: unknown;
  try {
    if (statSync(path).size > MAX_BYTES) return null;
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
  if (data === null || typeof data !== "object") return null;
  const record = data as Record<string, unknown>;
  let best: string | null = null;
  for (const key of ["lastReleaseNotesSeen", "lastClawdEntranceVersion"]) {
    const v = record[key];
    if (typeof v === "string" && VERSION.test(v) && (best === null || compareVersions(v, best) > 0)) best = v;
  }
  return best;
}

/**
 * True when `version` (`X.Y.Z`) is `since` or later; false for null or anything else.
 *
 * @example
 * ```ts
 * atLeast("2.1.332", POST_MODEL_SWITCH_SINCE); // true
 * atLeast("2.1.197", POST_MODEL_SWITCH_SINCE); // false
 * ```
 */
export function atLeast(version: string | null, since: string): boolean {
  return version !== null && VERSION.test(version) && compareVersions(version, since) >= 0;
}

function compareVersions(a: string, b: string): number {
  const x = VERSION.exec(a)!;
  const y = VERSION.exec(b)!;
  for (let i = 1; i <= 3; i++) {
    const d = Number(x[i]) - Number(y[i]);
    if (d !== 0) return d;
  }
  return 0;
}
