/**
 * Path helpers of {@linkcode toolCalls}: which strings of a tool input name files, and their
 * normalised form.
 */

const DRIVE = /^[A-Za-z]:[\\/]/;
const RELATIVE_FILE = /^[^\s:\\/-][^\s:]*\/[^\s/]*\.[\p{L}\p{N}]{1,10}$/u;
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const UNSAFE = /[$`*?[\]{}=!#^|&;<>()'"]/;
const SEPARATORS = " \t\r\n;|&()<>";

/** Backslashes become `/` and a drive letter becomes lower case: `C:\a\b` → `c:/a/b`. */
export function normalizeToolPath(path: string): string {
  let out = path.includes("\\") ? path.replaceAll("\\", "/") : path;
  if (DRIVE.test(out) && out.charCodeAt(0) < 0x61) out = out[0].toLowerCase() + out.slice(1);
  return out;
}

/**
 * Tokens of a shell command that very likely name files. Conservative by design: absolute,
 * home (`~/`), dot-relative and drive-letter paths, plus relative tokens with a `/` that end in a
 * file extension (`src/a.ts`). Tokens with globs, variables or other shell syntax, options,
 * URLs and `/dev/…` are left out. Quotes are honoured; a heredoc body is not read.
 */
export function shellPathTokens(command: string): string[] {
  const out: string[] = [];
  let token = "";
  let quote = "";
  let quoted = false;
  const flush = () => {
    if (token !== "") {
      if (token.startsWith("<<") || token.startsWith("-")) {
        // options and heredoc markers are never paths
      } else if (looksLikePath(token, quoted)) {
        out.push(token);
      }
    }
    token = "";
    quoted = false;
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote !== "") {
      if (c === quote) quote = "";
      else token += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      quoted = true;
      continue;
    }
    if (c === "<" && command[i + 1] === "<") break; // the rest is a heredoc body
    if (SEPARATORS.includes(c)) {
      flush();
      continue;
    }
    token += c;
  }
  if (quote === "") flush();
  return out;
}

function looksLikePath(token: string, quoted: boolean): boolean {
  if (token.length < 2 || token.includes("://") || UNSAFE.test(token) || CONTROL.test(token)) return false;
  if (!quoted && token.includes(" ")) return false;
  if (token[0] === "/") return !token.startsWith("//") && !token.startsWith("/dev/");
  if (DRIVE.test(token)) return true;
  if (token.startsWith("~/") || token.startsWith("./") || token.startsWith("../")) return token.length > 2;
  return !token.includes("..") && RELATIVE_FILE.test(token);
}
