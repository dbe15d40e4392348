import { readSync } from "../node/fs.ts";
import { concatBytes } from "../node/concat_bytes.ts";

/** Options for {@linkcode readStdin}. */
export interface ReadStdinOptions {
  /** Largest input accepted, in bytes. Default 16 MiB: a hook input is a few KB. */
  maxBytes?: number;
  /** File descriptor to read. Default 0 (stdin); tests pass a file's fd. */
  fd?: number;
  /** How long to keep retrying a non-blocking descriptor that has no data yet, in ms. Default 10,000. */
  waitMs?: number;
}

/** Result of {@linkcode readStdin}: the text, or why there is none. */
export type ReadStdinResult =
  | { ok: true; text: string }
  | { ok: false; error: "too_large" | "read_failed"; message: string };

const CHUNK = 64 * 1024;

/**
 * Reads a descriptor to EOF synchronously, with a size cap.
 *
 * Claude Code writes the hook JSON and closes stdin, so a synchronous loop is
 * the cheapest way in: no event loop turns, no stream objects. A descriptor
 * left non-blocking by a parent answers EAGAIN; we then sleep briefly and
 * retry, bounded by `waitMs`, so a hook never hangs on a stdin nobody closes.
 * Windows pipes report their end as an `EOF` error, which is treated as EOF.
 *
 * @example
 * ```ts
 * const r = readStdin({ maxBytes: 1024 * 1024 });
 * if (r.ok) console.log(r.text.length);
 * ```
 */
export function readStdin(options: ReadStdinOptions = {}): ReadStdinResult {
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  const fd = options.fd ?? 0;
  const waitMs = options.waitMs ?? 10_000;
  const chunks: Uint8Array[] = [];
  let total = 0;
  let waited = 0;
  const buf = new Uint8Array(CHUNK);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, CHUNK, null);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === "EOF") break;
      if (code === "EAGAIN" || code === "EWOULDBLOCK") {
        if (waited >= waitMs) {
          return { ok: false, error: "read_failed", message: "Cannot read stdin: no data and no EOF" };
        }
        sleepSync(5);
        waited += 5;
        continue;
      }
      return { ok: false, error: "read_failed", message: `Cannot read stdin: ${code ?? String(err)}` };
    }
    if (n === 0) break;
    total += n;
    if (total > maxBytes) {
      return { ok: false, error: "too_large", message: `Stdin is larger than ${maxBytes} bytes` };
    }
    chunks.push(buf.slice(0, n));
  }
  return { ok: true, text: new TextDecoder().decode(chunks.length === 1 ? chunks[0] : concatBytes(chunks)) };
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
