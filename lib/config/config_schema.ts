// The schema of `.claude/rehydrate.json`, as loadConfig walks it: `schemas/config.v1.json` is the
// one source (inlined into the binaries by the bundler), so loading reads and compiles nothing.
//
// Rules the config loader relies on (checked by tests/unit/schemas.test.ts):
// - every object level has `additionalProperties: false`, so a misspelt key is
//   reported by `rehydrate doctor` instead of silently doing nothing;
// - a property is either an object with `properties` (merged key by key) or a
//   leaf with a `default` (replaced whole: arrays are never merged);
// - no `$ref`, because leaves are validated on their own.
// Imported on its own, not through lib/cli/_schemas.ts, and as text parsed on first use: every hook
// loads the config, most find no config file and never need the schema, and building it as an
// object literal at start-up cost every hook (bench/README.md, "What start-up pays for"); a string
// costs nothing until it is parsed.
import text from "../../schemas/config.v1.json" with { type: "text" };

let parsed: { readonly [keyword: string]: unknown } | undefined;

/**
 * JSON Schema (draft 2020-12) of the config file, parsed once on the first call (the same object
 * after that, so validation plans cached per schema stay valid).
 *
 * @example
 * ```ts
 * import { configSchema } from "./config_schema.ts";
 * console.log(configSchema().title); // "rehydrate configuration"
 * ```
 */
export function configSchema(): { readonly [keyword: string]: unknown } {
  return (parsed ??= JSON.parse(text) as { readonly [keyword: string]: unknown });
}

/**
 * Config keys (as key paths) holding a path in which a leading `~` or `~/`
 * means the home directory. loadConfig expands them after merging.
 */
export const HOME_EXPANDED_KEYS: readonly (readonly string[])[] = [
  ["stateDir"],
  ["dispatch", "dispatchPathFile"],
  ["dispatch", "handlerStateFile"],
];
