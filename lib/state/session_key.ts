const PLAIN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * Turns a Claude Code `session_id` into a safe file-name key, or `null` when
 * the id is not a plain id. Ids are UUIDs in practice; hosted sessions send
 * `served:<id>`, which maps to `served+<id>` (a colon is not allowed in file
 * names on Windows). Anything with `/`, `\`, `..`, spaces, NUL or more than
 * 128 characters is refused, so a hostile id can never name a path outside
 * the state directory.
 *
 * @example
 * ```ts
 * sessionKey("7da37d46-8061-4f75-801e-26383afad198"); // "7da37d46-8061-4f75-801e-26383afad198"
 * sessionKey("../etc/passwd"); // null
 * ```
 */
export function sessionKey(sessionId: unknown): string | null {
  if (typeof sessionId !== "string") return null;
  if (PLAIN.test(sessionId)) return sessionId;
  if (sessionId.startsWith("served:") && PLAIN.test(sessionId.slice(7))) return `served+${sessionId.slice(7)}`;
  return null;
}
