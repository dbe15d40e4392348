/**
 * Private helper of the session layer: control characters in text that must stay on one line.
 *
 * @module
 */

/**
 * True when `s` has a control character or a line or paragraph separator.
 *
 * @example
 * ```ts
 * hasControl("a\nb"); // true
 * hasControl("a b"); // false
 * ```
 */
export function hasControl(s: string): boolean {
  // deno-lint-ignore no-control-regex
  return /[\u0000-\u001f\u007f\u2028\u2029]/.test(s);
}
