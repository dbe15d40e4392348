/**
 * Private helper of `lib/redact/_rules.ts`: replaces PuTTY private key files (`.ppk`, versions 1 to
 * 3) with a marker, from their `PuTTY-User-Key-File-N:` line through the `Private-MAC:` (or
 * `Private-Hash:`) line that ends them. Found with `indexOf` and a bounded forward scan, never a
 * lazy match between the two (issue #36, N3's rule). A file cut before its MAC line (a truncated
 * log) is redacted up to the end of its run of header and base64 lines.
 *
 * @module
 */

import { replaceBlocks } from "./_replace_blocks.ts";

const HEADER = "PuTTY-User-Key-File-";
/** A key file is a few kilobytes: a MAC line further than this belongs to something else. */
const WINDOW = 64 * 1024;
const ENDINGS = ["Private-MAC:", "Private-Hash:"];
// Header and base64 lines, with real or JSON-escaped newlines.
const BODY = /(?:[A-Za-z0-9+/=:,.\- \t]|\\n|\r?\n)*/y;
const HEX = /[ \t]*[0-9A-Fa-f]*/y;

/**
 * `text` with every PuTTY private key file in it replaced by `marker`; `onRedact` is called once
 * per key.
 *
 * @example
 * ```ts
 * import { redactPuttyKeys } from "./_putty_keys.ts";
 * redactPuttyKeys("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\nAAAA\nPrivate-MAC: 0a1b\nok", "[REDACTED:private-key]", () => {});
 * // "[REDACTED:private-key]\nok"
 * ```
 */
export function redactPuttyKeys(text: string, marker: string, onRedact: () => void): string {
  return replaceBlocks(text, marker, onRedact, (from) => {
    const start = text.indexOf(HEADER, from);
    if (start < 0) return null;
    const window = text.slice(start, start + WINDOW);
    let stop = -1;
    for (const ending of ENDINGS) {
      const at = window.indexOf(ending);
      if (at >= 0 && (stop < 0 || at < stop)) stop = at + ending.length;
    }
    const rest = stop >= 0 ? HEX : BODY;
    rest.lastIndex = stop >= 0 ? start + stop : start;
    rest.test(text);
    return [start, rest.lastIndex];
  });
}
