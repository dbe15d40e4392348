/**
 * Private helper of `lib/redact/_private_keys.ts` and `lib/redact/_putty_keys.ts`: replaces each
 * block `find` reports with `marker`, scanning forward from the end of the one before.
 *
 * @module
 */

/**
 * `text` with every block `[start, stop)` that `find(from)` gives (the first one at or after
 * `from`, or null for none) replaced by `marker`; `onRedact` is called once per block. The input
 * string is returned as is when there is none.
 *
 * @example
 * ```ts
 * import { replaceBlocks } from "./_replace_blocks.ts";
 * replaceBlocks("a[x]b[y]", "#", () => {}, (from) => {
 *   const start = "a[x]b[y]".indexOf("[", from);
 *   return start < 0 ? null : [start, "a[x]b[y]".indexOf("]", start) + 1];
 * }); // "a#b#"
 * ```
 */
export function replaceBlocks(
  text: string,
  marker: string,
  onRedact: () => void,
  find: (from: number) => readonly [number, number] | null,
): string {
  let out = "";
  let last = 0;
  let found = find(0);
  while (found !== null) {
    const [start, stop] = found;
    out += text.slice(last, start) + marker;
    onRedact();
    last = stop;
    found = find(stop);
  }
  return last === 0 ? text : out + text.slice(last);
}
