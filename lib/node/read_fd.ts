import { readSync } from "./fs.ts";

/**
 * Up to `size` bytes of an open file from its start: fewer when it ends first (a file cut while
 * it is read). For the readers that check a descriptor (`fstat`) before they read through it.
 *
 * @example
 * ```ts
 * const fd = openSync("/work/repo/a.json", "r");
 * const bytes = readFd(fd, fstatSync(fd).size);
 * ```
 */
export function readFd(fd: number, size: number): Uint8Array {
  const buf = new Uint8Array(size);
  let at = 0;
  while (at < size) {
    const n = readSync(fd, buf, at, size - at, at);
    if (n === 0) break;
    at += n;
  }
  return buf.subarray(0, at);
}
