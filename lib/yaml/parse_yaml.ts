/**
 * A dependency-free parser for the subset of YAML that rehydrate reads: `resume-context.md`
 * frontmatter, `SKILL.md` frontmatter and whole `ORCHESTRATION.yaml` documents.
 *
 * Supported, with values identical to the `yaml` package's `parse()` defaults (YAML 1.2 core
 * schema):
 * - block mappings and block sequences nested to any depth, sequences of mappings (`- key: v`)
 *   and "compact" sequences written at the same indentation as their key;
 * - plain, single-quoted (`''` escape) and double-quoted scalars with every YAML escape
 *   (`\n \t \" \\ \/ \0 \a \b \e \f \v \r \N \_ \L \P \xXX \uXXXX \UXXXXXXXX`, escaped line breaks),
 *   including multi-line (folded) plain and quoted scalars;
 * - `|` and `>` block scalars with chomping (`-`, `+`, clip) and indentation indicators;
 * - flow sequences and flow mappings, nested, spanning lines (`[a, {b: c}]`);
 * - full-line and trailing ` # comments`;
 * - core-schema resolution: `null`/`~`/empty → `null`; `true`/`True`/`TRUE`/`false`… → booleans;
 *   decimal, `0x` and `0o` integers; floats with exponents, `.inf`, `-.inf`, `.nan`; anything
 *   else (timestamps included) stays a string;
 * - keys become strings the way `yaml` does (`1.0: x` → `"1"`, `~: x` → `""`), `__proto__` is
 *   kept as an own property;
 * - a BOM and CRLF line breaks, `---` and `...` markers around a single document.
 *
 * Rejected with a dedicated code and position, never guessed at: anchors (`&a`), aliases (`*a`),
 * tags (`!x`, `!!str`), complex keys (`? k`, `[a]: b`), directives (`%YAML`), a second document,
 * duplicate keys (after stringification, so `1` and `"1"` collide: stricter than `yaml`), tabs in
 * indentation, lone CR line breaks, implicit keys over 1024 characters, input over `maxSize`
 * bytes and nesting deeper than `maxDepth`.
 *
 * Parsing stops at the first error. `value` is `undefined` whenever `errors` is not empty.
 *
 * @module
 */

import { YamlAbort, YamlParser } from "./_parser.ts";

/** Closed set of error codes reported by {@link parseYaml} and `parseFrontmatter`. */
export type YamlErrorCode =
  | "BAD_INDENT"
  | "TAB_INDENT"
  | "UNEXPECTED_TOKEN"
  | "MISSING_COLON"
  | "MULTILINE_KEY"
  | "KEY_TOO_LONG"
  | "UNTERMINATED_STRING"
  | "UNTERMINATED_FLOW"
  | "BAD_ESCAPE"
  | "BAD_BLOCK_SCALAR"
  | "BAD_LINE_BREAK"
  | "DUPLICATE_KEY"
  | "UNSUPPORTED_ANCHOR"
  | "UNSUPPORTED_ALIAS"
  | "UNSUPPORTED_TAG"
  | "UNSUPPORTED_COMPLEX_KEY"
  | "UNSUPPORTED_DIRECTIVE"
  | "MULTI_DOCUMENT"
  | "MAX_DEPTH"
  | "MAX_SIZE"
  | "UNTERMINATED_FRONTMATTER"
  | "FRONTMATTER_NOT_MAPPING";

/** One parse error, with a 1-based position in the input (after BOM removal). */
export interface YamlError {
  /** Stable machine-readable code. */
  code: YamlErrorCode;
  /** 1-based line number. */
  line: number;
  /** 1-based column, in UTF-16 code units. */
  column: number;
  /** Human-readable, sentence case, no trailing period. */
  message: string;
}

/** Limits for {@link parseYaml}. */
export interface ParseYamlOptions {
  /** Maximum nesting of collections. @default {64} */
  maxDepth?: number;
  /** Maximum input size in UTF-8 bytes. @default {1048576} */
  maxSize?: number;
}

/** Result of {@link parseYaml}: never trust `value` when `errors` is not empty. */
export interface ParseYamlResult {
  /** The parsed document (`null` for an empty one); `undefined` on error. */
  value: unknown;
  /** Empty on success; otherwise the first error found. */
  errors: YamlError[];
}

/** Default nesting limit of {@link parseYaml}. */
export const YAML_DEFAULT_MAX_DEPTH = 64;
/** Default input size limit of {@link parseYaml}, in bytes (1 MiB). */
export const YAML_DEFAULT_MAX_SIZE = 1024 * 1024;

const CRLF_RE = /\r\n/g;

function utf8Length(text: string, stopAbove: number): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
    if (n > stopAbove) return n;
  }
  return n;
}

function errorAt(text: string, at: number, code: YamlErrorCode, message: string): YamlError {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { code, line, column: at - lineStart + 1, message };
}

/**
 * Parses one YAML document of the supported subset (see the module documentation). Never
 * throws: problems come back in `errors` with a code, a 1-based line and column.
 *
 * @example Parse a small document
 * ```ts
 * import { parseYaml } from "./parse_yaml.ts";
 *
 * const { value, errors } = parseYaml("phase: 2\nfiles:\n  - plan.md\n");
 * // value: { phase: 2, files: ["plan.md"] }, errors: []
 * ```
 *
 * @example Unsupported features are reported, not misread
 * ```ts
 * import { parseYaml } from "./parse_yaml.ts";
 *
 * const { errors } = parseYaml("a: &x 1\n");
 * // errors[0]: { code: "UNSUPPORTED_ANCHOR", line: 1, column: 4, ... }
 * ```
 */
export function parseYaml(text: string, options?: ParseYamlOptions): ParseYamlResult {
  const maxSize = options?.maxSize ?? YAML_DEFAULT_MAX_SIZE;
  const maxDepth = options?.maxDepth ?? YAML_DEFAULT_MAX_DEPTH;
  if (text.length > maxSize / 3 && utf8Length(text, maxSize) > maxSize) {
    return {
      value: undefined,
      errors: [{
        code: "MAX_SIZE",
        line: 1,
        column: 1,
        message: `Cannot parse YAML: input is larger than ${maxSize} bytes`,
      }],
    };
  }
  let src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (src.indexOf("\r") !== -1) {
    src = src.replace(CRLF_RE, "\n");
    const cr = src.indexOf("\r");
    if (cr !== -1) {
      return {
        value: undefined,
        errors: [
          errorAt(src, cr, "BAD_LINE_BREAK", "Cannot parse YAML: a carriage return must be followed by a line feed"),
        ],
      };
    }
  }
  const parser = new YamlParser(src, maxDepth);
  try {
    return { value: parser.parseDocument(), errors: [] };
  } catch (e) {
    if (e instanceof YamlAbort) return { value: undefined, errors: [e.error] };
    if (e instanceof RangeError) {
      // Only reachable with a maxDepth set beyond what the call stack can hold.
      return {
        value: undefined,
        errors: [errorAt(src, parser.pos, "MAX_DEPTH", "Cannot parse YAML: nesting is too deep for the call stack")],
      };
    }
    throw e;
  }
}
