// Where a JSON text stops being JSON, without quoting it. JSON.parse's messages quote the text
// around the error ("Unexpected identifier "ghp_..."" in Bun, `"ghp_..." is not valid JSON` in
// V8): a file a repository points at may be any file of the user's, so a parse error is reported
// by name, code and position only (issue #22, rule 5).

/** Why a text is not JSON. A closed set. */
export type JsonSyntaxCode =
  /** A character that cannot start or continue a value here. */
  | "unexpected_character"
  /** The text ends inside a value. */
  | "unexpected_end"
  /** A string with a control character or a bad escape. */
  | "invalid_string"
  /** A malformed number. */
  | "invalid_number"
  /** Something after the value. */
  | "trailing_content"
  /** Nesting deeper than the parser's limit. */
  | "too_deep";

/** The first syntax error of a text: a code and a 1-based line and column, never the text. */
export interface JsonSyntaxError {
  code: JsonSyntaxCode;
  line: number;
  column: number;
}

const MAX_DEPTH = 512;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Finds the first syntax error of `text` (a leading BOM is skipped), or null when it is JSON.
 * Linear and iterative, so any size and nesting is safe. Use it after `JSON.parse` fails, to say
 * where without saying what.
 *
 * @example
 * ```ts
 * jsonSyntaxError('{"a": ghp_x}'); // { code: "unexpected_character", line: 1, column: 7 }
 * jsonSyntaxError('{"a": 1}'); // null
 * ```
 */
export function jsonSyntaxError(text: string): JsonSyntaxError | null {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // What each open container expects next: "value" (after [ or ,), "key", ":" or "," / "end".
  const stack: ("array" | "object")[] = [];
  const fail = (code: JsonSyntaxCode, at: number): JsonSyntaxError => {
    const p = Math.min(at, text.length);
    let line = 1;
    let start = 0;
    for (let k = 0; k < p; k++) {
      if (text.charCodeAt(k) === 10) {
        line++;
        start = k + 1;
      }
    }
    return { code: at >= text.length ? "unexpected_end" : code, line, column: p - start + 1 };
  };
  const ws = (): void => {
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
      i++;
    }
  };
  const str = (): JsonSyntaxError | null => {
    i++; // the opening quote
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return null;
      }
      if (c < 32) return fail("invalid_string", i);
      if (c === 92) {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9A-Fa-f]{4}$/.test(text.slice(i + 2, i + 6))) return fail("invalid_string", i);
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return fail("invalid_string", i);
      } else i++;
    }
    return fail("unexpected_end", i);
  };
  // A value, then what follows it, in one loop: `want` is "value" or "after".
  let want: "value" | "key" | "after" = "value";
  for (;;) {
    ws();
    if (want === "value" || want === "key") {
      if (i >= text.length) return fail("unexpected_end", i);
      const c = text[i];
      if (want === "key") {
        if (c !== '"') return fail("unexpected_character", i);
        const e = str();
        if (e) return e;
        ws();
        if (text[i] !== ":") return fail("unexpected_character", i);
        i++;
        want = "value";
        continue;
      }
      if (c === "{" || c === "[") {
        if (stack.length >= MAX_DEPTH) return fail("too_deep", i);
        stack.push(c === "{" ? "object" : "array");
        i++;
        ws();
        if (text[i] === (c === "{" ? "}" : "]")) {
          stack.pop();
          i++;
          want = "after";
        } else want = c === "{" ? "key" : "value";
        continue;
      }
      if (c === '"') {
        const e = str();
        if (e) return e;
      } else if (c === "-" || (c >= "0" && c <= "9")) {
        NUMBER.lastIndex = i;
        if (!NUMBER.test(text)) return fail("invalid_number", i);
        i = NUMBER.lastIndex;
      } else if (text.startsWith("true", i)) i += 4;
      else if (text.startsWith("null", i)) i += 4;
      else if (text.startsWith("false", i)) i += 5;
      else return fail("unexpected_character", i);
      want = "after";
      continue;
    }
    // After a value: close a container, a comma, or the end.
    const top = stack[stack.length - 1];
    if (top === undefined) return i >= text.length ? null : fail("trailing_content", i);
    if (i >= text.length) return fail("unexpected_end", i);
    const c = text[i];
    if (c === ",") {
      i++;
      want = top === "object" ? "key" : "value";
    } else if (c === (top === "object" ? "}" : "]")) {
      stack.pop();
      i++;
    } else return fail("unexpected_character", i);
  }
}

/**
 * The sentence a hook or `rehydrate doctor` may show for a text `JSON.parse` rejected: the code
 * and the position, never the content.
 *
 * @example
 * ```ts
 * describeJsonError('{"a": ghp_x}'); // "invalid_json (unexpected_character) at line 1, column 7"
 * ```
 */
export function describeJsonError(text: string): string {
  const e = jsonSyntaxError(text);
  return e === null ? "invalid_json" : `invalid_json (${e.code}) at line ${e.line}, column ${e.column}`;
}
