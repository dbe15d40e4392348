/**
 * A short file-name-safe hash of `text`: 32-bit FNV-1a as 8 hex digits. For naming per-path cache
 * files in the state directory; not for security (callers store the full text in the file and
 * check it, so a collision only costs a cache miss).
 *
 * @example
 * ```ts
 * hashName("/home/me/repo"); // "5e2b1c0a" (for example)
 * ```
 */
export function hashName(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}
