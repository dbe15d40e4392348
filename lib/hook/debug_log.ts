import { closeSync, constants, fstatSync, openSync, renameSync, writeSync } from "../node/fs.ts";
import { join } from "../node/path.ts";
import { redact } from "../redact/redact.ts";

/** Options for {@linkcode debugLog}. */
export interface DebugLogOptions {
  /** Rotate to `debug.log.1` past this size. Default 1 MiB. */
  maxBytes?: number;
  /** Clock, for tests. Default `new Date()`. */
  now?: Date;
}

const O_NOFOLLOW = (constants as Record<string, number>).O_NOFOLLOW ?? 0;

/**
 * Appends one line to `debug.log` in the (already private) state directory:
 * ISO time, process id, then the message with secrets redacted and newlines
 * folded. The log is how a fail-open hook says what went wrong without
 * touching stdout. Never throws: a log that cannot be written is dropped.
 *
 * @example
 * ```ts
 * debugLog("/home/a/.local/state/rehydrate", "pre-compact: no transcript");
 * ```
 */
export function debugLog(dir: string, message: string, options: DebugLogOptions = {}): void {
  const path = join(dir, "debug.log");
  const line = `${(options.now ?? new Date()).toISOString()} ${process.pid} ${
    redact(message).replace(/\r?\n/g, " | ")
  }\n`;
  try {
    const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | O_NOFOLLOW, 0o600);
    try {
      if (fstatSync(fd).size > (options.maxBytes ?? 1024 * 1024)) {
        renameSync(path, `${path}.1`);
      }
      writeSync(fd, line);
    } finally {
      closeSync(fd);
    }
  } catch { /* the log is best effort */ }
}
