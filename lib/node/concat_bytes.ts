/**
 * The bytes of `parts` one after the other, in a new array from `alloc` (a plain `Uint8Array` by
 * default; the transcript reader passes Buffer's when it reads Buffers).
 *
 * @example
 * ```ts
 * concatBytes([new Uint8Array([1, 2]), new Uint8Array([3])]); // Uint8Array [1, 2, 3]
 * ```
 */
export function concatBytes(
  parts: readonly Uint8Array[],
  alloc: (n: number) => Uint8Array = (n) => new Uint8Array(n),
): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = alloc(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
