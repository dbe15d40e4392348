// Private helper of load_config.ts, orchestration_resumption.ts and orchestration_staleness.ts:
// reading a file a cloned repository may have planted without hanging or exhausting the hook.
// `statSync(path).size` then `readFileSync(path)` is not enough: a symbolic link to /dev/zero
// or /dev/urandom reports size 0 and never ends, and a FIFO blocks the open itself.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** Why {@linkcode readCappedFile} read nothing. */
export type CappedFileProblem = "missing" | "not_regular" | "too_large" | "unreadable";

/** Result of {@linkcode readCappedFile}. */
export type CappedFileResult = { ok: true; text: string } | { ok: false; problem: CappedFileProblem; code?: string };

const O_NONBLOCK = (constants as Record<string, number>).O_NONBLOCK ?? 0;

/**
 * Reads a whole regular file of at most `maxBytes` bytes as UTF-8. The open never blocks (FIFOs,
 * devices) and anything but a regular file is refused.
 */
export function readCappedFile(path: string, maxBytes: number): CappedFileResult {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | O_NONBLOCK);
  } catch (err) {
    return failure(err);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, problem: "not_regular" };
    if (st.size > maxBytes) return { ok: false, problem: "too_large" };
    // One byte more than the cap shows a file that grew since fstat.
    const buf = new Uint8Array(Math.min(st.size, maxBytes) + 1);
    let at = 0;
    while (at < buf.length) {
      const n = readSync(fd, buf, at, buf.length - at, at);
      if (n === 0) break;
      at += n;
    }
    if (at > maxBytes) return { ok: false, problem: "too_large" };
    return { ok: true, text: new TextDecoder().decode(buf.subarray(0, at)) };
  } catch (err) {
    return failure(err);
  } finally {
    closeSync(fd);
  }
}

function failure(err: unknown): CappedFileResult {
  const code = (err as { code?: string }).code;
  if (code === "ENOENT" || code === "ENOTDIR" || code === "ELOOP") return { ok: false, problem: "missing", code };
  if (code === "ENXIO" || code === "EISDIR") return { ok: false, problem: "not_regular", code };
  return { ok: false, problem: "unreadable", code };
}
