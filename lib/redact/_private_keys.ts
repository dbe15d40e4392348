/**
 * Private helper of `lib/redact/redact.ts`: replaces PEM private key blocks (`-----BEGIN [RSA|EC|OPENSSH|
 * ENCRYPTED|DSA|...] PRIVATE KEY-----` … `-----END … PRIVATE KEY-----`) with a marker.
 *
 * Done with `indexOf` and a forward scan rather than one lazy regex, which would be quadratic on
 * text full of BEGIN lines without an END. A block without its END line (a truncated log) is
 * redacted up to the end of its run of base64 and header lines.
 */
const BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
// Body lines of an unterminated block: base64, `Proc-Type: 4,ENCRYPTED`, `DEK-Info: ...`, and
// JSON-escaped newlines (`\n`) as found in service-account files.
const BODY = /(?:[A-Za-z0-9+/=:,\- \t]|\\n|\r?\n)*/y;

export function redactPrivateKeys(text: string, marker: string, onRedact: () => void): string {
  BEGIN.lastIndex = 0;
  let out = "";
  let last = 0;
  let noEndFrom = Infinity;
  let m: RegExpExecArray | null;
  while ((m = BEGIN.exec(text)) !== null) {
    const start = m.index;
    let stop = -1;
    const from = start + m[0].length;
    if (from < noEndFrom) {
      END.lastIndex = from;
      const e = END.exec(text);
      if (e) stop = e.index + e[0].length;
      else noEndFrom = from;
    }
    if (stop < 0) {
      BODY.lastIndex = from;
      BODY.test(text);
      stop = BODY.lastIndex;
    }
    out += text.slice(last, start) + marker;
    onRedact();
    last = stop;
    BEGIN.lastIndex = stop;
  }
  return last === 0 ? text : out + text.slice(last);
}
