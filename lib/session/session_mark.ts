import { closeSync, fsyncSync, linkSync, openSync, unlinkSync, utimesSync, writeSync } from "../node/fs.ts";
import { join } from "../node/path.ts";
import { randomHex } from "../node/random_hex.ts";
import { ensurePrivateDir } from "../state/ensure_private_dir.ts";
import { readPrivateFile } from "../state/read_private_file.ts";
import { sessionKey } from "../state/session_key.ts";

/** Options of {@linkcode sessionMark}. */
export interface SessionMarkOptions {
  /** Make the mark when the session has none yet. Default false (a reader such as `status`). */
  create?: boolean;
}

const MARK = /^[0-9a-f]{16}$/;

/**
 * The session's mark: 16 random hex digits kept in the private state directory
 * (`sessions/<key>.mark`, owner-only), the same for the summarizer text PreCompact prints and the
 * `<session-context mark="…">` SessionStart gives back. A file or a web page the model reads can
 * hold a look-alike `<session-context>`, but not the mark of a session it never saw (issue #36,
 * I4). Undefined for an unsafe session id, and when there is none and `create` is false. The
 * first writer wins (the mark is hard-linked into place), so two hooks of one session never give
 * two marks. Throws when the state directory is unsafe or cannot be written: hooks fail open.
 *
 * @example
 * ```ts
 * import { sessionMark } from "./session_mark.ts";
 * const mark = sessionMark(ctx.stateDir(), input.session_id, { create: true }); // "9f03a1c2b4d5e6f7"
 * ```
 */
export function sessionMark(stateDir: string, sessionId: string, options: SessionMarkOptions = {}): string | undefined {
  const key = sessionKey(sessionId);
  if (key === null) return undefined;
  const dir = join(stateDir, "sessions");
  const path = join(dir, `${key}.mark`);
  const held = read(path);
  if (held !== undefined && options.create) {
    // Kept fresh while the session is used: the week-old sweep of the sessions folder takes it.
    const now = new Date();
    utimesSync(path, now, now);
  }
  if (held !== undefined || !options.create) return held;
  ensurePrivateDir(dir);
  const tmp = join(dir, `.${key}.${randomHex(4)}.mark.tmp`);
  const mark = randomHex(8);
  const fd = openSync(tmp, "wx", 0o600);
  try {
    writeSync(fd, mark + "\n");
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
    return mark;
  } catch (err) {
    if ((err as { code?: string }).code !== "EEXIST") throw err;
    return read(path);
  } finally {
    unlinkSync(tmp);
  }
}

function read(path: string): string | undefined {
  const r = readPrivateFile(path, { maxBytes: 64 });
  if (!r.ok) return undefined;
  const text = r.text.trim();
  return MARK.test(text) ? text : undefined;
}
