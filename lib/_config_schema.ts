// The schema of `.claude/rehydrate.json`, as loadConfig walks it: `schemas/config.v1.json` is the
// one source (inlined into the binaries by the bundler), so loading reads and compiles nothing.
//
// Rules the config loader relies on (checked by tests/unit/schemas.test.ts):
// - every object level has `additionalProperties: false`, so a misspelt key is
//   reported by `rehydrate doctor` instead of silently doing nothing;
// - a property is either an object with `properties` (merged key by key) or a
//   leaf with a `default` (replaced whole: arrays are never merged);
// - no `$ref`, because leaves are validated on their own.
// Imported on its own, not through lib/schemas.ts: every hook loads the config, and building all
// nine schema objects at start-up cost the hooks that need no other schema about 0.3 ms.
import config from "../schemas/config.v1.json" with { type: "json" };

/** JSON Schema (draft 2020-12) of the config file. */
export const CONFIG_SCHEMA: { readonly [keyword: string]: unknown } = config as { readonly [keyword: string]: unknown };

/**
 * Config keys (as key paths) holding a path in which a leading `~` or `~/`
 * means the home directory. loadConfig expands them after merging.
 */
export const HOME_EXPANDED_KEYS: readonly (readonly string[])[] = [
  ["stateDir"],
  ["dispatch", "dispatchPathFile"],
  ["dispatch", "handlerStateFile"],
];
