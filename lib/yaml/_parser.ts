/**
 * The single-pass scanner/parser behind {@link parseYaml}. It walks the normalised source once,
 * building plain JS values directly, and stops at the first error: a sentinel is thrown inside
 * and caught by `parseYaml`, which is the only caller.
 *
 * Every node parser returns with `pos` at the first character of the next content line (or at
 * the end of input) and `indent` holding that line's indentation (-1 at the end).
 *
 * @module
 */

import type { YamlError, YamlErrorCode } from "./parse_yaml.ts";
import { plainKeyToString, readHex, resolvePlain, SIMPLE_ESCAPES } from "./_scalars.ts";

/** Thrown internally to unwind on the first error; never escapes `parseYaml`. */
export class YamlAbort {
  error: YamlError;
  constructor(error: YamlError) {
    this.error = error;
  }
}

const CTX_DOC = 0;
const CTX_MAP_VALUE = 1;
const CTX_SEQ_ITEM = 2;

const SCAN_EOL = 0;
const SCAN_KEY = 1;
const SCAN_COMMENT = 2;
const SCAN_FLOW = 3;

const KEY_MAX_CHARS = 1024;
/** Characters that start a key other than a plain scalar (parseIndicatorKey handles each). */
const KEY_INDICATORS = "&*![{?|>%@`,]}\"'";
/** Characters that start a node parseIndicatorNode handles (flow and quoted nodes go elsewhere). */
const NODE_INDICATORS = "&*!%@`,]}?|>-";

// Native scans instead of per-character loops: in a cold process every JS operation runs in the
// interpreter, while a regex or indexOf runs natively. Shared and stateful (lastIndex): each is
// set and read back with nothing in between.
// The first stop of a plain scalar's line: a line break, a `:` ending a key, a ` #` comment.
const PLAIN_STOP_RE = /\n|:(?=[ \t\n]|$)|[ \t]#/g;
// The same inside a flow collection, where `,[]{}` also stop it and end a key's `:`.
const FLOW_PLAIN_STOP_RE = /\n|:(?=[ \t\n,[\]{}]|$)|[ \t]#|[,[\]{}]/g;
// The characters a single- or double-quoted scalar must look at.
const SQ_STOP_RE = /['\n]/g;
const DQ_STOP_RE = /["\\\n]/g;
// Blank and comment-only lines, each with its line break.
const BLANK_LINES_RE = /(?:[ \t]*(?:#[^\n]*)?\n)*/y;
const SPACES_RE = / */y;
const SPACES_TABS_RE = /[ \t]*/y;

function isFlowIndicator(c: string | undefined): boolean {
  return c === "," || c === "[" || c === "]" || c === "{" || c === "}";
}

function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  // `__proto__` must become an own property, never the prototype (hostile input).
  if (key === "__proto__") {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  } else obj[key] = value;
}

/** Block/flow YAML parser over an already normalised string (no BOM, no CR). */
export class YamlParser {
  src: string;
  len: number;
  pos = 0;
  indent = -1;
  depth = 0;
  maxDepth: number;
  // Scratch results of scanPlainLine(), kept as fields to avoid allocating per call.
  scanEnd = 0;
  scanStop = 0;
  scanAt = 0;
  itemIsCollection = false;
  flowLevel = 0;
  // A tab in the separation before an inline node; fatal only if that node is a block collection.
  tabAt = -1;

  constructor(src: string, maxDepth: number) {
    this.src = src;
    this.len = src.length;
    this.maxDepth = maxDepth;
  }

  fail(code: YamlErrorCode, at: number, message: string): never {
    let line = 1;
    let lineStart = 0;
    const src = this.src;
    const end = Math.min(at, this.len);
    for (let i = 0; i < end; i++) {
      if (src.charCodeAt(i) === 10) {
        line++;
        lineStart = i + 1;
      }
    }
    throw new YamlAbort({ code, line, column: end - lineStart + 1, message });
  }

  // ---- low-level helpers -------------------------------------------------------------------

  isWsOrEnd(i: number): boolean {
    if (i >= this.len) return true;
    const c = this.src[i];
    return c === " " || c === "\t" || c === "\n";
  }

  lineStartOf(i: number): number {
    const nl = this.src.lastIndexOf("\n", i - 1);
    return nl + 1;
  }

  /** True when `i` starts a line holding a `---` or `...` document marker. */
  isMarker(i: number): boolean {
    const src = this.src;
    if (i !== 0 && src[i - 1] !== "\n") return false;
    const c = src[i];
    if (c !== "-" && c !== ".") return false;
    return src[i + 1] === c && src[i + 2] === c && this.isWsOrEnd(i + 3);
  }

  enter(at: number): void {
    if (++this.depth > this.maxDepth) {
      this.fail("MAX_DEPTH", at, `Cannot parse YAML: nesting is deeper than ${this.maxDepth} levels`);
    }
  }

  /** Fails on the anchor (`&`), alias (`*`) or tag (`!`) at `at`: node properties are not supported. */
  failNodeProperty(at: number): never {
    const c = this.src[at];
    if (c === "&") return this.fail("UNSUPPORTED_ANCHOR", at, "Cannot parse YAML: anchors are not supported");
    if (c === "*") return this.fail("UNSUPPORTED_ALIAS", at, "Cannot parse YAML: aliases are not supported");
    return this.fail("UNSUPPORTED_TAG", at, "Cannot parse YAML: tags are not supported");
  }

  /** After a node on the current line: allow spaces and a comment, then consume the line break. */
  finishLine(): void {
    const src = this.src;
    let i = this.pos;
    if (src[i] === "\n") {
      this.pos = i + 1;
      return;
    }
    while (i < this.len && (src[i] === " " || src[i] === "\t")) i++;
    const prev = src[i - 1];
    if (src[i] === "#" && (i === 0 || prev === " " || prev === "\t" || prev === "\n")) {
      const nl = src.indexOf("\n", i);
      i = nl === -1 ? this.len : nl;
    }
    if (i < this.len && src[i] !== "\n") {
      this.fail("UNEXPECTED_TOKEN", i, "Cannot parse YAML: unexpected content after a value");
    }
    this.pos = i < this.len ? i + 1 : i;
  }

  /** From a line start, skips blank and comment lines; sets and returns `indent`. */
  nextContent(): number {
    const src = this.src;
    const lineStart = this.pos;
    SPACES_RE.lastIndex = lineStart;
    SPACES_RE.test(src);
    const i = SPACES_RE.lastIndex;
    const c = src[i];
    if (c !== "\n" && c !== "#" && c !== "\t" && c !== undefined) {
      // The common case: this line has content.
      this.pos = i;
      this.indent = i - lineStart;
      return this.indent;
    }
    return this.skipToContent();
  }

  /** nextContent() past blank and comment lines. */
  skipToContent(): number {
    const src = this.src;
    const len = this.len;
    BLANK_LINES_RE.lastIndex = this.pos;
    BLANK_LINES_RE.test(src);
    const lineStart = BLANK_LINES_RE.lastIndex;
    SPACES_RE.lastIndex = lineStart;
    SPACES_RE.test(src);
    const i = SPACES_RE.lastIndex;
    // What follows the indentation is content, or the last line's comment or blanks (the lines
    // ending with a line break were all skipped above).
    let c = src[i];
    if (c === "\t") {
      SPACES_TABS_RE.lastIndex = i;
      SPACES_TABS_RE.test(src);
      c = src[SPACES_TABS_RE.lastIndex];
      if (c !== undefined && c !== "#") {
        this.fail("TAB_INDENT", i, "Cannot parse YAML: tabs are not allowed in indentation");
      }
    }
    if (c === undefined || c === "#") {
      this.pos = len;
      this.indent = -1;
      return -1;
    }
    this.pos = i;
    this.indent = i - lineStart;
    return this.indent;
  }

  /** finishLine() + nextContent(). */
  toNextContent(): void {
    this.finishLine();
    this.nextContent();
  }

  // ---- document --------------------------------------------------------------------------

  parseDocument(): unknown {
    const src = this.src;
    let value: unknown = null;
    this.pos = 0;
    this.nextContent();
    if (this.indent === 0 && src[this.pos] === "%") {
      this.fail("UNSUPPORTED_DIRECTIVE", this.pos, "Cannot parse YAML: directives are not supported");
    }
    if (this.indent === 0 && this.isMarker(this.pos) && src[this.pos] === "-") {
      this.pos += 3;
      value = this.parseValue(-1, CTX_DOC);
    } else if (this.indent >= 0 && !this.isMarker(this.pos)) {
      value = this.parseNode(-1, CTX_DOC, false);
    }
    if (this.indent < 0) return value;
    if (this.isMarker(this.pos)) {
      if (src[this.pos] === ".") {
        this.pos += 3;
        this.toNextContent();
        if (this.indent < 0) return value;
      }
      this.fail("MULTI_DOCUMENT", this.pos, "Cannot parse YAML: only a single document is supported");
    }
    return this.fail("UNEXPECTED_TOKEN", this.pos, "Cannot parse YAML: unexpected content after the document");
  }

  // ---- block structure ---------------------------------------------------------------------

  /**
   * Parses the value after an indicator (`key:`, `-`, `---`) with `pos` still on that line.
   * `parentIndent` is the indentation of the collection owning the indicator.
   */
  parseValue(parentIndent: number, ctx: number): unknown {
    const src = this.src;
    let i = this.pos;
    this.tabAt = -1;
    // Usually a single space separates the indicator from the value.
    if (src[i] === " ") i++;
    let c = src[i];
    while (c === " " || c === "\t") {
      if (c === "\t" && this.tabAt === -1) this.tabAt = i;
      c = src[++i];
    }
    if (c === undefined || c === "\n" || c === "#") {
      this.pos = i;
      this.toNextContent();
      const ind = this.indent;
      if (ind < 0 || (ind === 0 && this.isMarker(this.pos))) return null;
      if (ind > parentIndent) return this.parseNode(parentIndent, ctx, false);
      if (
        ind === parentIndent && ctx === CTX_MAP_VALUE && src[this.pos] === "-" &&
        this.isWsOrEnd(this.pos + 1)
      ) {
        return this.parseBlockSeq(ind, true);
      }
      return null;
    }
    this.pos = i;
    return this.parseNode(parentIndent, ctx, true);
  }

  /** Parses the node at `pos`. `inline`: it shares its line with the parent's indicator. */
  parseNode(parentIndent: number, ctx: number, inline: boolean): unknown {
    // Kept small: most nodes are plain scalars or block mapping keys, and a small function stays
    // cheap when the runtime compiles it after its first calls.
    const c = this.src[this.pos];
    if (NODE_INDICATORS.includes(c)) return this.parseIndicatorNode(parentIndent, ctx, inline);
    switch (c) {
      case "[":
      case "{":
        return this.parseFlowNode(parentIndent);
      case '"':
      case "'":
        return this.parseQuotedNode(parentIndent, ctx, inline);
    }
    return this.parsePlainNode(parentIndent, ctx, inline);
  }

  /** parseNode() for a node starting with an indicator character. */
  parseIndicatorNode(parentIndent: number, ctx: number, inline: boolean): unknown {
    const src = this.src;
    const start = this.pos;
    const c = src[start];
    const collectionsHere = !inline || ctx === CTX_SEQ_ITEM;
    const tabAt = inline ? this.tabAt : -1;
    switch (c) {
      case "&":
      case "*":
      case "!":
        return this.failNodeProperty(start);
      case "%":
      case "@":
      case "`":
      case ",":
      case "]":
      case "}":
        return this.fail("UNEXPECTED_TOKEN", start, `Cannot parse YAML: a value cannot start with ${c}`);
      case "?":
        if (this.isWsOrEnd(start + 1)) {
          return this.fail("UNSUPPORTED_COMPLEX_KEY", start, "Cannot parse YAML: complex keys are not supported");
        }
        break;
      case "|":
      case ">":
        return this.parseBlockScalar(parentIndent);
      case "-":
        if (this.isWsOrEnd(start + 1)) {
          if (!collectionsHere) {
            return this.fail(
              "UNEXPECTED_TOKEN",
              start,
              "Cannot parse YAML: a sequence cannot start on the line of its key",
            );
          }
          if (tabAt !== -1) this.fail("TAB_INDENT", tabAt, "Cannot parse YAML: tabs are not allowed in indentation");
          return this.parseBlockSeq(start - this.lineStartOf(start), false);
        }
        break;
    }
    return this.parsePlainNode(parentIndent, ctx, inline);
  }

  /** parseNode() for a flow collection. */
  parseFlowNode(parentIndent: number): unknown {
    const src = this.src;
    const start = this.pos;
    const v = this.parseFlow(parentIndent);
    let i = this.pos;
    while (i < this.len && (src[i] === " " || src[i] === "\t")) i++;
    if (src[i] === ":" && this.isWsOrEnd(i + 1)) {
      return this.fail("UNSUPPORTED_COMPLEX_KEY", start, "Cannot parse YAML: collection keys are not supported");
    }
    this.toNextContent();
    return v;
  }

  /** parseNode() for a quoted scalar, possibly the first key of a block mapping. */
  parseQuotedNode(parentIndent: number, ctx: number, inline: boolean): unknown {
    const src = this.src;
    const start = this.pos;
    const s = this.parseQuoted(parentIndent);
    let i = this.pos;
    while (i < this.len && (src[i] === " " || src[i] === "\t")) i++;
    if (src[i] === ":" && this.isWsOrEnd(i + 1)) {
      if (src.lastIndexOf("\n", i) >= start) {
        return this.fail("MULTILINE_KEY", start, "Cannot parse YAML: implicit keys must be on a single line");
      }
      if (inline && ctx !== CTX_SEQ_ITEM) {
        return this.fail("UNEXPECTED_TOKEN", start, "Cannot parse YAML: nested mappings must start on a new line");
      }
      if (inline && this.tabAt !== -1) {
        this.fail("TAB_INDENT", this.tabAt, "Cannot parse YAML: tabs are not allowed in indentation");
      }
      return this.parseBlockMap(start - this.lineStartOf(start), s, start, i);
    }
    this.toNextContent();
    return s;
  }

  /** parseNode() for a plain scalar, possibly the first key of a block mapping. */
  parsePlainNode(parentIndent: number, ctx: number, inline: boolean): unknown {
    const src = this.src;
    const start = this.pos;
    this.scanPlainLine(start, false);
    if (this.scanStop === SCAN_KEY) {
      if (inline && ctx !== CTX_SEQ_ITEM) {
        return this.fail("UNEXPECTED_TOKEN", start, "Cannot parse YAML: nested mappings must start on a new line");
      }
      if (inline && this.tabAt !== -1) {
        this.fail("TAB_INDENT", this.tabAt, "Cannot parse YAML: tabs are not allowed in indentation");
      }
      const col = start - this.lineStartOf(start);
      return this.parseBlockMap(col, plainKeyToString(src.slice(start, this.scanEnd)), start, this.scanAt);
    }
    const text = this.plainMultiline(start, parentIndent + 1, false);
    this.toNextContent();
    return resolvePlain(text);
  }

  /**
   * Scans one line of a plain scalar from `i`. Sets `scanEnd` (exclusive, trailing spaces
   * trimmed), `scanStop` (why it stopped) and `scanAt` (where).
   */
  scanPlainLine(i: number, inFlow: boolean): void {
    const src = this.src;
    const re = inFlow ? FLOW_PLAIN_STOP_RE : PLAIN_STOP_RE;
    re.lastIndex = i;
    let at: number;
    let stop = SCAN_EOL;
    if (re.test(src)) {
      at = re.lastIndex - 1;
      const c = src[at];
      if (c === ":") stop = SCAN_KEY;
      else if (c === "#") {
        stop = SCAN_COMMENT;
        at--;
      } else if (c !== "\n") stop = SCAN_FLOW;
    } else at = this.len;
    let end = at;
    while (end > i && (src[end - 1] === " " || src[end - 1] === "\t")) end--;
    this.scanEnd = end;
    this.scanStop = stop;
    this.scanAt = at;
  }

  /**
   * Reads a plain scalar whose first line was just scanned, folding continuation lines indented
   * at least `minIndent`. Leaves `pos` right after its last character.
   */
  plainMultiline(start: number, minIndent: number, inFlow: boolean): string {
    const src = this.src;
    const end = this.scanEnd;
    let single = this.scanStop !== SCAN_EOL || this.scanAt >= this.len;
    if (!single && !inFlow) {
      // Does the next line end the scalar (less indented, a comment, the end)? Usually it does.
      const ls = this.scanAt + 1;
      SPACES_RE.lastIndex = ls;
      SPACES_RE.test(src);
      const i = SPACES_RE.lastIndex;
      const c = src[i];
      single = c === undefined || c === "#" || (i - ls < minIndent && c !== "\n");
    }
    if (single) {
      this.pos = end;
      return src.slice(start, end);
    }
    return this.plainLines(start, minIndent, inFlow);
  }

  /** plainMultiline() when continuation lines may follow. */
  plainLines(start: number, minIndent: number, inFlow: boolean): string {
    const src = this.src;
    const len = this.len;
    let text = src.slice(start, this.scanEnd);
    let lastEnd = this.scanEnd;
    let stop = this.scanStop;
    let at = this.scanAt;
    while (stop === SCAN_EOL && at < len) {
      // `at` is on a line break: look for the next non-blank line.
      let i = at + 1;
      let blank = 0;
      let ind = 0;
      let contentAt = -1;
      let lineStart = i;
      while (i < len) {
        lineStart = i;
        SPACES_RE.lastIndex = i;
        SPACES_RE.test(src);
        i = SPACES_RE.lastIndex;
        ind = i - lineStart;
        let c = src[i];
        if (c === "\t") {
          // Like `yaml`, a line led by a tab below the continuation indent ends the scalar.
          if (!inFlow && ind < minIndent) break;
          SPACES_TABS_RE.lastIndex = i;
          SPACES_TABS_RE.test(src);
          i = SPACES_TABS_RE.lastIndex;
          c = src[i];
        }
        if (c === "\n") {
          blank++;
          i++;
          continue;
        }
        if (c !== undefined) contentAt = i;
        break;
      }
      if (contentAt === -1) break;
      if (src[contentAt] === "#" || (ind === 0 && this.isMarker(lineStart))) break;
      if (inFlow) {
        if (isFlowIndicator(src[contentAt]) || src[contentAt] === ":") break;
        if (ind < minIndent) {
          this.fail("BAD_INDENT", contentAt, "Cannot parse YAML: flow collection lines must be indented");
        }
      } else if (ind < minIndent) break;
      this.scanPlainLine(contentAt, inFlow);
      if (this.scanStop === SCAN_KEY && !inFlow) {
        this.fail("MULTILINE_KEY", start, "Cannot parse YAML: implicit keys must be on a single line");
      }
      if (this.scanEnd > contentAt) {
        text += (blank === 0 ? " " : "\n".repeat(blank)) + src.slice(contentAt, this.scanEnd);
        lastEnd = this.scanEnd;
      } else {
        lastEnd = contentAt;
        break;
      }
      stop = this.scanStop;
      at = this.scanAt;
    }
    this.pos = lastEnd;
    return text;
  }

  /** Block mapping at column `m`; its first key is already read and `colon` is its `:`. */
  parseBlockMap(m: number, firstKey: string, keyStart: number, colon: number): Record<string, unknown> {
    const src = this.src;
    this.enter(keyStart);
    const obj: Record<string, unknown> = {};
    let key = firstKey;
    for (;;) {
      if (colon - keyStart > KEY_MAX_CHARS) {
        this.fail(
          "KEY_TOO_LONG",
          keyStart,
          `Cannot parse YAML: implicit keys are limited to ${KEY_MAX_CHARS} characters`,
        );
      }
      if (Object.hasOwn(obj, key)) {
        this.fail("DUPLICATE_KEY", keyStart, `Cannot parse YAML: duplicate key ${JSON.stringify(key)}`);
      }
      this.pos = colon + 1;
      const value = this.parseValue(m, CTX_MAP_VALUE);
      if (key === "__proto__") setKey(obj, key, value);
      else obj[key] = value;
      const ind = this.indent;
      if (ind < m || (ind === 0 && this.isMarker(this.pos))) break;
      if (ind > m) {
        this.fail("BAD_INDENT", this.pos, "Cannot parse YAML: mapping entries must start at the same column");
      }
      keyStart = this.pos;
      if (src[keyStart] === "-" && this.isWsOrEnd(keyStart + 1)) {
        this.fail(
          "UNEXPECTED_TOKEN",
          keyStart,
          "Cannot parse YAML: a sequence item cannot appear among mapping entries",
        );
      }
      key = this.parseKey();
      colon = this.scanAt;
    }
    this.depth--;
    return obj;
  }

  /** Reads an implicit key at `pos` and leaves its `:` position in `scanAt`. */
  parseKey(): string {
    const src = this.src;
    const start = this.pos;
    if (KEY_INDICATORS.includes(src[start])) return this.parseIndicatorKey();
    this.scanPlainLine(start, false);
    if (this.scanStop !== SCAN_KEY) {
      return this.fail("MISSING_COLON", start, "Cannot parse YAML: a mapping key must be followed by a colon");
    }
    return plainKeyToString(src.slice(start, this.scanEnd));
  }

  /** parseKey() for a key starting with an indicator character. */
  parseIndicatorKey(): string {
    const src = this.src;
    const start = this.pos;
    const c = src[start];
    switch (c) {
      case "&":
      case "*":
      case "!":
        return this.failNodeProperty(start);
      case "[":
      case "{":
        return this.fail("UNSUPPORTED_COMPLEX_KEY", start, "Cannot parse YAML: collection keys are not supported");
      case "?":
        if (this.isWsOrEnd(start + 1)) {
          return this.fail("UNSUPPORTED_COMPLEX_KEY", start, "Cannot parse YAML: complex keys are not supported");
        }
        break;
      case "|":
      case ">":
      case "%":
      case "@":
      case "`":
      case ",":
      case "]":
      case "}":
        return this.fail("UNEXPECTED_TOKEN", start, `Cannot parse YAML: a key cannot start with ${c}`);
      case '"':
      case "'": {
        const s = this.parseQuoted(-1);
        let i = this.pos;
        while (i < this.len && (src[i] === " " || src[i] === "\t")) i++;
        if (src[i] === ":" && this.isWsOrEnd(i + 1)) {
          if (src.lastIndexOf("\n", i) >= start) {
            return this.fail("MULTILINE_KEY", start, "Cannot parse YAML: implicit keys must be on a single line");
          }
          this.scanAt = i;
          return s;
        }
        return this.fail("MISSING_COLON", start, "Cannot parse YAML: a mapping key must be followed by a colon");
      }
    }
    this.scanPlainLine(start, false);
    if (this.scanStop !== SCAN_KEY) {
      return this.fail("MISSING_COLON", start, "Cannot parse YAML: a mapping key must be followed by a colon");
    }
    return plainKeyToString(src.slice(start, this.scanEnd));
  }

  /** Block sequence whose first `-` is at `pos`, column `s`. */
  parseBlockSeq(s: number, compact: boolean): unknown[] {
    const src = this.src;
    this.enter(this.pos);
    const arr: unknown[] = [];
    for (;;) {
      this.pos++;
      arr.push(this.parseValue(s, CTX_SEQ_ITEM));
      const ind = this.indent;
      if (ind < s || (ind === 0 && this.isMarker(this.pos))) break;
      if (ind > s) this.fail("BAD_INDENT", this.pos, "Cannot parse YAML: sequence items must start at the same column");
      if (src[this.pos] === "-" && this.isWsOrEnd(this.pos + 1)) continue;
      if (compact) break;
      this.fail("UNEXPECTED_TOKEN", this.pos, "Cannot parse YAML: expected a sequence item");
    }
    this.depth--;
    return arr;
  }

  // ---- scalars -----------------------------------------------------------------------------

  /**
   * Quoted scalar at `pos`. Continuation lines must be indented more than `parentIndent`, the
   * enclosing block collection's indentation (-1 for keys, which must be single-line anyway).
   */
  parseQuoted(parentIndent: number): string {
    const src = this.src;
    const start = this.pos;
    const q = src[start];
    const dq = q === '"';
    const re = dq ? DQ_STOP_RE : SQ_STOP_RE;
    let out = "";
    let i = start + 1;
    let seg = i;
    for (;;) {
      // Jump to the next quote, backslash (double-quoted only) or line break.
      re.lastIndex = i;
      if (!re.test(src)) {
        return this.fail("UNTERMINATED_STRING", start, "Cannot parse YAML: missing closing quote");
      }
      i = re.lastIndex - 1;
      const c = src[i];
      if (c === q) {
        if (!dq && src[i + 1] === "'") {
          out += src.slice(seg, i + 1);
          i += 2;
          seg = i;
          continue;
        }
        out += src.slice(seg, i);
        this.pos = i + 1;
        return out;
      }
      if (dq && c === "\\") {
        out += src.slice(seg, i);
        const e = src[i + 1];
        if (e === "\n") {
          i = this.foldQuotedBreak(i + 1, start, parentIndent);
          // Matches `yaml`: after an escaped break, the first empty line folds to a space.
          const blank = this.scanEnd;
          if (blank === 1) out += " ";
          else if (blank > 1) out += "\n".repeat(blank - 1);
          seg = i;
          continue;
        }
        const simple = e === undefined ? undefined : SIMPLE_ESCAPES[e];
        if (simple !== undefined) {
          out += simple;
          i += 2;
          seg = i;
          continue;
        }
        const n = e === "x" ? 2 : e === "u" ? 4 : e === "U" ? 8 : 0;
        const code = n === 0 ? -1 : readHex(src, i + 2, n);
        if (code < 0 || code > 0x10ffff) {
          return this.fail("BAD_ESCAPE", i, "Cannot parse YAML: invalid escape sequence in a double-quoted string");
        }
        out += String.fromCodePoint(code);
        i += 2 + n;
        seg = i;
        continue;
      }
      if (c === "\n") {
        let j = i;
        while (j > seg && (src[j - 1] === " " || src[j - 1] === "\t")) j--;
        out += src.slice(seg, j);
        i = this.foldQuotedBreak(i, start, parentIndent);
        out += this.scanEnd === 0 ? " " : "\n".repeat(this.scanEnd);
        seg = i;
      }
    }
  }

  /**
   * Skips the line break at `nl` plus following blank lines inside a quoted scalar, checking
   * indentation. Returns the index of the next content character; `scanEnd` = blank lines.
   */
  foldQuotedBreak(nl: number, start: number, parentIndent: number): number {
    const src = this.src;
    const len = this.len;
    let i = nl + 1;
    let blank = 0;
    for (;;) {
      const ls = i;
      while (i < len && src[i] === " ") i++;
      const ind = i - ls;
      while (i < len && (src[i] === " " || src[i] === "\t")) i++;
      if (i >= len) {
        return this.fail("UNTERMINATED_STRING", start, "Cannot parse YAML: missing closing quote");
      }
      if (src[i] === "\n") {
        blank++;
        i++;
        continue;
      }
      if (this.isMarker(ls) || ind <= parentIndent) {
        return this.fail("UNTERMINATED_STRING", start, "Cannot parse YAML: missing closing quote");
      }
      this.scanEnd = blank;
      return i;
    }
  }

  /** `|` or `>` block scalar at `pos`; content must be indented more than `parentIndent`. */
  parseBlockScalar(parentIndent: number): string {
    const src = this.src;
    const len = this.len;
    const start = this.pos;
    const folded = src[start] === ">";
    let chomp = "";
    let explicit = 0;
    let i = start + 1;
    for (; i < len; i++) {
      const c = src[i];
      if ((c === "-" || c === "+") && chomp === "") chomp = c;
      else if (c >= "1" && c <= "9" && explicit === 0) explicit = c.charCodeAt(0) - 48;
      else break;
    }
    if (i < len && src[i] !== " " && src[i] !== "\t" && src[i] !== "\n") {
      this.fail("BAD_BLOCK_SCALAR", i, "Cannot parse YAML: invalid block scalar header");
    }
    this.pos = i;
    this.finishLine();
    const base = parentIndent < 0 ? 0 : parentIndent;
    let trimIndent = explicit > 0 ? base + explicit : -1;
    // Pass 1: find the lines belonging to the scalar.
    i = this.pos;
    const bodyStart = i;
    let end = i; // start of the first line not in the scalar
    let maxLeadingBlank = 0;
    let sawContent = false;
    while (i < len) {
      const ls = i;
      while (i < len && src[i] === " ") i++;
      const ind = i - ls;
      if (i >= len) {
        end = len;
        break;
      }
      if (src[i] === "\n") {
        if (!sawContent && ind > maxLeadingBlank) maxLeadingBlank = ind;
        i++;
        end = i;
        continue;
      }
      if (this.isMarker(ls)) {
        end = ls;
        break;
      }
      if (!sawContent && trimIndent < 0) {
        if (ind <= parentIndent) {
          end = ls;
          break;
        }
        if (maxLeadingBlank > ind) {
          this.fail(
            "BAD_INDENT",
            ls + ind,
            "Cannot parse YAML: leading empty lines are more indented than the block scalar",
          );
        }
        trimIndent = ind;
      }
      if (ind < trimIndent) {
        if (src[i] === "\t") this.fail("TAB_INDENT", i, "Cannot parse YAML: tabs are not allowed in indentation");
        end = ls;
        break;
      }
      sawContent = true;
      const nl = src.indexOf("\n", i);
      if (nl === -1) {
        i = len;
        end = len;
        break;
      }
      i = nl + 1;
      end = i;
    }
    if (trimIndent === 0 && parentIndent >= 0) {
      this.fail("BAD_INDENT", start, "Cannot parse YAML: block scalar content must be indented");
    }
    // Pass 2: build the value over [bodyStart, end), following the `yaml` package's folding.
    const lineInd: number[] = [];
    const lineFrom: number[] = [];
    const lineTo: number[] = [];
    i = bodyStart;
    while (i < end) {
      let nl = src.indexOf("\n", i);
      if (nl === -1 || nl > end) nl = end;
      let j = i;
      while (j < nl && src[j] === " ") j++;
      lineInd.push(j - i);
      lineFrom.push(j);
      lineTo.push(nl);
      i = nl + 1;
    }
    if (end > bodyStart && src[end - 1] === "\n") {
      lineInd.push(0);
      lineFrom.push(end);
      lineTo.push(end);
    }
    const n = lineInd.length;
    this.pos = end;
    this.nextContent();
    let chompStart = n;
    for (let k = n - 1; k >= 0; k--) {
      if (lineFrom[k] === lineTo[k]) chompStart = k;
      else break;
    }
    if (chompStart === 0) {
      return chomp === "+" && n > 0 ? "\n".repeat(Math.max(1, n - 1)) : "";
    }
    if (trimIndent < 0) trimIndent = 0;
    let contentStart = 0;
    while (contentStart < n && lineFrom[contentStart] === lineTo[contentStart]) contentStart++;
    for (let k = n - 1; k >= chompStart; k--) {
      if (lineInd[k] > trimIndent) chompStart = k + 1;
    }
    let value = "";
    let sep = "";
    let prevMore = false;
    for (let k = 0; k < contentStart; k++) value += " ".repeat(Math.max(0, lineInd[k] - trimIndent)) + "\n";
    for (let k = contentStart; k < chompStart; k++) {
      const ind = lineInd[k];
      const content = src.slice(lineFrom[k], lineTo[k]);
      const extra = ind > trimIndent ? " ".repeat(ind - trimIndent) : "";
      if (!folded) {
        value += sep + extra + content;
        sep = "\n";
      } else if (ind > trimIndent || content[0] === "\t") {
        if (sep === " ") sep = "\n";
        else if (!prevMore && sep === "\n") sep = "\n\n";
        value += sep + extra + content;
        sep = "\n";
        prevMore = true;
      } else if (content === "") {
        if (sep === "\n") value += "\n";
        else sep = "\n";
      } else {
        value += sep + content;
        sep = " ";
        prevMore = false;
      }
    }
    if (chomp === "+") {
      for (let k = chompStart; k < n; k++) {
        value += "\n" + (lineInd[k] > trimIndent ? " ".repeat(lineInd[k] - trimIndent) : "");
      }
      if (value[value.length - 1] !== "\n") value += "\n";
    } else if (chomp === "") value += "\n";
    return value;
  }

  // ---- flow collections --------------------------------------------------------------------

  /** Skips spaces, comments and line breaks inside a flow collection, checking indentation. */
  skipFlowSpace(parentIndent: number, open: number): void {
    const src = this.src;
    const len = this.len;
    let i = this.pos;
    let atLineStart = false;
    let lineStart = -1;
    for (;;) {
      if (i >= len) {
        this.fail("UNTERMINATED_FLOW", open, "Cannot parse YAML: flow collection is not closed");
      }
      const c = src[i];
      if (c === " " || c === "\t") {
        i++;
        continue;
      }
      if (c === "\n") {
        i++;
        atLineStart = true;
        lineStart = i;
        continue;
      }
      if (c === "#" && (i === 0 || src[i - 1] === " " || src[i - 1] === "\t" || src[i - 1] === "\n")) {
        const nl = src.indexOf("\n", i);
        i = nl === -1 ? len : nl;
        continue;
      }
      break;
    }
    if (atLineStart) {
      if (this.isMarker(lineStart)) {
        this.fail("UNTERMINATED_FLOW", open, "Cannot parse YAML: flow collection is not closed");
      }
      let ind = 0;
      while (src[lineStart + ind] === " ") ind++;
      const c = src[i];
      // Like `yaml`, the outermost closing bracket may sit at the parent's indentation.
      const closesAtParent = (c === "]" || c === "}") && ind === parentIndent && this.flowLevel === 1;
      if (ind <= parentIndent && !closesAtParent) {
        this.fail("BAD_INDENT", i, "Cannot parse YAML: flow collection lines must be indented");
      }
      if (lineStart + ind < i && src[lineStart + ind] === "\t" && ind <= parentIndent) {
        this.fail("TAB_INDENT", lineStart + ind, "Cannot parse YAML: tabs are not allowed in indentation");
      }
    }
    this.pos = i;
  }

  /** A flow item: nested collection, quoted or plain (unresolved) scalar; sets `itemIsCollection`. */
  parseFlowItem(parentIndent: number, open: number): unknown {
    const src = this.src;
    const start = this.pos;
    const c = src[start];
    this.itemIsCollection = false;
    switch (c) {
      case "[":
      case "{": {
        const v = this.parseFlow(parentIndent);
        this.itemIsCollection = true;
        return v;
      }
      case '"':
      case "'":
        return this.parseQuoted(parentIndent);
      case "&":
      case "*":
      case "!":
        return this.failNodeProperty(start);
      case "?":
        if (this.isWsOrEnd(start + 1) || isFlowIndicator(src[start + 1])) {
          return this.fail("UNSUPPORTED_COMPLEX_KEY", start, "Cannot parse YAML: complex keys are not supported");
        }
        break;
      case "-":
        if (this.isWsOrEnd(start + 1) || isFlowIndicator(src[start + 1])) {
          return this.fail(
            "UNEXPECTED_TOKEN",
            start,
            "Cannot parse YAML: block sequences are not allowed in flow collections",
          );
        }
        break;
      case ":":
        if (this.isWsOrEnd(start + 1) || isFlowIndicator(src[start + 1])) {
          return this.fail("UNEXPECTED_TOKEN", start, "Cannot parse YAML: empty keys are not supported");
        }
        break;
      case "|":
      case ">":
      case "%":
      case "@":
      case "`":
      case ",":
      case "]":
      case "}":
      case "#":
        return this.fail("UNEXPECTED_TOKEN", start, `Cannot parse YAML: unexpected ${c} in a flow collection`);
    }
    this.scanPlainLine(start, true);
    if (this.scanStop === SCAN_COMMENT && this.scanEnd === start) {
      return this.fail("UNEXPECTED_TOKEN", start, "Cannot parse YAML: unexpected character in a flow collection");
    }
    void open;
    return this.plainMultiline(start, parentIndent + 1, true);
  }

  /** Flow sequence or mapping at `pos`. */
  parseFlow(parentIndent: number): unknown {
    const src = this.src;
    const open = this.pos;
    const isMap = src[open] === "{";
    const close = isMap ? "}" : "]";
    this.enter(open);
    this.flowLevel++;
    this.pos++;
    const arr: unknown[] = [];
    const obj: Record<string, unknown> = {};
    for (;;) {
      this.skipFlowSpace(parentIndent, open);
      let c = src[this.pos];
      if (c === close) {
        this.pos++;
        break;
      }
      if (c === ",") this.fail("UNEXPECTED_TOKEN", this.pos, "Cannot parse YAML: empty entry in a flow collection");
      if (c === "]" || c === "}") this.fail("UNEXPECTED_TOKEN", this.pos, `Cannot parse YAML: unexpected ${c}`);
      const itemStart = this.pos;
      const quoted = c === '"' || c === "'";
      const item = this.parseFlowItem(parentIndent, open);
      const isCollection = this.itemIsCollection;
      const plain = !quoted && !isCollection;
      this.skipFlowSpace(parentIndent, open);
      c = src[this.pos];
      // A `:` after a quoted key or collection may be adjacent to the value (JSON-like).
      if (
        c === ":" &&
        (!plain || this.isWsOrEnd(this.pos + 1) || isFlowIndicator(src[this.pos + 1]))
      ) {
        if (isCollection) {
          this.fail("UNSUPPORTED_COMPLEX_KEY", itemStart, "Cannot parse YAML: collection keys are not supported");
        }
        if (src.lastIndexOf("\n", this.pos) >= itemStart) {
          this.fail("MULTILINE_KEY", itemStart, "Cannot parse YAML: implicit keys must be on a single line");
        }
        const key = plain ? plainKeyToString(item as string) : item as string;
        this.pos++;
        this.skipFlowSpace(parentIndent, open);
        c = src[this.pos];
        let value: unknown = null;
        if (c !== "," && c !== close) {
          const vq = c === '"' || c === "'";
          const v = this.parseFlowItem(parentIndent, open);
          value = vq || this.itemIsCollection ? v : resolvePlain(v as string);
          this.skipFlowSpace(parentIndent, open);
        }
        if (isMap) {
          if (Object.hasOwn(obj, key)) {
            this.fail("DUPLICATE_KEY", itemStart, `Cannot parse YAML: duplicate key ${JSON.stringify(key)}`);
          }
          setKey(obj, key, value);
        } else {
          const pair: Record<string, unknown> = {};
          setKey(pair, key, value);
          arr.push(pair);
        }
      } else if (isMap) {
        if (isCollection) {
          this.fail("UNSUPPORTED_COMPLEX_KEY", itemStart, "Cannot parse YAML: collection keys are not supported");
        }
        const key = plain ? plainKeyToString(item as string) : item as string;
        if (Object.hasOwn(obj, key)) {
          this.fail("DUPLICATE_KEY", itemStart, `Cannot parse YAML: duplicate key ${JSON.stringify(key)}`);
        }
        setKey(obj, key, null);
      } else {
        arr.push(plain ? resolvePlain(item as string) : item);
      }
      c = src[this.pos];
      if (c === ",") {
        this.pos++;
        continue;
      }
      if (c === close) {
        this.pos++;
        break;
      }
      this.fail("UNEXPECTED_TOKEN", this.pos, `Cannot parse YAML: expected , or ${close} in a flow collection`);
    }
    this.depth--;
    this.flowLevel--;
    return isMap ? obj : arr;
  }
}
