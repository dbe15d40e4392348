import { writeSync } from "./fs.ts";

/**
 * Writes all of `text` to a descriptor synchronously. A descriptor left non-blocking by a parent
 * answers EAGAIN when its pipe is full; we then sleep a millisecond and retry, for at most
 * `maxWaitMs` in all. Any other error (the reader is gone: EPIPE) ends the write. Returns true
 * when every byte was written.
 *
 * Hooks and the command line write through it rather than `process.stdout.write`: the first use
 * of `process.stdout` builds Bun's stream objects, which costs more than a whole
 * `stop` hook does beyond starting the runtime (bench/README.md).
 *
 * @example
 * ```ts
 * writeFd(1, "{}\n"); // true
 * writeFd(2, "rehydrate: unknown command\n", Infinity);
 * ```
 */
export function writeFd(fd: number, text: string, maxWaitMs = 2000): boolean {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  let waited = 0;
  while (at < bytes.length) {
    try {
      at += writeSync(fd, bytes, at, bytes.length - at);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if ((code === "EAGAIN" || code === "EWOULDBLOCK") && waited++ < maxWaitMs) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
        continue;
      }
      return false;
    }
  }
  return true;
}
