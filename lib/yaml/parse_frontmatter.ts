/**
 * Splits a markdown document into its `---` YAML frontmatter and its body, the way
 * denoland/std `front_matter` does, and parses the frontmatter with {@link parseYaml}.
 *
 * @module
 */

import { parseYaml, type ParseYamlOptions, type YamlError } from "./parse_yaml.ts";

/** Options of {@link parseFrontmatter}: the limits of {@link parseYaml}. */
export type ParseFrontmatterOptions = ParseYamlOptions;

/** A split document. `data` is `null` when the text has no frontmatter. */
export interface Frontmatter {
  /** The frontmatter mapping (`{}` for an empty block), or `null` without frontmatter. */
  data: Record<string, unknown> | null;
  /** Everything after the closing `---` line (the whole text without frontmatter). */
  body: string;
  /** 1-based line of the original text where `body` starts. */
  bodyLine: number;
}

/** Result of {@link parseFrontmatter}: never trust `value` when `errors` is not empty. */
export interface ParseFrontmatterResult {
  /** The split document; `null` on error. */
  value: Frontmatter | null;
  /** Empty on success; positions refer to lines of the whole input. */
  errors: YamlError[];
}

/** Length of an opening/closing `---` line at `i` (with trailing spaces and break), or 0. */
function fenceLength(text: string, i: number): number {
  if (text.charCodeAt(i) !== 45 || text.charCodeAt(i + 1) !== 45 || text.charCodeAt(i + 2) !== 45) return 0;
  let j = i + 3;
  while (text[j] === " " || text[j] === "\t") j++;
  if (j >= text.length) return j - i;
  if (text[j] === "\n") return j + 1 - i;
  if (text[j] === "\r" && text[j + 1] === "\n") return j + 2 - i;
  return 0;
}

/**
 * Parses `---` frontmatter at the very start of `text` (after an optional BOM). Without an
 * opening fence the result has `data: null` and the whole text as `body`. An opening fence
 * without a closing `---` line is `UNTERMINATED_FRONTMATTER`; frontmatter that is not a mapping
 * is `FRONTMATTER_NOT_MAPPING`. Never throws.
 *
 * @example Read a manifest
 * ```ts
 * import { parseFrontmatter } from "./parse_frontmatter.ts";
 *
 * const { value } = parseFrontmatter("---\nproject_id: demo\n---\n# Gate\n");
 * // value: { data: { project_id: "demo" }, body: "# Gate\n", bodyLine: 4 }
 * ```
 */
export function parseFrontmatter(text: string, options?: ParseFrontmatterOptions): ParseFrontmatterResult {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const open = fenceLength(text, start);
  if (open === 0 || start + open >= text.length && text[start + open - 1] !== "\n") {
    return { value: { data: null, body: text, bodyLine: 1 }, errors: [] };
  }
  const yamlStart = start + open;
  let i = yamlStart;
  let line = 2;
  let close = -1;
  let closeLen = 0;
  while (i < text.length) {
    const len = fenceLength(text, i);
    if (len > 0) {
      close = i;
      closeLen = len;
      break;
    }
    const nl = text.indexOf("\n", i);
    if (nl === -1) break;
    i = nl + 1;
    line++;
  }
  if (close === -1) {
    return {
      value: null,
      errors: [{
        code: "UNTERMINATED_FRONTMATTER",
        line: 1,
        column: 1,
        message: "Cannot parse frontmatter: missing closing --- line",
      }],
    };
  }
  const parsed = parseYaml(text.slice(yamlStart, close), options);
  if (parsed.errors.length > 0) {
    return {
      value: null,
      errors: parsed.errors.map((e) => ({ ...e, line: e.line + 1 })),
    };
  }
  const v = parsed.value;
  if (v !== null && (typeof v !== "object" || Array.isArray(v))) {
    return {
      value: null,
      errors: [{
        code: "FRONTMATTER_NOT_MAPPING",
        line: 2,
        column: 1,
        message: "Cannot parse frontmatter: it must be a mapping",
      }],
    };
  }
  const data = v === null ? {} : v as Record<string, unknown>;
  return { value: { data, body: text.slice(close + closeLen), bodyLine: line + 1 }, errors: [] };
}
