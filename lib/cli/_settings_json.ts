/**
 * Private helper of `rehydrate install` / `uninstall`: a strict JSON parser that keeps the
 * position of every value, and the text edits built on it. Settings files are edited by splicing
 * text at those positions, so everything we do not touch (other keys, their order, indentation,
 * CRLF, a missing final newline) stays byte for byte.
 *
 * @module
 */

/** Why a settings file could not be parsed. A closed set. */
export type JsonErrorCode =
  | "unexpected_character"
  | "unexpected_end"
  | "invalid_string"
  | "invalid_number"
  | "trailing_content"
  | "too_deep";

/** A parse error with its 1-based position. */
export interface JsonError {
  code: JsonErrorCode;
  line: number;
  column: number;
  message: string;
}

/** A member of an object node. */
export interface JsonMember {
  key: string;
  keyStart: number;
  value: JsonNode;
}

/** A parsed value with its text range `[start, end)`. */
export type JsonNode =
  | { kind: "object"; start: number; end: number; members: JsonMember[] }
  | { kind: "array"; start: number; end: number; items: JsonNode[] }
  | { kind: "string"; start: number; end: number; value: string }
  | { kind: "number"; start: number; end: number; value: number }
  | { kind: "literal"; start: number; end: number; value: boolean | null };

/** An object node. */
export type JsonObjectNode = Extract<JsonNode, { kind: "object" }>;
/** An array node. */
export type JsonArrayNode = Extract<JsonNode, { kind: "array" }>;

const MAX_DEPTH = 256;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class Fail {
  constructor(readonly code: JsonErrorCode, readonly at: number, readonly message: string) {}
}

/** Parses strict JSON (a leading BOM is skipped). Never throws. */
export function parseJsonTree(text: string): { value: JsonNode | null; error: JsonError | null } {
  let pos = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  try {
    skipWs();
    const value = parseValue(0);
    skipWs();
    if (pos < text.length) throw new Fail("trailing_content", pos, "Unexpected content after the JSON value");
    return { value, error: null };
  } catch (err) {
    if (!(err instanceof Fail)) throw err;
    const { line, column } = lineColumn(text, err.at);
    return { value: null, error: { code: err.code, line, column, message: err.message } };
  }

  function skipWs(): void {
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c === 32 || c === 9 || c === 10 || c === 13) pos++;
      else break;
    }
  }

  function parseValue(depth: number): JsonNode {
    if (depth > MAX_DEPTH) throw new Fail("too_deep", pos, `Nesting deeper than ${MAX_DEPTH} levels`);
    if (pos >= text.length) throw new Fail("unexpected_end", pos, "Unexpected end of the file");
    const c = text[pos];
    const start = pos;
    if (c === "{") {
      pos++;
      const members: JsonMember[] = [];
      skipWs();
      if (text[pos] === "}") {
        pos++;
        return { kind: "object", start, end: pos, members };
      }
      for (;;) {
        skipWs();
        if (text[pos] !== '"') throw unexpected("a key in double quotes");
        const keyStart = pos;
        const key = parseString();
        skipWs();
        if (text[pos] !== ":") throw unexpected('":"');
        pos++;
        skipWs();
        const value = parseValue(depth + 1);
        members.push({ key, keyStart, value });
        skipWs();
        if (text[pos] === ",") {
          pos++;
          continue;
        }
        if (text[pos] === "}") {
          pos++;
          return { kind: "object", start, end: pos, members };
        }
        throw unexpected('"," or "}"');
      }
    }
    if (c === "[") {
      pos++;
      const items: JsonNode[] = [];
      skipWs();
      if (text[pos] === "]") {
        pos++;
        return { kind: "array", start, end: pos, items };
      }
      for (;;) {
        skipWs();
        items.push(parseValue(depth + 1));
        skipWs();
        if (text[pos] === ",") {
          pos++;
          continue;
        }
        if (text[pos] === "]") {
          pos++;
          return { kind: "array", start, end: pos, items };
        }
        throw unexpected('"," or "]"');
      }
    }
    if (c === '"') {
      const value = parseString();
      return { kind: "string", start, end: pos, value };
    }
    if (c === "-" || (c >= "0" && c <= "9")) {
      NUMBER.lastIndex = pos;
      const m = NUMBER.exec(text);
      if (m === null) throw new Fail("invalid_number", pos, "Invalid number");
      pos += m[0].length;
      return { kind: "number", start, end: pos, value: Number(m[0]) };
    }
    for (const [word, value] of LITERALS) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return { kind: "literal", start, end: pos, value };
      }
    }
    throw unexpected("a value");
  }

  function parseString(): string {
    const open = pos++;
    let out = "";
    let run = pos;
    for (;;) {
      if (pos >= text.length) throw new Fail("unexpected_end", open, "Unterminated string");
      const c = text.charCodeAt(pos);
      if (c === 34) {
        out += text.slice(run, pos);
        pos++;
        return out;
      }
      if (c < 0x20) throw new Fail("invalid_string", pos, "Control character in a string");
      if (c !== 92) {
        pos++;
        continue;
      }
      out += text.slice(run, pos);
      const e = text[pos + 1];
      if (e === "u") {
        const hex = text.slice(pos + 2, pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Fail("invalid_string", pos, "Invalid \\u escape");
        out += String.fromCharCode(parseInt(hex, 16));
        pos += 6;
      } else {
        const mapped = ESCAPES[e as keyof typeof ESCAPES];
        if (mapped === undefined) throw new Fail("invalid_string", pos, "Invalid escape in a string");
        out += mapped;
        pos += 2;
      }
      run = pos;
    }
  }

  function unexpected(wanted: string): Fail {
    if (pos >= text.length) return new Fail("unexpected_end", pos, `Unexpected end of the file; expected ${wanted}`);
    return new Fail("unexpected_character", pos, `Unexpected ${JSON.stringify(text[pos])}; expected ${wanted}`);
  }
}

const LITERALS: [string, boolean | null][] = [["true", true], ["false", false], ["null", null]];
const ESCAPES = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" } as const;

/** 1-based line and column of an offset. */
export function lineColumn(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: at - lineStart + 1 };
}

/** The member named `key` (the last one, as `JSON.parse` keeps it), or undefined. */
export function member(node: JsonObjectNode, key: string): JsonMember | undefined {
  for (let i = node.members.length - 1; i >= 0; i--) if (node.members[i].key === key) return node.members[i];
  return undefined;
}

/** How a file is laid out, so inserted text looks like the rest. */
export interface JsonStyle {
  /** `"\r\n"` when the file uses CRLF, else `"\n"`. */
  eol: string;
  /** One level of indentation: a tab or some spaces. */
  unit: string;
  /** `": "` or `":"`, as the file writes it. */
  colon: string;
}

/** Reads the line ending, indentation unit and colon spacing of a file. */
export function detectStyle(text: string): JsonStyle {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  let unit = "  ";
  const m = /\n([ \t]+)\S/.exec(text);
  if (m) unit = m[1][0] === "\t" ? "\t" : m[1].length >= 2 && m[1].length <= 8 ? m[1] : "  ";
  const colon = /"\s*:\s/.test(text) || !/"\s*:/.test(text) ? ": " : ":";
  return { eol, unit, colon };
}

/** A replacement of `text.slice(start, end)` by `insert`. */
export interface TextEdit {
  start: number;
  end: number;
  insert: string;
}

/** Applies one edit. */
export function applyEdit(text: string, edit: TextEdit): string {
  return text.slice(0, edit.start) + edit.insert + text.slice(edit.end);
}

/** The whitespace that starts the line holding offset `at`. */
function lineIndent(text: string, at: number): string {
  let s = at;
  while (s > 0 && text[s - 1] !== "\n") s--;
  let e = s;
  while (e < text.length && (text[e] === " " || text[e] === "\t")) e++;
  return text.slice(s, e);
}

/** True when the container is written on more than one line (or is the empty root of a pretty file). */
function isMultiline(text: string, node: JsonObjectNode | JsonArrayNode): boolean {
  return text.slice(node.start, node.end).includes("\n");
}

/** Renders a value the way the surrounding file is written, starting at indentation `indent`. */
export function renderValue(value: unknown, style: JsonStyle, indent: string, multiline: boolean): string {
  if (!multiline) {
    const sep = style.colon === ": " ? ", " : ",";
    return renderInline(value, style.colon, sep);
  }
  const pretty = JSON.stringify(value, null, style.unit);
  const withColon = style.colon === ": " ? pretty : pretty.replace(/^(\s*"(?:[^"\\]|\\.)*"): /gm, "$1:");
  return withColon.replace(/\n/g, style.eol + indent);
}

function renderInline(value: unknown, colon: string, sep: string): string {
  if (Array.isArray(value)) return `[${value.map((v) => renderInline(v, colon, sep)).join(sep)}]`;
  if (value !== null && typeof value === "object") {
    return `{${
      Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}${colon}${renderInline(v, colon, sep)}`).join(sep)
    }}`;
  }
  return JSON.stringify(value);
}

/**
 * The edit that appends an item (`key` set: a member) at the end of a container. A multi-line
 * container gets it on its own line, indented like its last item; an empty one is opened onto
 * new lines when the file is pretty-printed at all, else the item goes inline.
 */
export function appendEdit(
  text: string,
  node: JsonObjectNode | JsonArrayNode,
  value: unknown,
  style: JsonStyle,
  key?: string,
): TextEdit {
  const items: { start: number; end: number }[] = node.kind === "object"
    ? node.members.map((m) => ({ start: m.keyStart, end: m.value.end }))
    : node.items;
  const prefix = key === undefined ? "" : JSON.stringify(key) + style.colon;
  if (items.length > 0) {
    const last = items[items.length - 1];
    const multiline = isMultiline(text, node);
    if (!multiline) {
      const sep = style.colon === ": " ? ", " : ",";
      return { start: last.end, end: last.end, insert: sep + prefix + renderValue(value, style, "", false) };
    }
    const indent = lineIndent(text, last.start);
    return {
      start: last.end,
      end: last.end,
      insert: "," + style.eol + indent + prefix + renderValue(value, style, indent, true),
    };
  }
  const pretty = text.trimEnd().includes("\n") || text.trim() === "{}";
  if (!pretty) {
    return { start: node.start + 1, end: node.end - 1, insert: prefix + renderValue(value, style, "", false) };
  }
  const outer = lineIndent(text, node.start);
  const inner = outer + style.unit;
  return {
    start: node.start + 1,
    end: node.end - 1,
    insert: style.eol + inner + prefix + renderValue(value, style, inner, true) + style.eol + outer,
  };
}

/**
 * The edit that removes item `index` from a container: the last item goes with the separator
 * before it, any other with the separator and whitespace after it, so removing what
 * {@linkcode appendEdit} added gives back the original text. Removing the only item empties the
 * container to `{}` / `[]`.
 */
export function removeEdit(node: JsonObjectNode | JsonArrayNode, index: number): TextEdit {
  const items: { start: number; end: number }[] = node.kind === "object"
    ? node.members.map((m) => ({ start: m.keyStart, end: m.value.end }))
    : node.items;
  if (items.length === 1) return { start: node.start + 1, end: node.end - 1, insert: "" };
  if (index === items.length - 1) return { start: items[index - 1].end, end: items[index].end, insert: "" };
  return { start: items[index].start, end: items[index + 1].start, insert: "" };
}
