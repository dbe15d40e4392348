/**
 * `bytes` random bytes from the Web Crypto API as lowercase hex. Used for temp-file and claim
 * names and compaction ids; `globalThis.crypto` exists in Bun, Deno and Node, where importing
 * `node:crypto` would slow a compiled hook's start (it loads the streams stack; bench/README.md).
 *
 * @example
 * ```ts
 * randomHex(4); // "9f03a1c2"
 * ```
 */
export function randomHex(bytes: number): string {
  const buf = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(buf);
  let out = "";
  for (const b of buf) out += (b < 16 ? "0" : "") + b.toString(16);
  return out;
}
