/**
 * Private helper of `lib/redact/redact.ts`: replaces PEM private key blocks (`-----BEGIN [RSA|EC|OPENSSH|
 * ENCRYPTED|DSA|...] PRIVATE KEY-----` … `-----END … PRIVATE KEY-----`) with a marker.
 *
 * Done with `indexOf` and a forward scan rather than one lazy regex, which would be quadratic on
 * text full of BEGIN lines without an END. A block without its END line (a truncated log) is
 * redacted up to the end of its run of base64 and header lines.
 */
import { replaceBlocks } from "./_replace_blocks.ts";

const BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
// Body lines of an unterminated block: base64, `Proc-Type: 4,ENCRYPTED`, `DEK-Info: ...`, and
// JSON-escaped newlines (`\n`) as found in service-account files.
const BODY = /(?:[A-Za-z0-9+/=:,\- \t]|\\n|\r?\n)*/y;

export function redactPrivateKeys(text: string, marker: string, onRedact: () => void): string {
  let noEndFrom = Infinity;
  return replaceBlocks(text, marker, onRedact, (from) => {
    BEGIN.lastIndex = from;
    const m = BEGIN.exec(text);
    if (m === null) return null;
    const start = m.index;
    let stop = -1;
    const after = start + m[0].length;
    if (after < noEndFrom) {
      END.lastIndex = after;
      const e = END.exec(text);
      if (e) stop = e.index + e[0].length;
      else noEndFrom = after;
    }
    if (stop < 0) {
      BODY.lastIndex = after;
      BODY.test(text);
      stop = BODY.lastIndex;
    }
    return [start, stop];
  });
}
