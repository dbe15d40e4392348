import { checkNode } from "./_check.ts";

/** A JSON Schema: `true`, `false`, or an object of keywords. */
export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

/** One way a value fails a schema. */
export interface SchemaIssue {
  /** JSON pointer to the offending value: `""` for the root, `/budget/maxChars` below it. */
  path: string;
  /** The schema keyword that failed: `type`, `required`, `additionalProperties`, `enum`, … */
  keyword: string;
  /** Sentence-case explanation without a trailing period. */
  message: string;
}

/** Options for {@linkcode validateSchema}. */
export interface ValidateSchemaOptions {
  /** Stop after this many issues. Default `100`. `1` makes a cheap yes/no check. */
  maxIssues?: number;
}

/**
 * Validates a JSON value against a JSON Schema (draft 2020-12), supporting the
 * subset our schemas use: `type` (also arrays of types), `enum`, `const`,
 * `required`, `properties`, `patternProperties`, `additionalProperties`,
 * `prefixItems`, `items`, `minItems`, `maxItems`, `uniqueItems`,
 * `minProperties`, `maxProperties`, `minimum`, `maximum`, `exclusiveMinimum`,
 * `exclusiveMaximum`, `minLength`, `maxLength` (code points),
 * `pattern` (Unicode), `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`,
 * `$ref` to a pointer in the same document (`#`, `#/$defs/name`), boolean
 * schemas, and `format: "date-time"` (a light RFC 3339 check). Keywords it
 * does not know are ignored, as annotations are.
 *
 * Never throws on any value. An unresolvable `$ref` is reported as an issue.
 * Each schema object is read once per process and remembered (a hook validates
 * once, cold): do not change a schema object after validating with it.
 *
 * @example
 * ```ts
 * const schema = { type: "object", properties: { maxChars: { type: "integer", maximum: 10000 } } };
 * validateSchema(schema, { maxChars: 20000 });
 * // [{ path: "/maxChars", keyword: "maximum", message: "Must be at most 10000" }]
 * validateSchema(schema, { maxChars: 9500 }); // []
 * ```
 */
export function validateSchema(
  schema: JsonSchema,
  value: unknown,
  options: ValidateSchemaOptions = {},
): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  checkNode(
    { root: schema, issues, max: options.maxIssues ?? 100, depth: 0, quiet: null },
    schema,
    value,
    "",
    undefined,
  );
  return issues;
}
