/**
 * The throwing face of {@link parseYaml}, for callers that prefer exceptions.
 *
 * @module
 */

import { parseYaml, type ParseYamlOptions, type YamlErrorCode } from "./parse_yaml.ts";

/**
 * A YAML parse failure with the code and 1-based position of the first error.
 *
 * @example
 * ```ts
 * import { YamlSyntaxError } from "./yaml_syntax_error.ts";
 *
 * const e = new YamlSyntaxError("UNSUPPORTED_TAG", "Cannot parse YAML: tags are not supported", 1, 4);
 * // e.message === "Cannot parse YAML: tags are not supported at line 1, column 4"
 * ```
 */
export class YamlSyntaxError extends SyntaxError {
  /** Machine-readable code, see {@link YamlErrorCode}. */
  code: YamlErrorCode;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
  /** Builds the error; the message gets the position appended. */
  constructor(code: YamlErrorCode, message: string, line: number, column: number) {
    super(`${message} at line ${line}, column ${column}`);
    this.name = "YamlSyntaxError";
    this.code = code;
    this.line = line;
    this.column = column;
  }
}

/**
 * Parses a YAML document like {@link parseYaml} but throws a {@link YamlSyntaxError} on the
 * first error.
 *
 * @example
 * ```ts
 * import { loadYaml, YamlSyntaxError } from "./yaml_syntax_error.ts";
 *
 * loadYaml("a: 1\n"); // { a: 1 }
 * try {
 *   loadYaml("a: *ref\n");
 * } catch (e) {
 *   // e instanceof YamlSyntaxError, e.code === "UNSUPPORTED_ALIAS", e.line === 1, e.column === 4
 * }
 * ```
 */
export function loadYaml(text: string, options?: ParseYamlOptions): unknown {
  const { value, errors } = parseYaml(text, options);
  if (errors.length > 0) {
    const e = errors[0];
    throw new YamlSyntaxError(e.code, e.message, e.line, e.column);
  }
  return value;
}
